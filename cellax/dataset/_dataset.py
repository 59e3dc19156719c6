"""The Dataset base class: the pipeline methods every MindSpore dataset offers.

A pipeline is a tree of Dataset nodes. Iterating one epoch asks the root for its rows (tuples of
NumPy arrays, one per column). Nodes whose rows can be read by index (sources, map, project, ...)
also build a random-access ``grain.MapDataset``, so that grain can run them in worker processes.
"""

from __future__ import annotations

from typing import Iterator

from .._core._seams import DATASET_NODES

import numpy as np

__all__ = ["Dataset", "BatchInfo"]

# The pipeline node classes (MapDataset, BatchDataset, ...) subclass Dataset, so its methods
# cannot import them; ``._nodes`` registers them here when the package is imported.


def to_list(api: str, name: str, value, allow_none: bool = True):
    """``str | list[str] | None`` -> ``list[str] | None`` with MindSpore's checks."""
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"For '{api}', '{name}' must be given, but got None.")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"For '{api}', '{name}' must be a str or a list of str, but got {value!r}.")
    if not value:
        raise ValueError(f"For '{api}', '{name}' must not be empty.")
    if len(set(value)) != len(value):
        raise ValueError(f"For '{api}', '{name}' has duplicate names: {list(value)}.")
    return list(value)


def check_positive(api: str, name: str, value, allow_none: bool = True):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{api}', '{name}' must be a positive int, but got {value!r}.")


class BatchInfo:
    """What ``per_batch_map`` and a callable ``batch_size`` learn about the current batch.

    Examples:
        >>> from cellax.dataset import BatchInfo
        >>> info = BatchInfo(3, 1)
        >>> info.get_batch_num(), info.get_epoch_num()
        (3, 1)
    """

    def __init__(self, batch_num: int, epoch_num: int) -> None:
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self) -> int:
        """The index of the batch within the epoch (from 0)."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        """The index of the epoch (from 0)."""
        return self._epoch_num


class Dataset:
    """Base class of every dataset: a node of a data pipeline.

    Subclasses define ``_col_names``, ``_rows`` and, when they can, ``_access`` (a random-access
    ``grain.MapDataset`` of rows) and ``_static_size``.

    Differences from MindSpore: a node may feed several pipelines (MindSpore requires a tree).
    """

    def __init__(self, children=(), num_parallel_workers=None) -> None:
        self.children = list(children)
        check_positive(type(self).__name__, "num_parallel_workers", num_parallel_workers)
        self.num_parallel_workers = num_parallel_workers
        self._size_cache = None

    # What get_dataset_size() returns once it has been asked, as MindSpore 2.10's attribute:
    # None before, then kept (mindyolo's trainer reads it); a value set here is returned as is.
    dataset_size = None

    # ----- what subclasses define -------------------------------------------------------------
    def _col_names(self) -> list:
        return self.children[0]._col_names()

    def _access(self, seed: int, epoch: int):
        """A random-access ``grain.MapDataset`` of this epoch's rows, or None."""
        return None

    def _rows(self, seed: int, epoch: int) -> Iterator[tuple]:
        access = self._access(seed, epoch)
        if access is None:
            raise NotImplementedError(type(self).__name__)
        from ._stages import grain_iter

        return grain_iter(access, 1, False)

    def _portable(self) -> bool:
        """Whether worker processes can rebuild this pipeline's epochs themselves (False under
        a user-defined sampler, whose epochs are read once, in the main process)."""
        return all(child._portable() for child in self.children)

    def _static_size(self):
        """Rows per epoch when known without iterating, else None."""
        return None

    def _start(self) -> None:
        """Called when an iterator over the pipeline is created (samplers count iterators)."""
        for child in self.children:
            child._start()

    def _release(self) -> None:
        """Called when an iterator has read its last epoch or stops: idle worker stages end
        their worker processes (a later iterator starts new ones)."""
        stage = self.__dict__.get("_stage")
        if stage is not None:
            stage.close_idle()
        for child in self.children:
            child._release()

    # ----- information ------------------------------------------------------------------------
    def get_col_names(self) -> list:
        """Return the names of the columns, in order.

        Returns:
            list[str], the column names.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset({"x": np.ones(2), "y": np.ones(2)}).get_col_names()
            ['x', 'y']
        """
        return list(self._col_names())

    def get_dataset_size(self) -> int:
        """Return the number of rows (batches after ``batch``) of one epoch.

        Pipelines whose size is not known in advance (``filter``, generators without
        ``__len__``) are iterated once to count.

        Returns:
            int, the size.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(10)).batch(3).get_dataset_size()
            4
        """
        if self.dataset_size is None:
            size = self._static_size()
            if size is None:
                if self._size_cache is None:
                    from . import config

                    self._size_cache = sum(1 for _ in self._rows(config.get_seed(), 0))
                size = self._size_cache
            self.dataset_size = int(size)
        return self.dataset_size

    def __len__(self) -> int:
        """Return ``get_dataset_size()``: the rows (batches after ``batch``) of one epoch.

        Returns:
            int, the size.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> len(ds.NumpySlicesDataset(np.arange(10)).batch(4))
            3
        """
        return self.get_dataset_size()

    def _size_of(self, seed: int, epoch: int) -> int:
        """Rows of one epoch (counted when not known in advance)."""
        size = self._static_size()
        return int(size) if size is not None else sum(1 for _ in self._rows(seed, epoch))

    def _first_row(self) -> tuple:
        from . import config

        for row in self._rows(config.get_seed(), 0):
            return row
        raise RuntimeError(
            f"For '{type(self).__name__}', the dataset is empty, so it has no output shapes "
            "or types."
        )

    def output_shapes(self, estimate=False) -> list:
        """Return the shape of every column (read from the first row).

        Returns:
            list[list[int]], the shapes.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.ones((4, 2, 3))).batch(2).output_shapes()
            [[2, 2, 3]]
        """
        return [list(column.shape) for column in self._first_row()]

    def output_types(self) -> list:
        """Return the NumPy dtype of every column (read from the first row).

        Returns:
            list[numpy.dtype], the dtypes.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.ones((4, 2), np.float32)).output_types()
            [dtype('float32')]
        """
        return [column.dtype for column in self._first_row()]

    def get_batch_size(self) -> int:
        """Return the batch size of the last ``batch`` in the pipeline (1 when none).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(10)).batch(3).get_batch_size()
            3
        """
        node = self
        while node.children:
            if hasattr(node, "batch_size") and isinstance(node.batch_size, int):
                return node.batch_size
            node = node.children[0]
        return 1

    def _first(self, test):
        """The first node met walking from here down the first-child chain with ``test``."""
        node = self
        while not test(node):
            if not node.children:
                return None
            node = node.children[0]
        return node

    def get_repeat_count(self) -> int:
        """Return the count of the ``repeat`` nearest the end of the pipeline (1 when none).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(4)).repeat(2).repeat(3).get_repeat_count()
            3
        """
        node = self._first(lambda n: type(n).__name__ == "RepeatDataset")
        return 1 if node is None else node.count

    def num_classes(self):
        """Return the number of classes of an ``ImageFolderDataset`` source, else None.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> print(ds.NumpySlicesDataset(np.arange(4)).num_classes())
            None
        """
        node = self._first(lambda n: "_class_indexing" in n.__dict__)
        return None if node is None else len(set(node._class_indexing.values()))

    def apply(self, apply_func):
        """Return ``apply_func(self)``, which must return a dataset.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(4)).apply(lambda d: d.batch(2)).get_dataset_size()
            2
        """
        if not callable(apply_func):
            raise TypeError(f"For 'apply', 'apply_func' must be callable, got {apply_func!r}.")
        result = apply_func(self)
        if not isinstance(result, Dataset):
            raise TypeError(f"For 'apply', 'apply_func' must return a dataset, got {result!r}.")
        return result

    # ----- pipeline operations ----------------------------------------------------------------
    def map(
        self,
        operations,
        input_columns=None,
        output_columns=None,
        num_parallel_workers=None,
        **kwargs,
    ):
        """Apply ``operations`` (callables run one after the other) to ``input_columns``.

        With as many output as input columns the outputs replace the inputs in place; otherwise
        the output columns come first, followed by the untouched columns.

        Args:
            operations (Union[Callable, list[Callable]]): The operations.
            input_columns (Union[str, list[str]]): Input columns. Default: ``None`` (the first).
            output_columns (Union[str, list[str]]): Output columns. Default: ``None`` (the inputs).
            num_parallel_workers (int): Workers. Default: ``None`` (1, in this process).
            python_multiprocessing (bool): Run the workers as processes (grain's
                ``mp_prefetch``) rather than threads. Default: ``False``.

        Returns:
            Dataset, the mapped dataset.

        Raises:
            RuntimeError: At iteration, if an input column is missing or an operation fails.

        Differences from MindSpore: ``num_parallel_workers=None`` runs in the calling process;
        workers run only where the input can be read by index (else the map runs in-process);
        ``cache``, ``callbacks`` and ``offload`` are accepted and ignored. Worker processes are
        spawned (grain), not forked: each runs the main script again, so a script that uses
        them iterates its pipeline under ``if __name__ == "__main__":`` (else a RuntimeError
        says so).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
            >>> data = data.map(lambda a: (a, a * 10), input_columns="a", output_columns=["a", "b"])
            >>> [[int(v) for v in row] for row in data.create_tuple_iterator(output_numpy=True)]
            [[0, 0], [1, 10], [2, 20]]
        """
        MapDataset = DATASET_NODES["MapDataset"]

        return MapDataset(
            self,
            operations,
            input_columns,
            output_columns,
            num_parallel_workers,
            kwargs.get("python_multiprocessing", False),
        )

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Combine ``batch_size`` consecutive rows into a batch (arrays stacked on a new axis 0).

        Args:
            batch_size (Union[int, Callable]): Rows per batch, or a callable of ``BatchInfo``.
            drop_remainder (bool): Drop the last, incomplete batch. Default: ``False``.
            num_parallel_workers (int): Accepted; batching runs in the calling process.
            per_batch_map (Callable): Called with one list of arrays per input column and a
                ``BatchInfo``; returns a tuple of lists. Default: ``None``.
            input_columns (Union[str, list[str]]): Columns given to ``per_batch_map``.
            output_columns (Union[str, list[str]]): Names of ``per_batch_map``'s outputs.

        Returns:
            Dataset, the batched dataset.

        Raises:
            ValueError: If `batch_size` is not positive.
            RuntimeError: At iteration, if rows of a column have different shapes.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset(np.arange(5), shuffle=False).batch(2)
            >>> [b[0].tolist() for b in data.create_tuple_iterator(output_numpy=True)]
            [[0, 1], [2, 3], [4]]
        """
        BatchDataset = DATASET_NODES["BatchDataset"]

        allowed = {"per_batch_map", "input_columns", "output_columns"}
        allowed |= {"python_multiprocessing", "max_rowsize"}
        unknown = sorted(set(kwargs) - allowed)
        if unknown:
            raise TypeError(
                f"For 'batch', got an unexpected keyword argument {unknown[0]!r}. "
                "Use 'padded_batch' for 'pad_info'."
            )
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(
        self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None
    ):
        """Batch rows, padding columns to a common shape first.

        Args:
            batch_size (int): Rows per batch.
            drop_remainder (bool): Drop the last, incomplete batch. Default: ``False``.
            num_parallel_workers (int): Accepted; batching runs in the calling process.
            pad_info (dict): ``{column: (shape, pad_value)}``; a ``None`` shape (or ``None`` in a
                dimension) pads to the longest row of the batch; ``{}`` pads every column with 0.

        Returns:
            Dataset, the batched dataset.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> rows = [(np.arange(n),) for n in (1, 3)]
            >>> data = ds.GeneratorDataset(rows, ["v"], shuffle=False)
            >>> data = data.padded_batch(2, pad_info={"v": ([4], -1)})
            >>> next(data.create_tuple_iterator(output_numpy=True))[0].tolist()
            [[0, -1, -1, -1], [0, 1, 2, -1]]
        """
        BatchDataset = DATASET_NODES["BatchDataset"]

        return BatchDataset(
            self, batch_size, drop_remainder, num_parallel_workers, pad_info=pad_info or {}
        )

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (a new order each epoch).

        Args:
            buffer_size (int): Buffer size, at least 2; at least the dataset size for a full
                shuffle.

        Returns:
            Dataset, the shuffled dataset.

        Raises:
            ValueError: If `buffer_size` is smaller than 2.

        The orders are MindSpore's: its buffer algorithm driven by ``std::mt19937_64`` seeded
        with the dataset seed when the iterator is created, continuing across epochs.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset(np.arange(4), shuffle=False).shuffle(4)
            >>> sorted(int(r[0]) for r in data.create_tuple_iterator(output_numpy=True))
            [0, 1, 2, 3]
        """
        ShuffleDataset = DATASET_NODES["ShuffleDataset"]

        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        """Repeat the dataset ``count`` times within an epoch (``None``/-1: forever).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(3)).repeat(2).get_dataset_size()
            6
        """
        RepeatDataset = DATASET_NODES["RepeatDataset"]

        return RepeatDataset(self, count)

    def take(self, count=-1):
        """Keep the first ``count`` rows (-1: all).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(10)).take(4).get_dataset_size()
            4
        """
        SliceDataset = DATASET_NODES["SliceDataset"]

        return SliceDataset(self, "take", count)

    def skip(self, count):
        """Drop the first ``count`` rows.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> ds.NumpySlicesDataset(np.arange(10)).skip(4).get_dataset_size()
            6
        """
        SliceDataset = DATASET_NODES["SliceDataset"]

        return SliceDataset(self, "skip", count)

    def project(self, columns):
        """Keep only ``columns``, in the given order.

        Raises:
            RuntimeError: At iteration, if a column does not exist.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": np.ones(2), "b": np.ones(2)})
            >>> data.project(["b"]).get_col_names()
            ['b']
        """
        ProjectDataset = DATASET_NODES["ProjectDataset"]

        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename ``input_columns`` to ``output_columns``.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": np.ones(2), "b": np.ones(2)})
            >>> data.rename("a", "z").get_col_names()
            ['z', 'b']
        """
        RenameDataset = DATASET_NODES["RenameDataset"]

        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        """Join the columns of this dataset and ``datasets`` row by row (shortest length).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> a = ds.NumpySlicesDataset({"a": np.arange(3)})
            >>> b = ds.NumpySlicesDataset({"b": np.arange(5)})
            >>> a.zip(b).get_col_names(), a.zip(b).get_dataset_size()
            (['a', 'b'], 3)
        """
        ZipDataset = DATASET_NODES["ZipDataset"]

        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        return ZipDataset((self, *datasets))

    def concat(self, datasets):
        """Append the rows of ``datasets`` after this dataset's (same columns).

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> a = ds.NumpySlicesDataset(np.arange(3), shuffle=False)
            >>> b = ds.NumpySlicesDataset(np.arange(2), shuffle=False)
            >>> [int(r[0]) for r in (a + b).create_tuple_iterator(output_numpy=True)]
            [0, 1, 2, 0, 1]
        """
        ConcatDataset = DATASET_NODES["ConcatDataset"]

        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return ConcatDataset([self, *datasets])

    def __add__(self, other):
        return self.concat(other)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*input_columns)`` is true.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": np.arange(6)}, shuffle=False)
            >>> data = data.filter(lambda a: a % 2 == 0, input_columns=["a"])
            >>> [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
            [0, 2, 4]
        """
        FilterDataset = DATASET_NODES["FilterDataset"]

        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def split(self, sizes, randomize=True):
        """Split into datasets of the given sizes (ints, or fractions summing to 1).

        Args:
            sizes (Union[list[int], list[float]]): Sizes or fractions.
            randomize (bool): Assign rows randomly. Default: ``True``. As in MindSpore, a
                random-access source (NumpySlicesDataset, a random-access GeneratorDataset, the
                file readers) is split by one random order drawn with the dataset seed when the
                split is read (the same order every epoch); any other dataset by a shuffle buffer
                of 10000 rows that does not reshuffle. Split before shuffling or sharding.

        Returns:
            tuple[Dataset], the splits.

        Raises:
            TypeError: If `sizes` is not a list of all ints or all floats.
            ValueError: If an int size is not positive, or the fractions do not add up to 1.
            RuntimeError: If the int sizes do not add up to the dataset size, or a fraction gives
                an empty split. Fractions are rounded and the first split takes (or gives up) the
                rows that rounding leaves over, as in MindSpore.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> a, b = ds.NumpySlicesDataset(np.arange(10)).split([0.8, 0.2], randomize=False)
            >>> a.get_dataset_size(), b.get_dataset_size()
            (8, 2)
        """
        split = DATASET_NODES["split"]

        return split(self, sizes, randomize)

    # ----- iteration --------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        """Return an iterator of rows as lists (of cellax Tensors, or of NumPy arrays).

        Each ``for`` loop over the iterator runs one epoch; after ``num_epochs`` epochs asking
        for more raises RuntimeError (``-1``: no limit).

        Args:
            columns (list[str]): Columns to return, in order. Default: ``None`` (all).
            num_epochs (int): Number of epochs. Default: ``-1``.
            output_numpy (bool): Return NumPy arrays instead of Tensors. Default: ``False``.
            do_copy (bool): Accepted for compatibility.

        Returns:
            Iterator, the tuple iterator.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset(np.arange(3, dtype=np.float32), shuffle=False)
            >>> [row[0] for row in data.create_tuple_iterator()][0]
            Tensor(shape=[], dtype=Float32, value= 0)
        """
        from ._iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """Return an iterator of rows as ``{column: value}`` dicts.

        Examples:
            >>> import numpy as np
            >>> from cellax import dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": np.arange(2)}, shuffle=False)
            >>> [int(d["a"]) for d in data.create_dict_iterator(output_numpy=True)]
            [0, 1]
        """
        from ._iterators import DictIterator

        return DictIterator(self, None, num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator())


def as_row(values) -> tuple:
    """Convert a row's values into NumPy arrays; a dict stays a Python dict (MindSpore passes
    dict columns through the pipeline as they are and converts their values on output)."""
    return tuple(v if isinstance(v, dict) else np.asarray(v) for v in values)
