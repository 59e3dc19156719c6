"""``mindspore.common.device``: :class:`DeviceCtx`, a ``with`` block on another device."""

from __future__ import annotations

import threading

from .._context import get_context, set_context

_VALID = ("CPU", "GPU", "Ascend", "meta")
_STACK = threading.local()


class DeviceCtx:
    """Run a ``with`` block with another device target (``mindspore.DeviceCtx``).

    Args:
        name (str): ``"CPU"``, ``"GPU"``, ``"Ascend"`` or ``"meta"``.
        device_id (int): The device index. Default: ``None`` (0).

    Raises:
        ValueError: On entering, if ``name`` is not a valid target or ``device_id`` is negative.
        NotImplementedError: On entering with ``"meta"`` (shape-only tensors): JAX has no such
            device.

    Examples:
        >>> import cellax as ms
        >>> with ms.DeviceCtx("CPU"):
        ...     print(ms.get_context("device_target"))
        CPU

    Differences from MindSpore: cellax computes where JAX places work; the block changes the
    target :func:`get_context` reports, restored on exit.
    """

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id

    def __enter__(self):
        if self.name not in _VALID:
            raise ValueError(
                f"For DeviceCtx, the name must be one of {list(_VALID)}, but got {self.name}."
            )
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == "meta":
            raise NotImplementedError(
                "For DeviceCtx, the 'meta' device (tensors without data) is not available in "
                "cellax: JAX has no such device. Use jax.eval_shape for shape-only runs."
            )
        stack = _STACK.__dict__.setdefault("stack", [])
        stack.append((get_context("device_target"), get_context("device_id")))
        set_context(device_target=self.name, device_id=self.device_id or 0)
        return self

    def __exit__(self, *exc):
        target, device_id = _STACK.stack.pop()
        set_context(device_target=target, device_id=device_id)
        return False
