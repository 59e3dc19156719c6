"""The global random key: one state slot, so eager and compiled code draw the same sequence."""

from __future__ import annotations

import jax

from . import _core
from ._errors import check_int

__all__ = ["set_seed", "get_seed", "next_key", "RNG_STATE"]

_DEFAULT_SEED = 0


class _RngState(_core.Slot):
    """The slot holding the global PRNG key (uint32[2])."""

    __slots__ = ("_key", "seed", "__weakref__")
    donatable = False  # every thread reads the one global key: never hand its buffer to XLA

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._key = None

    @property
    def _data(self):
        # built on first use: ``import cellax`` must not start the XLA backend, or
        # ``communication.init()`` (jax.distributed.initialize) could no longer run
        if self._key is None:
            with jax.ensure_compile_time_eval():  # a concrete key even when first read in a trace
                self._key = jax.random.PRNGKey(self.seed)
        return self._key

    @_data.setter
    def _data(self, value) -> None:  # None: build the key from ``seed`` when next read
        self._key = value

    def __repr__(self) -> str:
        return f"RngState(seed={self.seed})"


RNG_STATE = _RngState(_DEFAULT_SEED)

# Called with the new seed by set_seed: higher layers that keep their own seed (the dataset
# seed of ``cellax.dataset.config``, which MindSpore's set_seed also sets) register here.
SEED_LISTENERS: list = []


def set_seed(seed: int) -> None:
    """Set the global seed: random ops and initializers then repeat the same sequence.

    Args:
        seed (int): A non-negative integer.

    Raises:
        TypeError: If ``seed`` is not an int.
        ValueError: If ``seed`` is not in [0, 2**32 - 1].

    Examples:
        >>> import cellax as ms
        >>> ms.set_seed(1)
        >>> a = ms.ops.rand(2)
        >>> ms.set_seed(1)
        >>> bool((a == ms.ops.rand(2)).all())
        True
    """
    check_int("set_seed", "seed", seed)
    if not 0 <= seed < 2**32:
        raise ValueError(f"For 'set_seed', 'seed' must be in [0, 2**32 - 1], but got {seed}.")
    if _core.current_frame() is not None:
        raise RuntimeError("For 'set_seed', call it outside cellax.jit and grad transforms.")
    RNG_STATE.seed = seed
    _core.store(RNG_STATE, None)  # the key is built from the new seed when next read
    for listener in SEED_LISTENERS:
        listener(seed)


def get_seed() -> int:
    """Return the seed last given to :func:`set_seed` (0 by default)."""
    return RNG_STATE.seed


def next_key(seed: int | None = None):
    """A fresh key: from ``seed`` when given (MindSpore's per-op seed), else the global key."""
    if seed is not None and seed != 0:
        return jax.random.PRNGKey(seed)
    key = _core.read(RNG_STATE)
    key, sub = jax.random.split(key)
    _core.write(RNG_STATE, key)
    return sub
