"""The primitive classes of the shape, creation and selection ops
(``ops.Transpose()``, ``ops.Concat()``, ``ops.Fill()``, ...)."""

from __future__ import annotations

import jax.numpy as jnp

from .casting import cast
from .creation import eye, fill, linspace, meshgrid, ones, ones_like, zeros, zeros_like
from .debug import print_
from .elementwise import select
from .matrix_diag import diag, tril, triu
from .primitive import primitive
from .queries import dtype, rank, shape, size
from .resample import pad
from .shape import (
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
from .utils import arr, check_axis, wrap

__all__ = [
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
    value = arr(x, "Split", keep_scalars=False)
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
    lambda self, x: wrap(
        jnp.pad(arr(x, "Pad", keep_scalars=False), [tuple(p) for p in self.attrs["paddings"]])
    ),
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


Identity = primitive("Identity", lambda x: wrap(arr(x, keep_scalars=False)))


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
