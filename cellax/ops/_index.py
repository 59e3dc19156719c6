"""Indexing ops: gather/scatter families, masks, one_hot, sort/topk, unique/nonzero.

Ops whose output shape depends on the input values (``unique``, ``masked_select``,
``nonzero``, ``bincount`` ...) run eagerly only and raise a clear error under tracing.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._limits import check_alloc
from ._primitive import primitive
from ._utils import (
    arr,
    array,
    check_axis,
    check_eager,
    check_index_range,
    check_int_arg,
    check_nd_index_range,
    check_rank,
    wrap,
)

__all__ = [
    "gather",
    "gather_elements",
    "gather_d",
    "gather_nd",
    "index_select",
    "take",
    "scatter",
    "scatter_add",
    "scatter_nd",
    "scatter_update",
    "tensor_scatter_update",
    "tensor_scatter_add",
    "tensor_scatter_sub",
    "tensor_scatter_mul",
    "tensor_scatter_div",
    "tensor_scatter_max",
    "tensor_scatter_min",
    "tensor_scatter_elements",
    "index_add",
    "index_fill",
    "masked_fill",
    "masked_select",
    "one_hot",
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
    "sequence_mask",
    "Gather",
    "GatherD",
    "GatherNd",
    "OneHot",
    "TopK",
    "Sort",
    "ScatterNd",
    "TensorScatterUpdate",
    "TensorScatterAdd",
    "Unique",
    "MaskedFill",
    "MaskedSelect",
    "NonZero",
]

_INDEX_HINT = "Compute it outside the compiled function, or use a fixed-size alternative."


def _index_array(api, index, name="indices"):
    value = array(index, api, name)
    if not _dtype.is_integer(value.dtype):
        raise TypeError(
            f"For '{api}', '{name}' must be an integer Tensor, but got dtype {value.dtype}."
        )
    return value


def gather(input_params, input_indices, axis, batch_dims=0):
    """Take slices of ``input_params`` along ``axis`` at ``input_indices``.

    The output shape is ``params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]``.

    Out-of-range indices raise RuntimeError in eager mode, as on MindSpore CPU; negative ones
    count from the end of ``axis``.

    Differences from MindSpore: under ``jit``/GRAPH_MODE out-of-range indices are clamped
    (values unknown while compiling); ``jit(..., check_indices=True)`` raises after the run and
    commits nothing, for every indexing op (docs/debugging.md).

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1., 3., 3.], [2., 2., 0.]])
        >>> print(ms.ops.gather(x, ms.Tensor([1, 0]), 1))
        [[3. 1.]
         [2. 2.]]
        >>> checked = ms.jit(lambda x, i: ms.ops.gather(x, i, 1), check_indices=True)
        >>> checked(x, ms.Tensor([5]))
        Traceback (most recent call last):
        ...
        RuntimeError: For 'gather', 'input_indices' must be within the range [-3, 3), but ...
    """
    x = array(input_params, "gather", "input_params")
    index = _index_array("gather", input_indices, "input_indices")
    axis = check_axis("gather", axis, x.ndim)
    check_int_arg("gather", "batch_dims", batch_dims, 0)
    check_index_range("gather", "input_indices", index, x.shape[axis])
    index = jnp.where(index < 0, index + x.shape[axis], index)
    fn = lambda p, i, a: jnp.take(p, i, axis=a, mode="clip")  # noqa: E731
    for _ in range(batch_dims):
        fn = jax.vmap(fn, in_axes=(0, 0, None))
    return wrap(fn(x, index, axis - batch_dims))


def gather_elements(input, dim, index):
    """``out[i][j] = input[index[i][j]][j]`` for ``dim=0`` (``take_along_axis``).

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> print(ms.ops.gather_elements(x, 1, ms.Tensor([[0, 0], [1, 0]])))
        [[1 1]
         [4 3]]
    """
    x = array(input, "gather_elements")
    index = _index_array("gather_elements", index, "index")
    dim = check_axis("gather_elements", dim, x.ndim, "dim")
    if index.ndim != x.ndim:
        raise ValueError(
            f"For 'gather_elements', 'index' must have the rank of 'input' "
            f"({x.ndim}), but got shape {index.shape}."
        )
    check_index_range("gather_elements", "index", index, x.shape[dim])
    return wrap(jnp.take_along_axis(x, index, axis=dim, mode="clip"))


def gather_d(x, dim, index):
    """Alias of :func:`gather_elements`."""
    return gather_elements(x, dim, index)


def gather_nd(input_x, indices):
    """Gather slices addressed by the last dimension of ``indices``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> print(ms.ops.gather_nd(x, ms.Tensor([[0, 1], [1, 0]])))
        [2 3]
    """
    x = array(input_x, "gather_nd", "input_x")
    index = _index_array("gather_nd", indices)
    if index.shape[-1] > x.ndim:
        raise ValueError(
            f"For 'gather_nd', the last dimension of 'indices' must be at most the "
            f"rank of 'input_x' ({x.ndim}), but got {index.shape}."
        )
    check_nd_index_range("gather_nd", "indices", index, x.shape)
    return wrap(x[tuple(jnp.moveaxis(index, -1, 0))])


def index_select(input, axis, index):
    """Select entries along ``axis`` at the 1-D ``index``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.index_select(ms.Tensor([[1, 2], [3, 4]]), 1, ms.Tensor([1])))
        [[2]
         [4]]
    """
    x = array(input, "index_select")
    index = _index_array("index_select", index, "index")
    axis = check_axis("index_select", axis, x.ndim)
    if index.ndim > 1:
        raise ValueError(f"For 'index_select', 'index' must be 1-D, but got shape {index.shape}.")
    check_index_range("index_select", "index", index, x.shape[axis])
    return wrap(jnp.take(x, index, axis=axis, mode="clip"))


def take(input, index):
    """Elements of the flattened ``input`` at ``index``."""
    return wrap(
        jnp.take(
            array(input, "take").reshape(-1), _index_array("take", index, "index"), mode="clip"
        )
    )


def _element_grid(index, axis):
    grids = list(jnp.meshgrid(*[jnp.arange(d) for d in index.shape], indexing="ij"))
    grids[axis] = index
    return tuple(grids)


def scatter(input, axis, index, src):
    """``out[index[i][j]][j] = src[i][j]`` for ``axis=0`` (elementwise scatter).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.zeros((2, 2))
        >>> print(ms.ops.scatter(x, 1, ms.Tensor([[1], [0]]), ms.Tensor([[5.], [6.]])))
        [[0. 5.]
         [6. 0.]]
    """
    x = array(input, "scatter")
    index = _index_array("scatter", index, "index")
    axis = check_axis("scatter", axis, x.ndim)
    updates = arr(src, "scatter", "src")
    if hasattr(updates, "ndim") and updates.ndim:
        updates = updates[tuple(slice(0, d) for d in index.shape)]
    return wrap(x.at[_element_grid(index, axis)].set(updates))


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """Elementwise scatter with ``reduction`` 'none' or 'add'."""
    x = array(input_x, "tensor_scatter_elements", "input_x")
    index = _index_array("tensor_scatter_elements", indices)
    axis = check_axis("tensor_scatter_elements", axis, x.ndim)
    ref = x.at[_element_grid(index, axis)]
    if reduction == "none":
        return wrap(ref.set(arr(updates)))
    if reduction == "add":
        return wrap(ref.add(arr(updates)))
    raise ValueError(
        f"For 'tensor_scatter_elements', 'reduction' must be 'none' or 'add', but "
        f"got {reduction!r}."
    )


def _nd(index):
    return tuple(jnp.moveaxis(index, -1, 0))


def _tensor_scatter(name, method):
    def op(input_x, indices, updates):
        x = array(input_x, name, "input_x")
        index = _index_array(name, indices)
        values = array(updates, name, "updates")
        expected = index.shape[:-1] + x.shape[index.shape[-1] :]
        if values.shape != expected:
            raise ValueError(
                f"For '{name}', 'updates' must have shape indices.shape[:-1] + "
                f"input_x.shape[indices.shape[-1]:] = {expected}, but got {values.shape}."
            )
        check_nd_index_range(name, "indices", index, x.shape, ValueError)
        return wrap(getattr(x.at[_nd(index)], method)(values.astype(x.dtype)))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"Return ``input_x`` with the slices addressed by the last dimension of ``indices``\n"
        f"    updated by ``{method}`` with ``updates``.\n\n    Examples:\n"
        f"        >>> import cellax as ms\n        >>> x = ms.ops.ones((2, 2))\n"
        f"        >>> ms.ops.{name}(x, ms.Tensor([[0, 1]]), ms.Tensor([3.])).shape\n"
        f"        (2, 2)\n"
    )
    return op


tensor_scatter_update = _tensor_scatter("tensor_scatter_update", "set")
tensor_scatter_add = _tensor_scatter("tensor_scatter_add", "add")
tensor_scatter_mul = _tensor_scatter("tensor_scatter_mul", "multiply")
tensor_scatter_div = _tensor_scatter("tensor_scatter_div", "divide")
tensor_scatter_max = _tensor_scatter("tensor_scatter_max", "max")
tensor_scatter_min = _tensor_scatter("tensor_scatter_min", "min")


def tensor_scatter_sub(input_x, indices, updates):
    """Like :func:`tensor_scatter_add` with ``-updates``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_scatter_sub(ms.ops.ones(3), ms.Tensor([[1]]), ms.Tensor([2.])))
        [ 1. -1.  1.]
    """
    return tensor_scatter_add(input_x, indices, -array(updates, "tensor_scatter_sub", "updates"))


def scatter_nd(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (last dim addresses).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scatter_nd(ms.Tensor([[1], [1]]), ms.Tensor([1., 2.]), (3,)))
        [0. 3. 0.]
    """
    values = array(updates, "scatter_nd", "updates")
    index = _index_array("scatter_nd", indices)
    check_nd_index_range("scatter_nd", "indices", index, tuple(shape))
    return wrap(jnp.zeros(tuple(shape), values.dtype).at[_nd(index)].add(values))


def scatter_add(input_x, indices, updates):
    """Add ``updates`` into rows ``indices`` of ``input_x`` (repeated indices accumulate).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scatter_add(ms.ops.zeros(3), ms.Tensor([0, 0]), ms.Tensor([1., 2.])))
        [3. 0. 0.]
    """
    x = array(input_x, "scatter_add", "input_x")
    index = _index_array("scatter_add", indices)
    return wrap(x.at[index].add(array(updates, "scatter_add", "updates").astype(x.dtype)))


def scatter_update(input_x, indices, updates):
    """Set rows ``indices`` of ``input_x`` to ``updates``."""
    x = array(input_x, "scatter_update", "input_x")
    index = _index_array("scatter_update", indices)
    return wrap(x.at[index].set(array(updates).astype(x.dtype)))


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """Add ``y`` into ``x`` at ``indices`` along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.index_add(ms.ops.zeros((2, 2)), ms.Tensor([1]), ms.ops.ones((2, 1)), 1))
        [[0. 1.]
         [0. 1.]]
    """
    value = array(x, "index_add", "x")
    axis = check_axis("index_add", axis, value.ndim)
    index = _index_array("index_add", indices)
    where = (slice(None),) * axis + (index,)
    return wrap(value.at[where].add(array(y).astype(value.dtype)))


def index_fill(x, axis, index, value):
    """Fill ``x`` with ``value`` at ``index`` along ``axis``."""
    data = array(x, "index_fill", "x")
    axis = check_axis("index_fill", axis, data.ndim)
    where = (slice(None),) * axis + (_index_array("index_fill", index, "index"),)
    return wrap(data.at[where].set(jnp.asarray(arr(value), data.dtype)))


def masked_fill(input_x, mask, value):
    """``value`` where ``mask`` is True, else ``input_x`` (keeps ``input_x``'s dtype).

    Raises:
        TypeError: If ``mask`` is not a bool Tensor.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1., 2., 3.])
        >>> print(ms.ops.masked_fill(x, x > 1.5, 0.))
        [1. 0. 0.]
    """
    x = array(input_x, "masked_fill", "input_x")
    condition = array(mask, "masked_fill", "mask")
    if condition.dtype != jnp.bool_:
        raise TypeError(
            f"For 'masked_fill', 'mask' must be a bool Tensor, but got dtype {condition.dtype}."
        )
    return wrap(jnp.where(condition, jnp.asarray(arr(value), x.dtype), x))


def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` is True, as a 1-D Tensor (eager only).

    Raises:
        RuntimeError: Under tracing (the output size depends on the mask values).

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1., 2., 3.])
        >>> print(ms.ops.masked_select(x, x > 1.5))
        [2. 3.]
    """
    x, condition = array(input, "masked_select"), array(mask, "masked_select", "mask")
    check_eager(
        "masked_select",
        x,
        condition,
        hint="Use ops.masked_fill or ops.select to keep a fixed shape.",
    )
    x, condition = jnp.broadcast_arrays(x, condition)
    return wrap(x[np.asarray(condition)])


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot encoding of ``indices`` with ``depth`` classes inserted at ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.one_hot(ms.Tensor([0, 2]), 3, 1., 0.))
        [[1. 0. 0.]
         [0. 0. 1.]]
    """
    index = _index_array("one_hot", indices)
    check_int_arg("one_hot", "depth", depth, 0)
    on, off = arr(on_value), arr(off_value)
    if isinstance(on, float):
        dtype = jnp.float32
    elif isinstance(on, int):
        dtype = jnp.int64
    else:
        dtype = on.dtype
    axis = check_axis("one_hot", axis, index.ndim + 1)
    check_alloc("one_hot", "depth", (*index.shape, depth), jnp.dtype(dtype).itemsize)
    hot = jax.nn.one_hot(index, depth, axis=axis, dtype=jnp.bool_)
    return wrap(jnp.where(hot, jnp.asarray(on, dtype), jnp.asarray(off, dtype)))


def _sort_parts(api, x, axis, descending):
    axis = check_axis(api, axis, x.ndim)
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
    x = array(input_x, "sort", "input_x")
    index, axis = _sort_parts("sort", x, axis, descending)
    return wrap(jnp.take_along_axis(x, index, axis=axis)), wrap(index.astype(jnp.int32))


def argsort(input, axis=-1, descending=False):
    """Indices (Int32) that sort ``input`` along ``axis`` (stable).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.argsort(ms.Tensor([1., 3., 2.])))
        [0 2 1]
    """
    x = array(input, "argsort")
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

    Differences from MindSpore: among tied values MindSpore's CPU kernel returns the indices
    in its heap's order (``[2, 4]`` for the 3s of ``[1, 3, 3, 2, 3]``); cellax returns the
    lowest indices first, as MindSpore's GPU kernel and PyTorch do.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.topk(ms.Tensor([1., 3., 2.]), 2)
        >>> print(values, indices)
        [3. 2.] [1 2]
    """
    x = array(input, "topk")
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
    x = array(input, "unique")
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
    x = array(input, "unique_consecutive")
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
    x = array(input, "nonzero")
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
    seq = array(sorted_sequence, "searchsorted", "sorted_sequence")
    vals = array(values, "searchsorted", "values")
    side = side or ("right" if right else "left")
    if sorter is not None:
        seq = jnp.take_along_axis(seq, array(sorter), axis=-1)
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
    x = array(input, "bucketize")
    return wrap(jnp.searchsorted(bounds, x, side="right" if right else "left").astype(jnp.int32))


def bincount(input, weights=None, minlength=0):
    """Count occurrences of each non-negative int (eager only: the length depends on values).

    The counts are Float32, as in MindSpore 2.10 (with or without ``weights``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bincount(ms.Tensor([0, 2, 2])))
        [1. 0. 2.]
    """
    x = _index_array("bincount", input, "input")
    check_eager("bincount", x, hint="Pass 'length' through jnp.bincount on the .jax array.")
    length = max(int(np.max(np.asarray(x), initial=-1)) + 1, minlength)
    w = None if weights is None else array(weights)
    return wrap(jnp.bincount(x, w, length=length).astype(jnp.float32))


def sequence_mask(lengths, maxlen=None):
    """Bool mask ``[..., maxlen]`` that is True below each length.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.sequence_mask(ms.Tensor([1, 2]), 3))
        [[ True False False]
         [ True  True False]]
    """
    length = array(lengths, "sequence_mask", "lengths")
    if maxlen is None:
        check_eager("sequence_mask", length, hint="Pass 'maxlen' explicitly.")
        maxlen = int(np.max(np.asarray(length)))
    return wrap(jnp.arange(maxlen) < length[..., None])


# -- primitive classes -------------------------------------------------------------------------

Gather = primitive("Gather", gather, dict(batch_dims=0))
GatherD = primitive("GatherD", gather_d)
GatherNd = primitive("GatherNd", gather_nd)
OneHot = primitive("OneHot", one_hot, dict(axis=-1))
TopK = primitive("TopK", top_k, dict(sorted=True))
Sort = primitive("Sort", sort, dict(axis=-1, descending=False))
ScatterNd = primitive("ScatterNd", scatter_nd)
TensorScatterUpdate = primitive("TensorScatterUpdate", tensor_scatter_update)
TensorScatterAdd = primitive("TensorScatterAdd", tensor_scatter_add)
Unique = primitive("Unique", unique)
MaskedFill = primitive("MaskedFill", masked_fill)
MaskedSelect = primitive("MaskedSelect", masked_select)
NonZero = primitive("NonZero", nonzero)
