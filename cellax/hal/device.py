"""``mindspore.hal.device``: devices per target, their names and properties."""

from __future__ import annotations

from .._device import backend_started, devices_of, running_target

__all__ = [
    "is_initialized",
    "is_available",
    "device_count",
    "get_device_capability",
    "get_device_properties",
    "get_device_name",
    "get_arch_list",
]

_VALID = ["CPU", "GPU", "Ascend"]


def _check_target(api: str, device_target) -> None:
    if device_target not in _VALID:
        raise ValueError(
            f"For '{api}', the argument 'device_target' must be one of {_VALID}, but got "
            f"{device_target}."
        )


def _target(device_target) -> str:
    """The checked target: ``None`` means the one JAX computes on."""
    if device_target is None:
        return running_target()
    if not isinstance(device_target, str):
        raise TypeError(
            f"The argument 'device_target' must be str, but got {device_target}, type is "
            f"{type(device_target)}."
        )
    if device_target not in _VALID:
        raise ValueError(
            f"The argument 'device_target' must be one of {_VALID}, but got {device_target}."
        )
    if not devices_of(device_target):
        raise ValueError(
            f"{device_target} backend is not available: JAX has no {device_target} device "
            "(cellax runs on the devices jax.devices() lists). You can call hal.is_available "
            "to check."
        )
    return device_target


def _devices(target: str) -> list:
    if target in _VALID:
        return devices_of(target)
    import jax

    return list(jax.devices())


def _device(device_id, device_target):
    target = _target(device_target)
    count = device_count(target) if target in _VALID else len(_devices(target))
    if not isinstance(device_id, int):
        raise TypeError(
            f"The argument 'device_id' must be int, but got {device_id}, type is {type(device_id)}."
        )
    if device_id < 0:
        raise ValueError(f"The argument 'device_id' should not be negative, but got {device_id}.")
    if device_id >= count:
        raise ValueError(
            f"The argument 'device_id' must be less than device count: {count}, but got "
            f"{device_id}."
        )
    return target, _devices(target)[device_id]


def is_initialized(device_target: str) -> bool:
    """Whether JAX has started the backend of ``device_target``.

    Raises:
        ValueError: If ``device_target`` is not ``"CPU"``, ``"GPU"`` or ``"Ascend"``.
    """
    _check_target("hal.is_initialized", device_target)
    return backend_started() and bool(devices_of(device_target))


def is_available(device_target: str) -> bool:
    """Whether JAX has a device of ``device_target`` (``"Ascend"``: never).

    Raises:
        ValueError: If ``device_target`` is not ``"CPU"``, ``"GPU"`` or ``"Ascend"``.

    Examples:
        >>> import cellax as ms
        >>> ms.hal.is_available("CPU"), ms.hal.is_available("Ascend")
        (True, False)
    """
    _check_target("hal.is_available", device_target)
    return bool(devices_of(device_target))


def device_count(device_target: str | None = None) -> int:
    """The number of devices of ``device_target`` (default: the one JAX computes on).

    The CPU counts as 1, as in MindSpore.

    Raises:
        TypeError: If ``device_target`` is not a str.
        ValueError: If it is not a valid target or JAX has no such device.

    Examples:
        >>> import cellax as ms
        >>> ms.hal.device_count("CPU")
        1
    """
    target = _target(device_target)
    return 1 if target == "CPU" else len(_devices(target))


def get_device_name(device_id: int, device_target: str | None = None) -> str:
    """The device's name: ``"CPU"``, or the GPU's model (``jax.Device.device_kind``).

    Raises:
        TypeError: If ``device_id`` is not an int.
        ValueError: If ``device_id`` is negative or not below :func:`device_count`.

    Examples:
        >>> import cellax as ms
        >>> ms.hal.get_device_name(0, "CPU")
        'CPU'
    """
    target, device = _device(device_id, device_target)
    return "CPU" if target == "CPU" else device.device_kind


class DeviceProperties:
    """What :func:`get_device_properties` returns for a GPU or TPU."""

    def __init__(self, device) -> None:
        stats = device.memory_stats() or {}
        major, minor = _capability(device) or (0, 0)
        self.name = device.device_kind
        self.major = major
        self.minor = minor
        self.is_multi_gpu_board = False
        self.is_integrated = False
        self.multi_processor_count = int(getattr(device, "core_count", 0) or 0)
        self.total_memory = int(stats.get("bytes_limit", 0))
        self.free_memory = max(self.total_memory - int(stats.get("bytes_in_use", 0)), 0)

    def __repr__(self) -> str:
        mib = 1024 * 1024
        return (
            f"DeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
            f"multi_processor_count={self.multi_processor_count}, "
            f"total_memory={self.total_memory // mib}MB, free_memory={self.free_memory // mib}MB)"
        )


def _capability(device) -> tuple | None:
    text = getattr(device, "compute_capability", None)
    if not text:
        return None
    major, _, minor = str(text).partition(".")
    return int(major), int(minor or 0)


def get_device_properties(device_id: int, device_target: str | None = None):
    """The device's properties: ``None`` for the CPU (as MindSpore), else a
    :class:`DeviceProperties` (name, compute capability, SM count, XLA's memory limit).

    Raises:
        TypeError: If ``device_id`` is not an int.
        ValueError: If ``device_id`` is out of range.

    Differences from MindSpore: ``total_memory`` is XLA allocator's limit
    (``bytes_limit``), the part of the GPU JAX may use.
    """
    target, device = _device(device_id, device_target)
    return None if target == "CPU" else DeviceProperties(device)


def get_device_capability(device_id: int, device_target: str | None = None) -> tuple | None:
    """A GPU's compute capability ``(major, minor)``; ``None`` for the CPU (as MindSpore).

    Raises:
        TypeError: If ``device_id`` is not an int.
        ValueError: If ``device_id`` is out of range.
    """
    target, device = _device(device_id, device_target)
    return None if target == "CPU" else _capability(device)


def get_arch_list(device_target: str | None = None) -> list | None:
    """The GPU architectures present (``["sm_90"]``...); ``None`` for the CPU (as MindSpore)."""
    target = _target(device_target)
    if target == "CPU":
        return None
    found = {_capability(device) for device in _devices(target)}
    return sorted(f"sm_{cap[0]}{cap[1]}" for cap in found if cap is not None)
