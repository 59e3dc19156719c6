"""MindSpore's tuning switches of ``mindspore.dataset.config`` that scripts set before building
a pipeline (shared memory, NUMA binding, autotune, watchdog, timeouts, debug mode).

They tune MindSpore's C++ engine, which cellax does not have: grain runs the pipelines, so each
setter checks its argument as MindSpore does, keeps the value for its getter, and changes
nothing else. The worker start method is the exception: grain always spawns its workers, so
:func:`set_multiprocessing_start_method` accepts only ``"spawn"``.
"""

from __future__ import annotations

__all__ = [
    "set_enable_shared_mem",
    "get_enable_shared_mem",
    "set_numa_enable",
    "get_numa_enable",
    "set_auto_num_workers",
    "get_auto_num_workers",
    "set_enable_autotune",
    "get_enable_autotune",
    "set_autotune_interval",
    "get_autotune_interval",
    "set_enable_watchdog",
    "get_enable_watchdog",
    "set_multiprocessing_timeout_interval",
    "get_multiprocessing_timeout_interval",
    "set_callback_timeout",
    "get_callback_timeout",
    "set_monitor_sampling_interval",
    "get_monitor_sampling_interval",
    "set_debug_mode",
    "get_debug_mode",
    "set_sending_batches",
    "set_multiprocessing_start_method",
    "get_multiprocessing_start_method",
]

_INT32_MAX = 2**31 - 1
_knobs = {
    "enable_shared_mem": True,
    "numa_enable": False,
    "auto_num_workers": False,
    "enable_autotune": False,
    "autotune_interval": 0,
    "enable_watchdog": True,
    "multiprocessing_timeout_interval": 300,
    "callback_timeout": 60,
    "monitor_sampling_interval": 1000,
    "debug_mode": False,
    "sending_batches": 0,
}


def _bool(api: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be a bool, but got {value!r}.")
    return value


def _int(api: str, name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{api}', '{name}' must be an int, but got {value!r}.")
    if not low <= value <= _INT32_MAX:
        raise ValueError(
            f"For '{api}', '{name}' must be in [{low}, {_INT32_MAX}], but got {value}."
        )
    return value


def set_enable_shared_mem(enable) -> None:
    """Accepted for compatibility: grain's worker processes always pass data through shared
    memory. Raises TypeError if `enable` is not a bool.

    Examples:
        >>> from cellax.dataset import config
        >>> config.set_enable_shared_mem(False)
        >>> config.get_enable_shared_mem()
        False
        >>> config.set_enable_shared_mem(True)
    """
    _knobs["enable_shared_mem"] = _bool("set_enable_shared_mem", "enable", enable)


def get_enable_shared_mem() -> bool:
    """The value of :func:`set_enable_shared_mem` (default ``True``)."""
    return _knobs["enable_shared_mem"]


def set_numa_enable(numa_enable) -> None:
    """Accepted for compatibility (no NUMA binding in cellax). Raises TypeError if not a bool."""
    _knobs["numa_enable"] = _bool("set_numa_enable", "numa_enable", numa_enable)


def get_numa_enable() -> bool:
    """The value of :func:`set_numa_enable` (default ``False``)."""
    return _knobs["numa_enable"]


def set_auto_num_workers(enable) -> None:
    """Accepted for compatibility: cellax runs the workers each operation asks for. Raises
    TypeError if `enable` is not a bool."""
    _knobs["auto_num_workers"] = _bool("set_auto_num_workers", "enable", enable)


def get_auto_num_workers() -> bool:
    """The value of :func:`set_auto_num_workers` (default ``False``)."""
    return _knobs["auto_num_workers"]


def set_enable_autotune(enable, filepath_prefix=None) -> None:
    """Accepted for compatibility (no autotuning in cellax; nothing is written to
    `filepath_prefix`). Raises TypeError if `enable` is not a bool."""
    _knobs["enable_autotune"] = _bool("set_enable_autotune", "enable", enable)


def get_enable_autotune() -> bool:
    """The value of :func:`set_enable_autotune` (default ``False``)."""
    return _knobs["enable_autotune"]


def set_autotune_interval(interval) -> None:
    """Accepted for compatibility. Raises TypeError (not an int) or ValueError (negative)."""
    _knobs["autotune_interval"] = _int("set_autotune_interval", "interval", interval, 0)


def get_autotune_interval() -> int:
    """The value of :func:`set_autotune_interval` (default 0)."""
    return _knobs["autotune_interval"]


def set_enable_watchdog(enable) -> None:
    """Accepted for compatibility: a worker process that dies always raises a RuntimeError in
    the training process. Raises TypeError if `enable` is not a bool."""
    _knobs["enable_watchdog"] = _bool("set_enable_watchdog", "enable", enable)


def get_enable_watchdog() -> bool:
    """The value of :func:`set_enable_watchdog` (default ``True``)."""
    return _knobs["enable_watchdog"]


def set_multiprocessing_timeout_interval(interval) -> None:
    """Accepted for compatibility (MindSpore's interval between warnings about a slow worker).
    Raises TypeError (not an int) or ValueError (not positive)."""
    _knobs["multiprocessing_timeout_interval"] = _int(
        "set_multiprocessing_timeout_interval", "interval", interval, 1
    )


def get_multiprocessing_timeout_interval() -> int:
    """The value of :func:`set_multiprocessing_timeout_interval` (default 300)."""
    return _knobs["multiprocessing_timeout_interval"]


def set_callback_timeout(timeout) -> None:
    """Accepted for compatibility (dataset callbacks are not supported). Raises TypeError (not
    an int) or ValueError (not positive)."""
    _knobs["callback_timeout"] = _int("set_callback_timeout", "timeout", timeout, 1)


def get_callback_timeout() -> int:
    """The value of :func:`set_callback_timeout` (default 60)."""
    return _knobs["callback_timeout"]


def set_monitor_sampling_interval(interval) -> None:
    """Accepted for compatibility (no dataset profiler). Raises TypeError (not an int) or
    ValueError (not positive)."""
    _knobs["monitor_sampling_interval"] = _int(
        "set_monitor_sampling_interval", "interval", interval, 1
    )


def get_monitor_sampling_interval() -> int:
    """The value of :func:`set_monitor_sampling_interval` (default 1000)."""
    return _knobs["monitor_sampling_interval"]


def set_debug_mode(debug_mode_flag, debug_hook_list=None) -> None:
    """Accepted for compatibility (the pipelines already run Python code that a debugger can
    step into; `debug_hook_list` is ignored). Raises TypeError if the flag is not a bool."""
    _knobs["debug_mode"] = _bool("set_debug_mode", "debug_mode_flag", debug_mode_flag)


def get_debug_mode() -> bool:
    """The value of :func:`set_debug_mode` (default ``False``)."""
    return _knobs["debug_mode"]


def set_sending_batches(batch_num) -> None:
    """Accepted for compatibility (there is no device queue to send to). Raises TypeError if
    `batch_num` is not an int."""
    if isinstance(batch_num, bool) or not isinstance(batch_num, int):
        raise TypeError(
            f"For 'set_sending_batches', 'batch_num' must be an int, got {batch_num!r}."
        )
    _knobs["sending_batches"] = batch_num


def set_multiprocessing_start_method(start_method="fork") -> None:
    """Choose how worker processes start: cellax's (grain's) are always spawned.

    Raises:
        TypeError: If `start_method` is not a str.
        ValueError: If it is not ``"fork"`` or ``"spawn"`` (MindSpore's choices).
        RuntimeError: For ``"fork"``, which grain does not offer.

    Differences from MindSpore: MindSpore forks by default; cellax spawns, so a script iterates
    its pipelines under ``if __name__ == "__main__":``.

    Examples:
        >>> from cellax.dataset import config
        >>> config.set_multiprocessing_start_method("spawn")
        >>> config.get_multiprocessing_start_method()
        'spawn'
    """
    if not isinstance(start_method, str):
        raise TypeError(
            f"For 'set_multiprocessing_start_method', 'start_method' must be a str, but got "
            f"{start_method!r}."
        )
    if start_method not in ("fork", "spawn"):
        raise ValueError(
            f"For 'set_multiprocessing_start_method', 'start_method' must be 'fork' or 'spawn', "
            f"but got {start_method!r}."
        )
    if start_method == "fork":
        raise RuntimeError(
            "For 'set_multiprocessing_start_method', cellax's worker processes (grain's) are "
            "always spawned; 'fork' is not available. Use 'spawn' and iterate the pipeline "
            "under `if __name__ == '__main__':`."
        )


def get_multiprocessing_start_method() -> str:
    """How worker processes start: always ``"spawn"`` in cellax (MindSpore's default is
    ``"fork"``)."""
    return "spawn"
