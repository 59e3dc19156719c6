"""``cellax.dataset.config``: global settings of the data pipelines (seed, workers).

The dataset seed drives every shuffle and random transform of a pipeline. Like MindSpore's
``mindspore.set_seed``, :func:`cellax.set_seed` also sets it; until either is called it is
``cellax.get_seed()`` (MindSpore then shuffles with a random seed; cellax stays deterministic).
"""

from __future__ import annotations

import os
import random

import numpy as np

from ._config_knobs import *  # noqa: F401,F403 - MindSpore's engine switches (no-ops)
from ._config_knobs import __all__ as _knobs_all

__all__ = [
    "set_seed",
    "get_seed",
    "set_num_parallel_workers",
    "get_num_parallel_workers",
    "set_prefetch_size",
    "get_prefetch_size",
    *_knobs_all,
]

_UINT32_MAX = 2**32 - 1
_state = {"seed": None, "num_parallel_workers": 8, "prefetch_size": 16}
_op_rngs: dict = {}


def set_seed(seed) -> None:
    """Set the seed of the data pipelines: shuffles, samplers and random transforms.

    Like MindSpore, this also seeds Python's ``random`` and ``numpy.random``.

    Args:
        seed (int): An integer in ``[0, 2**32 - 1]``.

    Raises:
        TypeError: If `seed` is not an int.
        ValueError: If `seed` is out of range.

    Examples:
        >>> from cellax.dataset import config
        >>> config.set_seed(7)
        >>> config.get_seed()
        7
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', 'seed' must be an int, but got {type(seed).__name__}.")
    if not 0 <= seed <= _UINT32_MAX:
        raise ValueError(
            f"For 'set_seed', 'seed' must be in [0, {_UINT32_MAX}], but got {seed}. "
            "Pass a non-negative 32-bit integer."
        )
    _state["seed"] = seed
    _op_rngs.clear()
    random.seed(seed)
    np.random.seed(seed)


def get_seed() -> int:
    """Return the dataset seed: the one given to :func:`set_seed`, else ``cellax.get_seed()``.

    Returns:
        int, the seed.

    Examples:
        >>> from cellax.dataset import config
        >>> isinstance(config.get_seed(), int)
        True
    """
    if _state["seed"] is not None:
        return _state["seed"]
    from .._random import get_seed as global_seed

    return int(global_seed())


def set_num_parallel_workers(num) -> None:
    """Set the default number of workers of dataset operations.

    Args:
        num (int): A positive int.

    Raises:
        ValueError: If `num` is not positive.

    Examples:
        >>> from cellax.dataset import config
        >>> config.set_num_parallel_workers(4)
        >>> config.get_num_parallel_workers()
        4
        >>> config.set_num_parallel_workers(8)
    """
    if isinstance(num, bool) or not isinstance(num, int) or num <= 0:
        raise ValueError(
            f"For 'set_num_parallel_workers', 'num' must be a positive int, but got {num!r}."
        )
    _state["num_parallel_workers"] = num


def get_num_parallel_workers() -> int:
    """Return the default number of workers (8 unless changed).

    Returns:
        int, the number of workers.

    Examples:
        >>> from cellax.dataset import config
        >>> config.get_num_parallel_workers() > 0
        True
    """
    return _state["num_parallel_workers"]


def set_prefetch_size(size) -> None:
    """Set the prefetch queue size (accepted for compatibility; grain sizes its own buffers).

    Args:
        size (int): A positive int.

    Raises:
        ValueError: If `size` is not positive.

    Examples:
        >>> from cellax.dataset import config
        >>> config.set_prefetch_size(16)
        >>> config.get_prefetch_size()
        16
    """
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"For 'set_prefetch_size', 'size' must be a positive int, got {size!r}.")
    _state["prefetch_size"] = size


def get_prefetch_size() -> int:
    """Return the prefetch queue size.

    Returns:
        int, the size.

    Examples:
        >>> from cellax.dataset import config
        >>> config.get_prefetch_size() > 0
        True
    """
    return _state["prefetch_size"]


def op_rng() -> np.random.Generator:
    """The generator of random transforms in this process (seeded from the dataset seed; worker
    processes mix in their process id so that workers draw different numbers)."""
    pid = os.getpid()
    rng = _op_rngs.get(pid)
    if rng is None:
        import multiprocessing

        worker = multiprocessing.parent_process() is not None
        rng = _op_rngs[pid] = np.random.default_rng([get_seed(), pid if worker else 0])
    return rng


def _follow_global_seed(seed: int) -> None:
    _state["seed"] = seed
    _op_rngs.clear()


def _register() -> None:
    from .._random import SEED_LISTENERS

    if _follow_global_seed not in SEED_LISTENERS:
        SEED_LISTENERS.append(_follow_global_seed)


_register()
