"""Samplers: which source rows an epoch reads, in which order (shuffles use grain's)."""

from __future__ import annotations

import enum

import math

import grain
import numpy as np

from ._std_shuffle import EpochShuffler, draws

__all__ = [
    "Shuffle",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "DistributedSampler",
    "SubsetRandomSampler",
    "SubsetSampler",
]


def _check_count(api: str, name: str, value, allow_none: bool = True) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{api}', '{name}' must be a non-negative int, but got {value!r}.")


def epoch_seed(seed: int, epoch: int) -> int:
    """A distinct 32-bit seed per (pipeline seed, epoch)."""
    return int(np.random.SeedSequence([seed, epoch]).generate_state(1)[0])


def permutation(n: int, seed: int) -> np.ndarray:
    """A permutation of ``range(n)`` drawn by grain's index shuffle."""
    if n == 0:
        return np.zeros((0,), np.int64)
    return np.fromiter(grain.MapDataset.range(n).shuffle(seed=seed), np.int64, count=n)


class Sampler:
    """Base class of the samplers: subclasses define the indices of one epoch.

    Args:
        num_samples (int): The most indices an epoch yields. Default: ``None`` (all).
    """

    def __init__(self, num_samples=None) -> None:
        _check_count(type(self).__name__, "num_samples", num_samples)
        self.num_samples = num_samples or None

    def _epoch_indices(self, n: int, seed: int, epoch: int) -> np.ndarray:
        raise NotImplementedError

    def indices(self, n: int, seed: int, epoch: int) -> np.ndarray:
        """The source row indices of ``epoch`` for a source of ``n`` rows."""
        out = np.asarray(self._epoch_indices(n, seed, epoch), np.int64)
        return out if self.num_samples is None else out[: self.num_samples]

    def count(self, n: int) -> int:
        """How many indices an epoch yields for a source of ``n`` rows."""
        return len(self.indices(n, 0, 0))

    def start(self) -> None:
        """Called when an iterator over the pipeline is created."""


class SequentialSampler(Sampler):
    """Read the rows in order from ``start_index``.

    Args:
        start_index (int): The first row. Default: ``None`` (0).
        num_samples (int): The most rows read. Default: ``None`` (all).

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset(np.arange(5), sampler=ds.SequentialSampler(1, 3))
        >>> [int(x[0]) for x in data.create_tuple_iterator(output_numpy=True)]
        [1, 2, 3]
    """

    def __init__(self, start_index=None, num_samples=None) -> None:
        super().__init__(num_samples)
        _check_count("SequentialSampler", "start_index", start_index)
        self.start_index = start_index or 0

    def _epoch_indices(self, n, seed, epoch):
        return np.arange(min(self.start_index, n), n)


class RandomSampler(Sampler):
    """Read the rows in a random order, a new one each epoch (or draw with replacement).

    Args:
        replacement (bool): Draw with replacement. Default: ``False``.
        num_samples (int): The most rows read. Default: ``None`` (all).
        shuffle (Shuffle): Accepted for compatibility (always a global shuffle).

    The orders are MindSpore's: epoch 0 is ``std::shuffle`` with ``std::mt19937(seed)``, epoch
    ``e`` reshuffles epoch ``e - 1``'s order with ``std::mt19937(seed + e)`` (``seed`` being the
    dataset seed when the iterator is created).

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset(np.arange(5), sampler=ds.RandomSampler())
        >>> sorted(int(x[0]) for x in data.create_tuple_iterator(output_numpy=True))
        [0, 1, 2, 3, 4]
    """

    def __init__(self, replacement=False, num_samples=None, shuffle=None) -> None:
        super().__init__(num_samples)
        self.replacement = bool(replacement)
        self._shuffler = EpochShuffler(step=1)

    def _epoch_indices(self, n, seed, epoch):
        if self.replacement:
            return draws(n, min(self.num_samples or n, n), seed + epoch) if n else np.zeros(0)
        return self._shuffler.order(range(n), seed, epoch)


class DistributedSampler(Sampler):
    """Read one shard of ``num_shards``: the (optionally shuffled) rows are padded cyclically to a
    multiple of ``num_shards`` and shard ``shard_id`` takes every ``num_shards``-th one from
    position ``shard_id`` (MindSpore's layout: every shard has ``ceil(N / num_shards)`` rows).

    Args:
        num_shards (int): Number of shards.
        shard_id (int): This shard, in ``[0, num_shards)``.
        shuffle (bool): Shuffle (the same permutation on every shard). Default: ``True``.
            As in MindSpore, the seed is the dataset seed when the sampler is created, plus 1.
        num_samples (int): The most rows read by this shard. Default: ``None``.
        offset (int): Accepted for compatibility; only ``-1`` is supported.

    Raises:
        TypeError: If `num_shards` or `shard_id` is not an int.
        RuntimeError: When the pipeline reading it is sized or iterated, if `num_shards` is not
            positive or `shard_id` is not in ``[0, num_shards)`` (as MindSpore, which accepts
            them when the sampler is created).

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> sampler = ds.DistributedSampler(4, 2, shuffle=False)
        >>> data = ds.NumpySlicesDataset(np.arange(10), sampler=sampler)
        >>> [int(x[0]) for x in data.create_tuple_iterator(output_numpy=True)]
        [2, 6, 0]
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1) -> None:
        super().__init__(num_samples)
        for name, value in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(
                    f"For 'DistributedSampler', '{name}' must be an int, but got {value!r}."
                )
        if offset != -1:
            raise ValueError("For 'DistributedSampler', only offset=-1 is supported by cellax.")
        self.num_shards, self.shard_id, self.shuffle = num_shards, shard_id, bool(shuffle)
        from . import config

        self._seed = config.get_seed() + 1
        self._shuffler = EpochShuffler(step=1)

    def _check_range(self) -> None:
        # MindSpore checks the range when the pipeline is built (size or iteration), not here.
        if self.num_shards <= 0:
            raise RuntimeError(
                f"For 'DistributedSampler', 'num_shards' must be greater than 0, "
                f"but got {self.num_shards}."
            )
        if not 0 <= self.shard_id < self.num_shards:
            raise RuntimeError(
                f"For 'DistributedSampler', 'shard_id' must be in range [0, {self.num_shards}), "
                f"but got {self.shard_id}. shard_id should be less than num_shards."
            )

    def _epoch_indices(self, n, seed, epoch):
        self._check_range()
        seed = self._seed
        order = self._shuffler.order(range(n), seed, epoch) if self.shuffle else np.arange(n)
        if n == 0:
            return order
        padded = np.resize(order, math.ceil(n / self.num_shards) * self.num_shards)
        return padded[self.shard_id :: self.num_shards]


class SubsetSampler(Sampler):
    """Read the given row indices in the given order.

    Args:
        indices (list[int]): The rows.
        num_samples (int): The most rows read. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset(np.arange(5) * 10, sampler=ds.SubsetSampler([4, 0]))
        >>> [int(x[0]) for x in data.create_tuple_iterator(output_numpy=True)]
        [40, 0]
    """

    def __init__(self, indices, num_samples=None) -> None:
        super().__init__(num_samples)
        self.subset = np.asarray(list(indices), np.int64)

    def _epoch_indices(self, n, seed, epoch):
        if len(self.subset) and (self.subset.max() >= n or self.subset.min() < -n):
            raise RuntimeError(
                f"For '{type(self).__name__}', every index must be smaller than the dataset size "
                f"{n}, but got {int(self.subset.max())}."
            )
        return self.subset % max(n, 1)


class SubsetRandomSampler(SubsetSampler):
    """Read the given row indices in a random order (a new one each epoch): MindSpore's orders,
    ``std::shuffle`` of the previous epoch's order with ``std::mt19937(seed)``.

    Args:
        indices (list[int]): The rows.
        num_samples (int): The most rows read. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset(np.arange(5), sampler=ds.SubsetRandomSampler([1, 3]))
        >>> sorted(int(x[0]) for x in data.create_tuple_iterator(output_numpy=True))
        [1, 3]
    """

    def __init__(self, indices, num_samples=None) -> None:
        super().__init__(indices, num_samples)
        self._shuffler = EpochShuffler(step=0)

    def _epoch_indices(self, n, seed, epoch):
        base = super()._epoch_indices(n, seed, epoch)
        return self._shuffler.order(base, seed, epoch)


class IterableSampler(Sampler):
    """A user-defined sampler: any object whose ``iter()`` gives one epoch's row indices (as
    MindSpore accepts for ``sampler``). It is iterated once per epoch, in epoch order, in the
    main process; its ``len()``, when defined, is the epoch size.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> class Odd:
        ...     def __iter__(self):
        ...         return iter([1, 3])
        >>> data = ds.NumpySlicesDataset(np.arange(5), sampler=Odd())
        >>> [int(x[0]) for x in data.create_tuple_iterator(output_numpy=True)]
        [1, 3]
    """

    portable = False  # its epochs cannot be rebuilt in another process

    def __init__(self, source, num_samples=None) -> None:
        super().__init__(num_samples)
        self.source, self._epochs = source, []

    def start(self) -> None:
        self._epochs = []  # a new iterator reads the sampler afresh

    def _epoch_indices(self, n, seed, epoch):
        while len(self._epochs) <= epoch:
            self._epochs.append(np.fromiter(iter(self.source), np.int64))
        indices = self._epochs[epoch]
        if len(indices) and (indices.min() < 0 or indices.max() >= n):
            raise RuntimeError(
                f"For the sampler {type(self.source).__name__}, index {int(indices.max())} is "
                f"out of range for a dataset of {n} rows."
            )
        return indices

    def count(self, n: int) -> int:
        if hasattr(self.source, "__len__"):
            size = len(self.source)
            return size if self.num_samples is None else min(size, self.num_samples)
        return super().count(n)


class Shuffle(enum.Enum):
    """How file-based datasets shuffle (``shuffle=Shuffle.GLOBAL``...): ``FALSE`` not at
    all, ``GLOBAL`` files and rows, ``FILES`` the file order, ``INFILE`` rows within files,
    ``ADAPTIVE``/``PARTIAL`` as MindSpore's sized variants of ``GLOBAL``."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"
