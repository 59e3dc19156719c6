"""Scatter and slicing ops added for MindSpore 2.10 coverage: the ``*_scatter`` embeddings,
``scatter_max``/``scatter_min``, the ``scatter_nd_*`` family, ``strided_slice`` and
``matrix_band_part``.

Differences from MindSpore: the ``scatter_*`` ops on a Parameter return the updated value
and leave the Parameter unchanged (cellax's scatter ops are functional); assign the result.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._utils import array, check_axis, check_ints, wrap

__all__ = [
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
    "strided_slice",
    "matrix_band_part",
]


def _int_index(api, indices):
    index = array(indices, api, "indices")
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
    x, s = array(input, api), array(src, api, "src")
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
    x, s = array(input, api), array(src, api, "src")
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
    x, s = array(input, api), array(src, api, "src")
    axis = check_axis(api, axis, x.ndim)
    where = (slice(None),) * axis + (slice(start, end, step),)
    return wrap(x.at[where].set(s.astype(x.dtype)))


def _scatter_rows(api, method):
    def op(input_x, indices, updates):
        x = array(input_x, api, "input_x")
        index = _int_index(api, indices)
        values = array(updates, api, "updates").astype(x.dtype)
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
        x = array(input_x, api, "input_x")
        index = _int_index(api, indices)
        depth = index.shape[-1]
        where = tuple(index[..., i] for i in range(depth))
        values = array(updates, api, "updates").astype(x.dtype)
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
    x = array(input_x, api, "input_x")
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


def matrix_band_part(x, lower, upper):
    """Keep the band of each innermost matrix: ``lower`` sub- and ``upper`` super-diagonals
    (a negative count keeps the whole triangle); the rest is set to 0.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.matrix_band_part(ms.ops.ones((3, 3)), 0, 1))
        [[1. 1. 0.]
         [0. 1. 1.]
         [0. 0. 1.]]
    """
    api = "matrix_band_part"
    value = array(x, api, "x")
    if value.ndim < 2:
        raise ValueError(f"For '{api}', 'x' must be at least 2-D, but got shape {value.shape}.")
    low, up = (check_ints(api, n, v, tensor=True) for n, v in (("lower", lower), ("upper", upper)))
    if not isinstance(low, int) or not isinstance(up, int):
        raise TypeError(
            f"For '{api}', 'lower' and 'upper' must be ints or 0-D integer Tensors, but got "
            f"{lower!r} and {upper!r}."
        )
    rows, cols = value.shape[-2:]
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    keep = ((low < 0) | (r - c <= low)) & ((up < 0) | (c - r <= up))
    return wrap(jnp.where(jnp.asarray(keep), value, jnp.zeros_like(value)))
