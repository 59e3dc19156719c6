"""Sizes checked before anything is allocated or compiled (no crash inside XLA, no hang).

XLA aborts the process on a shape whose element count overflows int64 and raises its own
``RESOURCE_EXHAUSTED`` error when memory runs out; NumPy raises its own MemoryError in
initializers. cellax checks the size of what an API is about to create first: more elements
than int64 can count is a ValueError, more bytes than the device can allocate an
:class:`AllocationError` (a MemoryError, as NumPy's in MindSpore's initializers, and a
RuntimeError, as MindSpore's kernels raise), both naming the API, the argument and the size.
A Cell's constructor names itself (:func:`constructing`): the sizes of its parameters are
checked as that Cell's.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading

import numpy as np

__all__ = ["INT64_MAX", "AllocationError", "check_alloc", "constructing", "device_bytes"]

INT64_MAX = 2**63 - 1
_device_bytes: list = []
# below this many bytes a request is not compared with the free memory (no query per small op)
_QUERY_FREE_ABOVE = 256 * 2**20
_LOCAL = threading.local()


class AllocationError(MemoryError, RuntimeError):
    """More bytes than the device can allocate: MindSpore raises a MemoryError (NumPy, in its
    initializers) or a RuntimeError (its kernels' "Allocate output memory failed")."""


@contextlib.contextmanager
def constructing(api: str):
    """While the Cell ``api`` is built, the sizes its parameters need are checked as its own."""
    stack = _LOCAL.__dict__.setdefault("cells", [])
    stack.append(api)
    try:
        yield
    finally:
        stack.pop()


def constructing_cell() -> str | None:
    """The innermost Cell being constructed (None outside a constructor)."""
    stack = getattr(_LOCAL, "cells", None)
    return stack[-1] if stack else None


def device_bytes() -> int:
    """Bytes the default device can hold: its allocator limit, or the host's physical memory."""
    if not _device_bytes:
        limit = None
        try:
            import jax

            stats = jax.devices()[0].memory_stats() or {}
            limit = stats.get("bytes_limit")
        except Exception:  # noqa: BLE001 - a backend without memory stats: use the host's
            limit = None
        if not limit:
            try:
                limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            except (ValueError, OSError, AttributeError):
                limit = 2**40  # a platform without sysconf: 1 TiB
        _device_bytes.append(int(limit))
    return _device_bytes[0]


def free_bytes() -> int:
    """Bytes the default device can allocate now: its limit less what is in use, or the host's
    available memory (MemAvailable), never more than :func:`device_bytes`."""
    total = device_bytes()
    try:
        import jax

        stats = jax.devices()[0].memory_stats() or {}
    except Exception:  # noqa: BLE001 - a backend without memory stats: use the host's
        stats = {}
    if stats.get("bytes_limit"):
        return max(0, int(stats["bytes_limit"]) - int(stats.get("bytes_in_use", 0)))
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return min(total, int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    return total


def _human(nbytes: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if nbytes < 1024 or unit == "EiB":
            return f"{nbytes:.4g} {unit}" if unit != "B" else f"{nbytes} B"
        nbytes /= 1024
    return f"{nbytes} B"  # pragma: no cover


def check_alloc(api: str, name: str, shape, itemsize: int = 1) -> None:
    """Raise before allocating a ``shape`` array of ``itemsize``-byte elements that cannot be.

    Raises:
        ValueError: If a dimension is negative or the element count exceeds int64.
        AllocationError: If the array needs more bytes than :func:`device_bytes`, or more than
            :func:`free_bytes` (a request of over 256 MiB).
    """
    if not all(isinstance(d, (int, np.integer)) for d in shape):
        return  # a symbolic dimension (jax.export tracing): its size is only known at run time
    dims = [int(d) for d in shape]
    name = f"'{name}'" if name.isidentifier() else name  # "a parameter" stays unquoted
    if any(d < 0 for d in dims):
        raise ValueError(
            f"For '{api}', {name} must not have negative dimensions, but got shape {dims}."
        )
    count = math.prod(dims)
    if count > INT64_MAX:
        raise ValueError(
            f"For '{api}', {name} gives a shape {dims} with {count} elements, more than an "
            f"int64 can count ({INT64_MAX}). Check the sizes passed to '{api}'."
        )
    nbytes = count * int(itemsize)
    limit = device_bytes()
    if nbytes > limit:
        raise AllocationError(
            f"For '{api}', {name} gives a shape {dims} that needs {_human(nbytes)}, more than "
            f"the device holds ({_human(limit)}). Check the sizes passed to '{api}'."
        )
    if nbytes > _QUERY_FREE_ABOVE:
        free = free_bytes()
        if nbytes > free:
            raise AllocationError(
                f"For '{api}', {name} gives a shape {dims} that needs {_human(nbytes)}, more "
                f"than the device can allocate now ({_human(free)} free of {_human(limit)}). "
                f"Check the sizes passed to '{api}', or free memory first."
            )
