"""Special functions of MindSpore 2.10's ``mindspore.ops`` list: the Bessel functions
``bessel_j0/j1/y0/y1/k0/k0e/k1/k1e``, ``igamma``/``igammac``, ``polygamma``, ``zeta`` and
``mvlgamma``.

JAX has no Y and K Bessel functions: they (and J, for one accuracy everywhere) are SciPy's,
called from the host through ``jax.pure_callback`` (so they also run under jit and vmap), with
derivatives from the recurrences (``J0' = -J1``, ``K1' = -K0 - K1/x``, ...). At ``x <= 0``
the values follow MindSpore 2.10 CPU (e.g. ``bessel_k0(-3) = inf``, ``bessel_y1(0) = nan``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor
from .utils import arr, wrap

__all__ = [
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "bessel_k0",
    "bessel_k0e",
    "bessel_k1",
    "bessel_k1e",
    "igamma",
    "igammac",
    "polygamma",
    "zeta",
    "mvlgamma",
]

_FLOATS = (np.float16, np.float32, np.float64)


def _host(name):
    """The SciPy function with MindSpore's values where ``x <= 0``."""
    import scipy.special  # a dependency of jax; imported on first use (import time)

    fn = getattr(scipy.special, name)

    def call(x):
        x = np.asarray(x)
        with np.errstate(all="ignore"):
            out = fn(x.astype(np.float64))
        if name in ("y0", "k0", "k0e", "k1", "k1e"):
            out = np.where(x <= 0, np.inf if name[0] == "k" else -np.inf, out)
        elif name == "y1":
            out = np.where(x < 0, -np.inf, np.where(x == 0, np.nan, out))
        return out.astype(x.dtype)

    return call


def _call(name, x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(_host(name), shape, x, vmap_method="expand_dims")


def _derivative(name, x):
    if name == "j0":
        return -_fn("j1")(x)
    if name == "j1":
        safe = jnp.where(x == 0, 1, x)
        return jnp.where(x == 0, 0.5, _fn("j0")(x) - _fn("j1")(x) / safe)
    if name == "y0":
        return -_fn("y1")(x)
    if name == "y1":
        return _fn("y0")(x) - _fn("y1")(x) / x
    if name == "k0":
        return -_fn("k1")(x)
    if name == "k1":
        return -_fn("k0")(x) - _fn("k1")(x) / x
    if name == "k0e":
        return _fn("k0e")(x) - _fn("k1e")(x)
    return _fn("k1e")(x) - _fn("k0e")(x) - _fn("k1e")(x) / x  # k1e


_CACHE: dict = {}


def _fn(name):
    if name not in _CACHE:

        @jax.custom_jvp
        def f(x):
            return _call(name, x)

        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return f(x), _derivative(name, x) * t

        _CACHE[name] = f
    return _CACHE[name]


def _bessel(api, name, x):
    data = arr(x, api, "x")
    if not isinstance(x, Tensor) or data.dtype not in _FLOATS:
        raise TypeError(
            f"For '{api}', 'x' must be a Tensor of Float16, Float32 or Float64, but got "
            f"{getattr(data, 'dtype', type(x).__name__)}."
        )
    return wrap(_fn(name)(data))


def _doc(fn, text, example_out):
    fn.__doc__ = (
        f"{text}\n\n    Args:\n        x (Tensor): Float16, Float32 or Float64.\n\n"
        f"    Raises:\n        TypeError: If ``x`` is not a float Tensor.\n\n"
        f"    Examples:\n        >>> import numpy as np\n        >>> import cellax as ms\n"
        f"        >>> x = ms.Tensor(np.array([0.5, 2.0], np.float32))\n"
        f"        >>> print(ms.ops.{fn.__name__}(x))\n        {example_out}\n"
    )
    return fn


def bessel_j0(x):
    return _bessel("bessel_j0", "j0", x)


def bessel_j1(x):
    return _bessel("bessel_j1", "j1", x)


def bessel_y0(x):
    return _bessel("bessel_y0", "y0", x)


def bessel_y1(x):
    return _bessel("bessel_y1", "y1", x)


def bessel_k0(x):
    return _bessel("bessel_k0", "k0", x)


def bessel_k0e(x):
    return _bessel("bessel_k0e", "k0e", x)


def bessel_k1(x):
    return _bessel("bessel_k1", "k1", x)


def bessel_k1e(x):
    return _bessel("bessel_k1e", "k1e", x)


_doc(bessel_j0, "The Bessel function of the first kind of order 0.", "[0.93846983 0.22389078]")


_doc(bessel_j1, "The Bessel function of the first kind of order 1.", "[0.24226846 0.5767248 ]")


_doc(bessel_y0, "The Bessel function of the second kind of order 0.", "[-0.44451874  0.51037567]")


_doc(bessel_y1, "The Bessel function of the second kind of order 1.", "[-1.4714724  -0.10703243]")


_doc(
    bessel_k0,
    "The modified Bessel function of the second kind of order 0.",
    "[0.9244191  0.11389387]",
)


_doc(bessel_k0e, "``bessel_k0(x) * exp(x)``.", "[1.5241094 0.8415682]")


_doc(
    bessel_k1,
    "The modified Bessel function of the second kind of order 1.",
    "[1.656441   0.13986588]",
)


_doc(bessel_k1e, "``bessel_k1(x) * exp(x)``.", "[2.7310097 1.0334768]")


def _float_pair(api, a, b, names=("input", "other")):
    x, y = arr(a, api, names[0]), arr(b, api, names[1])
    for value, name in zip((x, y), names):
        if getattr(value, "dtype", None) not in (np.float32, np.float64):
            raise TypeError(
                f"For '{api}', '{name}' must be a Float32 or Float64 Tensor, but got "
                f"{getattr(value, 'dtype', type(value).__name__)}."
            )
    return x, y


def igamma(input, other):
    """The regularized lower incomplete gamma function :math:`P(a, x)` of ``a = input`` and
    ``x = other`` (broadcast).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a, x = ms.Tensor(np.array([1.0], np.float32)), ms.Tensor(np.array([1.0], np.float32))
        >>> print(ms.ops.igamma(a, x).asnumpy().round(4))
        [0.6321]
    """
    a, x = _float_pair("igamma", input, other)
    return wrap(jax.scipy.special.gammainc(a, x))


def igammac(input, other):
    """The regularized upper incomplete gamma function :math:`Q(a, x) = 1 - P(a, x)`.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a, x = ms.Tensor(np.array([1.0], np.float32)), ms.Tensor(np.array([1.0], np.float32))
        >>> print(ms.ops.igammac(a, x).asnumpy().round(4))
        [0.3679]
    """
    a, x = _float_pair("igammac", input, other)
    return wrap(jax.scipy.special.gammaincc(a, x))


def polygamma(n, input):
    """The ``n``-th derivative of the digamma function at ``input``.

    Args:
        n (Tensor): A 0-D integer Tensor (MindSpore 2.10 takes no Python int here).
        input (Tensor): Float Tensor.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([1.0], np.float32))
        >>> print(ms.ops.polygamma(ms.Tensor(1), x).asnumpy().round(4))
        [1.6449]
    """
    api = "polygamma"
    if not isinstance(n, Tensor):
        raise TypeError(f"For '{api}', 'n' must be a Tensor, but got {type(n).__name__}.")
    order = n.asnumpy()
    if order.ndim != 0 or order.dtype.kind not in "iu" or order < 0:
        raise ValueError(f"For '{api}', 'n' must be a non-negative 0-D integer Tensor.")
    x = arr(input, api)
    if x.dtype not in _FLOATS:
        raise TypeError(f"For '{api}', 'input' must be a float Tensor, but got {x.dtype}.")
    out = jax.scipy.special.polygamma(
        int(order), x.astype(np.float32 if x.dtype == np.float16 else x.dtype)
    )
    return wrap(out.astype(x.dtype))


def zeta(input, other):
    """The Hurwitz zeta function :math:`\\zeta(x, q) = \\sum_k (k + q)^{-x}` (NaN for ``x < 1``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x, q = ms.Tensor(np.array([2.0], np.float32)), ms.Tensor(np.array([1.0], np.float32))
        >>> print(ms.ops.zeta(x, q).asnumpy().round(4))
        [1.6449]
    """
    x, q = _float_pair("zeta", input, other)
    return wrap(jax.scipy.special.zeta(x, q))


def mvlgamma(input, p):
    """The log of the multivariate gamma function of dimension ``p``, element-wise.

    Raises:
        ValueError: If an element is not greater than ``(p - 1) / 2`` (eager), or ``p < 1``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.mvlgamma(ms.Tensor(np.array([3.0], np.float32)), 2).asnumpy().round(4))
        [1.5502]
    """
    api = "mvlgamma"
    x = arr(input, api)
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"For '{api}', 'p' must be an int >= 1, but got {p!r}.")
    if not isinstance(x, jax.core.Tracer) and bool(jnp.any(x <= (p - 1) / 2)):
        raise ValueError(f"For '{api}', all elements of 'input' must be greater than (p-1)/2.")
    return wrap(jax.scipy.special.multigammaln(x, p).astype(x.dtype))
