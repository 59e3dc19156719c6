"""Cumulative scans: cumsum, cumprod, cummax/cummin (with indices), logcumsumexp."""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp

from .dtype_rules import check_accepts
from .primitive import primitive
from .reductions import _reduce_input
from .utils import arr, check_axis, check_min_rank, np_dtype, to_float, wrap

__all__ = [
    "cumsum",
    "cumprod",
    "cummax",
    "cummin",
    "logcumsumexp",
    "CumSum",
    "CumProd",
    "Cummax",
    "Cummin",
]

_INT64 = jnp.int64


def cumsum(x, axis, dtype=None):
    """Cumulative sum along ``axis``; with ``dtype`` the input is cast to it first (so a bool
    Tensor sums when ``dtype`` is given, as in MindSpore, and raises TypeError otherwise).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cumsum(ms.Tensor([1, 2, 3]), 0))
        [1 3 6]
    """
    value = _reduce_input("cumsum", x, "x")
    if dtype is not None:
        value = value.astype(np_dtype(dtype))
    check_accepts("cumsum", value)
    axis = check_axis("cumsum", axis, check_min_rank("cumsum", value, name="x").ndim)
    # MindSpore keeps the input dtype (jnp would widen int32 to int64).
    return wrap(jnp.cumsum(value, axis=axis, dtype=np_dtype(dtype) or value.dtype))


def cumprod(input, dim, dtype=None):
    """Cumulative product along ``dim``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cumprod(ms.Tensor([1., 2., 3.]), 0))
        [1. 2. 6.]
    """
    x = _reduce_input("cumprod", input)
    dim = check_axis("cumprod", dim, check_min_rank("cumprod", x).ndim, "dim")
    if dtype is None and x.dtype.kind in "biu":
        dtype = _INT64  # MindSpore multiplies bool and integer Tensors in Int64
    return wrap(jnp.cumprod(x, axis=dim, dtype=np_dtype(dtype)))


def _cum_extreme(api, input, axis, better, index_dtype):
    x = check_min_rank(api, _reduce_input(api, input))
    axis = check_axis(api, axis, x.ndim)
    values, indices = _cum_scan(x, axis, better is jnp.greater)
    return wrap(values), wrap(indices.astype(index_dtype))


@ft.partial(jax.jit, static_argnums=(1, 2))
def _cum_scan(x, axis, is_max):
    # Compiled once per shape: eagerly, the scan would otherwise dispatch many small ops.
    better = jnp.greater if is_max else jnp.less
    moved = jnp.moveaxis(x, axis, 0)
    index = jnp.broadcast_to(
        jnp.arange(moved.shape[0], dtype=_INT64).reshape((-1,) + (1,) * (moved.ndim - 1)),
        moved.shape,
    )

    def combine(left, right):
        take_right = better(right[0], left[0]) | (right[0] == left[0])
        return jnp.where(take_right, right[0], left[0]), jnp.where(take_right, right[1], left[1])

    values, indices = jax.lax.associative_scan(combine, (moved, index), axis=0)
    return jnp.moveaxis(values, 0, axis), jnp.moveaxis(indices, 0, axis)


def cummax(input, axis):
    """Running maximum along ``axis``: ``(values, indices)``; ties take the later index.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.cummax(ms.Tensor([1., 3., 2., 3.]), 0)
        >>> print(values, indices)
        [1. 3. 3. 3.] [0 1 1 3]
    """
    return _cum_extreme("cummax", input, axis, jnp.greater, _INT64)


def cummin(input, axis):
    """Running minimum along ``axis``: ``(values, Int32 indices)``; ties take the later index.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.cummin(ms.Tensor([3., 1., 2.]), 0)
        >>> print(values, indices)
        [3. 1. 1.] [0 1 1]
    """
    return _cum_extreme("cummin", input, axis, jnp.less, jnp.int32)


def logcumsumexp(input, axis):
    """``log(cumsum(exp(input)))`` along ``axis``, computed stably.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.logcumsumexp(ms.Tensor([0., 0.]), 0))
        [0.        0.6931472]
    """
    x = _reduce_input("logcumsumexp", input)
    check_accepts("logcumsumexp", x)
    x = to_float(x)
    axis = check_axis("logcumsumexp", axis, x.ndim)
    return wrap(jax.lax.cumlogsumexp(x, axis=axis))


def _cum_call(fn):
    def call(self, x, axis):
        value = arr(x, keep_scalars=False)
        if self.attrs["reverse"]:
            value = jnp.flip(value, axis)
        result = fn(value, axis)._value
        if self.attrs["exclusive"]:
            neutral = 0 if fn is cumsum else 1
            result = jnp.concatenate(
                [
                    jnp.full_like(jax.lax.slice_in_dim(result, 0, 1, axis=axis), neutral),
                    jax.lax.slice_in_dim(result, 0, result.shape[axis] - 1, axis=axis),
                ],
                axis=axis,
            )
        if self.attrs["reverse"]:
            result = jnp.flip(result, axis)
        return wrap(result)

    return call


CumSum = primitive("CumSum", cumsum, dict(exclusive=False, reverse=False), _cum_call(cumsum))


CumProd = primitive("CumProd", cumprod, dict(exclusive=False, reverse=False), _cum_call(cumprod))


Cummax = primitive("Cummax", cummax, dict(axis=0))


Cummin = primitive("Cummin", cummin, dict(axis=0))
