"""``mindspore.device_context.gpu.device``: JAX's GPU devices."""

from __future__ import annotations

from ..._device import devices_of

__all__ = ["device_count", "is_available"]


def is_available() -> bool:
    """Whether JAX has a GPU backend with at least one device.

    Examples:
        >>> import cellax as ms
        >>> isinstance(ms.device_context.gpu.is_available(), bool)
        True
    """
    return bool(devices_of("GPU"))


def device_count() -> int:
    """The number of GPUs JAX sees (``len(jax.devices("gpu"))``).

    Raises:
        RuntimeError: If there is no GPU (as MindSpore).
    """
    devices = devices_of("GPU")
    if not devices:
        raise RuntimeError(
            "Device_target GPU not exist. JAX found no GPU backend; cellax runs on "
            "the devices jax.devices() lists."
        )
    return len(devices)
