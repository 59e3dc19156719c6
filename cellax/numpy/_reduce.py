"""Reductions and scans of cellax.numpy: sum, mean, max/min, std/var, nan*, cumsum, argmax.

MindSpore 2.10 dtype rules kept here: ``sum`` of integers gives Int64, ``mean`` and
``average`` of integers keep the integer dtype (the mean is truncated), ``std``/``var`` of
integers give Float32, ``cumsum``/``cumprod`` widen small integers and Bool to Int32,
``count_nonzero`` gives Int32, ``argmax`` Int64 and ``argmin`` Int32.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._utils import arr, axis_arg, cast, is_int, out, to_float

__all__ = [
    "sum",
    "mean",
    "amax",
    "amin",
    "max",
    "min",
    "ptp",
    "std",
    "var",
    "average",
    "count_nonzero",
    "nansum",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmax",
    "nanmin",
    "cumsum",
    "cumprod",
    "nancumsum",
    "argmax",
    "argmin",
]

_ARGS_DOC = """
    Args:
        {a} (Union[Tensor, list, tuple]): The input.
        axis (Union[None, int, tuple[int]]): The axes to reduce (all when None).
            Default: ``None``.
        keepdims (bool): Keep the reduced axes with length 1. Default: ``False``.
"""


def _axes(api, x, axis):
    return axis_arg(api, axis, x.ndim)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """The sum over ``axis``; integer and Bool input sums in Int64 (as MindSpore).

    Args:
        a (Union[Tensor, list, tuple]): The input.
        axis (Union[None, int, tuple[int]]): The axes to reduce (all when None).
            Default: ``None``.
        dtype (cellax.dtype, optional): The result dtype. Default: ``None``.
        keepdims (bool): Keep the reduced axes with length 1. Default: ``False``.
        initial (Union[int, float], optional): A starting value. Default: ``None``.

    Returns:
        Tensor.

    Raises:
        ValueError: If an axis is out of range.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.sum(mnp.array([[1, 2], [3, 4]]), axis=1))
        [3 7]
    """
    x = arr(a, "sum", "a")
    target = np.dtype(np.int64) if is_int(x) else None
    if dtype is not None:
        x = cast(x, dtype, "sum")
        target = x.dtype
    result = jnp.sum(x, _axes("sum", x, axis), keepdims=keepdims, dtype=target)
    if initial is not None:
        result = result + jnp.asarray(initial, result.dtype)
    return out(result)


def mean(a, axis=None, keepdims=False, dtype=None):
    """The arithmetic mean over ``axis``; integer input keeps its dtype (truncated).

    Args:
        a (Union[Tensor, list, tuple]): The input.
        axis (Union[None, int, tuple[int]]): The axes to reduce (all when None).
            Default: ``None``.
        keepdims (bool): Keep the reduced axes with length 1. Default: ``False``.
        dtype (cellax.dtype, optional): The result dtype. Default: ``None``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.mean(mnp.array([[1.0, 2.0], [3.0, 4.0]]), axis=0))
        [2. 3.]
    """
    x = arr(a, "mean", "a")
    result = jnp.mean(to_float(x), _axes("mean", x, axis), keepdims=keepdims)
    if is_int(x):
        result = result.astype(x.dtype)
    return out(cast(result, dtype, "mean"))


def _extreme(api, jfn, a, axis, keepdims, initial, where):
    x = arr(a, api, "a")
    axes = _axes(api, x, axis)
    if where is not True:
        mask = arr(where, api, "where").astype(jnp.bool_)
        if initial is None:
            raise ValueError(
                f"For '{api}', 'initial' must be given when 'where' is used, but got None."
            )
        return out(jfn(x, axes, keepdims=keepdims, initial=initial, where=mask))
    if x.size == 0 and initial is None:
        raise ValueError(f"For '{api}', the input is empty and 'initial' is None.")
    return out(jfn(x, axes, keepdims=keepdims, initial=initial))


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over ``axis`` (``initial`` bounds it; ``where`` masks elements).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.amax(mnp.array([[1, 5], [3, 2]]), axis=0))
        [3 5]
    """
    return _extreme("amax", jnp.max, a, axis, keepdims, initial, where)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over ``axis`` (``initial`` bounds it; ``where`` masks elements).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.amin(mnp.array([[1, 5], [3, 2]]), axis=1))
        [1 2]
    """
    return _extreme("amin", jnp.min, a, axis, keepdims, initial, where)


def max(a, axis=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """Alias of :func:`amax`.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.max(mnp.array([1.0, 3.0])))
        3.0
    """
    return _extreme("max", jnp.max, a, axis, keepdims, initial, where)


def min(a, axis=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """Alias of :func:`amin`.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.min(mnp.array([1.0, 3.0])))
        1.0
    """
    return _extreme("min", jnp.min, a, axis, keepdims, initial, where)


def ptp(x, axis=None, keepdims=False):
    """The range ``max - min`` over ``axis`` (keeps the input dtype).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.ptp(mnp.array([1, 5, 2])))
        4
    """
    a = arr(x, "ptp", "x")
    return out(jnp.ptp(a, _axes("ptp", a, axis), keepdims=keepdims))


def _var(api, x, axis, ddof, keepdims):
    a = arr(x, api, "x")
    axes = _axes(api, a, axis)
    if not is_int(a):
        return jnp.var(a, axes, ddof=ddof, keepdims=keepdims)
    # MindSpore 2.10 centres integer input on its truncated integer mean.
    centre = jnp.mean(to_float(a), axes, keepdims=True).astype(a.dtype)
    deviation = to_float(a) - to_float(centre)
    count = a.size if axes is None else int(np.prod([a.shape[i] for i in np.atleast_1d(axes)]))
    total = jnp.sum(deviation * deviation, axes, keepdims=keepdims)
    return total / (count - ddof)


def var(x, axis=None, ddof=0, keepdims=False):
    """The variance over ``axis`` with ``ddof`` delta degrees of freedom (Float32 for ints).

    Integer input is centred on its truncated integer mean, as MindSpore 2.10 does.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.var(mnp.array([1, 2, 3, 4])))
        1.5
    """
    return out(_var("var", x, axis, ddof, keepdims))


def std(x, axis=None, ddof=0, keepdims=False):
    """The standard deviation over ``axis`` (Float32 for integer input).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.std(mnp.array([1.0, 3.0])))
        1.0
    """
    return out(jnp.sqrt(_var("std", x, axis, ddof, keepdims)))


def average(x, axis=None, weights=None, returned=False):
    """The (weighted) average over ``axis``; integer-only input keeps its dtype (truncated).

    Args:
        x (Tensor): The input.
        axis (Union[None, int, tuple[int]]): The axes. Default: ``None``.
        weights (Tensor, optional): Weights, of ``x``'s shape or 1-D along ``axis``.
        returned (bool): Also return the sum of the weights. Default: ``False``.

    Returns:
        Tensor, or ``(average, sum_of_weights)``.

    Raises:
        ZeroDivisionError: Never (a zero weight sum gives NaN or inf, computed on device).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.average(mnp.array([1.0, 2.0]), weights=mnp.array([1.0, 3.0])))
        1.75
    """
    a = arr(x, "average", "x")
    axes = _axes("average", a, axis)
    w = None if weights is None else arr(weights, "average", "weights")
    kind = a if w is None else jnp.zeros((), jnp.result_type(a, w))
    result, total = jnp.average(
        to_float(a), axes, None if w is None else to_float(w), returned=True
    )
    if is_int(kind):
        result = result.astype(kind.dtype)
        total = total.astype(kind.dtype)
    return out((result, total)) if returned else out(result)


def count_nonzero(x, axis=None, keepdims=False):
    """The number of nonzero elements over ``axis`` (Int32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.count_nonzero(mnp.array([1, 0, 2])))
        2
    """
    a = arr(x, "count_nonzero", "x")
    result = jnp.sum(a != 0, _axes("count_nonzero", a, axis), keepdims=keepdims)
    return out(result.astype(jnp.int32))


def _nan_reduce(api, jfn, a, axis, dtype, keepdims, **extra):
    x = arr(a, api, "a")
    if is_int(x) and api in ("nanmean", "nanvar", "nanstd"):
        x = to_float(x)
    result = jfn(x, _axes(api, x, axis), keepdims=keepdims, **extra)
    if is_int(x):
        result = result.astype(x.dtype)
    return out(cast(result, dtype, api))


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum over ``axis`` treating NaN as zero.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nansum(mnp.array([1.0, mnp.nan])))
        1.0
    """
    return _nan_reduce("nansum", jnp.nansum, a, axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """The mean over ``axis`` ignoring NaNs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nanmean(mnp.array([1.0, mnp.nan, 3.0])))
        2.0
    """
    return _nan_reduce("nanmean", jnp.nanmean, a, axis, dtype, keepdims)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The variance over ``axis`` ignoring NaNs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nanvar(mnp.array([1.0, mnp.nan, 3.0])))
        1.0
    """
    return _nan_reduce("nanvar", jnp.nanvar, a, axis, dtype, keepdims, ddof=ddof)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The standard deviation over ``axis`` ignoring NaNs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nanstd(mnp.array([1.0, mnp.nan, 3.0])))
        1.0
    """
    return _nan_reduce("nanstd", jnp.nanstd, a, axis, dtype, keepdims, ddof=ddof)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """The maximum over ``axis`` ignoring NaNs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nanmax(mnp.array([1.0, mnp.nan, 3.0])))
        3.0
    """
    return _nan_reduce("nanmax", jnp.nanmax, a, axis, dtype, keepdims)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """The minimum over ``axis`` ignoring NaNs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nanmin(mnp.array([1.0, mnp.nan, 3.0])))
        1.0
    """
    return _nan_reduce("nanmin", jnp.nanmin, a, axis, dtype, keepdims)


def _scan(api, jfn, a, axis, dtype):
    x = arr(a, api, "a")
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = axis_arg(api, axis, x.ndim)
    target = np_scan_dtype(x.dtype) if dtype is None else None
    if dtype is not None:
        x = cast(x, dtype, api)
    result = jfn(x, axis)
    return out(result if target is None else result.astype(target))


def np_scan_dtype(dtype):
    """Bool and integers narrower than 32 bits accumulate in Int32 (as MindSpore)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b" or (dtype.kind in "iu" and dtype.itemsize < 4):
        return np.dtype(np.int32)
    return dtype


def cumsum(a, axis=None, dtype=None):
    """The cumulative sum along ``axis`` (of the flattened input when None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.cumsum(mnp.array([[1, 2], [3, 4]]), axis=1))
        [[1 3]
         [3 7]]
    """
    return _scan("cumsum", jnp.cumsum, a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """The cumulative product along ``axis`` (of the flattened input when None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.cumprod(mnp.array([1, 2, 3])))
        [1 2 6]
    """
    return _scan("cumprod", jnp.cumprod, a, axis, dtype)


def nancumsum(a, axis=None, dtype=None):
    """The cumulative sum treating NaN as zero.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.nancumsum(mnp.array([1.0, mnp.nan, 2.0])))
        [1. 1. 3.]
    """
    return _scan("nancumsum", jnp.nancumsum, a, axis, dtype)


def _arg(api, jfn, a, axis, dtype):
    x = arr(a, api, "a")
    if x.size == 0:
        raise ValueError(f"For '{api}', the input must not be empty.")
    if axis is not None:
        axis = axis_arg(api, axis, x.ndim)
    return out(jfn(x, axis).astype(dtype))


def argmax(a, axis=None):
    """The indices of the maxima along ``axis`` (of the flattened input when None), Int64.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.argmax(mnp.array([1.0, 3.0, 2.0])))
        1
    """
    return _arg("argmax", jnp.argmax, a, axis, jnp.int64)


def argmin(a, axis=None):
    """The indices of the minima along ``axis`` (of the flattened input when None), Int32
    (MindSpore 2.10's ``argmax`` gives Int64 but its ``argmin`` Int32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.argmin(mnp.array([1.0, 3.0, 0.5])))
        2
    """
    return _arg("argmin", jnp.argmin, a, axis, jnp.int32)
