"""Scattering values into a Tensor: ``scatter`` and ``tensor_scatter_*``, ``scatter_nd``
and the ``scatter_nd_*`` family, ``scatter_max``/``scatter_min``/..., ``index_add``,
``index_fill``, ``masked_fill`` and the ``*_scatter`` embeddings.

Differences from MindSpore: the ``scatter_*`` ops on a Parameter return the updated value
and leave the Parameter unchanged (cellax's scatter ops are functional); assign the result.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .indexing import _index_array
from .primitive import primitive
from .utils import (
    alloc_shape,
    arr,
    check_axis,
    check_broadcast,
    check_nd_index_range,
    check_real,
    wrap,
)

__all__ = [
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
    "ScatterNd",
    "TensorScatterUpdate",
    "TensorScatterAdd",
    "MaskedFill",
    "diagonal_scatter",
    "select_scatter",
    "slice_scatter",
    "scatter_max",
    "scatter_min",
    "scatter_mul",
    "scatter_div",
    "scatter_nd_add",
    "scatter_nd_sub",
    "scatter_nd_mul",
    "scatter_nd_div",
    "scatter_nd_max",
    "scatter_nd_min",
    "scatter_nd_update",
]


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
    x = arr(input, "scatter", keep_scalars=False)
    index = _index_array("scatter", index, "index")
    axis = check_axis("scatter", axis, x.ndim)
    updates = arr(src, "scatter", "src")
    if hasattr(updates, "ndim") and updates.ndim:
        updates = updates[tuple(slice(0, d) for d in index.shape)]
    return wrap(x.at[_element_grid(index, axis)].set(updates))


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """Elementwise scatter with ``reduction`` 'none' or 'add'."""
    x = arr(input_x, "tensor_scatter_elements", "input_x", keep_scalars=False)
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
        x = arr(input_x, name, "input_x", keep_scalars=False)
        index = _index_array(name, indices)
        values = arr(updates, name, "updates", keep_scalars=False)
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
    return tensor_scatter_add(
        input_x, indices, -arr(updates, "tensor_scatter_sub", "updates", keep_scalars=False)
    )


def scatter_nd(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (last dim addresses).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scatter_nd(ms.Tensor([[1], [1]]), ms.Tensor([1., 2.]), (3,)))
        [0. 3. 0.]
    """
    values = arr(updates, "scatter_nd", "updates", tensor=True)
    index = arr(indices, "scatter_nd", "indices", tensor=True)
    shape = alloc_shape("scatter_nd", shape, dtype=values.dtype)
    if not index.ndim or index.shape[-1] > len(shape):  # the shape first (MindSpore's order)
        raise ValueError(
            f"For 'scatter_nd', 'indices' must have at least 1 dimension and a last dimension "
            f"of at most len(shape)={len(shape)}, but got shape {tuple(index.shape)}."
        )
    index = _index_array("scatter_nd", index)
    expected = tuple(index.shape[:-1]) + shape[index.shape[-1] :]
    if tuple(values.shape) != expected:
        raise ValueError(
            f"For 'scatter_nd', 'updates' must have the shape indices.shape[:-1] + "
            f"shape[indices.shape[-1]:] = {expected}, but got {tuple(values.shape)}."
        )
    check_nd_index_range("scatter_nd", "indices", index, shape)
    return wrap(jnp.zeros(shape, values.dtype).at[_nd(index)].add(values))


def scatter_add(input_x, indices, updates):
    """Add ``updates`` into rows ``indices`` of ``input_x`` (repeated indices accumulate).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scatter_add(ms.ops.zeros(3), ms.Tensor([0, 0]), ms.Tensor([1., 2.])))
        [3. 0. 0.]
    """
    x = arr(input_x, "scatter_add", "input_x", keep_scalars=False)
    index = _index_array("scatter_add", indices)
    return wrap(
        x.at[index].add(arr(updates, "scatter_add", "updates", keep_scalars=False).astype(x.dtype))
    )


def scatter_update(input_x, indices, updates):
    """Set rows ``indices`` of ``input_x`` to ``updates``."""
    x = arr(input_x, "scatter_update", "input_x", keep_scalars=False)
    index = _index_array("scatter_update", indices)
    return wrap(x.at[index].set(arr(updates, keep_scalars=False).astype(x.dtype)))


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """Add ``y`` into ``x`` at ``indices`` along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.index_add(ms.ops.zeros((2, 2)), ms.Tensor([1]), ms.ops.ones((2, 1)), 1))
        [[0. 1.]
         [0. 1.]]
    """
    value = arr(x, "index_add", "x", keep_scalars=False)
    axis = check_axis("index_add", axis, value.ndim)
    index = _index_array("index_add", indices)
    where = (slice(None),) * axis + (index,)
    return wrap(value.at[where].add(arr(y, keep_scalars=False).astype(value.dtype)))


def index_fill(x, axis, index, value):
    """Fill ``x`` with ``value`` at ``index`` along ``axis``."""
    data = arr(x, "index_fill", "x", keep_scalars=False)
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
    x = arr(input_x, "masked_fill", "input_x", tensor=True)
    condition = arr(mask, "masked_fill", "mask", keep_scalars=False)
    value = check_real("masked_fill", "value", value)
    check_broadcast("masked_fill", input_x=x, mask=condition, value=value)  # first, as MindSpore
    if condition.dtype != jnp.bool_:
        raise TypeError(
            f"For 'masked_fill', 'mask' must be a bool Tensor, but got dtype {condition.dtype}."
        )
    return wrap(jnp.where(condition, jnp.asarray(value, x.dtype), x))


ScatterNd = primitive("ScatterNd", scatter_nd)


TensorScatterUpdate = primitive("TensorScatterUpdate", tensor_scatter_update)


TensorScatterAdd = primitive("TensorScatterAdd", tensor_scatter_add)


MaskedFill = primitive("MaskedFill", masked_fill)


def _int_index(api, indices):
    index = arr(indices, api, "indices", keep_scalars=False)
    if np.dtype(index.dtype).kind not in "iu":
        raise TypeError(f"For '{api}', 'indices' must be an integer Tensor, but got {index.dtype}.")
    return index


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """Embed ``src`` on the ``offset`` diagonal of the ``(dim1, dim2)`` planes of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diagonal_scatter(ms.ops.zeros((2, 2)), ms.Tensor([1., 2.])))
        [[1. 0.]
         [0. 2.]]
    """
    api = "diagonal_scatter"
    x, s = arr(input, api, keep_scalars=False), arr(src, api, "src", keep_scalars=False)
    dim1, dim2 = check_axis(api, dim1, x.ndim, "dim1"), check_axis(api, dim2, x.ndim, "dim2")
    moved = jnp.moveaxis(x, (dim1, dim2), (-2, -1))
    rows, cols = moved.shape[-2:]
    start_r, start_c = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(min(rows - start_r, cols - start_c), 0)
    if s.shape[-1:] != (length,):
        raise ValueError(
            f"For '{api}', the last dimension of 'src' must be the diagonal length {length}, "
            f"but got shape {tuple(s.shape)}."
        )
    r = np.arange(length) + start_r
    c = np.arange(length) + start_c
    moved = moved.at[..., r, c].set(s.astype(x.dtype))
    return wrap(jnp.moveaxis(moved, (-2, -1), (dim1, dim2)))


def select_scatter(input, src, axis, index):
    """Embed ``src`` at position ``index`` of ``axis`` of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.select_scatter(ms.ops.zeros((2, 2)), ms.Tensor([1., 2.]), 0, 1))
        [[0. 0.]
         [1. 2.]]
    """
    api = "select_scatter"
    x, s = arr(input, api, keep_scalars=False), arr(src, api, "src", keep_scalars=False)
    axis = check_axis(api, axis, x.ndim)
    if not -x.shape[axis] <= index < x.shape[axis]:
        raise ValueError(
            f"For '{api}', 'index' must be in [{-x.shape[axis]}, {x.shape[axis]}), but got {index}."
        )
    where = (slice(None),) * axis + (index,)
    return wrap(x.at[where].set(s.astype(x.dtype)))


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """Embed ``src`` into ``input[start:end:step]`` along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.slice_scatter(ms.ops.zeros(4), ms.Tensor([1., 2.]), 0, 0, 4, 2))
        [1. 0. 2. 0.]
    """
    api = "slice_scatter"
    x, s = arr(input, api, keep_scalars=False), arr(src, api, "src", keep_scalars=False)
    axis = check_axis(api, axis, x.ndim)
    where = (slice(None),) * axis + (slice(start, end, step),)
    return wrap(x.at[where].set(s.astype(x.dtype)))


def _scatter_rows(api, method):
    def op(input_x, indices, updates):
        x = arr(input_x, api, "input_x", keep_scalars=False)
        index = _int_index(api, indices)
        values = arr(updates, api, "updates", keep_scalars=False).astype(x.dtype)
        return wrap(getattr(x.at[index], method)(values))

    return op


def _named(fn, name, summary, index="[[0], [2]]"):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (
        f"{summary}\n\n    Args:\n        input_x (Tensor): The target.\n"
        f"        indices (Tensor): Integer indices into the first dimension (or index tuples "
        f"for the ``scatter_nd`` ops).\n        updates (Tensor): The values.\n\n"
        f"    Returns:\n        Tensor, the updated copy of ``input_x``.\n\n"
        f"    Examples:\n        >>> import cellax as ms\n"
        f"        >>> ms.ops.{name}(ms.ops.ones((3, 2)), ms.Tensor({index}), "
        f"ms.ops.ones((2, 2))).shape\n        (3, 2)\n"
    )
    return fn


def _rows(name, method, summary):
    return _named(_scatter_rows(name, method), name, summary, "[0, 2]")


scatter_max = _rows("scatter_max", "max", "Elementwise maximum of ``updates`` into rows.")


scatter_min = _rows("scatter_min", "min", "Elementwise minimum of ``updates`` into rows.")


scatter_mul = _rows("scatter_mul", "multiply", "Multiply rows ``indices`` by ``updates``.")


scatter_div = _rows("scatter_div", "divide", "Divide rows ``indices`` by ``updates``.")


def _scatter_nd(api, method):
    def op(input_x, indices, updates, use_locking=False):
        x = arr(input_x, api, "input_x", keep_scalars=False)
        index = _int_index(api, indices)
        depth = index.shape[-1]
        where = tuple(index[..., i] for i in range(depth))
        values = arr(updates, api, "updates", keep_scalars=False).astype(x.dtype)
        if method == "subtract":
            return wrap(x.at[where].add(-values))
        return wrap(getattr(x.at[where], method)(values))

    return _named(op, api, f"``{method}`` of ``updates`` at the index tuples ``indices``.")


scatter_nd_add = _scatter_nd("scatter_nd_add", "add")


scatter_nd_sub = _scatter_nd("scatter_nd_sub", "subtract")


scatter_nd_mul = _scatter_nd("scatter_nd_mul", "multiply")


scatter_nd_div = _scatter_nd("scatter_nd_div", "divide")


scatter_nd_max = _scatter_nd("scatter_nd_max", "max")


scatter_nd_min = _scatter_nd("scatter_nd_min", "min")


scatter_nd_update = _scatter_nd("scatter_nd_update", "set")
