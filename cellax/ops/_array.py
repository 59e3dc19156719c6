"""Creation, shape manipulation and type queries."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._tensor import Tensor
from .._tensor import is_tensor as is_tensor
from ._primitive import primitive
from ._utils import arr, array, check_axes, check_axis, check_int_arg, np_dtype, shape_tuple, wrap

__all__ = [
    # creation
    "ones",
    "zeros",
    "ones_like",
    "zeros_like",
    "fill",
    "fills",
    "full",
    "full_like",
    "empty",
    "empty_like",
    "arange",
    "linspace",
    "logspace",
    "eye",
    "tril_indices",
    "triu_indices",
    # selection
    "select",
    "where",
    # shape
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
    "pad",
    "tril",
    "triu",
    "diag",
    "diagflat",
    "diag_embed",
    "diagonal",
    "meshgrid",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "cartesian_prod",
    "block_diag",
    "vander",
    # type and shape queries
    "cast",
    "dtype",
    "is_tensor",
    "is_floating_point",
    "is_complex",
    "numel",
    "size",
    "rank",
    "shape",
    "print_",
    # primitives
    "Transpose",
    "ExpandDims",
    "Reshape",
    "Cast",
    "Select",
    "Fill",
    "Squeeze",
    "Concat",
    "Stack",
    "Unstack",
    "Split",
    "Tile",
    "Shape",
    "Rank",
    "Size",
    "ZerosLike",
    "OnesLike",
    "Zeros",
    "Ones",
    "BroadcastTo",
    "Flatten",
    "Pad",
    "ReverseV2",
    "Tril",
    "Triu",
    "Eye",
    "Meshgrid",
    "Identity",
    "Slice",
    "Roll",
    "DType",
    "Print",
    "LinSpace",
    "Diag",
]

_range = builtins.range


# -- creation ----------------------------------------------------------------------------------


def ones(shape, dtype=None):
    """A Tensor of ones (Float32 unless ``dtype`` is given).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ones((2,), ms.int32))
        [1 1]
    """
    return wrap(jnp.ones(shape_tuple("ones", shape), np_dtype(dtype) or jnp.float32))


def zeros(size, dtype=None):
    """A Tensor of zeros (Float32 unless ``dtype`` is given).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.zeros(2))
        [0. 0.]
    """
    return wrap(jnp.zeros(shape_tuple("zeros", size, "size"), np_dtype(dtype) or jnp.float32))


def empty(*size, dtype=None, device=None):
    """An uninitialised Tensor; cellax fills it with zeros.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.empty(2, 3).shape
        (2, 3)
    """
    if len(size) == 1 and not isinstance(size[0], (int, np.integer)):
        size = size[0]
    return wrap(jnp.zeros(shape_tuple("empty", size, "size"), np_dtype(dtype) or jnp.float32))


def ones_like(input, *, dtype=None):
    """Ones with the shape (and dtype unless given) of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ones_like(ms.Tensor([1, 2])))
        [1 1]
    """
    return wrap(jnp.ones_like(array(input, "ones_like"), dtype=np_dtype(dtype)))


def zeros_like(input, *, dtype=None):
    """Zeros with the shape (and dtype unless given) of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.zeros_like(ms.Tensor([1., 2.])))
        [0. 0.]
    """
    return wrap(jnp.zeros_like(array(input, "zeros_like"), dtype=np_dtype(dtype)))


def empty_like(input, *, dtype=None, device=None):
    """Like :func:`zeros_like` (cellax has no uninitialised memory)."""
    return zeros_like(input, dtype=dtype)


def fill(type, shape, value):
    """A Tensor of ``shape`` and dtype ``type`` filled with ``value``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fill(ms.float32, (2, 2), 1))
        [[1. 1.]
         [1. 1.]]
    """
    return wrap(jnp.full(shape_tuple("fill", shape), arr(value), np_dtype(type)))


def _scalar_dtype(value, dtype):
    if dtype is not None:
        return np_dtype(dtype)
    if isinstance(value, bool):
        return np.bool_
    if isinstance(value, int):
        return np.int64
    if isinstance(value, float):
        return np.float32
    return None


def full(size, fill_value, *, dtype=None):
    """A Tensor of ``size`` filled with ``fill_value``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.full((2,), 3))
        [3 3]
    """
    value = arr(fill_value, "full", "fill_value")
    return wrap(
        jnp.full(shape_tuple("full", size, "size"), value, _scalar_dtype(fill_value, dtype))
    )


def full_like(input, fill_value, *, dtype=None):
    """A Tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype by default).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.full_like(ms.Tensor([1., 2.]), 7))
        [7. 7.]
    """
    x = array(input, "full_like")
    return wrap(jnp.full(x.shape, arr(fill_value), np_dtype(dtype) or x.dtype))


def fills(x, value):
    """A Tensor shaped like ``x`` filled with ``value``."""
    return full_like(x, value)


def _number(api, name, value):
    if isinstance(value, Tensor):
        value = value._value
    if isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer):
        return value.item()
    if isinstance(value, (bool, int, float, np.number)):
        return value
    raise TypeError(f"For '{api}', '{name}' must be a number, but got {value!r}.")


def arange(start=0, end=None, step=1, *, dtype=None):
    """Values from ``start`` to ``end`` (exclusive) by ``step``; Int64 for ints, else Float32.

    Raises:
        ValueError: If ``step`` is 0 or has the wrong sign.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.arange(5), ms.ops.arange(0, 1, 0.25))
        [0 1 2 3 4] [0.   0.25 0.5  0.75]
    """
    start, step = _number("arange", "start", start), _number("arange", "step", step)
    if end is None:
        start, end = 0, start
    end = _number("arange", "end", end)
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0, but got 0.")
    if (end - start) * step < 0:
        raise ValueError(
            f"For 'arange', 'step' must move from 'start' ({start}) towards 'end' ({end}), "
            f"but got step={step}."
        )
    if dtype is None:
        is_int = builtins.all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = np.int64 if is_int else np.float32
    else:
        dtype = np_dtype(dtype)
    return wrap(jnp.arange(start, end, step, dtype=dtype))


def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 values from ``start`` to ``end`` inclusive.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    steps = check_int_arg("linspace", "steps", _number("linspace", "steps", steps), 1)
    return wrap(jnp.linspace(arr(start), arr(end), steps, dtype=jnp.float32))


def logspace(start, end, steps, base=10, *, dtype=None):
    """``base ** linspace(start, end, steps)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.logspace(0, 2, 3))
        [  1.  10. 100.]
    """
    steps = check_int_arg("logspace", "steps", steps, 1)
    return wrap(
        jnp.logspace(arr(start), arr(end), steps, base=base, dtype=np_dtype(dtype) or jnp.float32)
    )


def eye(n, m=None, dtype=None):
    """An ``n x m`` identity matrix (Float32 by default).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.eye(2, dtype=ms.int32))
        [[1 0]
         [0 1]]
    """
    check_int_arg("eye", "n", n, 0)
    if m is not None:
        check_int_arg("eye", "m", m, 0)
    return wrap(jnp.eye(n, m, dtype=np_dtype(dtype) or jnp.float32))


def tril_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """Indices (2, N) of the lower triangle of a ``row x col`` matrix.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tril_indices(2, 2))
        [[0 1 1]
         [0 0 1]]
    """
    return wrap(jnp.stack(jnp.tril_indices(row, offset, col)).astype(np_dtype(dtype)))


def triu_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """Indices (2, N) of the upper triangle of a ``row x col`` matrix."""
    return wrap(jnp.stack(jnp.triu_indices(row, offset, col)).astype(np_dtype(dtype)))


# -- selection ---------------------------------------------------------------------------------


def select(cond, input, other):
    """Elementwise ``input if cond else other``; a trace-safe replacement for ``if``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.select(ms.Tensor([True, False]), ms.Tensor([1., 2.]), 0.))
        [1. 0.]
    """
    x, y = arr(input, "select", "input"), arr(other, "select", "other")
    if isinstance(y, float) and hasattr(x, "dtype"):
        y = jnp.asarray(y, x.dtype if x.dtype.kind == "f" else jnp.float32)
    elif isinstance(x, float) and hasattr(y, "dtype"):
        x = jnp.asarray(x, y.dtype if y.dtype.kind == "f" else jnp.float32)
    condition = arr(cond, "select", "cond")
    try:
        jnp.broadcast_shapes(np.shape(condition), np.shape(x), np.shape(y))
    except ValueError:
        raise ValueError(
            f"For 'select', the shapes of 'cond' {np.shape(condition)}, 'input' {np.shape(x)} "
            f"and 'other' {np.shape(y)} can not be broadcast together."
        ) from None
    return wrap(jnp.where(condition, x, y))


def where(condition, input, other):
    """Elementwise ``input if condition else other``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1., -2.])
        >>> print(ms.ops.where(x > 0, x, 0.))
        [1. 0.]
    """
    return select(condition, input, other)


# -- shape -------------------------------------------------------------------------------------


def reshape(input, shape):
    """Reshape; one dimension may be -1.

    Raises:
        ValueError: If the number of elements differs.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.reshape(ms.ops.ones(6), (2, -1)).shape
        (2, 3)
    """
    x = array(input, "reshape")
    try:
        return wrap(jnp.reshape(x, shape_tuple("reshape", shape)))
    except TypeError as error:
        raise ValueError(
            f"For 'reshape', the number of elements must not change, but got a Tensor of shape "
            f"{x.shape} and the target shape {shape}: {error}"
        ) from None


def _perm(api, x, perm):
    perm = tuple(int(p) for p in perm)
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
    x = array(input, "transpose")
    return wrap(jnp.transpose(x, _perm("transpose", x, dims)))


def permute(input, axis):
    """Permute dimensions by ``axis`` (like :func:`transpose`)."""
    x = array(input, "permute")
    return wrap(jnp.transpose(x, _perm("permute", x, axis)))


def expand_dims(input_x, axis):
    """Insert a dimension of size 1 at ``axis``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.expand_dims(ms.ops.ones(3), 0).shape
        (1, 3)
    """
    x = array(input_x, "expand_dims", "input_x")
    axis = check_axis("expand_dims", axis, x.ndim + 1)
    return wrap(jnp.expand_dims(x, axis))


def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    x = array(input, "unsqueeze")
    return wrap(jnp.expand_dims(x, check_axis("unsqueeze", dim, x.ndim + 1, "dim")))


def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all, or those in ``axis``; others in ``axis`` are kept).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.squeeze(ms.ops.ones((1, 2, 1)), 0).shape
        (2, 1)
    """
    x = array(input, "squeeze")
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
    x = array(input, "broadcast_to")
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
    """Like :func:`broadcast_to`."""
    return broadcast_to(input_x, size)


def expand_as(input, other):
    """Broadcast ``input`` to the shape of ``other``."""
    return broadcast_to(input, array(other).shape)


def view_as(input, other):
    """Reshape ``input`` to the shape of ``other``."""
    return reshape(input, array(other).shape)


def tile(input, dims):
    """Repeat the whole Tensor ``dims[i]`` times along dimension ``i``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tile(ms.Tensor([1, 2]), (2,)))
        [1 2 1 2]
    """
    x = array(input, "tile")
    return wrap(jnp.tile(x, shape_tuple("tile", dims, "dims")))


def repeat_interleave(input, repeats, axis=None):
    """Repeat each element ``repeats`` times along ``axis`` (flattened when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.repeat_interleave(ms.Tensor([1, 2]), 2))
        [1 1 2 2]
    """
    x = array(input, "repeat_interleave")
    if isinstance(repeats, Tensor):
        repeats = repeats.asnumpy()
    if axis is not None:
        axis = check_axis("repeat_interleave", axis, x.ndim)
    total = None if np.ndim(repeats) == 0 else int(np.sum(repeats))
    return wrap(jnp.repeat(x, repeats, axis=axis, total_repeat_length=total))


def repeat_elements(x, rep, axis=0):
    """Repeat each element ``rep`` times along ``axis``."""
    return repeat_interleave(x, rep, axis)


def _tensor_list(api, tensors, name="tensors"):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(
            f"For '{api}', '{name}' must be a non-empty list or tuple of Tensors, but got "
            f"{type(tensors).__name__}."
        )
    return [array(t, api, name) for t in tensors]


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
    values = _tensor_list("stack", tensors)
    axis = check_axis("stack", axis, values[0].ndim + 1)
    if builtins.any(v.shape != values[0].shape for v in values):
        raise ValueError(
            f"For 'stack', all Tensors must have the same shape, but got "
            f"{[v.shape for v in values]}."
        )
    return wrap(jnp.stack(values, axis=axis))


def hstack(tensors):
    """Stack horizontally (along dim 1, or 0 for 1-D)."""
    return wrap(jnp.hstack(_tensor_list("hstack", tensors)))


def vstack(inputs):
    """Stack vertically (along dim 0 after making inputs at least 2-D)."""
    return wrap(jnp.vstack(_tensor_list("vstack", inputs, "inputs")))


def row_stack(tensors):
    """Alias of :func:`vstack`."""
    return vstack(tensors)


def dstack(tensors):
    """Stack along the third dimension."""
    return wrap(jnp.dstack(_tensor_list("dstack", tensors)))


def column_stack(tensors):
    """Stack 1-D Tensors as columns of a 2-D Tensor."""
    return wrap(jnp.column_stack(_tensor_list("column_stack", tensors)))


def unstack(input_x, axis=0):
    """Split along ``axis`` into a tuple of Tensors with that dimension removed."""
    x = array(input_x, "unstack", "input_x")
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
    x = array(input, "unbind")
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
    x = array(tensor, "split", "tensor")
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
    sizes = [int(s) for s in sections]
    if builtins.sum(sizes) != n:
        raise ValueError(
            f"For 'split', the sum of 'split_size_or_sections' must equal the size of dimension "
            f"{axis} ({n}), but got {list(sections)}."
        )
    return _split_at(x, axis, sizes)


def tensor_split(input, indices_or_sections, axis=0):
    """Split into ``indices_or_sections`` nearly equal parts, or at the listed indices."""
    x = array(input, "tensor_split")
    axis = check_axis("tensor_split", axis, x.ndim)
    if isinstance(indices_or_sections, (int, np.integer)):
        n, k = x.shape[axis], int(indices_or_sections)
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        return _split_at(x, axis, sizes)
    return tuple(wrap(v) for v in jnp.split(x, list(indices_or_sections), axis=axis))


def hsplit(input, indices_or_sections):
    """:func:`tensor_split` along dim 1 (dim 0 for 1-D)."""
    return tensor_split(input, indices_or_sections, 1 if array(input).ndim > 1 else 0)


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
    x = array(input, "chunk")
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
    x = array(input, "flatten")
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
    return wrap(x.reshape(x.shape[:start] + (-1,) + x.shape[end + 1 :]))


def ravel(input):
    """Flatten to 1-D."""
    return wrap(jnp.ravel(array(input, "ravel")))


def movedim(x, source, destination):
    """Move dimension(s) ``source`` to position(s) ``destination``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.movedim(ms.ops.ones((2, 3, 4)), 0, -1).shape
        (3, 4, 2)
    """
    value = array(x, "movedim", "x")
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
    x = array(input, "swapaxes")
    a = check_axis("swapaxes", axis0, x.ndim, "axis0")
    b = check_axis("swapaxes", axis1, x.ndim, "axis1")
    return wrap(jnp.swapaxes(x, a, b))


def swapdims(input, dim0, dim1):
    """Alias of :func:`swapaxes`."""
    return swapaxes(input, dim0, dim1)


def t(input):
    """Transpose a 1-D or 2-D Tensor."""
    x = array(input, "t")
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
    x = array(input, "flip")
    return wrap(jnp.flip(x, check_axes("flip", dims, x.ndim, "dims")))


def flipud(input):
    """Flip along dim 0."""
    return flip(input, (0,))


def fliplr(input):
    """Flip along dim 1."""
    return flip(input, (1,))


def rot90(input, k, dims):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``."""
    return wrap(jnp.rot90(array(input, "rot90"), k, tuple(dims)))


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
    x = array(input, "roll")
    if dims is not None:
        dims = tuple(np.atleast_1d(dims).tolist())
        shifts = tuple(np.atleast_1d(shifts).tolist())
    return wrap(jnp.roll(x, shifts, dims))


def narrow(input, axis, start, length):
    """The slice ``start:start+length`` along ``axis``.

    Raises:
        ValueError: If the slice does not fit in the dimension.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.narrow(ms.Tensor([1, 2, 3, 4]), 0, 1, 2))
        [2 3]
    """
    x = array(input, "narrow")
    axis = check_axis("narrow", axis, x.ndim)
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
    x = array(input_x, "slice", "input_x")
    begin, size = shape_tuple("slice", begin, "begin"), shape_tuple("slice", size, "size")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(
            f"For 'slice', 'begin' and 'size' must have {x.ndim} entries, but got "
            f"{begin} and {size}."
        )
    ends = tuple(x.shape[i] if s == -1 else b + s for i, (b, s) in enumerate(zip(begin, size)))
    return wrap(jax.lax.slice(x, begin, ends))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(input_x, padding, mode="constant", value=None):
    """Pad the last dimensions; ``padding`` lists (left, right) pairs from the last dim back.

    Raises:
        ValueError: If ``mode`` is unknown or ``padding`` has an odd length.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.pad(ms.Tensor([[1., 2.]]), (1, 1), value=9.))
        [[9. 1. 2. 9.]]
    """
    x = array(input_x, "pad", "input_x")
    padding = shape_tuple("pad", padding, "padding")
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(
            f"For 'pad', 'padding' must have an even length of at most "
            f"{2 * x.ndim}, but got {padding}."
        )
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {list(_PAD_MODES)}, but got {mode!r}.")
    pairs = [(0, 0)] * x.ndim
    for i in _range(len(padding) // 2):
        pairs[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    if builtins.any(p < 0 for pair in pairs for p in pair):
        negative = [(-builtins.min(lo, 0), -builtins.min(hi, 0)) for lo, hi in pairs]
        x = jax.lax.slice(
            x, [lo for lo, _ in negative], [d - hi for d, (_, hi) in zip(x.shape, negative)]
        )
        pairs = [(builtins.max(lo, 0), builtins.max(hi, 0)) for lo, hi in pairs]
    if mode == "constant":
        return wrap(jnp.pad(x, pairs, constant_values=0 if value is None else arr(value)))
    return wrap(jnp.pad(x, pairs, mode=_PAD_MODES[mode]))


def tril(input, diagonal=0):
    """Zero the elements above the ``diagonal``-th diagonal.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tril(ms.ops.ones((2, 2))))
        [[1. 0.]
         [1. 1.]]
    """
    x = array(input, "tril")
    if x.ndim < 2:
        raise ValueError(f"For 'tril', 'input' must be at least 2-D, but got shape {x.shape}.")
    return wrap(jnp.tril(x, diagonal))


def triu(input, diagonal=0):
    """Zero the elements below the ``diagonal``-th diagonal."""
    x = array(input, "triu")
    if x.ndim < 2:
        raise ValueError(f"For 'triu', 'input' must be at least 2-D, but got shape {x.shape}.")
    return wrap(jnp.triu(x, diagonal))


def diag(input):
    """A diagonal matrix from a 1-D Tensor, or the diagonal of a 2-D one.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diag(ms.Tensor([1, 2])))
        [[1 0]
         [0 2]]
    """
    x = array(input, "diag")
    if x.ndim not in (1, 2):
        raise ValueError(f"For 'diag', 'input' must be 1-D or 2-D, but got shape {x.shape}.")
    return wrap(jnp.diag(x))


def diagflat(input, offset=0):
    """A 2-D Tensor with the flattened ``input`` on diagonal ``offset``."""
    return wrap(jnp.diagflat(array(input, "diagflat"), offset))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Put the last dimension of ``input`` on diagonals of new ``dim1``/``dim2`` planes."""
    x = array(input, "diag_embed")
    n = x.shape[-1] + builtins.abs(offset)
    rows = jnp.arange(x.shape[-1]) + builtins.max(-offset, 0)
    cols = jnp.arange(x.shape[-1]) + builtins.max(offset, 0)
    out = jnp.zeros(x.shape[:-1] + (n, n), x.dtype).at[..., rows, cols].set(x)
    nd = out.ndim
    return wrap(jnp.moveaxis(out, (nd - 2, nd - 1), (dim1 % nd, dim2 % nd)))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal ``offset`` of the planes ``dim1``/``dim2`` (moved to the last dim).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diagonal(ms.Tensor([[1, 2], [3, 4]])))
        [1 4]
    """
    x = array(input, "diagonal")
    a = check_axis("diagonal", dim1, x.ndim, "dim1")
    b = check_axis("diagonal", dim2, x.ndim, "dim2")
    if a == b:
        raise ValueError(f"For 'diagonal', 'dim1' and 'dim2' must differ, but both are {dim1}.")
    return wrap(jnp.diagonal(x, offset, a, b))


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D Tensors (``indexing`` 'xy' or 'ij').

    Examples:
        >>> import cellax as ms
        >>> x, y = ms.ops.meshgrid(ms.Tensor([1, 2, 3]), ms.Tensor([4, 5]))
        >>> x.shape
        (2, 3)
    """
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    return tuple(wrap(g) for g in jnp.meshgrid(*[array(v) for v in inputs], indexing=indexing))


def _atleast(fn, inputs):
    if isinstance(inputs, (list, tuple)):
        return tuple(wrap(fn(array(v))) for v in inputs)
    return wrap(fn(array(inputs)))


def atleast_1d(inputs):
    """Views with at least one dimension."""
    return _atleast(jnp.atleast_1d, inputs)


def atleast_2d(inputs):
    """Views with at least two dimensions."""
    return _atleast(jnp.atleast_2d, inputs)


def atleast_3d(inputs):
    """Views with at least three dimensions."""
    return _atleast(jnp.atleast_3d, inputs)


def cartesian_prod(*inputs):
    """The cartesian product of 1-D Tensors as rows of a 2-D Tensor."""
    grids = jnp.meshgrid(*[array(v) for v in inputs], indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], axis=1))


def block_diag(*inputs):
    """A block-diagonal matrix from 2-D Tensors."""
    return wrap(jax.scipy.linalg.block_diag(*[jnp.atleast_2d(array(v)) for v in inputs]))


def vander(x, N=None):
    """The Vandermonde matrix with decreasing powers."""
    return wrap(jnp.vander(array(x, "vander", "x"), N))


# -- type and shape queries --------------------------------------------------------------------


def cast(input, dtype):
    """Convert ``input`` to ``dtype``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cast(ms.Tensor([1.7, -1.7]), ms.int32))
        [ 1 -1]
    """
    return wrap(array(input, "cast").astype(np_dtype(dtype)))


def dtype(x):
    """The cellax dtype of ``x``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dtype(ms.Tensor([1.])))
        Float32
    """
    return _dtype.from_numpy_dtype(array(x, "dtype", "x").dtype)


def is_floating_point(input):
    """True for floating-point Tensors."""
    return _dtype.from_numpy_dtype(array(input, "is_floating_point").dtype).is_floating


def is_complex(input):
    """True for complex Tensors."""
    return np.dtype(array(input, "is_complex").dtype).kind == "c"


def numel(input):
    """Number of elements (a Python int).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.numel(ms.ops.ones((2, 3)))
        6
    """
    return int(np.prod(np.shape(array(input, "numel")), dtype=np.int64))


def size(input_x):
    """Number of elements (a Python int)."""
    return numel(input_x)


def rank(input_x):
    """Number of dimensions (a Python int).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.rank(ms.ops.ones((2, 3)))
        2
    """
    return int(np.ndim(array(input_x, "rank", "input_x")))


def shape(input_x):
    """The shape as a tuple of ints.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.shape(ms.ops.ones((2, 3)))
        (2, 3)
    """
    return tuple(np.shape(array(input_x, "shape", "input_x")))


def print_(*input_x):
    """Print the inputs; works inside compiled code through ``jax.debug.print``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.print_("x:", ms.Tensor([1, 2]))
        x: [1 2]
    """
    parts, values = [], []
    for item in input_x:
        if isinstance(item, str):
            parts.append(item.replace("{", "{{").replace("}", "}}"))
        else:
            parts.append("{}")
            values.append(arr(item))
    jax.debug.print(" ".join(parts), *values)


# -- primitive classes -------------------------------------------------------------------------


Transpose = primitive("Transpose", transpose)
ExpandDims = primitive("ExpandDims", expand_dims)
Reshape = primitive("Reshape", reshape)
Cast = primitive("Cast", cast)
Select = primitive("Select", select)
Fill = primitive("Fill", fill)
Squeeze = primitive("Squeeze", squeeze, dict(axis=()))
Concat = primitive("Concat", concat, dict(axis=0))
Stack = primitive("Stack", stack, dict(axis=0))
Unstack = primitive(
    "Unstack", unstack, dict(axis=0, num=None), lambda self, x: unstack(x, self.attrs["axis"])
)


def _split_call(self, x):
    value = array(x, "Split")
    axis = check_axis("Split", self.attrs["axis"], value.ndim)
    count = self.attrs["output_num"]
    if value.shape[axis] % count:
        raise ValueError(
            f"For 'Split', dimension {axis} of size {value.shape[axis]} must be "
            f"divisible by output_num={count}."
        )
    return tuple(wrap(v) for v in jnp.split(value, count, axis=axis))


Split = primitive("Split", split, dict(axis=0, output_num=1), _split_call)
Tile = primitive("Tile", tile)
Shape = primitive("Shape", shape)
Rank = primitive("Rank", rank)
Size = primitive("Size", size)
ZerosLike = primitive("ZerosLike", zeros_like)
OnesLike = primitive("OnesLike", ones_like)
Zeros = primitive("Zeros", zeros)
Ones = primitive("Ones", ones)
BroadcastTo = primitive(
    "BroadcastTo",
    broadcast_to,
    dict(shape=()),
    lambda self, x: broadcast_to(x, self.attrs["shape"]),
)
Flatten = primitive("Flatten", flatten)
Pad = primitive(
    "Pad",
    pad,
    dict(paddings=()),
    lambda self, x: wrap(jnp.pad(array(x, "Pad"), [tuple(p) for p in self.attrs["paddings"]])),
)
ReverseV2 = primitive(
    "ReverseV2", reverse, dict(axis=()), lambda self, x: reverse(x, self.attrs["axis"])
)
Tril = primitive("Tril", tril, dict(diagonal=0))
Triu = primitive("Triu", triu, dict(diagonal=0))
Eye = primitive("Eye", eye)
Meshgrid = primitive(
    "Meshgrid",
    meshgrid,
    dict(indexing="xy"),
    lambda self, inputs: meshgrid(*inputs, indexing=self.attrs["indexing"]),
)
Identity = primitive("Identity", lambda x: wrap(array(x)))
Slice = primitive("Slice", slice)
Roll = primitive(
    "Roll",
    roll,
    dict(shifts=0, dims=None),
    lambda self, x: roll(x, self.attrs["shifts"], self.attrs["dims"]),
)
DType = primitive("DType", dtype)
Print = primitive("Print", print_)
LinSpace = primitive("LinSpace", linspace)
Diag = primitive("Diag", diag)
