"""Running random-access pipeline stages with grain: sequentially, in threads, or in worker
processes that live across epochs (starting processes costs seconds, so a stage's workers serve
every epoch of an iterator instead of being started again each epoch)."""

from __future__ import annotations

import atexit
import itertools
import threading
import weakref

import grain

__all__ = ["grain_iter", "WorkerStage"]

_MAX_EPOCHS = 1 << 20


def grain_iter(access, workers: int, processes: bool):
    """Iterate a ``grain.MapDataset``: in ``workers`` processes (``mp_prefetch``) or threads, or
    sequentially in the calling thread (no read-ahead) for one worker."""
    if workers > 1 and processes:
        import multiprocessing.process

        if getattr(multiprocessing.process.current_process(), "_inheriting", False):
            raise RuntimeError(
                "For 'cellax.dataset', worker processes are started with 'spawn' (grain), which "
                "runs the main script again in each worker, and this script starts a pipeline "
                "with worker processes at its top level. Put the code that iterates the "
                "pipeline under `if __name__ == '__main__':` (MindSpore forks its workers)."
            )
        from absl import flags

        if not flags.FLAGS.is_parsed():  # grain reads absl flags; scripts rarely parse them
            flags.FLAGS.mark_as_parsed()
        options = grain.MultiprocessingOptions(num_workers=workers, per_worker_buffer_size=8)
        # Inside each worker one reader thread, little read-ahead (grain's default of 16
        # threads and 500 elements would run whole epochs ahead of the consumer).
        reads = grain.ReadOptions(num_threads=1, prefetch_buffer_size=2)
        return iter(access.to_iter_dataset(reads).mp_prefetch(options))
    if workers > 1:
        options = grain.ReadOptions(num_threads=workers, prefetch_buffer_size=4 * workers)
        return iter(access.to_iter_dataset(options))
    options = grain.ReadOptions(num_threads=0, prefetch_buffer_size=0)
    return iter(access.to_iter_dataset(options))


class _EpochRows:
    """Row ``k`` of the endless sequence "epoch 0, epoch 1, ..." of a random-access node
    (``build(seed, epoch)`` gives an epoch's ``grain.MapDataset`` of ``size`` rows)."""

    def __init__(self, build, size: int, seed: int) -> None:
        self.build, self.size, self.seed = build, size, seed
        self._init_cache()

    def _init_cache(self) -> None:
        self._cache, self._lock = {}, threading.Lock()

    def __getstate__(self):
        return {"build": self.build, "size": self.size, "seed": self.seed}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._init_cache()

    def __len__(self) -> int:
        return self.size * _MAX_EPOCHS

    def __getitem__(self, k):
        epoch, i = divmod(int(k), self.size)
        with self._lock:
            access = self._cache.get(epoch)
            if access is None:
                access = self._cache[epoch] = self.build(self.seed, epoch)
                for old in [e for e in self._cache if e < epoch - 1]:
                    del self._cache[old]
        return access[i]


_CLOSING: set = set()  # threads ending worker processes


def _closing(close):
    def run():
        try:
            close()
        finally:
            _CLOSING.discard(threading.current_thread())

    return run


_LIVE = weakref.WeakSet()  # stages holding a running iterator


@atexit.register
def _finish_closing(timeout: float = 30.0) -> None:
    """End the worker processes still running (an iterator of endless epochs, the default) and
    those being ended, before the interpreter tears down the modules grain's shutdown needs
    (else a script prints errors from them at exit)."""
    for stage in list(_LIVE):
        with stage._lock:
            state, stage._state = stage._state, None
        close = None if state is None else getattr(state[2], "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # noqa: S110 - best effort at exit
                pass
    for thread in list(_CLOSING):
        thread.join(timeout)


class WorkerStage:
    """One iterator over many epochs of ``build`` (+ ``fn``) run by grain with ``workers``
    workers; ``rows(seed, epoch)`` continues it when epochs are read in order."""

    def __init__(self, api: str = "map") -> None:
        self.api = api  # the dataset operation named by errors
        # [seed, next epoch, iterator, rows read of the current epoch, an epoch is being read]
        self._state = None
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"api": self.api}

    def __setstate__(self, state):
        self.__init__(state.get("api", "map"))

    def rows(self, build, fn, size: int, seed: int, epoch: int, workers: int, processes: bool):
        """The rows of ``epoch``: the running iterator continues when it stands at the start of
        that epoch and no other consumer reads it, else a new one starts there."""
        with self._lock:
            state = self._state
            if state is None or state[:2] != [seed, epoch] or state[3] != 0 or state[4]:
                source = grain.MapDataset.source(_EpochRows(build, size, seed))[epoch * size :]
                if fn is not None:
                    source = source.map(fn)
                iterator = grain_iter(source, workers, processes)
                state = self._state = [seed, epoch, iterator, 0, False]
                _LIVE.add(self)
            state[4] = True
        return self._epoch(state, size)

    def close_idle(self) -> None:
        """End the running iterator (and its worker processes) unless an epoch is being read."""
        with self._lock:
            state = self._state
            if state is None or state[4]:
                return
            self._state = None
        close = getattr(state[2], "close", None)
        if close is not None:  # joining worker processes can take seconds: not in the loop
            thread = threading.Thread(target=_closing(close), daemon=True)
            _CLOSING.add(thread)
            thread.start()

    def _epoch(self, state, size):
        try:
            for row in itertools.islice(state[2], size):
                state[3] += 1
                yield row
            if state[3] == size:  # read to the end: the next epoch may continue this iterator
                state[1], state[3] = state[1] + 1, 0
        except RuntimeError as error:
            if "terminated unexpectedly" not in str(error):
                raise
            raise RuntimeError(  # grain's message names no dataset operation
                f"For '{self.api}', a worker process ended unexpectedly (killed, out of memory or "
                f"a crash in native code): {error}"
            ) from error
        finally:  # an epoch left half-read is never continued (state[3] != 0)
            state[4] = False
