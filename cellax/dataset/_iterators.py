"""The iterators returned by ``create_tuple_iterator`` and ``create_dict_iterator``."""

from __future__ import annotations

import atexit
import gc
import queue
import threading
import weakref

import numpy as np

from . import config

__all__ = ["TupleIterator", "DictIterator"]


def _to_output(value, output_numpy: bool):
    if isinstance(value, dict):
        # a dict column: its values converted one by one, recursively, as MindSpore does
        return {k: _inner_output(v, output_numpy) for k, v in value.items()}
    value = np.asarray(value)
    if output_numpy or value.dtype.kind in "USOV":
        return value
    from .._tensor import Tensor

    return Tensor(value)


def _inner_output(value, output_numpy: bool):
    """A value inside a dict column: lists and tuples stay containers, None stays None."""
    if isinstance(value, (list, tuple)):
        return type(value)(_inner_output(v, output_numpy) for v in value)
    return None if value is None else _to_output(value, output_numpy)


_LIVE = weakref.WeakSet()  # prefetchers whose thread may still run


@atexit.register
def _stop_reading(timeout: float = 10.0) -> None:
    """Stop the reading threads before the interpreter tears its modules down and drop the rows
    they read ahead, so that a worker's shared-memory batch among them is unlinked (when its
    last reference goes) while that still works, instead of being reported leaked at exit."""
    prefetchers = list(_LIVE)
    for prefetcher in prefetchers:
        prefetcher.close()
    for prefetcher in prefetchers:
        prefetcher._thread.join(timeout)
        prefetcher._queue = None
    gc.collect()


class _Prefetcher:
    """Runs one epoch of a pipeline in a background thread, ``size`` rows ahead, so that host
    work (batching, in-process maps, waiting on grain workers) overlaps the training step.
    Errors are re-raised in the consumer; closing stops the thread."""

    def __init__(self, rows, size: int) -> None:
        self._queue = queue.Queue(maxsize=size)
        self._stop = threading.Event()
        self._last = None
        self._thread = threading.Thread(target=self._run, args=(rows,), daemon=True)
        self._thread.start()
        _LIVE.add(self)

    def _put(self, item) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _run(self, rows) -> None:
        try:
            for row in rows:
                if not self._put(("row", row)):
                    return
            self._put(("end", None))
        except BaseException as error:  # handed to the consumer, raised there
            self._put(("error", error))

    def __next__(self):
        if self._last is not None:  # ended or failed: say so again, never wait on the queue
            kind, value = self._last
        else:
            kind, value = self._queue.get()
            if kind == "row":
                return value
            self._stop.set()
            self._last = (kind, value)
        if kind == "end":
            raise StopIteration
        raise value

    def close(self) -> None:
        self._stop.set()


class TupleIterator:
    """Rows of a dataset, epoch after epoch: each ``for`` loop runs one epoch.

    Reading starts when the first row is asked for, then runs ahead in a background thread
    (``config.get_prefetch_size()`` rows); the shuffle seed is taken from
    ``config.get_seed()`` when the iterator is created, so two iterators of one pipeline created
    under the same seed give the same orders.
    """

    _api = "create_tuple_iterator"

    def __init__(self, dataset, columns, num_epochs, output_numpy):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int):
            raise TypeError(f"For '{self._api}', 'num_epochs' must be an int, got {num_epochs!r}.")
        if num_epochs == 0 or num_epochs < -1:
            raise ValueError(
                f"For '{self._api}', 'num_epochs' must be -1 or positive, but got {num_epochs}."
            )
        self._dataset = dataset
        self._names = dataset.get_col_names()
        if columns is not None:
            if isinstance(columns, str):
                columns = [columns]
            missing = [c for c in columns if c not in self._names]
            if missing:
                raise RuntimeError(
                    f"For '{self._api}', column {missing[0]!r} does not exist in the dataset "
                    f"columns {self._names}."
                )
            self._pick = [self._names.index(c) for c in columns]
            self._names = list(columns)
        else:
            self._pick = None
        self._num_epochs, self._output_numpy = num_epochs, bool(output_numpy)
        self._seed = config.get_seed()
        self._epoch, self._rows = 0, None
        dataset._start()

    def __iter__(self):
        return self

    def _next_row(self):
        if self._rows is None:
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                raise RuntimeError(
                    f"For '{self._api}', data was requested beyond the specified number of "
                    f"epochs (num_epochs={self._num_epochs}). Create the iterator with a larger "
                    "'num_epochs' (or -1)."
                )
            rows = self._dataset._rows(self._seed, self._epoch)
            self._rows = _Prefetcher(rows, config.get_prefetch_size())
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self._epoch += 1
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                self._dataset._release()
            raise
        if self._pick is not None:
            row = tuple(row[i] for i in self._pick)
        return [_to_output(v, self._output_numpy) for v in row]

    def __next__(self):
        return self._next_row()

    def get_next(self):
        """Return the next row, or None (an empty list in MindSpore) at the end of an epoch."""
        try:
            return self._next_row()
        except StopIteration:
            return []

    def stop(self) -> None:
        """Stop reading and release the pipeline."""
        if self._rows is not None:
            self._rows.close()
        self._rows = None
        self._dataset._release()

    def __del__(self):
        rows = getattr(self, "_rows", None)
        if rows is not None:
            rows.close()


class DictIterator(TupleIterator):
    """Rows as ``{column: value}`` dicts, epoch after epoch."""

    _api = "create_dict_iterator"

    def __next__(self):
        return dict(zip(self._names, self._next_row()))
