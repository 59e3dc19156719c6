"""The one warning every Ascend setting gives after its checks."""

from __future__ import annotations

from ..._device import warn_once


def ignored(module: str, name: str, value) -> None:
    warn_once(
        f"device_context.ascend.{module}.{name}",
        f"{value!r} is an Ascend setting with no XLA counterpart; cellax computes on JAX's "
        "default device and the setting has no effect.",
        stacklevel=4,
    )
