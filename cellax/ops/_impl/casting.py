"""Casting between dtypes: ``cast`` and ``type_as``."""

from __future__ import annotations

import jax.numpy as jnp

from ..._tensor import Tensor
from .utils import arr, np_dtype, wrap

__all__ = [
    "cast",
    "type_as",
]


def cast(input, dtype):
    """Convert ``input`` to ``dtype``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cast(ms.Tensor([1.7, -1.7]), ms.int32))
        [ 1 -1]
    """
    if isinstance(input, Tensor):  # a cast passes the gradient, to an integer dtype too
        return input.astype(dtype)
    return wrap(arr(input, "cast", keep_scalars=False).astype(np_dtype(dtype)))


def type_as(input, other):
    """``input`` cast to ``other``'s dtype.

    Differences from MindSpore: MindSpore 2.10 CPU has no kernel for it (RuntimeError).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.type_as(ms.Tensor([1.5, 2.5]), ms.Tensor([1, 2])))
        [1 2]
    """
    data, ref = arr(input, "type_as"), arr(other, "type_as", "other")
    return wrap(jnp.asarray(data).astype(ref.dtype))
