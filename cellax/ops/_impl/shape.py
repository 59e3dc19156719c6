"""Shape ops: reshape, transpose, concat/stack/split, flips, rolls, movedim, flatten."""

from __future__ import annotations

import builtins
import math

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._limits import check_alloc
from ..._reshape import reshape_value
from ..._tensor import Tensor
from .utils import (
    arr,
    check_axes,
    check_axis,
    check_int_arg,
    check_ints,
    check_min_rank,
    shape_tuple,
    wrap,
)

__all__ = [
    "reshape",
    "transpose",
    "permute",
    "expand_dims",
    "unsqueeze",
    "squeeze",
    "broadcast_to",
    "expand",
    "expand_as",
    "view_as",
    "tile",
    "repeat_interleave",
    "repeat_elements",
    "concat",
    "cat",
    "stack",
    "hstack",
    "vstack",
    "dstack",
    "column_stack",
    "row_stack",
    "unstack",
    "unbind",
    "split",
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "chunk",
    "flatten",
    "ravel",
    "movedim",
    "moveaxis",
    "swapaxes",
    "swapdims",
    "t",
    "flip",
    "flipud",
    "fliplr",
    "rot90",
    "reverse",
    "roll",
    "narrow",
    "slice",
]

_range = builtins.range


def reshape(input, shape):
    """Reshape; one dimension may be -1.

    Raises:
        ValueError: If the number of elements differs.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.reshape(ms.ops.ones(6), (2, -1)).shape
        (2, 3)
    """
    x = arr(input, "reshape", tensor=True)
    return wrap(reshape_value("reshape", x, shape_tuple("reshape", shape)))


def _perm(api, x, perm, name):
    perm = check_ints(api, name, perm, scalar=False)
    ndim = x.ndim
    if ndim and not all(-ndim <= axis < ndim for axis in perm):  # check_axis names the bad one
        perm = tuple(check_axis(api, axis, ndim, name) for axis in perm)
    if sorted(p % builtins.max(x.ndim, 1) for p in perm) != list(_range(x.ndim)):
        raise ValueError(
            f"For '{api}', the permutation must be a permutation of range({x.ndim}), "
            f"but got {perm}."
        )
    return perm


def transpose(input, dims):
    """Permute dimensions by ``dims``.

    Raises:
        ValueError: If ``dims`` is not a permutation of the dimensions.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.transpose(ms.ops.ones((2, 3)), (1, 0)).shape
        (3, 2)
    """
    x = arr(input, "transpose", tensor=True)
    return wrap(jnp.transpose(x, _perm("transpose", x, dims, "dims")))


def permute(input, axis):
    """Permute dimensions by ``axis`` (like :func:`transpose`)."""
    x = arr(input, "permute", tensor=True)
    return wrap(jnp.transpose(x, _perm("permute", x, axis, "axis")))


def expand_dims(input_x, axis):
    """Insert a dimension of size 1 at ``axis``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.expand_dims(ms.ops.ones(3), 0).shape
        (1, 3)
    """
    x = arr(input_x, "expand_dims", "input_x", tensor=True)
    axis = check_axis("expand_dims", axis, x.ndim + 1)
    return wrap(jnp.expand_dims(x, axis))


def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    x = arr(input, "unsqueeze", tensor=True)
    return wrap(jnp.expand_dims(x, check_axis("unsqueeze", dim, x.ndim + 1, "dim")))


def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all, or those in ``axis``; others in ``axis`` are kept).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.squeeze(ms.ops.ones((1, 2, 1)), 0).shape
        (2, 1)
    """
    x = arr(input, "squeeze", tensor=True)
    if x.ndim == 0:  # MindSpore returns a 0-D input as it is, whatever the axis
        check_ints("squeeze", "axis", axis if axis is not None else ())
        return wrap(x)
    axes = check_axes("squeeze", axis, x.ndim)
    if axes is None:
        return wrap(jnp.squeeze(x))
    return wrap(jnp.squeeze(x, tuple(a for a in axes if x.shape[a] == 1)))


def broadcast_to(input, shape):
    """Broadcast to ``shape``; -1 keeps the input's size in that dimension.

    Raises:
        ValueError: If the shapes are incompatible.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.broadcast_to(ms.Tensor([1, 2]), (2, -1)))
        [[1 2]
         [1 2]]
    """
    x = arr(input, "broadcast_to", tensor=True)
    target = list(shape_tuple("broadcast_to", shape))
    offset = len(target) - x.ndim
    for i, d in enumerate(target):
        if d == -1:
            if i < offset:
                raise ValueError(
                    f"For 'broadcast_to', -1 is not allowed in a new leading "
                    f"dimension, but got shape {tuple(shape)}."
                )
            target[i] = x.shape[i - offset]
    try:
        return wrap(jnp.broadcast_to(x, tuple(target)))
    except ValueError:
        raise ValueError(
            f"For 'broadcast_to', can not broadcast a Tensor of shape {x.shape} to {tuple(shape)}."
        ) from None


def expand(input_x, size):
    """Broadcast ``input_x`` to the shape held by the 1-D integer Tensor ``size``.

    Raises:
        TypeError: If ``size`` is not a Tensor (MindSpore's ``Expand`` takes the shape as a
            Tensor; use :func:`broadcast_to` for a tuple).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.expand(ms.Tensor([[1.], [2.]]), ms.Tensor([2, 3], ms.int32)).shape
        (2, 3)
    """
    if not isinstance(size, Tensor):
        raise TypeError(
            f"For 'expand', the type of 'size' must be Tensor, but got {type(size).__name__}. "
            f"Use ops.broadcast_to for a tuple shape."
        )
    return broadcast_to(input_x, shape_tuple("expand", size, "size"))


def expand_as(input, other):
    """Broadcast ``input`` to the shape of ``other``."""
    return broadcast_to(input, arr(other, "expand_as", "other", tensor=True).shape)


def view_as(input, other):
    """Reshape ``input`` to the shape of ``other``."""
    return reshape(input, arr(other, "view_as", "other", tensor=True).shape)


def tile(input, dims):
    """Repeat the whole Tensor ``dims[i]`` times along dimension ``i``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tile(ms.Tensor([1, 2]), (2,)))
        [1 2 1 2]
    """
    x = arr(input, "tile", tensor=True)
    reps = shape_tuple("tile", dims, "dims")
    if any(r < 0 for r in reps):
        raise ValueError(f"For 'tile', 'dims' must not be negative, but got {list(reps)}.")
    padded = (1,) * (len(reps) - x.ndim) + tuple(x.shape)
    reps_full = (1,) * (len(padded) - len(reps)) + reps
    check_alloc("tile", "dims", [d * r for d, r in zip(padded, reps_full)], x.dtype.itemsize)
    return wrap(jnp.tile(x, reps))


def repeat_interleave(input, repeats, axis=None):
    """Repeat each element ``repeats`` times along ``axis`` (flattened when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.repeat_interleave(ms.Tensor([1, 2]), 2))
        [1 1 2 2]
        >>> print(ms.ops.repeat_interleave(ms.Tensor([1, 2]), ms.Tensor([1, 2]), 0))
        [1 2 2]
    """
    return repeat_values(input, repeats, axis, strict=True)


def repeat_values(input, repeats, axis, strict):
    """``strict``: ``ops``' counts (ValueError out of [0, 2**31 - 1]), else ``mint``'s."""
    x = arr(input, "repeat_interleave", tensor=True)
    repeats = check_ints("repeat_interleave", "repeats", repeats, tensor=True)
    if np.any(np.asarray(repeats) < 0) or strict and np.any(np.asarray(repeats) >= 2**31):
        limits = "in [0, 2**31 - 1]" if strict else ">= 0"  # MindSpore: a RuntimeError in mint
        error = ValueError if strict else RuntimeError
        raise error(f"For 'repeat_interleave', 'repeats' must be {limits}, but got {repeats}.")
    if axis is not None:
        axis = check_axis("repeat_interleave", axis, x.ndim)
    if isinstance(repeats, tuple) and len(repeats) == 1:
        repeats = repeats[0]  # one count for every element, as an int
    total = None if isinstance(repeats, int) else int(np.sum(repeats))
    size = x.size if axis is None else x.shape[axis]
    out = size * repeats if total is None else total
    shape = (out,) if axis is None else x.shape[:axis] + (out,) + x.shape[axis + 1 :]
    check_alloc("repeat_interleave", "repeats", shape, x.dtype.itemsize)
    return wrap(jnp.repeat(x, np.asarray(repeats), axis=axis, total_repeat_length=total))


def repeat_elements(x, rep, axis=0):
    """Repeat each element ``rep`` times along ``axis``."""
    return repeat_interleave(x, check_ints("repeat_elements", "rep", rep, tensor=True), axis)


def _tensor_list(api, tensors, name="tensors", numbers=False):  # Python numbers too: ops.stack
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(
            f"For '{api}', '{name}' must be a non-empty list or tuple of Tensors, but got "
            f"{type(tensors).__name__}."
        )
    for item in tensors:
        if isinstance(item, (list, tuple)):  # NumPy would stack it into one more dimension
            raise TypeError(
                f"For '{api}', '{name}' must be a list or tuple of Tensors, but got an item of "
                f"type {type(item).__name__}: nested sequences are not Tensors."
            )
    return [arr(t, api, name, keep_scalars=False, tensor=not numbers) for t in tensors]


def _joined(api, join, values):
    """``join(values)``; shapes that cannot be joined are a ValueError naming ``api``."""
    try:
        return join(values)
    except (TypeError, ValueError):
        shapes = [tuple(v.shape) for v in values]
        raise ValueError(
            f"For '{api}', the Tensors can not be joined: their shapes {shapes} differ outside "
            f"the joined dimension."
        ) from None


def concat(tensors, axis=0):
    """Join Tensors along an existing ``axis``.

    Raises:
        ValueError: If the shapes differ outside ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.concat([ms.Tensor([1, 2]), ms.Tensor([3])]))
        [1 2 3]
    """
    values = _tensor_list("concat", tensors)
    axis = check_axis("concat", axis, values[0].ndim)
    for v in values[1:]:
        if v.ndim != values[0].ndim or builtins.any(
            a != b for i, (a, b) in enumerate(zip(v.shape, values[0].shape)) if i != axis
        ):
            raise ValueError(
                f"For 'concat', all Tensors must have the same shape except in dimension "
                f"{axis}, but got {values[0].shape} and {v.shape}."
            )
    return wrap(jnp.concatenate(values, axis=axis))


def cat(tensors, axis=0):
    """Alias of :func:`concat`."""
    return concat(tensors, axis)


def stack(tensors, axis=0):
    """Join Tensors of the same shape along a new ``axis``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.stack([ms.Tensor([1, 2]), ms.Tensor([3, 4])], 1).shape
        (2, 2)
    """
    values = _tensor_list("stack", tensors, numbers=True)
    dtypes = [str(_dtype.from_numpy_dtype(v.dtype)) for v in values]  # of Tensors: MindSpore's
    if len({d for t, d in zip(tensors, dtypes) if not isinstance(t, (int, float))}) > 1:
        raise TypeError(f"For 'stack', all Tensors must have the same dtype, but got {dtypes}.")
    axis = check_axis("stack", axis, values[0].ndim + 1)
    if builtins.any(v.shape != values[0].shape for v in values):
        raise ValueError(
            f"For 'stack', all Tensors must have the same shape, but got "
            f"{[v.shape for v in values]}."
        )
    return wrap(jnp.stack(values, axis=axis))


def hstack(tensors):
    """Stack horizontally (along dim 1, or 0 for 1-D)."""
    return wrap(_joined("hstack", jnp.hstack, _tensor_list("hstack", tensors)))


def vstack(inputs):
    """Stack vertically (along dim 0 after making inputs at least 2-D)."""
    return wrap(_joined("vstack", jnp.vstack, _tensor_list("vstack", inputs, "inputs")))


def row_stack(tensors):
    """Alias of :func:`vstack`."""
    return vstack(tensors)


def dstack(tensors):
    """Stack along the third dimension."""
    return wrap(_joined("dstack", jnp.dstack, _tensor_list("dstack", tensors)))


def column_stack(tensors):
    """Stack 1-D Tensors as columns of a 2-D Tensor."""
    return wrap(_joined("column_stack", jnp.column_stack, _tensor_list("column_stack", tensors)))


def unstack(input_x, axis=0):
    """Split along ``axis`` into a tuple of Tensors with that dimension removed."""
    x = check_min_rank("unstack", arr(input_x, "unstack", "input_x", tensor=True))
    axis = check_axis("unstack", axis, x.ndim)
    return tuple(wrap(v) for v in jnp.moveaxis(x, axis, 0))


def unbind(input, dim=0):
    """Split along ``dim`` into a tuple of Tensors with that dimension removed.

    Examples:
        >>> import cellax as ms
        >>> a, b = ms.ops.unbind(ms.Tensor([[1, 2], [3, 4]]))
        >>> print(b)
        [3 4]
    """
    x = check_min_rank("unbind", arr(input, "unbind", tensor=True))
    dim = check_axis("unbind", dim, x.ndim, "dim")
    return tuple(wrap(v) for v in jnp.moveaxis(x, dim, 0))


def _split_at(x, axis, sizes):
    points = np.cumsum(sizes)[:-1].tolist()
    return tuple(wrap(v) for v in jnp.split(x, points, axis=axis))


def split(tensor, split_size_or_sections, axis=0):
    """Split into chunks of ``split_size_or_sections`` (an int) or of the listed sizes.

    Raises:
        ValueError: If the listed sizes do not add up to the dimension.

    Examples:
        >>> import cellax as ms
        >>> [t.shape for t in ms.ops.split(ms.ops.arange(5), 2)]
        [(2,), (2,), (1,)]
    """
    x = check_min_rank("split", arr(tensor, "split", "tensor", tensor=True), name="tensor")
    axis = check_axis("split", axis, x.ndim)
    n = x.shape[axis]
    sections = split_size_or_sections
    if isinstance(sections, (int, np.integer)) and not isinstance(sections, bool):
        check_int_arg("split", "split_size_or_sections", sections, 1)
        sizes = [sections] * (n // sections) + ([n % sections] if n % sections else [])
        return _split_at(x, axis, sizes or [n])
    if not isinstance(sections, (list, tuple)):
        raise TypeError(
            f"For 'split', 'split_size_or_sections' must be an int, list or tuple, "
            f"but got {type(sections).__name__}."
        )
    sizes = list(check_ints("split", "split_size_or_sections", sections, scalar=False))
    if builtins.sum(sizes) != n:
        raise ValueError(
            f"For 'split', the sum of 'split_size_or_sections' must equal the size of dimension "
            f"{axis} ({n}), but got {list(sections)}."
        )
    return _split_at(x, axis, sizes)


def tensor_split(input, indices_or_sections, axis=0):
    """Split into ``indices_or_sections`` nearly equal parts, or at the listed indices."""
    x = arr(input, "tensor_split", tensor=True)
    axis = check_axis("tensor_split", axis, x.ndim)
    indices_or_sections = check_ints("tensor_split", "indices_or_sections", indices_or_sections)
    if isinstance(indices_or_sections, int):
        n, k = (
            x.shape[axis],
            check_int_arg("tensor_split", "indices_or_sections", indices_or_sections, 1),
        )
        check_alloc("tensor_split", "indices_or_sections", (k,), 8)  # one piece each
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        return _split_at(x, axis, sizes)
    return tuple(wrap(v) for v in jnp.split(x, list(indices_or_sections), axis=axis))


def hsplit(input, indices_or_sections):
    """:func:`tensor_split` along dim 1 (dim 0 for 1-D)."""
    return tensor_split(
        input, indices_or_sections, 1 if arr(input, "hsplit", tensor=True).ndim > 1 else 0
    )


def vsplit(input, indices_or_sections):
    """:func:`tensor_split` along dim 0."""
    return tensor_split(input, indices_or_sections, 0)


def dsplit(input, indices_or_sections):
    """:func:`tensor_split` along dim 2."""
    return tensor_split(input, indices_or_sections, 2)


def chunk(input, chunks, axis=0):
    """Split into ``chunks`` parts of ``ceil(n / chunks)`` (the last may be smaller).

    Examples:
        >>> import cellax as ms
        >>> [t.shape for t in ms.ops.chunk(ms.ops.arange(5), 2)]
        [(3,), (2,)]
    """
    x = check_min_rank("chunk", arr(input, "chunk", tensor=True))
    check_int_arg("chunk", "chunks", chunks, 1)
    axis = check_axis("chunk", axis, x.ndim)
    n = x.shape[axis]
    size = builtins.max(-(-n // chunks), 1)
    return split(x, size, axis)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Flatten dimensions ``start_dim`` .. ``end_dim`` (default: all but the first).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.flatten(ms.ops.ones((2, 3, 4))).shape
        (2, 12)
    """
    x = arr(input, "flatten", tensor=True)
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    if order == "F":
        x = jnp.transpose(x)
    if x.ndim == 0:
        return wrap(x.reshape(1))
    start = check_axis("flatten", start_dim, x.ndim, "start_dim")
    end = check_axis("flatten", end_dim, x.ndim, "end_dim")
    if start > end:
        raise ValueError(
            f"For 'flatten', 'start_dim' must not be after 'end_dim', but got "
            f"{start_dim} and {end_dim}."
        )
    merged = math.prod(x.shape[start : end + 1])
    return wrap(x.reshape(x.shape[:start] + (merged,) + x.shape[end + 1 :]))


def ravel(input):
    """Flatten to 1-D."""
    return wrap(jnp.ravel(arr(input, "ravel", tensor=True)))


def movedim(x, source, destination):
    """Move dimension(s) ``source`` to position(s) ``destination``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.movedim(ms.ops.ones((2, 3, 4)), 0, -1).shape
        (3, 4, 2)
    """
    value = check_min_rank("movedim", arr(x, "movedim", "x", tensor=True), name="x")
    moves = []
    for name, axes in (("source", source), ("destination", destination)):
        axes = check_ints("movedim", name, axes)
        moves.append(check_axes("movedim", axes, value.ndim, name) or ())
        if isinstance(axes, int):
            moves[-1] = moves[-1][0]
    source, destination = moves
    return wrap(jnp.moveaxis(value, source, destination))


def moveaxis(x, source, destination):
    """Alias of :func:`movedim`."""
    return movedim(x, source, destination)


def swapaxes(input, axis0, axis1):
    """Swap two dimensions.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.swapaxes(ms.ops.ones((2, 3, 4)), 0, 2).shape
        (4, 3, 2)
    """
    x = arr(input, "swapaxes", tensor=True)
    a = check_axis("swapaxes", axis0, x.ndim, "axis0")
    b = check_axis("swapaxes", axis1, x.ndim, "axis1")
    return wrap(jnp.swapaxes(x, a, b))


def swapdims(input, dim0, dim1):
    """Alias of :func:`swapaxes`."""
    return swapaxes(input, dim0, dim1)


def t(input):
    """Transpose a 1-D or 2-D Tensor."""
    x = arr(input, "t", tensor=True)
    if x.ndim > 2:
        raise ValueError(f"For 't', 'input' must be at most 2-D, but got shape {x.shape}.")
    return wrap(x.T)


def flip(input, dims):
    """Reverse the order of elements along ``dims``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.flip(ms.Tensor([1, 2, 3]), (0,)))
        [3 2 1]
    """
    return _flip("flip", input, dims)


def _flip(api, input, dims):
    x = check_min_rank(api, arr(input, api, tensor=True))
    return wrap(jnp.flip(x, check_axes(api, dims, x.ndim, "dims")))


def flipud(input):
    """Flip along dim 0."""
    return _flip("flipud", input, (0,))


def fliplr(input):
    """Flip along dim 1."""
    return _flip("fliplr", input, (1,))


def rot90(input, k, dims):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``."""
    x = arr(input, "rot90", tensor=True)
    k = check_int_arg("rot90", "k", k)
    dims = check_ints("rot90", "dims", dims, scalar=False)
    if len(dims) != 2:
        raise ValueError(f"For 'rot90', 'dims' must name two dimensions, but got {dims!r}.")
    if dims[0] == dims[1]:  # MindSpore checks this first, with a RuntimeError
        raise RuntimeError(f"For 'rot90', 'dims' must be two different dims, but got {dims}.")
    dims = check_axes("rot90", dims, x.ndim, "dims")
    return wrap(jnp.rot90(x, k, dims))


def reverse(x, axis):
    """Reverse along ``axis`` (like :func:`flip`)."""
    return flip(x, axis)


def roll(input, shifts, dims=None):
    """Roll elements along ``dims`` (the flattened Tensor when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.roll(ms.Tensor([1, 2, 3]), 1))
        [3 1 2]
    """
    x = arr(input, "roll", tensor=True)
    shifts = check_ints("roll", "shifts", shifts, tensor=True)
    if dims is not None:
        dims = check_ints("roll", "dims", dims, tensor=True)
        dims = check_axes("roll", tuple(np.atleast_1d(dims).tolist()), x.ndim, "dims")
        shifts = tuple(np.atleast_1d(shifts).tolist())
    return wrap(jnp.roll(x, shifts, dims))


def narrow(input, axis, start, length):
    """The slice ``start:start+length`` along ``axis``.

    Raises:
        TypeError: If ``start`` or ``length`` is not an int.
        ValueError: As MindSpore 2.10: if ``start`` is not in ``[0, size)`` or ``length`` not in
            ``[1, size - start]`` (``mint.narrow`` also takes a negative ``start`` and length 0).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.narrow(ms.Tensor([1, 2, 3, 4]), 0, 1, 2))
        [2 3]
    """
    return narrow_value(input, axis, start, length, strict=True)


def narrow_value(input, axis, start, length, strict):
    """``narrow``'s slice; ``strict``: MindSpore's ranges, else PyTorch's (``mint``)."""
    x = arr(input, "narrow", tensor=True)
    axis = check_axis("narrow", axis, x.ndim)
    start = check_int_arg("narrow", "start", start)
    length = check_int_arg("narrow", "length", length)
    size = x.shape[axis]
    if strict and not 0 <= start < size:
        raise ValueError(f"For 'narrow', 'start' must be in [0, {size}), but got {start}.")
    if strict and not 1 <= length <= size - start:
        raise ValueError(
            f"For 'narrow', 'length' must be in [1, {size - start}], but got {length}."
        )
    if length < 0:
        raise ValueError(f"For 'narrow', 'length' must be non-negative, but got {length}.")
    if not 0 <= start + (x.shape[axis] if start < 0 else 0) <= x.shape[axis] - length:
        raise ValueError(
            f"For 'narrow', start={start} and length={length} must fit in dimension "
            f"{axis} of size {x.shape[axis]}."
        )
    start = start % x.shape[axis] if start < 0 else start
    return wrap(jax.lax.slice_in_dim(x, start, start + length, axis=axis))


def slice(input_x, begin, size):
    """The block starting at ``begin`` with ``size`` (-1: to the end).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.slice(ms.Tensor([[1, 2, 3], [4, 5, 6]]), (0, 1), (2, -1)))
        [[2 3]
         [5 6]]
    """
    x = arr(input_x, "slice", "input_x", tensor=True)
    begin, size = shape_tuple("slice", begin, "begin"), shape_tuple("slice", size, "size")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(
            f"For 'slice', 'begin' and 'size' must have {x.ndim} entries, but got "
            f"{begin} and {size}."
        )
    if builtins.any(length < -1 for length in size):  # MindSpore: a RuntimeError
        raise RuntimeError(f"For 'slice', each 'size' must be >= -1, but got size={size}.")
    for dim, start, length in zip(x.shape, begin, size):
        if not 0 <= start <= dim or not (length == -1 or 0 <= length <= dim - start):
            raise ValueError(
                f"For 'slice', each 'begin' must be in [0, its dimension's size] and each "
                f"'size' -1 or at most what remains after it, but got begin={begin} and "
                f"size={size} for shape {tuple(x.shape)}."
            )
    ends = tuple(x.shape[i] if s == -1 else b + s for i, (b, s) in enumerate(zip(begin, size)))
    return wrap(jax.lax.slice(x, begin, ends))
