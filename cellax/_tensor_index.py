"""Bounds of a Tensor index, checked as MindSpore does (JAX would clamp)."""

from __future__ import annotations

import jax
import numpy as np


def check_index_bounds(shape: tuple, key) -> None:
    """MindSpore raises IndexError for an out-of-range integer index (JAX would clamp)."""
    items = key if isinstance(key, tuple) else (key,)
    dim = 0
    for k in items:
        if k is None:
            continue
        if k is Ellipsis:
            dim = len(shape) - sum(1 for i in items if i is not None and i is not Ellipsis)
            continue
        if dim >= len(shape):
            raise IndexError(
                f"For 'Tensor.__getitem__', too many indices for a Tensor of dimension "
                f"{len(shape)}."
            )
        if type(k) is int and not -shape[dim] <= k < shape[dim]:
            raise IndexError(
                f"For 'Tensor.__getitem__', index {k} is out of bounds for dimension {dim} "
                f"with size {shape[dim]}."
            )
        if isinstance(k, (jax.Array, np.ndarray)) and k.dtype == np.bool_:
            dim += k.ndim
            continue
        if isinstance(k, (jax.Array, np.ndarray)) and k.size and not isinstance(k, jax.core.Tracer):
            values = np.asarray(k)
            bad = values[(values < -shape[dim]) | (values >= shape[dim])]
            if bad.size:
                raise IndexError(
                    f"For 'Tensor.__getitem__', index {int(bad.flat[0])} is out of bounds for "
                    f"dimension {dim} with size {shape[dim]}."
                )
        dim += 1
