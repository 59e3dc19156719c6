"""The dataset returned by :meth:`Dataset.batch`: rows grouped, padded and stacked, with
``per_batch_map``; batches are made in the worker processes of a parallel ``map`` below."""

from __future__ import annotations

import math

import numpy as np

from .._core._seams import DATASET_NODES
from ._dataset import BatchInfo, Dataset, check_positive, to_list
from ._nodes import MapDataset, _column_index, _layout
from ._stages import WorkerStage

__all__ = ["BatchDataset"]


def _stack_dicts(api: str, name: str, values: list) -> dict:
    """Batch a dict column key by key (MindSpore stacks each key's values; it cannot stack a
    nested dict)."""
    batched = {}
    for key in values[0]:
        column = [v[key] for v in values]
        if any(isinstance(v, dict) for v in column):
            raise RuntimeError(
                f"For '{api}', failed to create a NumPy array for the dictionary objects in "
                f"column {name!r}, key: {key!r} (a nested dict). If you want a customized "
                "array, define a custom 'per_batch_map' function."
            )
        batched[key] = _stack(api, f"{name}[{key!r}]", column)
    return batched


def _stack(api: str, name: str, values: list, pad=None):
    """Stack one column of a batch; ``pad = (shape or None, value)`` pads first."""
    if isinstance(values[0], dict):
        return _stack_dicts(api, name, values)
    arrays = [np.asarray(v) for v in values]
    if pad is not None and arrays[0].ndim:
        shape, value = pad
        longest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else ()
        target = [
            int(longest[d]) if shape is None or shape[d] is None else int(shape[d])
            for d in range(arrays[0].ndim)
        ]
        padded = []
        for a in arrays:
            if any(s > t for s, t in zip(a.shape, target)):
                raise RuntimeError(
                    f"For 'padded_batch', a row of column {name!r} has shape {a.shape}, larger "
                    f"than the pad shape {tuple(target)}."
                )
            widths = [(0, t - s) for s, t in zip(a.shape, target)]
            padded.append(np.pad(a, widths, constant_values=value))
        arrays = padded
    first = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != first:
            raise RuntimeError(
                f"For '{api}', cannot batch tensors with different shapes in column {name!r}: "
                f"the first row has shape {first} and another row has shape {a.shape}. "
                "Use 'padded_batch' or make the rows the same shape."
            )
    return np.stack(arrays)


def _check_rows(name: str, value, count: int) -> None:
    """A column returned by ``per_batch_map`` holds one value per row of the batch."""
    if isinstance(value, np.ndarray) and value.ndim:
        got = len(value)
    elif isinstance(value, (list, tuple)):
        got = len(value)
    else:
        raise RuntimeError(
            f"For 'batch', 'per_batch_map' must return one list (or array) of rows per output "
            f"column, but got {type(value).__name__} for column {name!r}."
        )
    if got != count:
        raise RuntimeError(
            f"For 'batch', column {name!r} expects {count} rows returned from 'per_batch_map', "
            f"but got {got}. Return one value per row of the batch."
        )


class BatchDataset(Dataset):
    """The dataset returned by :meth:`Dataset.batch`."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None, **kw):
        super().__init__([child], num_parallel_workers)
        if not callable(batch_size):
            if isinstance(batch_size, bool) or not isinstance(batch_size, int):
                raise TypeError(
                    f"For 'batch', 'batch_size' must be an int or a callable, "
                    f"but got {type(batch_size).__name__}."
                )
            if not 1 <= batch_size <= 2**31 - 1:
                raise ValueError(
                    f"For 'batch', 'batch_size' must be in [1, 2147483647], but got {batch_size}."
                )
        self.batch_size, self.drop_remainder = batch_size, bool(drop_remainder)
        self.per_batch_map = kw.get("per_batch_map")
        if self.per_batch_map is not None and not callable(self.per_batch_map):
            raise TypeError("For 'batch', 'per_batch_map' must be callable.")
        self.input_columns = to_list("batch", "input_columns", kw.get("input_columns"))
        self.output_columns = to_list("batch", "output_columns", kw.get("output_columns"))
        self.pad_info = kw.get("pad_info")
        self._api = "padded_batch" if self.pad_info is not None else "batch"
        self._stage = WorkerStage(self._api)  # batches made in the workers of a parallel map below

    def _plan(self):
        columns = self.children[0]._col_names()
        if self.per_batch_map is None:
            return columns, None, None
        inputs = self.input_columns or columns
        outputs = self.output_columns or inputs
        return _layout(columns, inputs, outputs), _column_index("batch", columns, inputs), outputs

    def _col_names(self):
        return self._plan()[0]

    def _pad_for(self, name):
        if self.pad_info is None:
            return None
        if not self.pad_info:
            return (None, 0)
        return self.pad_info.get(name)

    def _collate(self, rows, columns, info):
        names, in_index, outputs = self._plan()
        lists = [[row[i] for row in rows] for i in range(len(columns))]
        if self.per_batch_map is not None:
            try:
                result = self.per_batch_map(*[lists[i] for i in in_index], info)
            except Exception as error:
                raise RuntimeError(
                    f"For 'batch', 'per_batch_map' failed: {type(error).__name__}: {error}"
                ) from error
            result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            if len(result) != len(outputs):
                raise RuntimeError(
                    f"For 'batch', 'per_batch_map' returned {len(result)} columns, but "
                    f"'output_columns' names {len(outputs)}. Set 'output_columns' to match."
                )
            for name, value in zip(outputs, result):
                _check_rows(name, value, len(rows))
            if len(in_index) == len(outputs):
                for position, value in zip(in_index, result):
                    lists[position] = value
            else:
                lists = list(result) + [lists[i] for i in range(len(lists)) if i not in in_index]
        return tuple(
            _stack(self._api, name, values, self._pad_for(name))
            for name, values in zip(names, lists)
        )

    def _in_workers(self, seed, epoch):
        """The batches of an epoch made in the workers of the parallel ``map`` below (one
        transfer per batch instead of per row), or None where that map cannot run so."""
        child = self.children[0]
        if callable(self.batch_size) or not isinstance(child, MapDataset):
            return None
        source, count = child.children[0], self._static_size()
        if child._workers() == 1 or not count or count < 0:
            return None
        if not source._portable() or source._access(seed, epoch) is None:
            return None
        return self._stage.rows(
            self._epoch_batches, None, count, seed, epoch, child._workers(), child.processes
        )

    def _epoch_batches(self, seed, epoch):
        child = self.children[0]
        rows = child.children[0]._access(seed, epoch).map(child._plan()[1])
        return _Batches(self, rows, epoch)

    def _rows(self, seed, epoch):
        batches = self._in_workers(seed, epoch)
        if batches is not None:
            return batches
        return self._batched_rows(seed, epoch)

    def _batched_rows(self, seed, epoch):
        columns = self.children[0]._col_names()
        self._plan()
        rows, batch_num = [], 0
        size = self._size_for(BatchInfo(0, epoch))
        for row in self.children[0]._rows(seed, epoch):
            rows.append(row)
            if len(rows) == size:
                yield self._collate(rows, columns, BatchInfo(batch_num, epoch))
                rows, batch_num = [], batch_num + 1
                size = self._size_for(BatchInfo(batch_num, epoch))
        if rows and not self.drop_remainder:
            yield self._collate(rows, columns, BatchInfo(batch_num, epoch))

    def _size_for(self, info) -> int:
        if not callable(self.batch_size):
            return self.batch_size
        size = self.batch_size(info)
        check_positive("batch", "batch_size", size, allow_none=False)
        return size

    def _static_size(self):
        n = self.children[0]._static_size()
        if n is None or callable(self.batch_size):
            return None
        return n // self.batch_size if self.drop_remainder else math.ceil(n / self.batch_size)


class _Batches:
    """Random access to the batches of one epoch (``rows`` read by index), for workers."""

    def __init__(self, node: BatchDataset, rows, epoch: int) -> None:
        self.node, self.rows, self.epoch = node, rows, epoch
        self.columns = node.children[0]._col_names()

    def __len__(self) -> int:
        size = self.node.batch_size
        n = len(self.rows)
        return n // size if self.node.drop_remainder else math.ceil(n / size)

    def __getitem__(self, j):
        size = self.node.batch_size
        positions = list(range(j * size, min(len(self.rows), (j + 1) * size)))
        rows = self.rows._getitems(positions)  # one grain read per batch, not per row
        return self.node._collate(rows, self.columns, BatchInfo(j, self.epoch))


DATASET_NODES.fill({"BatchDataset": BatchDataset})
