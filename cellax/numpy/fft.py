"""Discrete Fourier transforms of cellax.numpy (``mindspore.numpy.fft``), on ``jax.numpy.fft``.

Real input is computed in Float32 (Complex64 results) unless it is Float64.
"""

from __future__ import annotations

import jax.numpy as jnp

from ._utils import arr, check_int, np_dtype, out, set_doc, to_float

__all__ = []

_ONE = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_TWO = ("fft2", "ifft2", "rfft2", "irfft2")
_N = ("fftn", "ifftn", "rfftn", "irfftn")
_DERIVED_NAMES = ("hfft2", "ihfft2", "hfftn", "ihfftn")


_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _hfftn(a, s=None, axes=None, norm=None):
    """The n-D Hermitian FFT: the inverse real FFT of the conjugate, normalisation swapped."""
    return jnp.fft.irfftn(jnp.conj(a), s, axes, _SWAP[norm])


def _ihfftn(a, s=None, axes=None, norm=None):
    """The inverse n-D Hermitian FFT: the conjugate of the real FFT, normalisation swapped."""
    return jnp.conj(jnp.fft.rfftn(a, s, axes, _SWAP[norm]))


_DERIVED = {"hfft2": _hfftn, "hfftn": _hfftn, "ihfft2": _ihfftn, "ihfftn": _ihfftn}


def _make(name, kind):
    jfn = getattr(jnp.fft, name, None) or _DERIVED.get(name)

    def transform(a, size, axes, norm):
        if norm not in (None, "backward", "ortho", "forward"):
            raise ValueError(
                f"For 'fft.{name}', 'norm' must be None, 'backward', 'ortho' or 'forward', "
                f"but got {norm!r}."
            )
        x = to_float(arr(a, f"fft.{name}", "a"))
        return out(jfn(x, size, axes, norm))

    if kind == "one":

        def public(a, n=None, axis=-1, norm=None):
            return transform(a, n, axis, norm)

        signature = "a, n=None, axis=-1, norm=None"
    elif kind == "two":

        def public(a, s=None, axes=(-2, -1), norm=None):
            return transform(a, s, axes, norm)

        signature = "a, s=None, axes=(-2, -1), norm=None"
    else:

        def public(a, s=None, axes=None, norm=None):
            return transform(a, s, axes, norm)

        signature = "a, s=None, axes=None, norm=None"
    missing = ""
    if name in ("ihfft2", "ihfftn"):
        missing = (
            "\n    Differences from MindSpore: follows NumPy's definition (the conjugate of the real\n"
            "    FFT with the normalisation swapped); MindSpore 2.10's CPU result differs.\n"
        )
    doc = (
        f"The ``numpy.fft.{name}`` transform ({signature}) on ``jax.numpy.fft``.\n\n"
        "    Args:\n        a (Tensor): The input.\n"
        "        norm (str, optional): None/'backward', 'ortho' or 'forward'. Default: ``None``.\n"
        "\n    Returns:\n        Tensor (complex for the forward transforms).\n"
        + missing
        + "\n    Examples:\n        >>> import cellax.numpy as mnp\n"
        + f"        >>> mnp.fft.{name}(mnp.ones((2, 4))).ndim\n        2\n"
    )
    return set_doc(public, name, doc)


for _name in _ONE + _TWO + _N + _DERIVED_NAMES:
    _kind = "one" if _name in _ONE else "two" if _name.endswith("2") else "n"
    globals()[_name] = _make(_name, _kind)
    __all__.append(_name)


def fftshift(x, axes=None):
    """Shifts the zero-frequency term to the centre.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.fft.fftshift(mnp.array([0, 1, 2, 3])))
        [2 3 0 1]
    """
    return out(jnp.fft.fftshift(arr(x, "fft.fftshift", "x"), axes))


def ifftshift(x, axes=None):
    """The inverse of :func:`fftshift`.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.fft.ifftshift(mnp.array([2, 3, 0, 1])))
        [0 1 2 3]
    """
    return out(jnp.fft.ifftshift(arr(x, "fft.ifftshift", "x"), axes))


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point transform with spacing ``d`` (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.fft.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    n = check_int("fft.fftfreq", "n", n, 1)
    return out(jnp.fft.fftfreq(n, d, dtype=np_dtype(dtype) or jnp.float32))


def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point real transform (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.fft.rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    n = check_int("fft.rfftfreq", "n", n, 1)
    return out(jnp.fft.rfftfreq(n, d, dtype=np_dtype(dtype) or jnp.float32))


__all__ += ["fftshift", "ifftshift", "fftfreq", "rfftfreq"]
