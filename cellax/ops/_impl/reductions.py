"""Reductions: sum, mean, max (with indices), std/var, logsumexp, all/any, trace, diff,
trapz.

MindSpore quirks kept here: ``ops.max``/``ops.min`` return ``(values, indices)``; the indices
are Int64; ``std``/``var`` default to ``ddof=0``; ``count_nonzero`` returns Int32.
"""

from __future__ import annotations

import builtins
import functools

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from .eager import fused
from .elementwise import _floating
from .primitive import Primitive, primitive
from .utils import arr, check_axes, check_axis, check_int_arg, np_dtype, to_float, wrap
from .utils import check_min_rank

__all__ = [
    "FloatStatus",
    "sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "max",
    "min",
    "argmax",
    "argmin",
    "aminmax",
    "std",
    "var",
    "std_mean",
    "var_mean",
    "logsumexp",
    "all",
    "any",
    "count_nonzero",
    "nansum",
    "nanmean",
    "reduce_sum",
    "reduce_mean",
    "reduce_max",
    "reduce_min",
    "trace",
    "diff",
    "ReduceSum",
    "ReduceMean",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceAll",
    "ReduceAny",
    "Argmax",
    "Argmin",
    "ArgMaxWithValue",
    "ArgMinWithValue",
    "ReduceStd",
    "diff_ext",
    "trapz",
]

_INT64 = jnp.int64
_reduce_axes = functools.partial(check_axes, repeated=RuntimeError)  # var/std: ValueError


def _reduce_input(api, input, name="input"):
    return arr(input, api, name, tensor=True)  # a Python number: TypeError, as MindSpore


def _int_sum_dtype(x, dtype):
    """MindSpore sums and multiplies bool and integer Tensors in Int64 unless told otherwise."""
    if dtype is None and np.dtype(x.dtype).kind in "biu":
        return _INT64
    return np_dtype(dtype)


def _nan_first(x, axes, fill):
    """MindSpore's max/min reductions keep the running value unless a later element is strictly
    greater (smaller): a NaN wins only in the first position. Later NaNs become ``fill``."""
    if not (np.dtype(x.dtype).kind == "f" or x.dtype == jnp.bfloat16) or x.ndim == 0:
        return x
    axes = range(x.ndim) if axes is None else (axes if isinstance(axes, tuple) else (axes,))
    first = jnp.ones(x.shape, bool)
    for axis in axes:
        first = first & (jax.lax.broadcasted_iota(jnp.int32, x.shape, axis % x.ndim) == 0)
    return jnp.where(jnp.isnan(x) & ~first, jnp.asarray(fill, x.dtype), x)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` (all dimensions when None).

    Args:
        input (Tensor): The input.
        dim (Union[int, tuple(int), list(int), None]): Dimensions to reduce. Default: ``None``.
        keepdim (bool): Keep reduced dimensions with size 1. Default: ``False``.
        dtype (cellax.dtype): The result dtype. Default: ``None``.

    Raises:
        ValueError: If ``dim`` is out of range.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1., 2.], [3., 4.]])
        >>> print(ms.ops.sum(x), ms.ops.sum(x, 1))
        10.0 [3. 7.]
    """
    x = _reduce_input("sum", input)
    axes = _one_axis(_reduce_axes("sum", dim, x.ndim, "dim"))
    dtype = _int_sum_dtype(x, dtype)
    if not keepdim and dtype is None:  # jnp's jit dispatches positional calls fastest
        return wrap(jnp.sum(x, axes))
    return wrap(jnp.sum(x, axis=axes, keepdims=keepdim, dtype=dtype))


def _one_axis(axes):
    """A one-axis tuple as its int (the same reduction; jnp's fast dispatch path)."""
    return axes[0] if axes is not None and len(axes) == 1 else axes


def mean(x, axis=None, keep_dims=False):
    """Mean over ``axis`` (all dimensions when None).

    Integer input keeps its dtype, as in MindSpore: the sum is taken in that dtype and divided
    with truncation toward zero (``mean([1, 2]) == 1``, ``mean([-1, -2]) == -1``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.mean(ms.Tensor([[1., 2.], [3., 4.]]), 0))
        [2. 3.]
        >>> print(ms.ops.mean(ms.Tensor([1, 2, 4], ms.int32)))
        2
    """
    value = _reduce_input("mean", x, "x")
    axes = _reduce_axes("mean", axis, value.ndim)
    kind = value.dtype.kind
    if kind == "b":
        raise RuntimeError("For 'ReduceMean', unsupported reduce operation for bool.")
    if kind in "iu":
        total = jnp.sum(value, axis=axes, keepdims=keep_dims, dtype=value.dtype)
        count = (value.size // total.size) if total.size and value.size else 1
        quotient = jnp.abs(total) // count
        return wrap(jnp.where(total < 0, -quotient, quotient).astype(value.dtype))
    if not keep_dims:
        return wrap(jnp.mean(value, _one_axis(axes)))
    return wrap(jnp.mean(value, axis=axes, keepdims=keep_dims))


def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product over ``axis`` (all dimensions when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.prod(ms.Tensor([[1., 2.], [3., 4.]]), 1))
        [ 2. 12.]
    """
    x = _reduce_input("prod", input)
    axes = _reduce_axes("prod", axis, x.ndim)
    return wrap(jnp.prod(x, axis=axes, keepdims=keep_dims, dtype=_int_sum_dtype(x, dtype)))


def _extreme(api, jfn, input, axis, keepdims, initial, where):
    x = _reduce_input(api, input)
    axes = _reduce_axes(api, axis, x.ndim)
    x = _nan_first(x, axes, -jnp.inf if jfn is jnp.max else jnp.inf)
    kwargs = {}
    if initial is not None:
        kwargs["initial"] = initial
    if where is not None:
        kwargs["where"] = arr(where, api, "where", keep_scalars=False)
    return jfn(x, axis=axes, keepdims=keepdims, **kwargs)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis`` (all dimensions when None), values only.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.amax(ms.Tensor([[1., 3.], [2., 0.]]), 1))
        [3. 2.]
    """
    return wrap(_extreme("amax", jnp.max, input, axis, keepdims, initial, where))


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over ``axis`` (all dimensions when None), values only.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.amin(ms.Tensor([[1., 3.], [2., 0.]]), 1))
        [1. 0.]
    """
    return wrap(_extreme("amin", jnp.min, input, axis, keepdims, initial, where))


def _with_index(api, jfn, arg_fn, input, axis, keepdims, initial, where):
    values = _extreme(api, jfn, input, axis, keepdims, initial, where)
    x = _reduce_input(api, input)
    if axis is not None:
        axis = check_axis(api, axis, x.ndim)
    if axis is None or x.ndim == 0:
        # MindSpore returns a 0 placeholder index when reducing over every dimension.
        return wrap(values), wrap(jnp.zeros(values.shape, _INT64))
    x = _nan_first(x, axis, -jnp.inf if jfn is jnp.max else jnp.inf)
    if where is not None:
        fill = -jnp.inf if jfn is jnp.max else jnp.inf
        x = jnp.where(arr(where, keep_scalars=False), x, jnp.asarray(fill).astype(x.dtype))
    index = arg_fn(x, axis=axis, keepdims=keepdims).astype(_INT64)
    return wrap(values), wrap(index)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis`` with its index: returns ``(values, indices)``.

    Args:
        input (Tensor): The input.
        axis (Union[int, None]): The dimension to reduce, all when None. Default: ``None``.
        keepdims (bool): Keep the reduced dimension. Default: ``False``.
        initial (number): A lower bound for the maximum. Default: ``None``.
        where (Tensor): Bool mask of the elements to compare. Default: ``None``.

    Returns:
        Tuple of two Tensors: the values and their Int64 indices (first occurrence on ties).
        With ``axis=None`` the index is 0, as in MindSpore.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.max(ms.Tensor([[1., 3., 3.], [2., 2., 0.]]), 1)
        >>> print(values, indices)
        [3. 2.] [1 0]
    """
    return _with_index("max", jnp.max, jnp.argmax, input, axis, keepdims, initial, where)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over ``axis`` with its index: returns ``(values, indices)``.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.min(ms.Tensor([[1., 3.], [2., 0.]]), 1)
        >>> print(values, indices)
        [1. 0.] [0 1]
    """
    return _with_index("min", jnp.min, jnp.argmin, input, axis, keepdims, initial, where)


def _arg(api, jfn, input, axis, keepdims, name="axis", index_dtype=_INT64):
    x = _reduce_input(api, input)
    if axis is not None:
        # MindSpore gives index 0 of a 0-D input for any int axis
        axis = check_axis(api, axis, x.ndim, name) if x.ndim else check_int_arg(api, name, axis)
    if x.ndim == 0:  # MindSpore's index of a 0-D input is Int64 for argmin too
        axis, index_dtype = None, _INT64
    return wrap(_arg_index(x, jfn, axis, bool(keepdims), index_dtype))


@fused(static_argnums=(1, 2, 3, 4))
def _arg_index(x, jfn, axis, keepdims, index_dtype):
    fill = -jnp.inf if jfn is jnp.argmax else jnp.inf
    x = _nan_first(x, axis, fill)
    if axis is None:
        result = jfn(x.reshape(-1))
        if keepdims:
            result = result.reshape((1,) * x.ndim)
        return result.astype(index_dtype)
    return jfn(x, axis=axis, keepdims=keepdims).astype(index_dtype)


def argmax(input, dim=None, keepdim=False):
    """Index (Int64) of the maximum along ``dim``; the flat index when None. Ties: first.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.argmax(ms.Tensor([[1., 3., 3.], [2., 2., 0.]]), 1))
        [1 0]
    """
    return _arg("argmax", jnp.argmax, input, dim, keepdim, "dim")


def argmin(input, axis=None, keepdims=False):
    """Index (Int32, as in MindSpore) of the minimum along ``axis``; flat when None. Ties: first.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.argmin(ms.Tensor([[1., 3.], [2., 0.]]), 1))
        [0 1]
    """
    return _arg("argmin", jnp.argmin, input, axis, keepdims, index_dtype=jnp.int32)


def aminmax(input, *, axis=0, keepdims=False):
    """``(amin, amax)`` along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> low, high = ms.ops.aminmax(ms.Tensor([[1., 3.], [2., 0.]]), axis=1)
        >>> print(low, high)
        [1. 0.] [3. 2.]
    """
    return amin(input, axis, keepdims), amax(input, axis, keepdims)


def _moments(api, input, axis, ddof, keepdims):
    x = to_float(_reduce_input(api, input))
    if x.ndim == 0 and axis not in (None, (), []):  # MindSpore: a 0-D input has no axis
        raise ValueError(f"For '{api}', 'axis' must be None for a 0-D input, but got {axis!r}.")
    axes = check_axes(api, axis, x.ndim)
    if isinstance(ddof, bool):
        ddof = int(ddof)
    return x, axes, ddof


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom (default 0).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.var(ms.Tensor([[1., 3.], [2., 2.]]), 1))
        [1. 0.]
    """
    x, axes, ddof = _moments("var", input, axis, ddof, keepdims)
    return wrap(jnp.var(x, axis=axes, ddof=ddof, keepdims=keepdims))


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis`` with ``ddof`` (default 0).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.std(ms.Tensor([[1., 3.], [2., 2.]]), 1))
        [1. 0.]
    """
    x, axes, ddof = _moments("std", input, axis, ddof, keepdims)
    return wrap(jnp.std(x, axis=axes, ddof=ddof, keepdims=keepdims))


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(var, mean)`` over ``axis``.

    Examples:
        >>> import cellax as ms
        >>> v, m = ms.ops.var_mean(ms.Tensor([1., 3.]))
        >>> print(v, m)
        1.0 2.0
    """
    x, axes, ddof = _moments("var_mean", input, axis, ddof, keepdims)
    return (
        wrap(jnp.var(x, axis=axes, ddof=ddof, keepdims=keepdims)),
        wrap(jnp.mean(x, axis=axes, keepdims=keepdims)),
    )


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(std, mean)`` over ``axis``.

    Examples:
        >>> import cellax as ms
        >>> s, m = ms.ops.std_mean(ms.Tensor([1., 3.]))
        >>> print(s, m)
        1.0 2.0
    """
    x, axes, ddof = _moments("std_mean", input, axis, ddof, keepdims)
    return (
        wrap(jnp.std(x, axis=axes, ddof=ddof, keepdims=keepdims)),
        wrap(jnp.mean(x, axis=axes, keepdims=keepdims)),
    )


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim``, computed stably.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.logsumexp(ms.Tensor([[0., 0.]]), 1))
        [0.6931472]
    """
    x = to_float(_reduce_input("logsumexp", input))
    axes = _reduce_axes("logsumexp", dim, x.ndim, "dim")
    return wrap(jax.scipy.special.logsumexp(x, axis=axes, keepdims=keepdim))


def all(input, axis=None, keep_dims=False):
    """True where every element along ``axis`` is nonzero.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.all(ms.Tensor([[True, False], [True, True]]), 1))
        [False  True]
    """
    x = _reduce_input("all", input)
    return wrap(jnp.all(x, axis=_reduce_axes("all", axis, x.ndim), keepdims=keep_dims))


def any(input, axis=None, keep_dims=False):
    """True where some element along ``axis`` is nonzero.

    Differences from MindSpore: MindSpore 2.10's CPU kernel answers wrongly for an int or float
    Tensor (``False`` for both rows of ``[[0, 2], [0, 0]]`` along axis 1, and for the whole
    Tensor); cellax answers as NumPy does (``[True, False]``). To get the same answer from
    both, pass a Bool Tensor: ``ops.any(x != 0, axis)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.any(ms.Tensor([[True, False], [False, False]]), 1))
        [ True False]
    """
    x = _reduce_input("any", input)
    return wrap(jnp.any(x, axis=_reduce_axes("any", axis, x.ndim), keepdims=keep_dims))


def count_nonzero(x, axis=(), keep_dims=False, dtype=None):
    """Number of nonzero elements over ``axis`` (Int32 unless ``dtype`` is given).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.count_nonzero(ms.Tensor([[1., 0.], [2., 3.]])))
        3
    """
    value = _reduce_input("count_nonzero", x, "x")
    axes = _reduce_axes("count_nonzero", axis, value.ndim)
    count = jnp.sum(value != 0, axis=axes, keepdims=keep_dims)
    return wrap(count.astype(np_dtype(dtype) or jnp.int32))


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum treating NaN as zero.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.nansum(ms.Tensor([1., float('nan'), 2.])))
        3.0
    """
    x = _reduce_input("nansum", input)
    axes = _reduce_axes("nansum", axis, x.ndim)
    return wrap(jnp.nansum(x, axis=axes, keepdims=keepdims, dtype=np_dtype(dtype) or x.dtype))


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean ignoring NaN.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.nanmean(ms.Tensor([1., float('nan'), 2.])))
        1.5
    """
    x = to_float(_reduce_input("nanmean", input))
    axes = _reduce_axes("nanmean", axis, x.ndim)
    return wrap(jnp.nanmean(x, axis=axes, keepdims=keepdims, dtype=np_dtype(dtype)))


def reduce_sum(x, axis=()):
    """Sum over ``axis`` (all when empty)."""
    return sum(x, axis)


def reduce_mean(x, axis=()):
    """Mean over ``axis`` (all when empty)."""
    return mean(x, axis)


def reduce_max(x, axis=()):
    """Maximum over ``axis`` (all when empty), values only."""
    return amax(x, axis)


def reduce_min(x, axis=()):
    """Minimum over ``axis`` (all when empty), values only."""
    return amin(x, axis)


def trace(input):
    """Sum of the main diagonal of a 2-D Tensor.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.trace(ms.Tensor([[1., 2.], [3., 4.]])))
        5.0
    """
    x = arr(input, "trace", tensor=True)
    if x.ndim != 2:  # MindSpore's Trace checks the rank with a RuntimeError
        raise RuntimeError(f"For 'trace', 'input' must be 2-D, but got shape {x.shape}.")
    if x.dtype == jnp.bool_:
        raise TypeError("For 'trace', the dtype of 'input' must be a number type, but got Bool.")
    return wrap(jnp.trace(x, dtype=x.dtype))  # MindSpore keeps the input dtype


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diff(ms.Tensor([1, 3, 6])))
        [2 3]
    """
    value = check_min_rank("diff", arr(x, "diff", "x", tensor=True), 1, "x", TypeError)
    axis = check_axis("diff", axis, value.ndim)
    if check_int_arg("diff", "n", n) < 0:  # MindSpore checks 'n' with a RuntimeError
        raise RuntimeError(f"For 'diff', 'n' must be >= 0, but got {n}.")
    return wrap(
        jnp.diff(
            value,
            # each difference shortens the axis by one: past its length the result is empty
            # (jnp.diff would still loop n times)
            n=builtins.min(n, value.shape[axis] + 1 if value.ndim else 1),
            axis=axis,
            prepend=None if prepend is None else arr(prepend, keep_scalars=False),
            append=None if append is None else arr(append, keep_scalars=False),
        )
    )


def _reduce_class(name, fn):
    return primitive(
        name,
        fn,
        dict(keep_dims=False),
        lambda self, x, axis=(): fn(x, axis if axis != () else None, self.attrs["keep_dims"]),
    )


ReduceSum = _reduce_class("ReduceSum", sum)


ReduceMean = _reduce_class("ReduceMean", mean)


ReduceMax = _reduce_class("ReduceMax", amax)


ReduceMin = _reduce_class("ReduceMin", amin)


ReduceProd = _reduce_class("ReduceProd", prod)


ReduceAll = _reduce_class("ReduceAll", all)


ReduceAny = _reduce_class("ReduceAny", any)


def _arg_call(fn):
    def call(self, x):
        result = fn(x, self.attrs["axis"])
        return wrap(result._value.astype(np_dtype(self.attrs["output_type"])))

    return call


Argmax = primitive("Argmax", argmax, dict(axis=-1, output_type=np.int32), _arg_call(argmax))


Argmin = primitive("Argmin", argmin, dict(axis=-1, output_type=np.int32), _arg_call(argmin))


def _with_value_call(fn):
    def call(self, x):
        values, index = fn(x, self.attrs["axis"], self.attrs["keep_dims"])
        return index, values

    return call


ArgMaxWithValue = primitive(
    "ArgMaxWithValue", max, dict(axis=0, keep_dims=False), _with_value_call(max)
)


ArgMinWithValue = primitive(
    "ArgMinWithValue", min, dict(axis=0, keep_dims=False), _with_value_call(min)
)


ReduceStd = primitive(
    "ReduceStd",
    std,
    dict(axis=(), unbiased=True, keep_dims=False),
    lambda self, x: std_mean(
        x, self.attrs["axis"], int(self.attrs["unbiased"]), self.attrs["keep_dims"]
    ),
)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """:func:`diff` (the n-th forward difference along ``dim``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diff_ext(ms.Tensor([1.0, 4.0, 9.0, 16.0]), 2))
        [2. 2.]
    """
    return diff(input, n, dim, prepend, append)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at sample points ``x`` (1-D
    or ``y``'s shape) or spaced ``dx`` apart; ints give Float32.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.trapz(ms.Tensor(np.array([1.0, 2.0, 4.0], np.float32))))
        4.5
    """
    api = "trapz"
    values = check_min_rank(api, _floating(arr(y, api, "y", tensor=True)), name="y")
    dim = check_axis(api, dim, values.ndim, "dim")
    if x is None:
        return wrap(jnp.trapezoid(values, dx=dx, axis=dim))
    points = _floating(arr(x, api, "x"))
    return wrap(jnp.trapezoid(values, points, axis=dim).astype(values.dtype))


class FloatStatus(Primitive):
    """``[1.]`` when ``x`` contains NaN or +/-inf, else ``[0.]`` (float32, shape ``(1,)``).

    Inputs:
        - **x** (Tensor) - float16, float32 or float64.

    Outputs:
        Tensor of shape (1,), float32.

    Raises:
        TypeError: If `x` is not floating.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.FloatStatus()(ms.Tensor(np.array([np.nan, 1.0], np.float32))))
        [1.]

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/ops/mindspore.ops.FloatStatus.html
    """

    def __init__(self) -> None:
        super().__init__("FloatStatus")

    def __call__(self, x):
        value = arr(x)
        if not _dtype.is_floating(value.dtype):
            raise TypeError(
                f"For 'FloatStatus', 'x' must be float16, float32 or float64, but got {value.dtype}."
            )
        return wrap(jnp.any(~jnp.isfinite(value)).astype(jnp.float32).reshape(1))
