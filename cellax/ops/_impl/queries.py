"""What a Tensor is: ``dtype``, ``is_tensor``, ``is_floating_point``, ``is_complex``,
``numel``, ``size``, ``rank``, ``shape``, ``dyn_shape``."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._tensor import is_tensor as is_tensor
from .utils import arr, wrap

__all__ = [
    "is_tensor",
    "dtype",
    "is_floating_point",
    "is_complex",
    "numel",
    "size",
    "rank",
    "shape",
    "dyn_shape",
]


def dtype(x):
    """The cellax dtype of ``x``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dtype(ms.Tensor([1.])))
        Float32
    """
    return _dtype.from_numpy_dtype(arr(x, "dtype", "x", keep_scalars=False).dtype)


def is_floating_point(input):
    """True for floating-point Tensors."""
    return _dtype.from_numpy_dtype(
        arr(input, "is_floating_point", keep_scalars=False).dtype
    ).is_floating


def is_complex(input):
    """True for complex Tensors."""
    return _dtype.is_complex(arr(input, "is_complex", keep_scalars=False).dtype)


def numel(input):
    """Number of elements (a Python int).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.numel(ms.ops.ones((2, 3)))
        6
    """
    return int(np.prod(np.shape(arr(input, "numel", keep_scalars=False)), dtype=np.int64))


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
    return int(np.ndim(arr(input_x, "rank", "input_x", keep_scalars=False)))


def shape(input_x):
    """The shape as a tuple of ints.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.shape(ms.ops.ones((2, 3)))
        (2, 3)
    """
    return tuple(np.shape(arr(input_x, "shape", "input_x", keep_scalars=False)))


def dyn_shape(input_x):
    """The shape of ``input_x`` as a 1-D Int64 Tensor.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dyn_shape(ms.ops.ones((2, 3))))
        [2 3]
    """
    data = arr(input_x, "dyn_shape", "input_x")
    return wrap(jnp.asarray(np.array(data.shape, np.int64)))
