"""The tape's backward programs, compiled on a second thread while the forward pass goes on.

At a new input shape every op of a PyNative step meets a new kernel, and each kernel has two
programs to compile: its forward call (needed at once) and its ``pull``, the backward program,
needed only when the backward pass reaches its node. :func:`submit` queues the ``pull`` of a
kernel the forward pass has just traced; one worker thread lowers and compiles the queue in
order (XLA compiles without the GIL, so on another core) into ``jax.jit``'s own cache, where
the backward call finds it. :func:`claim`, called before a kernel's first backward call,
takes a job back from the queue if the worker has not started it (the backward pass, walking
the nodes in reverse, compiles the last kernels itself while the worker finishes the first)
and waits for it if the worker is on it, so that nothing is compiled twice.

The worker starts with the first job and stays, idle, for the next new shape. Before the
process forks (dataset workers) queued jobs go back to their kernels and the running one is
waited for: a child must not inherit XLA's locks held by a thread it does not have. The same
happens at exit, before the interpreter tears down what a compile uses.
"""

from __future__ import annotations

import atexit
import collections
import os
import threading

import jax

__all__ = [
    "submit",
    "claim",
    "settle",
]

_QUEUED, _RUNNING, _DONE = "queued", "running", "done"


class _Job:
    __slots__ = ("kernel", "leaves", "state", "done")

    def __init__(self, kernel, leaves) -> None:
        self.kernel, self.leaves, self.state = kernel, leaves, _QUEUED
        self.done = threading.Event()


_lock = threading.Lock()
_wake = threading.Condition(_lock)
_queue: collections.deque = collections.deque()
_worker: list = []  # the worker thread, once started
_running: list = []  # the job the worker is compiling, if any


def submit(kernel, leaves) -> _Job:
    """Queue the compile of ``kernel.pull`` for residual leaves like ``leaves`` (the kernel's
    first call traced it: ``kernel.residuals`` and ``kernel.avals`` are set)."""
    # their avals, not the arrays: a job kept on a kernel whose backward never runs must not
    # keep that call's activations alive
    leaves = [jax.ShapeDtypeStruct(x.shape, x.dtype, weak_type=x.weak_type) for x in leaves]
    job = _Job(kernel, leaves)
    with _lock:
        _queue.append(job)
        if not _worker:
            thread = threading.Thread(target=_work, name="cellax-tape-compile", daemon=True)
            _worker.append(thread)
            thread.start()
        _wake.notify()
    return job


def claim(job: _Job) -> None:
    """Before ``job.kernel``'s first backward call: take the job back if the worker has not
    started it (the caller's call compiles the program), else wait until it has compiled."""
    with _lock:
        if job.state == _QUEUED:
            job.state = _DONE
            job.done.set()
            return
    job.done.wait()


def settle() -> None:
    """Take back every queued job and wait for the running one (before a fork, at exit)."""
    with _lock:
        for job in _queue:
            job.state = _DONE
            job.done.set()
        _queue.clear()
        running = [job for job in _running if job.state == _RUNNING]
    for job in running:
        job.done.wait()


def _work() -> None:
    while True:
        with _lock:
            while not _queue:
                _wake.wait()
            job = _queue.popleft()
            if job.state != _QUEUED:  # claimed by the backward pass
                continue
            job.state = _RUNNING
            _running[:] = [job]
        try:
            _compile(job.kernel, job.leaves)
        finally:
            with _lock:
                job.state = _DONE
                _running.clear()
            job.done.set()


def _compile(kernel, leaves) -> None:
    cts = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in kernel.avals]
    try:
        kernel.pull.lower(kernel.residuals, leaves, cts).compile()
    except Exception:  # noqa: BLE001 - the backward call compiles it itself and raises there
        pass


def _after_fork_in_child() -> None:
    global _lock, _wake
    _lock = threading.Lock()
    _wake = threading.Condition(_lock)
    _queue.clear()
    _running.clear()
    _worker.clear()  # the parent's thread does not exist here: the next submit starts one


os.register_at_fork(before=settle, after_in_child=_after_fork_in_child)
atexit.register(settle)
