"""Helpers shared by the op families: unwrap inputs, wrap outputs, validate arguments."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._tensor import Tensor, as_array, wrap

__all__ = ["arr", "wrap", "to_float", "check_axis", "np_dtype"]


def arr(x):
    """The jax array of a Tensor/Parameter; NumPy/list data converted; Python scalars kept."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (jax.Array, jax.core.Tracer, bool, int, float, complex)):
        return x
    return as_array(x)


def to_float(x):
    """Integer/bool arrays become float32 (MindSpore's result type for float-only math)."""
    if np.dtype(x.dtype).kind in "biu":
        return x.astype(jnp.float32)
    return x


def np_dtype(dtype):
    return None if dtype is None else _dtype.to_dtype(dtype).np_dtype


def check_axis(api: str, axis: int, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{api}', 'axis' must be an int, but got {axis!r}.")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(
            f"For '{api}', 'axis' must be in range [{-max(ndim, 1)}, {max(ndim, 1)}), "
            f"but got {axis}."
        )
    return int(axis)
