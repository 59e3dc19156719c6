"""What ``runtime``, ``device_context`` and ``hal`` share: the devices JAX has per MindSpore
target, waiting for pending device work, and the one-warning-per-setting rule.

MindSpore names three targets (``"CPU"``, ``"GPU"``, ``"Ascend"``); JAX names platforms. CPU and
GPU map onto JAX's ``cpu`` and ``gpu`` platforms; no JAX platform is an Ascend NPU.
"""

from __future__ import annotations

import warnings

import jax

_PLATFORMS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None}
_TARGET_OF_PLATFORM = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}
_WARNED: set = set()


def warn_once(api: str, text: str, *, key: str | None = None, stacklevel: int = 3) -> None:
    """One ``UserWarning`` per setting and process: "For '<api>', <text>"."""
    key = api if key is None else key
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(f"For '{api}', {text}", UserWarning, stacklevel=stacklevel)


def devices_of(target: str) -> list:
    """JAX's devices for a MindSpore target (``[]`` where JAX has none)."""
    platform = _PLATFORMS.get(target)
    if platform is None:
        return []
    try:
        return list(jax.devices(platform))
    except RuntimeError:  # JAX raises when no backend of that platform is installed
        return []


def running_target() -> str:
    """The MindSpore name of the platform JAX computes on (``"CPU"``, ``"GPU"``, ``"TPU"``)."""
    platform = jax.default_backend()
    return _TARGET_OF_PLATFORM.get(platform, platform.upper())


def default_device():
    return jax.devices()[0]


def synchronize() -> None:
    """Wait until every computation dispatched so far has finished."""
    jax.effects_barrier()
    for array in jax.live_arrays():
        if not array.is_deleted():
            array.block_until_ready()


def all_ready() -> bool:
    """Whether every computation dispatched so far has finished, without waiting."""
    return all(array.is_deleted() or array.is_ready() for array in jax.live_arrays())


def backend_started() -> bool:
    """Whether JAX has created its backends (after that, allocator settings are fixed)."""
    from jax._src import xla_bridge

    return xla_bridge.backends_are_initialized()
