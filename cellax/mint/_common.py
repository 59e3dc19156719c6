"""Small helpers shared by the ``cellax.mint`` adapters (no math lives here)."""

from __future__ import annotations

from .. import ops
from .._tensor import Tensor

__all__ = []


def check_generator(api: str, generator) -> None:
    """mint's random ops take ``generator=``; cellax draws from its global key only."""
    if generator is not None:
        raise NotImplementedError(
            f"For '{api}', 'generator' must be None (cellax has no Generator objects; random "
            f"ops draw from the global key set by cellax.set_seed), but got "
            f"{type(generator).__name__}. Call cellax.set_seed(...) instead."
        )


def reduce_dim(dim):
    """mint's ``dim=()`` / ``dim=[]`` means all dimensions (cellax.ops spells it None)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return None
    if isinstance(dim, list):
        return tuple(dim)
    return dim


def cast(x, dtype):
    """``x`` cast to ``dtype`` unless ``dtype`` is None."""
    return x if dtype is None else ops.cast(x, dtype)


def size_args(api: str, size: tuple):
    """``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` all mean the shape ``(2, 3)``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    for value in size:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(
                f"For '{api}', 'size' must be ints or one tuple/list of ints, but got "
                f"{type(value).__name__}: {value!r}."
            )
    return tuple(size)


def is_tensor_like(x) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "shape") and hasattr(x, "dtype")
