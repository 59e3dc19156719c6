"""``mindspore.hal.memory``: the older spelling of ``runtime``'s memory statistics.

MindSpore 2.10 marks these as deprecated in favour of ``mindspore.runtime``; each gives one
``DeprecationWarning`` saying so, then answers for the first device of ``device_target``.
"""

from __future__ import annotations

import warnings

from .._device import devices_of
from ..runtime import memory as _memory
from .device import _target, is_initialized

__all__ = [
    "memory_stats",
    "memory_reserved",
    "max_memory_reserved",
    "empty_cache",
    "reset_peak_memory_stats",
    "memory_summary",
    "memory_allocated",
    "max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_max_memory_allocated",
    "is_initialized",
]

_WARNED: set = set()


def _stats(name: str, device_target) -> dict:
    if name not in _WARNED:
        _WARNED.add(name)
        warnings.warn(
            f"mindspore.hal.{name}() is deprecated; use mindspore.runtime.{name}().",
            DeprecationWarning,
            stacklevel=3,
        )
    target = _target(device_target)
    devices = devices_of(target) if target in ("CPU", "GPU") else []
    return _memory._stats(devices[0] if devices else None)


def memory_stats(device_target: str | None = None) -> dict:
    """:func:`cellax.runtime.memory_stats` of ``device_target``'s first device.

    Examples:
        >>> import cellax as ms
        >>> "total_allocated_memory" in ms.hal.memory_stats()
        True
    """
    return _stats("memory_stats", device_target)


def memory_reserved(device_target: str | None = None) -> int:
    """:func:`cellax.runtime.memory_reserved` of ``device_target``."""
    return _stats("memory_reserved", device_target)["total_reserved_memory"]


def max_memory_reserved(device_target: str | None = None) -> int:
    """:func:`cellax.runtime.max_memory_reserved` of ``device_target``."""
    return _stats("max_memory_reserved", device_target)["max_reserved_memory"]


def memory_allocated(device_target: str | None = None) -> int:
    """:func:`cellax.runtime.memory_allocated` of ``device_target``."""
    return _stats("memory_allocated", device_target)["total_allocated_memory"]


def max_memory_allocated(device_target: str | None = None) -> int:
    """:func:`cellax.runtime.max_memory_allocated` of ``device_target``."""
    return _stats("max_memory_allocated", device_target)["max_allocated_memory"]


def memory_summary(device_target: str | None = None) -> str:
    """:func:`cellax.runtime.memory_summary` of ``device_target``."""
    return _memory._summary(_stats("memory_summary", device_target))


def empty_cache() -> None:
    """:func:`cellax.runtime.empty_cache`."""
    _memory.empty_cache()


def reset_peak_memory_stats(device_target: str | None = None) -> None:
    """:func:`cellax.runtime.reset_peak_memory_stats`."""
    _target(device_target)
    _memory.reset_peak_memory_stats()


def reset_max_memory_reserved(device_target: str | None = None) -> None:
    """:func:`cellax.runtime.reset_max_memory_reserved`."""
    _target(device_target)
    _memory.reset_max_memory_reserved()


def reset_max_memory_allocated(device_target: str | None = None) -> None:
    """:func:`cellax.runtime.reset_max_memory_allocated`."""
    _target(device_target)
    _memory.reset_max_memory_allocated()
