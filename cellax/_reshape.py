"""Reshape with MindSpore's rules for ``-1`` and zero-size arrays, and errors that name the API."""

from __future__ import annotations

import math

import jax.numpy as jnp
from jax.export import is_symbolic_dim
import numpy as np

__all__ = ["reshape_value", "target_shape"]


def _int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def target_shape(api: str, size: int, shape) -> tuple:
    """``shape`` with its ``-1`` resolved for an array of ``size`` elements.

    As MindSpore, a ``-1`` next to a zero dimension (nothing to divide by) becomes 0; a
    size that does not match, two ``-1``, or another negative dimension is a ValueError.
    """
    if _int(shape) or is_symbolic_dim(shape):
        shape = (shape,)
    if isinstance(shape, (tuple, list)) and (
        any(map(is_symbolic_dim, shape)) or is_symbolic_dim(size)
    ):  # a jax.export symbolic dimension (export with a None dimension): jax resolves the -1
        if all(_int(d) or is_symbolic_dim(d) for d in shape):
            return tuple(shape)
    if not isinstance(shape, (tuple, list)) or not all(_int(d) for d in shape):
        raise TypeError(
            f"For '{api}', 'shape' must be an int or a tuple of ints, but got {shape!r}."
        )
    shape = tuple(int(d) for d in shape)
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise ValueError(
            f"For '{api}', 'shape' may hold one -1 and otherwise non-negative dimensions, "
            f"but got {shape}."
        )
    known = math.prod(d for d in shape if d != -1)
    if -1 in shape:
        if known == 0:
            fill = 0
        elif size % known:
            fill = -1
        else:
            fill = size // known
        resolved = tuple(fill if d == -1 else d for d in shape)
    else:
        resolved = shape
    if any(d < 0 for d in resolved) or math.prod(resolved) != size:
        raise ValueError(
            f"For '{api}', the number of elements must not change, but a Tensor of {size} "
            f"elements cannot take the shape {shape}."
        )
    return resolved


def reshape_value(api: str, value, shape):
    """``jnp.reshape(value, shape)`` after :func:`target_shape`."""
    return jnp.reshape(value, target_shape(api, math.prod(value.shape), shape))
