"""``mindspore.common.generator``: :class:`Generator`, a seeded random-number state
(a seed and an offset that advances with every draw), and the default generator.

Examples:
    >>> import cellax as ms
    >>> g = ms.Generator().manual_seed(5)
    >>> g.initial_seed(), g._step(2), g._step(1)[1]
    (5, (5, 0), 2)
    >>> print(g.get_state())
    [5 0 0 0 0 0 0 0 3 0 0 0 0 0 0 0]
"""

from __future__ import annotations

import random

import numpy as np

from .._tensor import Tensor

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "seed",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
]


class Generator:
    """A random-number generator state (``mindspore.Generator``): a seed and an offset.

    ``get_state()`` is MindSpore's layout, 16 uint8 bytes (seed and offset as little-endian
    int64), so states move between the two frameworks.

    Differences from MindSpore: cellax's random ops draw from the global key of
    :func:`cellax.set_seed`, not from a Generator; a Generator provides JAX keys to code that
    asks for them (:meth:`next_key`).

    Examples:
        >>> import cellax as ms
        >>> g = ms.Generator()
        >>> g.manual_seed(3).initial_seed()
        3
    """

    def __init__(self) -> None:
        self._seed = 0
        self._offset = 0

    def manual_seed(self, seed):
        """Set the seed and reset the offset; returns the generator.

        Raises:
            TypeError: If ``seed`` is not an int.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError("Seed must be an integer.")
        self._seed, self._offset = int(seed), 0
        return self

    def seed(self) -> int:
        """Seed with a fresh random value and return it."""
        value = random.SystemRandom().randrange(2**63)
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """The seed."""
        return self._seed

    def get_state(self) -> Tensor:
        """The state as a uint8 Tensor of 16 bytes (seed, offset)."""
        data = np.array([self._seed, self._offset], dtype="<i8").view(np.uint8)
        return Tensor(data)

    def set_state(self, state) -> Generator:
        """Restore a state from :meth:`get_state`."""
        data = state.asnumpy() if isinstance(state, Tensor) else np.asarray(state)
        if data.dtype != np.uint8 or data.shape != (16,):
            raise ValueError(
                f"For 'Generator.set_state', the state must be a uint8 Tensor of shape (16,), "
                f"but got dtype {data.dtype} and shape {data.shape}."
            )
        self._seed, self._offset = (int(v) for v in data.view("<i8"))
        return self

    def _step(self, step) -> tuple:
        """Return ``(seed, offset)`` and advance the offset by ``step``."""
        step = int(step.asnumpy()) if isinstance(step, Tensor) else int(step)
        current = (self._seed, self._offset)
        self._offset += step
        return current

    def next_key(self):
        """A fresh JAX PRNG key derived from the seed and offset (advances the offset)."""
        import jax

        seed, offset = self._step(1)
        return jax.random.fold_in(jax.random.PRNGKey(seed % 2**32), offset)


default_generator = Generator()


def manual_seed(seed) -> None:
    """Seed the default generator."""
    default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator randomly; return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state."""
    return default_generator.get_state()


def set_rng_state(state) -> None:
    """Restore the default generator's state."""
    default_generator.set_state(state)
