"""``mindspore.runtime.memory``: device memory statistics and the allocator's settings.

Statistics come from XLA's allocator (``jax.Device.memory_stats()``) where the backend keeps
them (GPU, TPU). The CPU backend keeps none: there the numbers count the bytes of the live
``jax.Array`` buffers on the device, which is what cellax's Tensors hold.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import shutil
import subprocess

from .._checkparam import args_type_check
from .._device import backend_started, default_device, warn_once

__all__ = [
    "set_memory",
    "memory_stats",
    "memory_reserved",
    "max_memory_reserved",
    "empty_cache",
    "memory_replay",
    "reset_peak_memory_stats",
    "memory_summary",
    "memory_allocated",
    "max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_max_memory_allocated",
    "PluggableAllocator",
    "MemPool",
    "use_mem_pool",
]

_SIZE = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB", re.ASCII)
_RESERVE = re.compile(r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB", re.ASCII)
_FRACTION_VARS = ("XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_CLIENT_MEM_FRACTION")
_GB = 1024**3
# peaks as seen since the last reset: XLA's own peak counters cannot be reset
_peaks: dict = {}


def _check_size(value: str, pattern=_SIZE) -> None:
    if pattern.match(value) is None:
        raise ValueError(
            f"The '{value}' is illegal, it must be match regular'{pattern.pattern}' by "
            "flags're.ASCII.'. Write sizes as a number of gigabytes such as '2GB' or '3.5GB'."
        )
    if pattern is _SIZE and value in ("0GB", "0.0GB"):
        raise ValueError('The memory value should not be "0GB".')


@args_type_check(
    init_size=str,
    increase_size=str,
    max_size=str,
    optimize_level=str,
    huge_page_reserve_size=str,
)
def set_memory(
    init_size: str = "2GB",
    increase_size: str = "2GB",
    max_size: str = "1024GB",
    optimize_level: str = "O0",
    huge_page_reserve_size: str = "0GB",
) -> None:
    """Configure the device memory pool.

    ``max_size`` caps the GPU memory XLA's allocator takes, through JAX's
    ``XLA_PYTHON_CLIENT_MEM_FRACTION`` (``max_size`` over the first visible GPU's total
    memory). That variable is read once, when JAX starts its GPU backend, so call
    ``set_memory`` before the first computation.

    Args:
        init_size (str): Initial pool size, such as ``"2GB"``. Default: ``"2GB"``.
        increase_size (str): Pool growth step. Default: ``"2GB"``.
        max_size (str): Largest pool size. Default: ``"1024GB"`` (no cap).
        optimize_level (str): ``"O0"`` or ``"O1"`` (MindSpore's memory reuse level).
            Default: ``"O0"``.
        huge_page_reserve_size (str): Memory kept out of huge pages. Default: ``"0GB"``.

    Raises:
        TypeError: If an argument is not a str.
        ValueError: If a size is not a positive number of ``GB`` (``huge_page_reserve_size``
            may be ``"0GB"``), or ``optimize_level`` is not ``"O0"``/``"O1"``.

    Examples:
        >>> import warnings
        >>> import cellax as ms
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")  # JAX has started: "max_size has no effect"
        ...     ms.runtime.set_memory(max_size="16GB")
        >>> ms.runtime.set_memory(max_size="0.5")
        Traceback (most recent call last):
        ...
        ValueError: The '0.5' is illegal, ...

    Differences from MindSpore: ``init_size``, ``increase_size``, ``optimize_level`` and
    ``huge_page_reserve_size`` have no XLA counterpart (XLA sizes its pool and reuses buffers
    itself): a value other than the default gives one ``UserWarning``. ``max_size`` takes
    effect on GPUs when JAX has not started yet and no memory-fraction variable is set;
    otherwise it gives one ``UserWarning`` saying why it did not. Calling it twice is
    allowed (MindSpore raises ``RuntimeError``).
    """
    for size in (init_size, increase_size, max_size):
        _check_size(size)
    _check_size(huge_page_reserve_size, _RESERVE)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(
            f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}."
        )
    ignored = [
        f"{name}={value!r}"
        for name, value, default in (
            ("init_size", init_size, "2GB"),
            ("increase_size", increase_size, "2GB"),
            ("optimize_level", optimize_level, "O0"),
            ("huge_page_reserve_size", huge_page_reserve_size, "0GB"),
        )
        if value != default
    ]
    if ignored:
        warn_once(
            "runtime.set_memory",
            f"{', '.join(ignored)} has no XLA counterpart: XLA sizes its memory pool and "
            "reuses buffers itself. Only max_size is applied.",
            key="set_memory:pool",
            stacklevel=4,
        )
    if max_size != "1024GB":
        _cap(float(max_size[:-2]) * _GB, max_size)


def _cap(limit: float, text: str) -> None:
    why = None
    if backend_started():
        why = (
            "JAX has already started its backend and fixed its allocator; call set_memory "
            "before the first computation"
        )
    elif any(name in os.environ for name in _FRACTION_VARS):
        why = "a memory-fraction variable (XLA_PYTHON_CLIENT_MEM_FRACTION) is already set"
    else:
        total = _gpu_total_bytes()
        if total is None:
            why = "no GPU was found (XLA's CPU backend has no memory cap)"
        elif limit < total:
            os.environ[_FRACTION_VARS[0]] = f"{limit / total:.4f}"
    if why is not None:
        warn_once(
            "runtime.set_memory",
            f"max_size={text!r} has no effect: {why}.",
            key="set_memory:max_size",
            stacklevel=5,
        )


def _gpu_total_bytes() -> int | None:
    """The first visible GPU's memory, asked of nvidia-smi (JAX itself is not started)."""
    tool = shutil.which("nvidia-smi")
    if tool is None:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip() or "0"
    query = [tool, "--query-gpu=memory.total", "--format=csv,noheader,nounits", "-i", visible]
    try:
        out = subprocess.run(query, capture_output=True, text=True, timeout=10, check=True)
        return int(float(out.stdout.split()[0]) * 1024 * 1024)
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def _live_bytes(device) -> int:
    import jax

    total = 0
    for array in jax.live_arrays():
        if array.is_deleted():
            continue
        for shard in array.addressable_shards:
            if shard.device == device:
                total += shard.data.nbytes
    return total


def _pool_stats(stats: dict, *, allocated: int, reserved: int) -> dict:
    seen = _peaks.setdefault("seen", {"allocated": 0, "reserved": 0})
    seen["allocated"] = max(seen["allocated"], allocated)
    seen["reserved"] = max(seen["reserved"], reserved)
    peak_allocated, peak_reserved = seen["allocated"], seen["reserved"]
    xla_peak = stats.get("peak_bytes_in_use")
    if xla_peak is not None and xla_peak > _peaks.get("xla_peak_at_reset", -1):
        peak_allocated = max(peak_allocated, xla_peak)
    xla_peak_pool = stats.get("peak_pool_bytes")
    if xla_peak_pool is not None and xla_peak_pool > _peaks.get("xla_pool_at_reset", -1):
        peak_reserved = max(peak_reserved, xla_peak_pool)
    return {
        "total_reserved_memory": reserved,
        "total_allocated_memory": allocated,
        "total_idle_memory": max(reserved - allocated, 0),
        "total_eager_free_memory": 0,
        "max_reserved_memory": peak_reserved,
        "max_allocated_memory": peak_allocated,
        "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
        "persistent_mem_pool_stats": {
            "block_counts": 0,
            "block_unit_size": 0,
            "blocks_info": {},
        },
    }


def _stats(device=None) -> dict:
    device = default_device() if device is None else device
    stats = device.memory_stats() or {}
    if "bytes_in_use" in stats:
        allocated = int(stats["bytes_in_use"])
        reserved = int(stats.get("pool_bytes", stats.get("bytes_reserved", 0)) or allocated)
    else:
        allocated = reserved = _live_bytes(device)
    return _pool_stats(stats, allocated=max(allocated, 0), reserved=max(reserved, allocated))


def memory_stats() -> dict:
    """Memory statistics of the default device, in bytes, with MindSpore's keys.

    Returns:
        dict: ``total_reserved_memory`` (held by the allocator), ``total_allocated_memory``
        (in use by arrays), ``total_idle_memory`` (reserved minus allocated),
        ``total_eager_free_memory`` (0), ``max_reserved_memory``, ``max_allocated_memory``
        (peaks since start or the last reset) and MindSpore's two pool entries
        (``common_mem_pool_stats``, ``persistent_mem_pool_stats``, empty: XLA's pool has no
        such blocks).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.ones((256, 256), ms.float32)
        >>> ms.runtime.memory_allocated() >= 256 * 256 * 4
        True

    Differences from MindSpore: on GPUs and TPUs the numbers are XLA allocator's
    (``bytes_in_use``, ``pool_bytes``, ``peak_bytes_in_use``...). XLA's CPU backend keeps no
    statistics: there allocated and reserved both count the live arrays' bytes on the device,
    and the peaks are the largest values these functions have seen.
    """
    return _stats()


def memory_allocated() -> int:
    """Bytes in use by arrays on the default device (see :func:`memory_stats`)."""
    return _stats()["total_allocated_memory"]


def max_memory_allocated() -> int:
    """Peak of :func:`memory_allocated` since start or the last reset."""
    return _stats()["max_allocated_memory"]


def memory_reserved() -> int:
    """Bytes held by the allocator on the default device (see :func:`memory_stats`)."""
    return _stats()["total_reserved_memory"]


def max_memory_reserved() -> int:
    """Peak of :func:`memory_reserved` since start or the last reset."""
    return _stats()["max_reserved_memory"]


def _reset(kind: str) -> None:
    stats = default_device().memory_stats() or {}
    seen = _peaks.setdefault("seen", {"allocated": 0, "reserved": 0})
    seen[kind] = 0
    key, counter = {
        "allocated": ("xla_peak_at_reset", "peak_bytes_in_use"),
        "reserved": ("xla_pool_at_reset", "peak_pool_bytes"),
    }[kind]
    _peaks[key] = stats.get(counter, -1)
    _stats()


def reset_max_memory_allocated() -> None:
    """Restart the peak of :func:`max_memory_allocated` from the current use.

    Differences from MindSpore: XLA's own peak counter cannot be reset; after a reset, a
    peak above the one before the reset is reported exactly, a lower one as the largest
    amount :func:`memory_stats` and friends have seen since.
    """
    _reset("allocated")


def reset_max_memory_reserved() -> None:
    """Restart the peak of :func:`max_memory_reserved` (see
    :func:`reset_max_memory_allocated`)."""
    _reset("reserved")


def reset_peak_memory_stats() -> None:
    """Reset both peaks (:func:`reset_max_memory_allocated`, :func:`reset_max_memory_reserved`).

    Examples:
        >>> import cellax as ms
        >>> ms.runtime.reset_peak_memory_stats()
        >>> ms.runtime.max_memory_allocated() >= ms.runtime.memory_allocated()
        True
    """
    _reset("allocated")
    _reset("reserved")


def _format_size(size: int) -> str:
    units = ("B  ", "KB", "MB", "GB", "TB", "PB")
    shown, scaled, unit = size, float(size), 0
    while unit < len(units) - 1 and scaled >= 768 * 1024:
        shown, scaled, unit = shown // 1024, scaled / 1024, unit + 1
    return f"{shown:6d} {units[unit]}"


_SUMMARY_ROWS = (
    ("total_reserved_memory", "Reserved memory"),
    ("total_allocated_memory", "Allocated memory"),
    ("total_idle_memory", "Idle memory"),
    ("total_eager_free_memory", "Eager free memory"),
    ("max_reserved_memory", "Max reserved memory"),
    ("max_allocated_memory", "Max allocated memory"),
)


def _summary(stats: dict) -> str:
    rule, double = "-" * 45, "=" * 45
    lines = [double, f" {'Memory summary':^43} ", double, f" {'Metric':<20} | {'Data':<20} "]
    for key, title in _SUMMARY_ROWS:
        lines += [rule, f" {title:<20} | {_format_size(stats[key]):<20} "]
    lines.append(double)
    return "|" + "|\n|".join(lines) + "|\n"


def memory_summary() -> str:
    """:func:`memory_stats` as MindSpore's text table.

    Examples:
        >>> import cellax as ms
        >>> print(ms.runtime.memory_summary().splitlines()[1])
        |               Memory summary                |
    """
    return _summary(_stats())


def empty_cache() -> None:
    """Release cached memory where XLA allows it.

    It runs Python's garbage collector, which frees the device buffers of arrays that only
    reference cycles kept alive. XLA's allocator keeps freed blocks for reuse and offers no
    call that returns them to the device (JAX's ``XLA_PYTHON_CLIENT_ALLOCATOR=platform``
    frees every buffer at once instead, at a speed cost).

    Examples:
        >>> import cellax as ms
        >>> ms.runtime.empty_cache()
    """
    gc.collect()


def memory_replay(file_path: str) -> None:
    """Replay a MindSpore memory trace: no XLA counterpart, one ``UserWarning``, no effect."""
    warn_once(
        "runtime.memory_replay",
        f"replaying MindSpore's allocation trace ({file_path!r}) has no XLA counterpart; "
        "the call has no effect.",
        stacklevel=3,
    )


class PluggableAllocator:
    """A device allocator loaded from a shared library (``mindspore.runtime.PluggableAllocator``).

    Args:
        path_to_so_file (str): The library.
        alloc_fn_name (str): Its allocation function.
        free_fn_name (str): Its free function.

    Raises:
        NotImplementedError: Always: XLA's device allocator cannot be replaced from Python.
            Tune it with JAX's ``XLA_PYTHON_CLIENT_ALLOCATOR`` / ``XLA_PYTHON_CLIENT_MEM_FRACTION``.
    """

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        raise NotImplementedError(
            f"For 'runtime.PluggableAllocator', a custom allocator ({path_to_so_file!r}) cannot "
            "be plugged into XLA: JAX's device allocator is fixed when its backend starts. "
            "Choose among JAX's allocators with XLA_PYTHON_CLIENT_ALLOCATOR (e.g. 'platform') "
            "and XLA_PYTHON_CLIENT_MEM_FRACTION instead."
        )

    @property
    def alloc_fn_ptr(self) -> int:
        """The allocation function's address (never reached: construction raises)."""
        raise NotImplementedError("For 'runtime.PluggableAllocator', not available on XLA.")

    @property
    def free_fn_ptr(self) -> int:
        """The free function's address (never reached: construction raises)."""
        raise NotImplementedError("For 'runtime.PluggableAllocator', not available on XLA.")


class MemPool:
    """A memory pool over a :class:`PluggableAllocator` (``mindspore.runtime.MemPool``).

    Raises:
        NotImplementedError: Always, as :class:`PluggableAllocator`.
    """

    def __init__(self, allocator: PluggableAllocator) -> None:
        raise NotImplementedError(
            "For 'runtime.MemPool', pools over a pluggable allocator do not exist on XLA: "
            "JAX's device allocator cannot be replaced (see runtime.PluggableAllocator)."
        )

    @property
    def allocator(self) -> PluggableAllocator:
        """The pool's allocator (never reached: construction raises)."""
        raise NotImplementedError("For 'runtime.MemPool', not available on XLA.")


@contextlib.contextmanager
def use_mem_pool(pool: MemPool):
    """Allocate from ``pool`` inside a ``with`` block.

    Raises:
        NotImplementedError: On entering: XLA's allocator cannot be switched per block.
    """
    raise NotImplementedError(
        "For 'runtime.use_mem_pool', switching the device allocator inside a block is not "
        "possible on XLA (see runtime.PluggableAllocator)."
    )
    yield  # pragma: no cover
