"""``mindspore.device_manager``: the device a script runs on and deterministic kernels.

``set_device`` is :func:`cellax.set_device`; :func:`get_current_device` reports the target and
index it recorded; :func:`set_deterministic` records MindSpore's ``deterministic`` setting.

Examples:
    >>> import cellax as ms
    >>> ms.set_device("CPU", 0)
    >>> ms.get_current_device()
    ('CPU', 0)
"""

from __future__ import annotations

from ._checkparam import args_type_check
from ._context import _set_context, get_context
from ._device import warn_once
from .context import set_device

__all__ = ["set_device", "set_deterministic", "get_current_device"]


class DeviceInfo(tuple):
    """``(device_target, device_id)``, with both as attributes."""

    def __new__(cls, device_target: str, device_id: int):
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self) -> str:
        """The MindSpore target (``"CPU"``, ``"GPU"``, ``"Ascend"``...)."""
        return self[0]

    @property
    def device_id(self) -> int:
        """The device index."""
        return self[1]


def get_current_device() -> DeviceInfo:
    """The device target and index set by :func:`set_device` (default: JAX's backend, 0).

    Examples:
        >>> import cellax as ms
        >>> ms.get_current_device().device_id
        0
    """
    return DeviceInfo(str(get_context("device_target")), int(get_context("device_id") or 0))


@args_type_check(deterministic=bool)
def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic kernels (``get_context("deterministic")`` becomes ``"ON"``/``"OFF"``).

    Args:
        deterministic (bool): Whether kernels must give bit-identical results run to run.

    Raises:
        TypeError: If ``deterministic`` is not a bool.

    Examples:
        >>> import cellax as ms
        >>> ms.set_deterministic(False)
        >>> ms.get_context("deterministic")
        'OFF'

    Differences from MindSpore: XLA's determinism on GPUs is an XLA flag
    (``XLA_FLAGS=--xla_gpu_deterministic_ops=true``) read when JAX starts, which cellax does not
    change: ``True`` records the setting and gives one ``UserWarning`` saying so. Calling it
    twice is allowed (MindSpore raises ``RuntimeError``).
    """
    _set_context({"deterministic": "ON" if deterministic else "OFF"}, "set_deterministic")
    if deterministic:
        warn_once(
            "set_deterministic",
            "cellax does not change XLA's flags: for deterministic GPU kernels start the "
            "process with XLA_FLAGS=--xla_gpu_deterministic_ops=true (XLA's CPU kernels are "
            "run-to-run deterministic).",
            stacklevel=4,
        )
