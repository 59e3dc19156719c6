"""``mindspore.device_context.ascend.device``: Ascend devices (JAX has none)."""

from __future__ import annotations

__all__ = ["device_count", "is_available"]


def is_available() -> bool:
    """Whether an Ascend device is usable: never on cellax.

    Examples:
        >>> import cellax as ms
        >>> ms.device_context.ascend.is_available()
        False
    """
    return False


def device_count() -> int:
    """The number of Ascend devices.

    Raises:
        RuntimeError: Always (as MindSpore without Ascend): no JAX platform is an Ascend NPU.
    """
    raise RuntimeError(
        "Device Ascend not exist. cellax runs on XLA devices (jax.devices()); "
        "use device_context.gpu / cpu to count them."
    )
