"""The pipeline operations: map, batch, shuffle, repeat, take/skip, project, rename, zip, concat,
filter and split."""

from __future__ import annotations


import grain
import numpy as np

from .._core._seams import DATASET_NODES
from ._dataset import Dataset, as_row, to_list
from ._samplers import RandomSampler
from ._stages import WorkerStage, grain_iter
from ._std_shuffle import Mt19937_64, buffer_shuffle

__all__ = ["MapDataset", "ShuffleDataset", "RepeatDataset", "split"]


def _column_index(api: str, columns: list, wanted: list) -> list:
    missing = [c for c in wanted if c not in columns]
    if missing:
        raise RuntimeError(
            f"For '{api}', input column name {missing[0]!r} does not exist in the dataset "
            f"columns {columns}. Check 'input_columns'."
        )
    return [columns.index(c) for c in wanted]


def _layout(columns: list, inputs: list, outputs: list) -> list:
    """MindSpore's column order after replacing ``inputs`` by ``outputs``."""
    if len(inputs) == len(outputs):
        renamed = dict(zip(inputs, outputs))
        return [renamed.get(c, c) for c in columns]
    return outputs + [c for c in columns if c not in inputs]


def _op_name(op) -> str:
    return getattr(op, "__name__", type(op).__name__)


class _RowFn:
    """Apply the operations of a ``map`` to one row (picklable, for worker processes)."""

    def __init__(self, operations, in_index, out_count, out_order, api="map"):
        self.operations, self.in_index, self.out_count = operations, in_index, out_count
        self.out_order, self.api = out_order, api

    def __call__(self, row):
        args = tuple(row[i] for i in self.in_index)
        for op in self.operations:
            try:
                out = op(*args)
            except Exception as error:
                raise RuntimeError(
                    f"For '{self.api}', the operation {_op_name(op)} failed on the input columns: "
                    f"{type(error).__name__}: {error}"
                ) from error
            args = tuple(out) if isinstance(out, tuple) else (out,)
        if len(args) != self.out_count:
            raise RuntimeError(
                f"For '{self.api}', the operations returned {len(args)} columns, but "
                f"'output_columns' names {self.out_count}. Set 'output_columns' to match."
            )
        outputs = as_row(args)
        kept = [row[i] for i in range(len(row)) if i not in self.in_index]
        if self.out_order is not None:  # same count: replace in place
            new = list(row)
            for position, value in zip(self.in_index, outputs):
                new[position] = value
            return tuple(new)
        return outputs + tuple(kept)


class MapDataset(Dataset):
    """The dataset returned by :meth:`Dataset.map`."""

    def __init__(
        self, child, operations, input_columns, output_columns, num_parallel_workers, processes
    ):
        super().__init__([child], num_parallel_workers)
        if not isinstance(operations, (list, tuple)):
            operations = [operations]
        for op in operations:
            if not callable(op):
                raise TypeError(f"For 'map', every operation must be callable, but got {op!r}.")
        self.operations = list(operations)
        self.input_columns = to_list("map", "input_columns", input_columns)
        self.output_columns = to_list("map", "output_columns", output_columns)
        self.processes = bool(processes)
        self._stage = WorkerStage()  # pickled (to worker processes) without its iterator

    def _plan(self):
        columns = self.children[0]._col_names()
        inputs = self.input_columns or columns[:1]
        outputs = self.output_columns or inputs
        in_index = _column_index("map", columns, inputs)
        same = len(inputs) == len(outputs)
        fn = _RowFn(self.operations, in_index, len(outputs), "same" if same else None)
        return _layout(columns, inputs, outputs), fn

    def _col_names(self):
        return self._plan()[0]

    def _workers(self) -> int:
        return self.num_parallel_workers or 1

    def _access(self, seed, epoch):
        if self._workers() > 1:
            return None  # a pipelined stage: downstream nodes consume its iterator
        parent = self.children[0]._access(seed, epoch)
        return None if parent is None else parent.map(self._plan()[1])

    def _rows(self, seed, epoch):
        fn = self._plan()[1]
        child = self.children[0]
        parent = child._access(seed, epoch)
        if parent is None:
            return map(fn, child._rows(seed, epoch))
        size = child._static_size()
        if self._workers() == 1 or not size or size < 0 or not child._portable():
            return grain_iter(parent.map(fn), self._workers(), self.processes)
        return self._stage.rows(
            child._access, fn, size, seed, epoch, self._workers(), self.processes
        )

    def _static_size(self):
        return self.children[0]._static_size()


class ShuffleDataset(Dataset):
    """The dataset returned by :meth:`Dataset.shuffle` (a shuffle buffer)."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int):
            raise TypeError(f"For 'shuffle', 'buffer_size' must be an int, got {buffer_size!r}.")
        if not 2 <= buffer_size <= 2**31 - 1:
            raise ValueError(
                f"For 'shuffle', 'buffer_size' must be in [2, 2147483647], but got {buffer_size}."
            )
        self.buffer_size = buffer_size
        self._state = None

    def _generator(self, seed, epoch):
        """The shuffle generator positioned at ``epoch``: one ``mt19937_64(seed)`` per
        iterator, continuing across epochs (one draw per row), as MindSpore's."""
        state = self._state
        if state is None or state[0] != seed or state[1] > epoch:
            state = self._state = [seed, 0, Mt19937_64(seed)]
        while state[1] < epoch:  # replay skipped epochs
            for _ in range(self.children[0]._size_of(seed, state[1])):
                state[2]()
            state[1] += 1
        state[1] += 1
        return state[2]

    def _rows(self, seed, epoch):
        gen = self._generator(seed, epoch)
        return buffer_shuffle(self.children[0]._rows(seed, epoch), self.buffer_size, gen)

    def _static_size(self):
        return self.children[0]._static_size()


class RepeatDataset(Dataset):
    """The dataset returned by :meth:`Dataset.repeat`: its child's epochs back to back."""

    def __init__(self, child, count):
        super().__init__([child])
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, int) or count == 0 or count < -1:
            raise ValueError(f"For 'repeat', 'count' must be -1 or a positive int, got {count!r}.")
        self.count = count

    def _epochs(self, epoch):
        r = 0
        while self.count == -1 or r < self.count:
            yield (epoch * self.count + r) if self.count > 0 else r
            r += 1

    def _access(self, seed, epoch):
        if self.count == -1:
            return None
        parts = [self.children[0]._access(seed, e) for e in self._epochs(epoch)]
        if any(p is None for p in parts):
            return None
        return grain.MapDataset.concatenate(parts) if len(parts) > 1 else parts[0]

    def _rows(self, seed, epoch):
        for e in self._epochs(epoch):
            yield from self.children[0]._rows(seed, e)

    def _static_size(self):
        n = self.children[0]._static_size()
        if self.count == -1:
            return -1 if n else 0
        return None if n is None else n * self.count


class SliceDataset(Dataset):
    """``take(count)`` or ``skip(count)``."""

    def __init__(self, child, kind, count):
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or count < -1 or count == 0:
            if not (kind == "skip" and count == 0):
                raise ValueError(
                    f"For '{kind}', 'count' must be -1 or a positive int, but got {count!r}."
                )
        self.kind, self.count = kind, count

    def _bounds(self):
        if self.kind == "take":
            return 0, None if self.count == -1 else self.count
        return max(self.count, 0), None

    def _access(self, seed, epoch):
        parent = self.children[0]._access(seed, epoch)
        start, stop = self._bounds()
        return None if parent is None else parent[start:stop]

    def _rows(self, seed, epoch):
        start, stop = self._bounds()
        for i, row in enumerate(self.children[0]._rows(seed, epoch)):
            if stop is not None and i >= stop:
                return
            if i >= start:
                yield row

    def _static_size(self):
        n = self.children[0]._static_size()
        if n is None:
            return None
        start, stop = self._bounds()
        return max(0, min(n, n if stop is None else stop) - start)


class _Pick:
    def __init__(self, index):
        self.index = index

    def __call__(self, row):
        return tuple(row[i] for i in self.index)


class ProjectDataset(Dataset):
    """The dataset returned by :meth:`Dataset.project`."""

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = to_list("project", "columns", columns, allow_none=False)

    def _pick(self):
        columns = self.children[0]._col_names()
        for c in self.columns:
            if c not in columns:
                raise RuntimeError(
                    f"For 'project', column {c!r} does not exist in the dataset columns "
                    f"{columns}. Check 'columns'."
                )
        return _Pick([columns.index(c) for c in self.columns])

    def _col_names(self):
        self._pick()
        return list(self.columns)

    def _access(self, seed, epoch):
        parent = self.children[0]._access(seed, epoch)
        return None if parent is None else parent.map(self._pick())

    def _rows(self, seed, epoch):
        return map(self._pick(), self.children[0]._rows(seed, epoch))

    def _static_size(self):
        return self.children[0]._static_size()


class RenameDataset(Dataset):
    """The dataset returned by :meth:`Dataset.rename`."""

    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        self.inputs = to_list("rename", "input_columns", input_columns, allow_none=False)
        self.outputs = to_list("rename", "output_columns", output_columns, allow_none=False)
        if len(self.inputs) != len(self.outputs):
            raise ValueError(
                "For 'rename', 'input_columns' and 'output_columns' must have the same length, "
                f"but got {len(self.inputs)} and {len(self.outputs)}."
            )

    def _col_names(self):
        columns = self.children[0]._col_names()
        _column_index("rename", columns, self.inputs)
        return _layout(columns, self.inputs, self.outputs)

    def _access(self, seed, epoch):
        return self.children[0]._access(seed, epoch)

    def _rows(self, seed, epoch):
        return self.children[0]._rows(seed, epoch)

    def _static_size(self):
        return self.children[0]._static_size()


def _flatten(parts):
    return tuple(v for part in parts for v in part)


class ZipDataset(Dataset):
    """The dataset returned by :meth:`Dataset.zip` / :func:`zip`."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'zip', every input must be a Dataset, but got {d!r}.")
        super().__init__(datasets)

    def _col_names(self):
        names = [c for d in self.children for c in d._col_names()]
        if len(set(names)) != len(names):
            raise ValueError(
                f"For 'zip', the column names of the datasets must be unique, but got {names}. "
                "Use 'rename' first."
            )
        return names

    def _static_size(self):
        sizes = [d._static_size() for d in self.children]
        return None if None in sizes else min(sizes)

    def _access(self, seed, epoch):
        parts = [d._access(seed, epoch) for d in self.children]
        if any(p is None for p in parts):
            return None
        n = min(len(p) for p in parts)
        zipped = grain.experimental.ZipMapDataset([p[:n] for p in parts])
        return zipped.map(_flatten)

    def _rows(self, seed, epoch):
        self._col_names()
        return map(_flatten, zip(*[d._rows(seed, epoch) for d in self.children]))


class ConcatDataset(Dataset):
    """The dataset returned by :meth:`Dataset.concat`."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'concat', every input must be a Dataset, but got {d!r}.")
        super().__init__(datasets)

    def _col_names(self):
        names = self.children[0]._col_names()
        for d in self.children[1:]:
            if d._col_names() != names:
                raise ValueError(
                    f"For 'concat', the datasets must have the same columns, but got {names} "
                    f"and {d._col_names()}."
                )
        return names

    def _static_size(self):
        sizes = [d._static_size() for d in self.children]
        return None if None in sizes else sum(sizes)

    def _access(self, seed, epoch):
        parts = [d._access(seed, epoch) for d in self.children]
        if any(p is None for p in parts):
            return None
        return grain.MapDataset.concatenate(parts)

    def _rows(self, seed, epoch):
        self._col_names()
        for d in self.children:
            yield from d._rows(seed, epoch)


class FilterDataset(Dataset):
    """The dataset returned by :meth:`Dataset.filter`."""

    def __init__(self, child, predicate, input_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError(f"For 'filter', 'predicate' must be callable, but got {predicate!r}.")
        self.predicate = predicate
        self.input_columns = to_list("filter", "input_columns", input_columns)

    def _rows(self, seed, epoch):
        columns = self.children[0]._col_names()
        index = _column_index("filter", columns, self.input_columns or columns)
        for row in self.children[0]._rows(seed, epoch):
            try:
                keep = self.predicate(*[row[i] for i in index])
            except Exception as error:
                raise RuntimeError(
                    f"For 'filter', the predicate failed: {type(error).__name__}: {error}"
                ) from error
            if bool(np.asarray(keep)):
                yield row


class SubsetDataset(Dataset):
    """Rows ``indices`` of the child's epoch (the result of :meth:`Dataset.split`); ``indices``
    may be a function of the pipeline seed (a randomized split draws its order when read)."""

    def __init__(self, child, indices):
        super().__init__([child])
        self.indices = indices if callable(indices) else np.asarray(indices, np.int64)

    def _indices(self, seed):
        return self.indices(seed) if callable(self.indices) else self.indices

    def _access(self, seed, epoch):
        parent = self.children[0]._access(seed, epoch)
        if parent is None:
            return None
        return grain.MapDataset.source(_Gather(parent, self._indices(seed)))

    def _rows(self, seed, epoch):
        access = self._access(seed, epoch)
        if access is not None:
            return grain_iter(access, 1, False)
        rows = list(self.children[0]._rows(seed, epoch))
        return (rows[i] for i in self._indices(seed))

    def _static_size(self):
        return len(self.indices)


class _RandomSplit:
    """Positions ``[start, stop)`` of MindSpore's RandomSampler order (no reshuffle) over ``n``
    rows, drawn with the seed of the pipeline when it is read."""

    def __init__(self, n: int, start: int, stop: int) -> None:
        self.n, self.start, self.stop = n, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    def __call__(self, seed):
        return RandomSampler().indices(self.n, seed, 0)[self.start : self.stop]


class _FixedShuffleDataset(ShuffleDataset):
    """A shuffle buffer drawing the same order every epoch (MindSpore's split of a dataset
    that is not random-access: ``shuffle(10000)`` without reshuffling)."""

    def _generator(self, seed, epoch):
        return Mt19937_64(seed)


class _Gather:
    """``source[indices[i]]`` as a random-access source."""

    def __init__(self, source, indices):
        self.source, self.indices = source, indices

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        return self.source[int(self.indices[i])]


def _split_sizes(sizes, n: int) -> list:
    """MindSpore's absolute split sizes: fractions are rounded, then the first split takes the
    missing rows (or gives up the extra ones, else the first split that can)."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"For 'split', 'sizes' must be a non-empty list, but got {sizes!r}.")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"For 'split', integer sizes must be positive, but got {sizes}.")
        if sum(sizes) != n:
            raise RuntimeError(
                f"For 'split', the sizes must add up to the dataset size {n}, but got "
                f"{list(sizes)} (sum {sum(sizes)})."
            )
        return list(sizes)
    if not all(isinstance(s, float) for s in sizes):
        raise TypeError(f"For 'split', 'sizes' must be all ints or all floats, got {sizes!r}.")
    if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
        raise ValueError(
            f"For 'split', fractions must be in (0, 1] and add up to 1, but got {list(sizes)}."
        )
    counts = []
    for s in sizes:
        counts.append(int(round(s * n)))
        if counts[-1] == 0:
            raise RuntimeError(f"For 'split', the fraction {s} is too small for {n} rows.")
    difference = n - sum(counts)
    if difference > 0:
        counts[0] += difference
    else:
        for i, count in enumerate(counts):
            if count + difference > 0:
                counts[i] += difference
                break
    return counts


def split(dataset, sizes, randomize):
    n = dataset.get_dataset_size()
    counts = _split_sizes(sizes, n)
    bounds = np.cumsum([0] + counts).tolist()
    # A random-access source is split by MindSpore's samplers (a fixed random order); any
    # other dataset by a shuffle buffer of 10000 rows that does not reshuffle, then skip/take.
    random_access = hasattr(dataset, "reader") and getattr(dataset, "_iterable", None) is None
    parts = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        if not randomize:
            parts.append(SubsetDataset(dataset, np.arange(a, b)))
        elif random_access:
            parts.append(SubsetDataset(dataset, _RandomSplit(n, a, b)))
        else:
            parts.append(SubsetDataset(_FixedShuffleDataset(dataset, 10000), np.arange(a, b)))
    return tuple(parts)


DATASET_NODES.fill(
    {
        cls.__name__: cls
        for cls in (
            MapDataset,
            ShuffleDataset,
            RepeatDataset,
            SliceDataset,
            ProjectDataset,
            RenameDataset,
            ZipDataset,
            ConcatDataset,
            FilterDataset,
        )
    }
    | {"split": split}
)
