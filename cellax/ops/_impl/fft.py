"""Discrete Fourier transforms (MindSpore 2.10's ``ops.fft`` family) on ``jax.numpy.fft``.

Dtype rule (as MindSpore): bool inputs are a TypeError; integer, Float16 and Float32 inputs
give Complex64 (real transforms: Float32), Float64 gives Complex128 (Float64); complex inputs
keep their dtype. The real-input transforms (``rfft*``, ``ihfft*``) reject complex inputs.

Differences from MindSpore: MindSpore 2.10 CPU's ``rfft`` of a complex Tensor returns values
that are not the transform of its real part (nor of anything documented); cellax raises a
TypeError there.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor
from .utils import np_dtype, wrap

__all__ = [
    "fft",
    "ifft",
    "fft2",
    "ifft2",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfft2",
    "irfft2",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "hfft2",
    "ihfft2",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

_NORMS = (None, "backward", "forward", "ortho")


def _input(api, input, real=False):
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{api}', 'input' must be a Tensor, but got {type(input).__name__}.")
    x = input._value
    kind = np.dtype(x.dtype).kind
    if kind == "b":
        raise TypeError(f"For '{api}', 'input' must not be a bool Tensor, but got Bool.")
    wide = x.dtype in (np.float64, np.complex128)
    if kind == "c":
        if real:
            raise TypeError(f"For '{api}', 'input' must be real, but got {x.dtype}.")
        return x
    return x.astype(np.float64 if wide else np.float32)


def _norm(api, norm):
    if norm not in _NORMS:
        raise ValueError(
            f"For '{api}', 'norm' must be one of 'backward', 'forward', 'ortho' or None, "
            f"but got {norm!r}."
        )
    return norm


def _dims(api, x, dim, s, default):
    """The transformed axes (normalised) and the sizes ``s`` checked against them."""
    ndim = x.ndim
    if dim is None:
        dim = default(ndim) if s is None else tuple(range(ndim - len(s), ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int) or not -ndim <= d < ndim:
            raise ValueError(f"For '{api}', 'dim' must be in [{-ndim}, {ndim}), but got {dim}.")
    dims = tuple(d % ndim for d in dims)
    if len(set(dims)) != len(dims):
        raise ValueError(f"For '{api}', 'dim' must not repeat an axis, but got {dim}.")
    if s is not None:
        s = (s,) if isinstance(s, int) else tuple(s)
        if len(s) != len(dims):
            raise ValueError(
                f"For '{api}', 's' and 'dim' must have the same length, but got {s} and {dim}."
            )
        for n in s:
            if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
                raise ValueError(f"For '{api}', every size in 's' must be > 0, but got {s}.")
    return dims, s


def _one(api, fn, input, n, dim, norm, real=False):
    x = _input(api, input, real)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n <= 0):
        raise ValueError(f"For '{api}', 'n' must be an int greater than 0, but got {n}.")
    dims, _ = _dims(api, x, dim, None, None)
    return wrap(fn(x, n=n, axis=dims[0], norm=_norm(api, norm)))


def _many(api, fn, input, s, dim, norm, real=False, default=lambda ndim: tuple(range(ndim))):
    x = _input(api, input, real)
    dims, s = _dims(api, x, dim, s, default)
    return wrap(fn(x, s=s, axes=dims, norm=_norm(api, norm)))


def _last2(ndim):
    return (-2, -1)


def fft(input, n=None, dim=-1, norm=None):
    """The 1-D discrete Fourier transform of ``input`` along ``dim``.

    Args:
        input (Tensor): A real or complex Tensor (not bool).
        n (int, optional): The signal length: ``input`` is cut or zero-padded along ``dim``.
            Default: ``None`` (its length).
        dim (int): The axis. Default: ``-1``.
        norm (str, optional): ``'backward'`` (no scaling, the default), ``'forward'`` (scale by
            ``1/n``) or ``'ortho'`` (``1/sqrt(n)``). Default: ``None``.

    Returns:
        Complex64 Tensor (Complex128 for Float64/Complex128 inputs).

    Raises:
        TypeError: If ``input`` is not a Tensor or is bool.
        ValueError: If ``n`` is not positive, ``dim`` is out of range or ``norm`` unknown.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fft(ms.Tensor([1.0, 2.0, 3.0, 4.0])))
        [10.+0.j -2.+2.j -2.+0.j -2.-2.j]
    """
    return _one("fft", jnp.fft.fft, input, n, dim, norm)


def ifft(input, n=None, dim=-1, norm=None):
    """The inverse of :func:`fft` (arguments and dtypes alike).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ifft(ms.ops.fft(ms.Tensor([1.0, 2.0]))))
        [1.+0.j 2.+0.j]
    """
    return _one("ifft", jnp.fft.ifft, input, n, dim, norm)


def rfft(input, n=None, dim=-1, norm=None):
    """The 1-D Fourier transform of a real signal: the ``n // 2 + 1`` non-negative frequencies.

    Arguments as :func:`fft`; ``input`` must be real.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.rfft(ms.Tensor([1.0, 2.0, 3.0, 4.0])))
        [10.+0.j -2.+2.j -2.+0.j]
    """
    return _one("rfft", jnp.fft.rfft, input, n, dim, norm, real=True)


def irfft(input, n=None, dim=-1, norm=None):
    """The inverse of :func:`rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.irfft(ms.ops.rfft(ms.Tensor([1.0, 2.0, 3.0])), n=3))
        [1. 2. 3.]
    """
    return _one("irfft", jnp.fft.irfft, input, n, dim, norm)


def hfft(input, n=None, dim=-1, norm=None):
    """The Fourier transform of a Hermitian-symmetric signal given by its first half: real output
    of length ``n`` (default ``2 * (m - 1)``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.hfft(ms.Tensor([1.0, 2.0, 3.0])))
        [ 8. -2.  0. -2.]
    """
    return _one("hfft", jnp.fft.hfft, input, n, dim, norm)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of :func:`hfft`: the first half of a real signal's inverse transform.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.ihfft(ms.Tensor([1.0, 2.0, 3.0, 4.0])).shape
        (3,)
    """
    return _one("ihfft", jnp.fft.ihfft, input, n, dim, norm, real=True)


def _two_d(name, fn, real=False):
    def op(input, s=None, dim=(-2, -1), norm=None):
        return _many(name, fn, input, s, dim, norm, real)

    op.__name__ = op.__qualname__ = name
    return op


def _n_d(name, fn, real=False):
    def op(input, s=None, dim=None, norm=None):
        return _many(name, fn, input, s, dim, norm, real)

    op.__name__ = op.__qualname__ = name
    return op


_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _hermitian(forward):
    """hfftn/ihfftn: the real transforms of the conjugate with the scaling swapped."""

    def fn(x, s=None, axes=None, norm=None):
        if forward:
            return jnp.fft.irfftn(jnp.conj(x), s=s, axes=axes, norm=_SWAP[norm])
        return jnp.conj(jnp.fft.rfftn(x, s=s, axes=axes, norm=_SWAP[norm]))

    return fn


fft2 = _two_d("fft2", jnp.fft.fftn)


ifft2 = _two_d("ifft2", jnp.fft.ifftn)


rfft2 = _two_d("rfft2", jnp.fft.rfftn, real=True)


irfft2 = _two_d("irfft2", jnp.fft.irfftn)


hfft2 = _two_d("hfft2", _hermitian(True))


ihfft2 = _two_d("ihfft2", _hermitian(False), real=True)


fftn = _n_d("fftn", jnp.fft.fftn)


ifftn = _n_d("ifftn", jnp.fft.ifftn)


rfftn = _n_d("rfftn", jnp.fft.rfftn, real=True)


irfftn = _n_d("irfftn", jnp.fft.irfftn)


hfftn = _n_d("hfftn", _hermitian(True))


ihfftn = _n_d("ihfftn", _hermitian(False), real=True)


# (op, the shape of its result on a (2, 4) input: the doctest checks it, and import computes
# nothing), text
for _op, _shape, _text in (
    (fft2, (2, 4), "The 2-D :func:`fft` over ``dim`` (default the last two axes), sizes ``s``."),
    (ifft2, (2, 4), "The inverse of :func:`fft2`."),
    (rfft2, (2, 3), "The 2-D :func:`rfft` (the last axis keeps ``s[-1] // 2 + 1`` frequencies)."),
    (irfft2, (2, 6), "The inverse of :func:`rfft2`: a real Tensor."),
    (hfft2, (2, 6), "The 2-D :func:`hfft`: real output."),
    (ihfft2, (2, 3), "The inverse of :func:`hfft2`."),
    (fftn, (2, 4), "The N-D :func:`fft` over ``dim`` (default: all axes, or the last ``len(s)``)."),
    (ifftn, (2, 4), "The inverse of :func:`fftn`."),
    (rfftn, (2, 3), "The N-D :func:`rfft`."),
    (irfftn, (2, 6), "The inverse of :func:`rfftn`: a real Tensor."),
    (hfftn, (2, 6), "The N-D :func:`hfft`: real output."),
    (ihfftn, (2, 3), "The inverse of :func:`hfftn`."),
):
    _op.__doc__ = (
        f"{_text}\n\n    Arguments, dtypes and errors as :func:`fft`, with ``s`` (sizes) and "
        f"``dim`` (axes) tuples.\n\n    Examples:\n        >>> import cellax as ms\n"
        f"        >>> ms.ops.{_op.__name__}(ms.ops.ones((2, 4))).shape\n"
        f"        {_shape}\n"
    )


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point :func:`fft` with sample spacing ``d``.

    Args:
        n (int): The number of points (> 0).
        d (float): The sample spacing. Default: ``1.0``.
        dtype (cellax.dtype, optional): Default: ``None`` (Float32).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    return _freq("fftfreq", np.fft.fftfreq, n, d, dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """The non-negative sample frequencies of an ``n``-point :func:`rfft`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    return _freq("rfftfreq", np.fft.rfftfreq, n, d, dtype)


def _freq(api, fn, n, d, dtype):
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise ValueError(f"For '{api}', 'n' must be an int greater than 0, but got {n!r}.")
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        raise TypeError(f"For '{api}', 'd' must be a number, but got {type(d).__name__}.")
    target = np_dtype(dtype) if dtype is not None else np.float32
    return wrap(jnp.asarray(fn(n, d), target))


def fftshift(input, dim=None):
    """Move the zero-frequency term to the centre along ``dim`` (default: all axes).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fftshift(ms.Tensor([0, 1, 2, -2, -1])))
        [-2 -1  0  1  2]
    """
    return _shift("fftshift", jnp.fft.fftshift, input, dim)


def ifftshift(input, dim=None):
    """The inverse of :func:`fftshift`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ifftshift(ms.Tensor([-2, -1, 0, 1, 2])))
        [ 0  1  2 -2 -1]
    """
    return _shift("ifftshift", jnp.fft.ifftshift, input, dim)


def _shift(api, fn, input, dim):
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{api}', 'input' must be a Tensor, but got {type(input).__name__}.")
    x = input._value
    if dim is not None:
        dim, _ = _dims(api, x, dim, None, None)
    return wrap(fn(x, axes=dim))
