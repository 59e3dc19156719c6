"""Selection (select, where), dtype/shape queries, tril/triu/diag/meshgrid, print_ and the primitive classes of the
array families (``ops.Transpose()``, ``ops.Concat()``, ...).
"""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._tensor import is_tensor as is_tensor
from ._creation import eye, fill, linspace, ones, ones_like, zeros, zeros_like
from ._primitive import primitive
from ._resample import pad
from ._shape import (
    broadcast_to,
    concat,
    expand_dims,
    flatten,
    reshape,
    reverse,
    roll,
    split,
    squeeze,
    stack,
    tile,
    transpose,
    unstack,
)
from ._utils import arr, array, check_axis, check_rank, np_dtype, wrap


__all__ = [
    "is_tensor",
    "select",
    "where",
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
    "cast",
    "dtype",
    "is_floating_point",
    "is_complex",
    "numel",
    "size",
    "rank",
    "shape",
    "print_",
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
    shapes = {getattr(v, "shape", None) for v in (condition, x, y)}
    if len(shapes) == 1 and None not in shapes:  # one shape: nothing to broadcast
        return wrap(jnp.where(condition, x, y))
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
    """A Tensor of rank ``2k`` with the elements of the rank-``k`` ``input`` on its diagonal.

    The output has shape ``input.shape + input.shape`` and
    ``out[i1, ..., ik, i1, ..., ik] = input[i1, ..., ik]`` (MindSpore's ``Diag``; a 2-D input
    gives a 4-D output, not the diagonal: use :func:`diagonal` for that).

    Raises:
        ValueError: If ``input`` is 0-D.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diag(ms.Tensor([1, 2])))
        [[1 0]
         [0 2]]
        >>> ms.ops.diag(ms.ops.ones((2, 3))).shape
        (2, 3, 2, 3)
    """
    x = array(input, "diag")
    if x.ndim == 0:
        raise ValueError(f"For 'diag', 'input' must be at least 1-D, but got shape {x.shape}.")
    flat = x.reshape(-1)
    return wrap((jnp.diag(flat) if flat.size else flat.reshape(0, 0)).reshape(x.shape + x.shape))


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
    arrays = _vectors("meshgrid", inputs)
    return tuple(wrap(g) for g in jnp.meshgrid(*arrays, indexing=indexing))


def _vectors(api: str, inputs) -> list:
    arrays = [array(v, api, "inputs") for v in inputs]
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"For '{api}', each input must be 1-D, but got shape {a.shape}.")
    return arrays


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
    grids = jnp.meshgrid(*_vectors("cartesian_prod", inputs), indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], axis=1))


def block_diag(*inputs):
    """A block-diagonal matrix from 2-D Tensors."""
    return wrap(jax.scipy.linalg.block_diag(*[jnp.atleast_2d(array(v)) for v in inputs]))


def vander(x, N=None):
    """The Vandermonde matrix with decreasing powers."""
    return wrap(jnp.vander(check_rank("vander", array(x, "vander", "x"), 1, "x"), N))


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
    return _dtype.is_complex(array(input, "is_complex").dtype)


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
