"""Gathering and slicing: ``gather`` and its variants, ``index_select``, ``take``,
``masked_select``, ``one_hot``, ``sequence_mask``, ``strided_slice``.

Ops whose output shape depends on the input values (``masked_select``) run eagerly
only and raise a clear error under tracing.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._limits import check_alloc
from .primitive import primitive
from .utils import (
    arr,
    check_axis,
    check_min_rank,
    check_eager,
    check_index_range,
    check_int_arg,
    check_ints,
    check_nd_index_range,
    wrap,
)

__all__ = [
    "gather",
    "gather_elements",
    "gather_d",
    "gather_nd",
    "index_select",
    "take",
    "masked_select",
    "one_hot",
    "sequence_mask",
    "Gather",
    "GatherD",
    "GatherNd",
    "OneHot",
    "MaskedSelect",
    "strided_slice",
]


def _index_array(api, index, name="indices", tensor=False):
    """The integer array of an index argument (a Python number too, unless ``tensor``: the
    ops whose index MindSpore requires to be a Tensor); TypeError for another dtype."""
    value = arr(index, api, name, keep_scalars=False, tensor=tensor)
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
    x = arr(input_params, "gather", "input_params", tensor=True)
    index = _index_array("gather", input_indices, "input_indices", tensor=True)
    axis = check_axis("gather", axis, check_min_rank("gather", x, name="input_params").ndim)
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
    x = arr(input, "gather_elements", tensor=True)
    index = _index_array("gather_elements", index, "index", tensor=True)
    dim = check_axis("gather_elements", dim, x.ndim, "dim")
    if index.ndim != x.ndim:
        raise ValueError(
            f"For 'gather_elements', 'index' must have the rank of 'input' "
            f"({x.ndim}), but got shape {index.shape}."
        )
    if any(i > s for a, (i, s) in enumerate(zip(index.shape, x.shape)) if a != dim):
        raise ValueError(
            f"For 'gather_elements', 'index' must be no larger than 'input' in every dimension "
            f"but 'dim' ({dim}), but got index shape {tuple(index.shape)} and input shape "
            f"{tuple(x.shape)}."
        )
    check_index_range("gather_elements", "index", index, x.shape[dim])
    # the index's shape picks the leading part of the other dimensions (not a broadcast)
    x = x[tuple(slice(None) if a == dim else slice(0, i) for a, i in enumerate(index.shape))]
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
    x = arr(input_x, "gather_nd", "input_x", keep_scalars=False)
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
    x = arr(input, "index_select", tensor=True)
    index = arr(index, "index_select", "index", tensor=True)
    if index.ndim > 1:  # the rank first, then the dtype (MindSpore's order)
        raise ValueError(f"For 'index_select', 'index' must be 1-D, but got shape {index.shape}.")
    index = _index_array("index_select", index, "index")
    axis = check_axis("index_select", axis, x.ndim)
    check_index_range("index_select", "index", index, x.shape[axis])
    return wrap(jnp.take(x, index, axis=axis, mode="clip"))


def take(input, index):
    """Elements of the flattened ``input`` at ``index``.

    Raises:
        RuntimeError: If an index is outside ``[-input.size, input.size)`` (eagerly).
    """
    x = arr(input, "take", tensor=True).reshape(-1)
    index = _index_array("take", index, "index", tensor=True)
    check_index_range("take", "index", index, x.size)
    return wrap(jnp.take(x, index, mode="clip"))


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
    x, condition = (
        arr(input, "masked_select", keep_scalars=False),
        arr(mask, "masked_select", "mask", keep_scalars=False),
    )
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
    index = _index_array("one_hot", indices, tensor=True)
    check_int_arg("one_hot", "depth", depth, 0)
    on, off = (
        _fill_value(name, value)
        for name, value in (("on_value", on_value), ("off_value", off_value))
    )
    dtype, off_dtype = _fill_dtype(on), _fill_dtype(off)
    if dtype != off_dtype:  # MindSpore's OneHot checks this on every device
        raise TypeError(
            f"For 'one_hot', 'on_value' and 'off_value' must have the same dtype (a Python int "
            f"is Int64, a float Float32), but got {_dtype.from_numpy_dtype(dtype)} and "
            f"{_dtype.from_numpy_dtype(off_dtype)}."
        )
    axis = check_axis("one_hot", axis, index.ndim + 1)
    check_alloc("one_hot", "depth", (*index.shape, depth), jnp.dtype(dtype).itemsize)
    hot = jax.nn.one_hot(index, depth, axis=axis, dtype=jnp.bool_)
    return wrap(jnp.where(hot, jnp.asarray(on, dtype), jnp.asarray(off, dtype)))


def _fill_dtype(value):
    """The dtype a one-hot fill gives: a Python float Float32, an int Int64 (as MindSpore)."""
    if isinstance(value, bool):
        return np.dtype(np.bool_)
    if isinstance(value, float):
        return np.dtype(np.float32)
    if isinstance(value, int):
        return np.dtype(np.int64)
    if isinstance(value, complex):
        return np.dtype(np.complex64)
    return np.dtype(value.dtype)


def _fill_value(name, value):
    """A one-hot fill: a number, or a Tensor whose first element is used (as MindSpore does)."""
    value = arr(value, "one_hot", name)
    if isinstance(value, (int, float, bool, complex)):
        return value
    if not value.size:  # MindSpore 2.10 CPU reads memory outside the Tensor here
        raise ValueError(
            f"For 'one_hot', '{name}' must be a number or a Tensor with an element, but got an "
            f"empty Tensor of shape {tuple(value.shape)}."
        )
    return value.reshape(-1)[0]


def sequence_mask(lengths, maxlen=None):
    """Bool mask ``[..., maxlen]`` that is True below each length.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.sequence_mask(ms.Tensor([1, 2]), 3))
        [[ True False False]
         [ True  True False]]
    """
    length = arr(lengths, "sequence_mask", "lengths", tensor=True)
    if not _dtype.is_integer(length.dtype):
        raise TypeError(
            f"For 'sequence_mask', 'lengths' must be an integer Tensor, but got dtype "
            f"{_dtype.from_numpy_dtype(length.dtype)}."
        )
    if maxlen is None:
        check_eager("sequence_mask", length, hint="Pass 'maxlen' explicitly.")
        maxlen = int(np.max(np.asarray(length)))
    maxlen = check_int_arg("sequence_mask", "maxlen", maxlen, 1, maximum=2**31 - 1)
    check_alloc("sequence_mask", "maxlen", length.shape + (maxlen,), 1)
    return wrap(jnp.arange(maxlen) < length[..., None])


Gather = primitive("Gather", gather, dict(batch_dims=0))


GatherD = primitive("GatherD", gather_d)


GatherNd = primitive("GatherNd", gather_nd)


OneHot = primitive("OneHot", one_hot, dict(axis=-1))


MaskedSelect = primitive("MaskedSelect", masked_select)


def _bits(mask: int, n: int):
    return [bool(mask >> i & 1) for i in range(n)]


def strided_slice(
    input_x,
    begin,
    end,
    strides,
    begin_mask=0,
    end_mask=0,
    ellipsis_mask=0,
    new_axis_mask=0,
    shrink_axis_mask=0,
):
    """``input_x[begin:end:strides]`` with TensorFlow-style bit masks.

    Bit ``i`` of ``begin_mask``/``end_mask`` ignores ``begin[i]``/``end[i]`` (full range),
    of ``ellipsis_mask`` makes entry ``i`` an ellipsis, of ``new_axis_mask`` inserts a new axis,
    of ``shrink_axis_mask`` takes the single index ``begin[i]`` (dropping the dimension).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.arange(12).reshape(3, 4)
        >>> print(ms.ops.strided_slice(x, (0, 1), (3, 4), (2, 2)))
        [[ 1  3]
         [ 9 11]]
    """
    api = "strided_slice"
    x = arr(input_x, api, "input_x", keep_scalars=False)
    begin, end, strides = (
        check_ints(api, name, v, scalar=False)
        for name, v in (("begin", begin), ("end", end), ("strides", strides))
    )
    if not len(begin) == len(end) == len(strides):
        raise ValueError(
            f"For '{api}', 'begin', 'end' and 'strides' must have the same length, but got "
            f"{len(begin)}, {len(end)} and {len(strides)}."
        )
    if any(s == 0 for s in strides):
        raise ValueError(f"For '{api}', 'strides' can not contain 0, but got {strides}.")
    n = len(begin)
    bm, em = _bits(begin_mask, n), _bits(end_mask, n)
    elm, nam, sam = _bits(ellipsis_mask, n), _bits(new_axis_mask, n), _bits(shrink_axis_mask, n)
    key = []
    for i in range(n):
        if elm[i]:
            key.append(Ellipsis)
        elif nam[i]:
            key.append(None)
        elif sam[i]:
            key.append(int(begin[i]))
        else:
            key.append(
                slice(None if bm[i] else int(begin[i]), None if em[i] else int(end[i]), strides[i])
            )
    return wrap(x[tuple(key)])
