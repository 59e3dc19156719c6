"""``mindspore.runtime.device_limit``: Ascend core limits per device (no XLA counterpart)."""

from __future__ import annotations

from .._device import warn_once

__all__ = ["get_device_limit", "set_device_limit"]


def get_device_limit(device) -> dict:
    """The cube and vector core limits of ``device``: ``-1`` (no limit) on XLA.

    Examples:
        >>> import cellax as ms
        >>> ms.runtime.get_device_limit(0)
        {'cube_core_num': -1, 'vector_core_num': -1}
    """
    return {"cube_core_num": -1, "vector_core_num": -1}


def set_device_limit(device, cube_num: int = -1, vector_num: int = -1) -> None:
    """Limit the Ascend cube/vector cores of ``device``: one ``UserWarning``, no effect."""
    warn_once(
        "runtime.set_device_limit",
        "cube and vector core limits are Ascend settings with no XLA counterpart; the "
        "setting has no effect.",
    )
