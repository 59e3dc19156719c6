"""Source datasets built from Python data: GeneratorDataset and NumpySlicesDataset."""

from __future__ import annotations

import grain
import numpy as np

from ._dataset import Dataset, as_row, check_positive, to_list
from ._stages import WorkerStage, grain_iter
from ._samplers import DistributedSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["SourceDataset", "GeneratorDataset", "NumpySlicesDataset"]


def build_sampler(api, num_samples, shuffle, sampler, num_shards, shard_id, default_shuffle):
    """MindSpore's choice of sampler from a source's arguments."""
    if num_samples is not None:
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples < 0:
            raise ValueError(
                f"For '{api}', 'num_samples' must be a non-negative int, but got {num_samples!r}."
            )
    if (num_shards is None) != (shard_id is None):
        raise ValueError(
            f"For '{api}', 'num_shards' and 'shard_id' need to be passed in together, but got "
            f"num_shards={num_shards!r}, shard_id={shard_id!r}."
        )
    if num_shards is not None:
        check_positive(api, "num_shards", num_shards, allow_none=False)
        if isinstance(shard_id, bool) or not isinstance(shard_id, int) or shard_id < 0:
            raise ValueError(
                f"For '{api}', 'shard_id' must be a non-negative int, got {shard_id!r}."
            )
        if shard_id >= num_shards:
            raise ValueError(
                f"For '{api}', 'shard_id' should be less than 'num_shards', but got "
                f"shard_id={shard_id}, num_shards={num_shards}."
            )
    if shuffle is not None and not isinstance(shuffle, bool):
        raise TypeError(f"For '{api}', 'shuffle' must be a bool, but got {shuffle!r}.")
    if sampler is not None:
        if shuffle is not None or num_shards is not None:
            raise RuntimeError(
                f"For '{api}', 'sampler' cannot be given together with 'shuffle' or "
                "'num_shards'/'shard_id'. Pass only one of them."
            )
        if isinstance(sampler, (list, tuple, np.ndarray)):
            from ._samplers import SubsetSampler

            sampler = SubsetSampler(sampler)
        if not isinstance(sampler, Sampler) and hasattr(sampler, "__iter__"):
            from ._samplers import IterableSampler

            sampler = IterableSampler(sampler)
        if not isinstance(sampler, Sampler):
            raise TypeError(
                f"For '{api}', 'sampler' must be a Sampler or an iterable of indices, but got "
                f"{sampler!r}."
            )
        if num_samples is not None and sampler.num_samples is None:
            sampler.num_samples = num_samples or None
        return sampler
    shuffle = default_shuffle if shuffle is None else shuffle
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    if shuffle:
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)


class _Gather:
    """The rows ``reader[indices[i]]``: what grain reads, in order, for one epoch."""

    def __init__(self, reader, indices):
        self.reader, self.indices = reader, indices

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        return self.reader[int(self.indices[i])]

    def _getitems(self, positions):  # grain's batched read: one bookkeeping per batch
        return [self.reader[int(self.indices[i])] for i in positions]


class SourceDataset(Dataset):
    """A dataset that reads rows by index from a reader (``__len__``/``__getitem__``) in the
    order its sampler gives; reads run in grain worker processes when
    ``num_parallel_workers > 1`` and ``python_multiprocessing``."""

    def __init__(self, reader, columns, sampler, num_parallel_workers=None, processes=False):
        super().__init__((), num_parallel_workers)
        self.reader, self.columns, self.sampler = reader, list(columns), sampler
        self.processes = processes
        self._stage = WorkerStage(
            type(self).__name__
        )  # pickled (to worker processes) without its iterator

    def _col_names(self):
        return list(self.columns)

    def _start(self):
        if self.sampler is not None:
            self.sampler.start()

    def _indices(self, seed, epoch):
        return self.sampler.indices(len(self.reader), seed, epoch)

    def _grain(self, seed, epoch):
        return grain.MapDataset.source(_Gather(self.reader, self._indices(seed, epoch)))

    def _access(self, seed, epoch):
        if (self.num_parallel_workers or 1) > 1:
            return None
        return self._grain(seed, epoch)

    def _portable(self):
        return getattr(self.sampler, "portable", True)

    def _rows(self, seed, epoch):
        workers = self.num_parallel_workers or 1
        size = self._static_size()
        if workers == 1 or not size or not self._portable():
            return grain_iter(self._grain(seed, epoch), workers, self.processes)
        return self._stage.rows(self._grain, None, size, seed, epoch, workers, self.processes)

    def _static_size(self):
        return self.sampler.count(len(self.reader))


class _RandomAccessReader:
    """Rows of a random-access Python source, converted to NumPy with MindSpore's checks."""

    def __init__(self, source, ncols):
        self.source, self.ncols = source, ncols

    def __len__(self):
        return len(self.source)

    def __getitem__(self, i):
        try:
            # MindSpore's samplers hand the source NumPy int64 indices
            item = self.source[np.int64(i)]
        except Exception as error:
            raise RuntimeError(
                f"For 'GeneratorDataset', the source raised {type(error).__name__} at index {i}: "
                f"{error}"
            ) from error
        return _row("GeneratorDataset", item, self.ncols)


def _row(api, item, ncols):
    values = tuple(item) if isinstance(item, (tuple, list)) else (item,)
    if len(values) != ncols:
        raise RuntimeError(
            f"For '{api}', the source returned {len(values)} columns, but 'column_names' names "
            f"{ncols}. Make them match."
        )
    return as_row(values)


class GeneratorDataset(SourceDataset):
    """A dataset whose rows come from Python: a random-access object (``__getitem__`` and
    ``__len__``), an iterable, or a callable returning an iterator (a generator function).

    Args:
        source (Union[Callable, Iterable, Random-accessible]): The rows: tuples of arrays (a
            single value when there is one column).
        column_names (Union[str, list[str]]): Column names.
        column_types (list): Accepted for compatibility.
        schema: Not supported (raises).
        num_samples (int): The most rows read. Default: ``None`` (all).
        num_parallel_workers (int): Reader workers (random-access sources). Default: 1.
        shuffle (bool): Shuffle a random-access source. Default: ``None`` (True for random-access
            sources, False for iterables).
        sampler (Sampler): A sampler for a random-access source. Default: ``None``.
        num_shards (int): Number of shards. Default: ``None``.
        shard_id (int): This shard. Default: ``None``.
        python_multiprocessing (bool): Read in worker processes (grain) when
            ``num_parallel_workers > 1``; else threads. Default: ``True``.

    Raises:
        ValueError: If `column_names` is missing or sharding arguments are wrong.
        RuntimeError: At iteration, if the source raises or returns the wrong number of columns.

    Differences from MindSpore: iterable sources cannot be shuffled, sampled or sharded
    (ValueError); ``schema``, ``max_rowsize``, ``batch_sampler`` and ``collate_fn`` are not
    supported. With ``python_multiprocessing`` the worker processes are spawned, not forked
    (see :meth:`Dataset.map`): iterate under ``if __name__ == "__main__":``.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> def gen():
        ...     for i in range(3):
        ...         yield np.array([i, i]), np.array(i * 10)
        >>> data = ds.GeneratorDataset(gen, ["x", "y"])
        >>> [r[1].tolist() for r in data.create_tuple_iterator(output_numpy=True)]
        [0, 10, 20]
    """

    def __init__(
        self,
        source,
        column_names=None,
        column_types=None,
        schema=None,
        num_samples=None,
        num_parallel_workers=1,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        python_multiprocessing=True,
        max_rowsize=None,
        batch_sampler=None,
        collate_fn=None,
    ):
        api = "GeneratorDataset"
        if schema is not None or batch_sampler is not None or collate_fn is not None:
            raise ValueError(
                f"For '{api}', 'schema', 'batch_sampler' and 'collate_fn' are not supported by "
                "cellax; pass 'column_names' and batch with 'batch'."
            )
        columns = to_list(api, "column_names", column_names, allow_none=False)
        random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if random_access:
            sampler = build_sampler(
                api, num_samples, shuffle, sampler, num_shards, shard_id, default_shuffle=True
            )
            reader = _RandomAccessReader(source, len(columns))
            super().__init__(reader, columns, sampler, num_parallel_workers, python_multiprocessing)
            self._iterable = None
            return
        if not (callable(source) or hasattr(source, "__iter__")):
            raise TypeError(
                f"For '{api}', 'source' must be callable, iterable or random-accessible, "
                f"but got {type(source).__name__}."
            )
        if shuffle or sampler is not None or num_shards is not None:
            raise ValueError(
                f"For '{api}', 'shuffle', 'sampler' and 'num_shards' need a random-access "
                "source (with __getitem__ and __len__), but the source is only iterable."
            )
        Dataset.__init__(self, (), num_parallel_workers)
        self.columns, self._iterable, self._limit = columns, source, num_samples or None
        self.sampler = None

    def _access(self, seed, epoch):
        return None if self._iterable is not None else super()._access(seed, epoch)

    def _rows(self, seed, epoch):
        if self._iterable is None:
            return super()._rows(seed, epoch)
        return self._iterate()

    def _iterate(self):
        api = "GeneratorDataset"
        try:
            items = iter(self._iterable() if callable(self._iterable) else self._iterable)
        except Exception as error:
            raise RuntimeError(
                f"For '{api}', calling the source raised {type(error).__name__}: {error}"
            ) from error
        count = 0
        while self._limit is None or count < self._limit:
            try:
                item = next(items)
            except StopIteration:
                return
            except Exception as error:
                raise RuntimeError(
                    f"For '{api}', the source raised {type(error).__name__}: {error}"
                ) from error
            yield _row(api, item, len(self.columns))
            count += 1

    def _static_size(self):
        if self._iterable is None:
            return super()._static_size()
        return None


class _SlicesReader:
    def __init__(self, columns):
        self.columns = columns

    def __len__(self):
        return len(self.columns[0])

    def __getitem__(self, i):
        return tuple(np.asarray(c[i]) for c in self.columns)


class NumpySlicesDataset(SourceDataset):
    """A dataset of the slices (along axis 0) of in-memory data.

    Args:
        data (Union[list, tuple, dict, numpy.ndarray]): A list or array is one column; a tuple
            gives one column per element; a dict gives one column per key.
        column_names (list[str]): Column names. Default: ``None`` (the dict's keys, else
            ``column_0``, ``column_1``, ...).
        num_samples (int): The most rows read. Default: ``None``.
        num_parallel_workers (int): Workers. Default: 1.
        shuffle (bool): Shuffle. Default: ``None`` (True, as in MindSpore).
        sampler (Sampler): A sampler. Default: ``None``.
        num_shards (int): Number of shards. Default: ``None``.
        shard_id (int): This shard. Default: ``None``.

    Raises:
        ValueError: If the columns have different lengths or sharding arguments are wrong.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset((np.ones((4, 2)), np.arange(4)), shuffle=False)
        >>> data.get_col_names(), data.get_dataset_size()
        (['column_0', 'column_1'], 4)
    """

    def __init__(
        self,
        data,
        column_names=None,
        num_samples=None,
        num_parallel_workers=1,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
    ):
        api = "NumpySlicesDataset"
        if isinstance(data, dict):
            names, columns = list(data.keys()), list(data.values())
        elif isinstance(data, tuple):
            names, columns = None, list(data)
        else:
            names, columns = None, [data]
        columns = [np.asarray(c) for c in columns]
        if any(c.ndim == 0 for c in columns):
            raise ValueError(f"For '{api}', every column of 'data' needs a first axis to slice.")
        if len({len(c) for c in columns}) > 1:
            raise ValueError(
                f"For '{api}', all columns of 'data' must have the same length, but got "
                f"{[len(c) for c in columns]}."
            )
        given = to_list(api, "column_names", column_names)
        if given is not None:
            if len(given) != len(columns):
                raise ValueError(
                    f"For '{api}', 'column_names' has {len(given)} names for {len(columns)} "
                    "columns."
                )
            names = given
        names = names or [f"column_{i}" for i in range(len(columns))]
        sampler = build_sampler(
            api, num_samples, shuffle, sampler, num_shards, shard_id, default_shuffle=True
        )
        super().__init__(_SlicesReader(columns), names, sampler, num_parallel_workers, False)
