"""Sizes checked before anything is allocated or compiled (no crash inside XLA, no hang).

XLA aborts the process on a shape whose element count overflows int64 and raises its own
``RESOURCE_EXHAUSTED`` error when memory runs out; NumPy raises its own MemoryError in
initializers. cellax checks the size of what an API is about to create first: more elements
than int64 can count is a ValueError, more bytes than the device holds a MemoryError, both
naming the API, the argument and the size.
"""

from __future__ import annotations

import math
import os

__all__ = ["INT64_MAX", "check_alloc", "device_bytes"]

INT64_MAX = 2**63 - 1
_device_bytes: list = []


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
        MemoryError: If the array needs more bytes than :func:`device_bytes`.
    """
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise ValueError(
            f"For '{api}', '{name}' must not have negative dimensions, but got shape {dims}."
        )
    count = math.prod(dims)
    if count > INT64_MAX:
        raise ValueError(
            f"For '{api}', '{name}' gives a shape {dims} with {count} elements, more than an "
            f"int64 can count ({INT64_MAX}). Check the sizes passed to '{api}'."
        )
    nbytes = count * int(itemsize)
    limit = device_bytes()
    if nbytes > limit:
        raise MemoryError(
            f"For '{api}', '{name}' gives a shape {dims} that needs {_human(nbytes)}, more than "
            f"the device holds ({_human(limit)}). Check the sizes passed to '{api}'."
        )
