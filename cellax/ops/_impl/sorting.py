"""Sorting, searching and counting: ``sort``, ``argsort``, ``topk``, ``unique``,
``nonzero``, ``searchsorted``, ``bucketize``, ``bincount``.

Ops whose output shape depends on the input values (``unique``, ``nonzero``,
``bincount`` ...) run eagerly only and raise a clear error under tracing.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .indexing import _index_array
from .primitive import primitive
from .utils import (
    arr,
    check_axis,
    check_eager,
    check_int_arg,
    check_min_rank,
    check_rank,
    wrap,
)

__all__ = [
    "sort",
    "argsort",
    "msort",
    "topk",
    "top_k",
    "unique",
    "unique_consecutive",
    "nonzero",
    "argwhere",
    "searchsorted",
    "bucketize",
    "bincount",
    "TopK",
    "Sort",
    "Unique",
    "NonZero",
]

_INDEX_HINT = "Compute it outside the compiled function, or use a fixed-size alternative."


def _sort_parts(api, x, axis, descending):
    axis = check_axis(api, axis, check_min_rank(api, x).ndim)
    index = jnp.argsort(x, axis=axis, stable=True, descending=descending)
    return index, axis


def sort(input_x, axis=-1, descending=False):
    """Sort along ``axis`` (stable): returns ``(values, indices)`` with Int32 indices.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.sort(ms.Tensor([1., 3., 2.]))
        >>> print(values, indices)
        [1. 2. 3.] [0 2 1]
    """
    x = arr(input_x, "sort", "input_x", tensor=True)
    index, axis = _sort_parts("sort", x, axis, descending)
    return wrap(jnp.take_along_axis(x, index, axis=axis)), wrap(index.astype(jnp.int32))


def argsort(input, axis=-1, descending=False):
    """Indices (Int32) that sort ``input`` along ``axis`` (stable).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.argsort(ms.Tensor([1., 3., 2.])))
        [0 2 1]
    """
    x = arr(input, "argsort", tensor=True)
    return wrap(_sort_parts("argsort", x, axis, descending)[0].astype(jnp.int32))


def msort(input):
    """Values sorted along dim 0."""
    return sort(input, 0)[0]


def topk(input, k, dim=None, largest=True, sorted=True):
    """The ``k`` largest (or smallest) entries along ``dim`` (last when None).

    Returns:
        Tuple ``(values, indices)``, Int32 indices; ties keep the lower index first.

    Raises:
        ValueError: If ``k`` exceeds the size of ``dim``.

    Differences from MindSpore: the values agree, but among tied values MindSpore 2.10's CPU
    kernel returns the indices in an order of its own (``[2, 3]`` for the two 5s of
    ``[5, 1, 5, 5]``); cellax returns the lowest indices first (``[0, 2]``), as MindSpore's GPU
    kernel and PyTorch do. Code that needs particular indices among ties should not rely on
    either order: break the ties itself, e.g. by adding a small index-dependent offset to the
    input before ``topk``.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.topk(ms.Tensor([1., 3., 2.]), 2)
        >>> print(values, indices)
        [3. 2.] [1 2]
    """
    x = check_min_rank("topk", arr(input, "topk", tensor=True), error=RuntimeError)
    if x.dtype == jnp.bool_:  # MindSpore's TopK takes numbers only, on every device
        raise TypeError("For 'topk', 'input' must be a number Tensor, but got dtype Bool.")
    dim = check_axis("topk", -1 if dim is None else dim, x.ndim, "dim")
    check_int_arg("topk", "k", k, 0)
    size = x.shape[dim] if x.ndim else 1
    if k > size:
        raise ValueError(
            f"For 'topk', 'k' must be at most the size of dimension {dim} ({size}), but got {k}."
        )
    moved = jnp.moveaxis(x, dim, -1)
    if largest:
        values, index = jax.lax.top_k(moved, k)
    else:
        order = jnp.argsort(moved, axis=-1, stable=True)[..., :k]
        values, index = jnp.take_along_axis(moved, order, axis=-1), order
    return (
        wrap(jnp.moveaxis(values, -1, dim)),
        wrap(jnp.moveaxis(index, -1, dim).astype(jnp.int32)),
    )


def top_k(input_x, k, sorted=True):
    """:func:`topk` along the last dimension."""
    return topk(input_x, k, None, True, sorted)


def unique(input):
    """Unique elements in order of first appearance, and the inverse indices (eager only).

    Examples:
        >>> import cellax as ms
        >>> output, inverse = ms.ops.unique(ms.Tensor([3, 1, 3, 2]))
        >>> print(output, inverse)
        [3 1 2] [0 1 0 2]
    """
    x = arr(input, "unique", keep_scalars=False)
    check_eager("unique", x, hint=_INDEX_HINT)
    flat = np.asarray(x).reshape(-1)
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    inverse_dtype = np.int64 if x.dtype == np.int64 else np.int32
    return (
        wrap(jnp.asarray(flat[first[order]])),
        wrap(jnp.asarray(rank[inverse.reshape(-1)].reshape(x.shape), inverse_dtype)),
    )


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (flattened; eager only).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.unique_consecutive(ms.Tensor([1, 1, 2, 2, 1])))
        [1 2 1]
    """
    x = arr(input, "unique_consecutive", keep_scalars=False)
    check_eager("unique_consecutive", x, hint=_INDEX_HINT)
    if dim is not None:
        raise NotImplementedError("For 'unique_consecutive', only dim=None is supported.")
    flat = np.asarray(x).reshape(-1)
    starts = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0, bool)
    output = wrap(jnp.asarray(flat[starts]))
    extras = []
    if return_inverse:
        extras.append(wrap(jnp.asarray((np.cumsum(starts) - 1).reshape(x.shape))))
    if return_counts:
        positions = np.flatnonzero(starts)
        extras.append(wrap(jnp.asarray(np.diff(np.append(positions, flat.size)))))
    return (output, *extras) if extras else output


def nonzero(input, *, as_tuple=False):
    """Indices (Int64) of the nonzero elements, one row per element (eager only).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.nonzero(ms.Tensor([[1., 0.], [0., 2.]])))
        [[0 0]
         [1 1]]
    """
    x = arr(input, "nonzero", keep_scalars=False)
    check_eager("nonzero", x, hint=_INDEX_HINT)
    found = np.nonzero(np.asarray(x))
    if as_tuple:
        return tuple(wrap(jnp.asarray(f, jnp.int64)) for f in found)
    return wrap(jnp.asarray(np.stack(found, axis=1), jnp.int64))


def argwhere(input):
    """Like :func:`nonzero`."""
    return nonzero(input)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Insertion indices of ``values`` into the sorted last dimension of ``sorted_sequence``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.searchsorted(ms.Tensor([1., 3., 5.]), ms.Tensor([3., 6.])))
        [1 3]
    """
    seq = arr(sorted_sequence, "searchsorted", "sorted_sequence", tensor=True)
    vals = arr(values, "searchsorted", "values", tensor=True)
    check_min_rank("searchsorted", seq, name="sorted_sequence")
    if seq.ndim > 1 and (seq.shape[:-1] != vals.shape[:-1] or vals.ndim != seq.ndim):
        raise ValueError(
            f"For 'searchsorted', 'values' must have the leading dimensions of "
            f"'sorted_sequence' {tuple(seq.shape[:-1])}, but got shape {tuple(vals.shape)}."
        )
    side = side or ("right" if right else "left")
    if sorter is not None:
        seq = jnp.take_along_axis(seq, arr(sorter, keep_scalars=False), axis=-1)
    fn = lambda s, v: jnp.searchsorted(s, v, side=side)  # noqa: E731
    for _ in range(seq.ndim - 1):
        fn = jax.vmap(fn)
    result = fn(seq, vals)
    return wrap(result.astype(jnp.int32 if out_int32 else jnp.int64))


def bucketize(input, boundaries, *, right=False):
    """Bucket index of each element for the sorted 1-D ``boundaries``."""
    numbers = isinstance(boundaries, (list, tuple)) and all(
        isinstance(b, (int, float, np.number)) and type(b) is not bool for b in boundaries
    )
    if not hasattr(boundaries, "_value") and not numbers:
        raise TypeError(
            f"For 'bucketize', 'boundaries' must be a list of numbers, but got {boundaries!r}."
        )
    bounds = jnp.asarray(boundaries if not hasattr(boundaries, "_value") else arr(boundaries))
    check_rank("bucketize", bounds, 1, "boundaries")
    x = arr(input, "bucketize", keep_scalars=False)
    return wrap(jnp.searchsorted(bounds, x, side="right" if right else "left").astype(jnp.int32))


def bincount(input, weights=None, minlength=0):
    """Count occurrences of each non-negative int (eager only: the length depends on values).

    The counts are Float32, as in MindSpore 2.10 (with or without ``weights``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bincount(ms.Tensor([0, 2, 2])))
        [1. 0. 2.]
    """
    # the rank first, then the dtype (MindSpore's order)
    x = check_rank("bincount", arr(input, "bincount", tensor=True), 1)
    x = _index_array("bincount", x, "input")
    check_eager("bincount", x, hint="Pass 'length' through jnp.bincount on the .jax array.")
    length = max(int(np.max(np.asarray(x), initial=-1)) + 1, minlength)
    w = None if weights is None else arr(weights, keep_scalars=False)
    return wrap(jnp.bincount(x, w, length=length).astype(jnp.float32))


TopK = primitive("TopK", top_k, dict(sorted=True))


Sort = primitive("Sort", sort, dict(axis=-1, descending=False))


Unique = primitive("Unique", unique)


NonZero = primitive("NonZero", nonzero)
