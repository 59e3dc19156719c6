"""``mindspore.device_context.cpu.device``: whether JAX has a CPU device, and how many."""

from __future__ import annotations

from ..._device import devices_of

__all__ = ["device_count", "is_available"]


def is_available() -> bool:
    """Whether JAX has a CPU backend (it always has).

    Examples:
        >>> import cellax as ms
        >>> ms.device_context.cpu.is_available()
        True
    """
    return bool(devices_of("CPU"))


def device_count() -> int:
    """The number of CPU devices: 1, as in MindSpore.

    Examples:
        >>> import cellax as ms
        >>> ms.device_context.cpu.device_count()
        1

    Differences from MindSpore: with
    ``XLA_FLAGS=--xla_force_host_platform_device_count=N`` JAX splits the CPU into ``N``
    devices; this still answers 1 (the host), as MindSpore does.
    """
    return 1
