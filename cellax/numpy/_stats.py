"""Differences, statistics, histograms, interpolation and polynomials of cellax.numpy."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._utils import arr, axis_arg, check_eager, check_int, cast, is_int, out, shape_arg, to_float

__all__ = [
    "diff",
    "ediff1d",
    "trapz",
    "convolve",
    "correlate",
    "cov",
    "corrcoef",
    "interp",
    "gradient",
    "searchsorted",
    "digitize",
    "bincount",
    "histogram",
    "histogram2d",
    "histogramdd",
    "histogram_bin_edges",
    "unwrap",
    "ravel_multi_index",
    "polyadd",
    "polysub",
    "polymul",
    "polyder",
    "polyint",
    "polyval",
]


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis``.

    Raises:
        ValueError: If ``n`` is negative.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.diff(mnp.array([1, 4, 9, 16])))
        [3 5 7]
    """
    x = arr(a, "diff", "a")
    n = check_int("diff", "n", n, 0)
    axis = axis_arg("diff", axis, x.ndim)
    pre = None if prepend is None else arr(prepend, "diff", "prepend")
    post = None if append is None else arr(append, "diff", "append")
    return out(jnp.diff(x, n, axis, prepend=pre, append=post))


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened input (with optional ends).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.ediff1d(mnp.array([1, 4, 9])))
        [3 5]
    """
    x = arr(ary, "ediff1d", "ary").reshape(-1)
    result = x[1:] - x[:-1]
    parts = []
    if to_begin is not None:
        parts.append(arr(to_begin, "ediff1d", "to_begin").reshape(-1).astype(result.dtype))
    parts.append(result)
    if to_end is not None:
        parts.append(arr(to_end, "ediff1d", "to_end").reshape(-1).astype(result.dtype))
    return out(jnp.concatenate(parts))


def trapz(y, x=None, dx=1.0, axis=-1):
    """Integrates ``y`` along ``axis`` with the trapezoidal rule (Float32 for ints).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.trapz(mnp.array([1.0, 2.0, 3.0])))
        4.0
    """
    ys = to_float(arr(y, "trapz", "y"))
    axis = axis_arg("trapz", axis, ys.ndim)
    xs = None if x is None else to_float(arr(x, "trapz", "x"))
    return out(jnp.trapezoid(ys, xs, dx=dx, axis=axis).astype(ys.dtype))


_CONV_MODES = ("full", "same", "valid")


def _conv(api, jfn, a, v, mode):
    if mode not in _CONV_MODES:
        raise ValueError(f"For '{api}', 'mode' must be one of {_CONV_MODES}, but got {mode!r}.")
    x, y = arr(a, api, "a"), arr(v, api, "v")
    if x.ndim != 1 or y.ndim != 1 or x.size == 0 or y.size == 0:
        raise ValueError(f"For '{api}', the inputs must be non-empty 1-D Tensors.")
    return out(jfn(x, y, mode=mode))


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D inputs.

    Raises:
        ValueError: If ``mode`` is not 'full', 'same' or 'valid'.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.convolve(mnp.array([1.0, 2.0]), mnp.array([1.0, 0.5])))
        [1.  2.5 1. ]
    """
    return _conv("convolve", jnp.convolve, a, v, mode)


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-D inputs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.correlate(mnp.array([1.0, 2.0, 3.0]), mnp.array([1.0, 0.5])))
        [2.  3.5]
    """
    return _conv("correlate", jnp.correlate, a, v, mode)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """The covariance matrix of the variables in ``m`` (rows when ``rowvar``); Float32 for ints.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.cov(mnp.array([[1.0, 2.0, 3.0], [2.0, 1.0, 0.0]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    x = to_float(arr(m, "cov", "m"))
    ys = None if y is None else to_float(arr(y, "cov", "y"))
    fw = None if fweights is None else arr(fweights, "cov", "fweights")
    aw = None if aweights is None else arr(aweights, "cov", "aweights")
    result = jnp.cov(x, ys, rowvar, bias, ddof, fw, aw).astype(x.dtype)
    return out(cast(result, dtype, "cov"))


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """The Pearson correlation coefficients (Float32 for ints).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.corrcoef(mnp.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    a = to_float(arr(x, "corrcoef", "x"))
    b = None if y is None else to_float(arr(y, "corrcoef", "y"))
    return out(cast(jnp.corrcoef(a, b, rowvar).astype(a.dtype), dtype, "corrcoef"))


def interp(x, xp, fp, left=None, right=None):
    """One-dimensional linear interpolation of ``(xp, fp)`` at ``x`` (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.interp(mnp.array([0.5]), mnp.array([0.0, 1.0]), mnp.array([0.0, 2.0])))
        [1.]
    """
    a = to_float(arr(x, "interp", "x"))
    result = jnp.interp(
        a, to_float(arr(xp, "interp", "xp")), to_float(arr(fp, "interp", "fp")), left, right
    )
    return out(result.astype(jnp.float32))


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient by central differences (one Tensor for 1-D input, else a list).

    Raises:
        NotImplementedError: If ``edge_order`` is not 1 (``jax.numpy.gradient`` has only
            first-order edges).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.gradient(mnp.array([1.0, 4.0, 9.0, 16.0])))
        [3. 4. 6. 7.]
    """
    x = to_float(arr(f, "gradient", "f"))
    spacing = [arr(v, "gradient", "varargs") if not isinstance(v, float) else v for v in varargs]
    if axis is not None:
        axis = axis_arg("gradient", axis, x.ndim)
    if edge_order != 1:
        raise NotImplementedError(
            f"For 'gradient', only 'edge_order' 1 is supported on JAX, but got {edge_order}."
        )
    result = jnp.gradient(x, *spacing, axis=axis)
    return out(list(result) if isinstance(result, (list, tuple)) else result)


def searchsorted(a, v, side="left", sorter=None):
    """Indices (Int32) that keep the 1-D sorted ``a`` sorted when ``v`` is inserted.

    Raises:
        ValueError: If ``side`` is not 'left' or 'right'.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.searchsorted(mnp.array([1, 4, 9]), mnp.array([4, 5])))
        [1 2]
    """
    if side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    x = arr(a, "searchsorted", "a")
    if sorter is not None:
        x = x[arr(sorter, "searchsorted", "sorter")]
    values = arr(v, "searchsorted", "v")
    return out(jnp.searchsorted(x, values, side=side).astype(jnp.int32))


def digitize(x, bins, right=False):
    """The index (Int32) of the bin of each value of ``x`` (monotonic 1-D ``bins``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.digitize(mnp.array([0.5, 4.0]), mnp.array([1.0, 2.0, 3.0])))
        [0 3]
    """
    a = arr(x, "digitize", "x")
    b = arr(bins, "digitize", "bins")
    return out(jnp.digitize(a, b, right=right).astype(jnp.int32))


def bincount(x, weights=None, minlength=0, length=None):
    """Counts of each value of the non-negative 1-D integer ``x`` (Float32).

    ``length`` fixes the output length, which makes it usable under ``cellax.jit``;
    without it the length depends on the values and the call runs eagerly only.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.bincount(mnp.array([0, 1, 1])))
        [1. 2.]
    """
    a = arr(x, "bincount", "x")
    if not is_int(a) or a.ndim != 1:
        raise TypeError("For 'bincount', 'x' must be a 1-D integer Tensor.")
    minlength = check_int("bincount", "minlength", minlength, 0)
    if length is None:
        check_eager("bincount", a)
        length = builtin_max(int(jnp.max(a)) + 1 if a.size else 0, minlength)
    w = None if weights is None else arr(weights, "bincount", "weights")
    return out(jnp.bincount(a, w, length=length).astype(jnp.float32))


def builtin_max(a, b):
    return a if a > b else b


def _range(api, range_):
    if range_ is None:
        return None
    values = tuple(float(r) for r in range_)
    if len(values) != 2 or values[0] > values[1]:
        raise ValueError(f"For '{api}', 'range' must be (min, max) with min <= max.")
    return values


def _bins(api, bins):
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        return check_int(api, "bins", bins, 1)
    return to_float(arr(bins, api, "bins"))


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The histogram of ``a``: ``(counts, bin_edges)``, both Float32.

    Examples:
        >>> import cellax.numpy as mnp
        >>> counts, edges = mnp.histogram(mnp.array([1.0, 2.0, 2.0, 3.0]), bins=2)
        >>> print(counts, edges)
        [1. 3.] [1. 2. 3.]
    """
    x = to_float(arr(a, "histogram", "a")).reshape(-1)
    w = None if weights is None else to_float(arr(weights, "histogram", "weights")).reshape(-1)
    counts, edges = jnp.histogram(
        x, _bins("histogram", bins), _range("histogram", range), w, density
    )
    return out((counts.astype(jnp.float32), edges.astype(jnp.float32)))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The bin edges :func:`histogram` uses (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.histogram_bin_edges(mnp.array([1.0, 2.0, 3.0]), 2))
        [1. 2. 3.]
    """
    x = to_float(arr(a, "histogram_bin_edges", "a")).reshape(-1)
    edges = jnp.histogram_bin_edges(
        x, _bins("histogram_bin_edges", bins), _range("histogram_bin_edges", range)
    )
    return out(edges.astype(jnp.float32))


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The multidimensional histogram of ``sample`` (N points x D): ``(counts, [edges])``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> counts, edges = mnp.histogramdd(mnp.array([[1.0, 2.0], [3.0, 4.0]]), bins=2)
        >>> counts.shape, len(edges)
        ((2, 2), 2)
    """
    x = to_float(arr(sample, "histogramdd", "sample"))
    if isinstance(bins, (list, tuple)):
        bins = [_bins("histogramdd", b) for b in bins]
    else:
        bins = _bins("histogramdd", bins)
    ranges = None if range is None else [_range("histogramdd", r) for r in range]
    w = None if weights is None else to_float(arr(weights, "histogramdd", "weights"))
    counts, edges = jnp.histogramdd(x, bins, ranges, w, density)
    return out((counts.astype(jnp.float32), [e.astype(jnp.float32) for e in edges]))


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The 2-D histogram of ``(x, y)``: ``(counts, x_edges, y_edges)``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> counts, xe, ye = mnp.histogram2d(mnp.array([1.0, 2.0]), mnp.array([1.0, 2.0]), 2)
        >>> print(counts)
        [[1. 0.]
         [0. 1.]]
    """
    a = to_float(arr(x, "histogram2d", "x")).reshape(-1)
    b = to_float(arr(y, "histogram2d", "y")).reshape(-1)
    counts, edges = histogramdd(jnp.stack([a, b], 1), bins, range, weights, density)
    return counts, edges[0], edges[1]


def unwrap(p, discont=3.141592653589793, axis=-1):
    """Unwraps phase angles by removing jumps larger than ``discont`` (as ``numpy.unwrap``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.unwrap(mnp.array([0.0, 3.5, 7.0])).shape
        (3,)
    """
    x = to_float(arr(p, "unwrap", "p"))
    return out(jnp.unwrap(x, discont, axis_arg("unwrap", axis, x.ndim)).astype(x.dtype))


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """Flat indices (Int32) of coordinate arrays in an array of shape ``dims``.

    Differences from MindSpore: the result is Int32 (MindSpore 2.10 returns Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.ravel_multi_index((mnp.array([1, 0]), mnp.array([2, 1])), (2, 3)))
        [5 1]
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError("For 'ravel_multi_index', 'mode' must be 'raise', 'wrap' or 'clip'.")
    coords = [arr(c, "ravel_multi_index", "multi_index") for c in multi_index]
    dims = shape_arg("ravel_multi_index", dims, "dims")
    result = jnp.ravel_multi_index(
        coords, dims, mode="clip" if mode == "raise" else mode, order=order
    )
    return out(result.astype(jnp.int32))


def _poly(api, p, name="p"):
    x = arr(p, api, name)
    if x.ndim != 1:
        raise ValueError(f"For '{api}', '{name}' must be 1-D, but got {x.ndim}-D.")
    return x


def polyadd(a1, a2):
    """The sum of two polynomials (coefficients, highest power first).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polyadd(mnp.array([1, 2]), mnp.array([1, 2, 3])))
        [1 3 5]
    """
    return out(jnp.polyadd(_poly("polyadd", a1, "a1"), _poly("polyadd", a2, "a2")))


def polysub(a1, a2):
    """The difference of two polynomials.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polysub(mnp.array([1, 2]), mnp.array([1, 2, 3])))
        [-1 -1 -1]
    """
    return out(jnp.polysub(_poly("polysub", a1, "a1"), _poly("polysub", a2, "a2")))


def polymul(a1, a2):
    """The product of two polynomials.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polymul(mnp.array([1.0, 2.0]), mnp.array([1.0, 2.0, 3.0])))
        [1. 4. 7. 6.]
    """
    return out(jnp.polymul(_poly("polymul", a1, "a1"), _poly("polymul", a2, "a2")))


def polyder(p, m=1):
    """The ``m``-th derivative of a polynomial (Float32 for ints).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polyder(mnp.array([1.0, 2.0, 3.0])))
        [2. 2.]
    """
    m = check_int("polyder", "m", m, 0)
    return out(jnp.polyder(to_float(_poly("polyder", p)), m))


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of a polynomial (integration constants ``k``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polyint(mnp.array([3.0, 2.0, 1.0])))
        [1. 1. 1. 0.]
    """
    m = check_int("polyint", "m", m, 0)
    constants = None if k is None else arr(k, "polyint", "k")
    x = to_float(_poly("polyint", p))
    return out(jnp.polyint(x, m, constants).astype(x.dtype))


def polyval(p, x):
    """Evaluates the polynomial ``p`` at ``x`` (Float32 for ints).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.polyval(mnp.array([1.0, 2.0]), mnp.array([3.0])))
        [5.]
    """
    coeffs = to_float(_poly("polyval", p))
    return out(jnp.polyval(coeffs, to_float(arr(x, "polyval", "x"))))
