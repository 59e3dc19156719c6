"""Small helpers shared by the ``cellax.mint`` adapters (no math lives here)."""

from __future__ import annotations

from .. import ops
from .._tensor import Tensor

__all__ = []


def generator_seed(api: str, generator):
    """The per-op seed for a draw from ``generator`` (None: the global key of
    cellax.set_seed). Each call advances the generator's offset, so a Generator seeded alike
    (or restored with ``set_state``) reproduces its draws."""
    if generator is None:
        return None
    step = getattr(generator, "_step", None)
    if step is None:
        raise TypeError(
            f"For '{api}', 'generator' must be a cellax.Generator or None, but got "
            f"{type(generator).__name__}."
        )
    seed, offset = step(1)
    return (seed * 1_000_003 + offset) % (2**31 - 1) + 1


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
