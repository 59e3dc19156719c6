"""``mindspore.runtime.executor``: how operators are dispatched (blocking, threads, CPU cores)."""

from __future__ import annotations

import os
import re

from .. import _context
from .._checkparam import args_type_check, check_positive_int
from .._device import warn_once

__all__ = [
    "launch_blocking",
    "dispatch_threads_num",
    "set_cpu_affinity",
    "set_kernel_launch_group",
    "set_kernel_launch_capture",
]

_RANGES = re.compile(r"^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$")


def launch_blocking() -> None:
    """Make every eager operator wait for its result before returning.

    Device errors then surface at the operator that caused them, at a speed cost. It is the
    same switch as ``set_context(pynative_synchronize=True)``; turn it off with
    ``set_context(pynative_synchronize=False)``. Compiled functions (``jit``, GRAPH_MODE)
    wait once for their outputs.

    Examples:
        >>> import cellax as ms
        >>> ms.runtime.launch_blocking()
        >>> ms.get_context("pynative_synchronize")
        True
        >>> ms.set_context(pynative_synchronize=False)
    """
    _context.set_context(pynative_synchronize=True)


@args_type_check(threads_num=int)
def dispatch_threads_num(threads_num: int) -> None:
    """Set the number of runtime dispatch threads (MindSpore's default: 5).

    Args:
        threads_num (int): A positive number of threads.

    Raises:
        TypeError: If ``threads_num`` is not an int.
        ValueError: If ``threads_num`` is not positive.

    Differences from MindSpore: JAX dispatches from the calling thread and XLA sizes its own
    thread pools; the value is checked, then one ``UserWarning`` says it has no effect.
    """
    check_positive_int(threads_num, "threads_num")
    warn_once(
        "runtime.dispatch_threads_num",
        f"{threads_num} dispatch threads: JAX dispatches operators from the calling thread "
        "and XLA sizes its own thread pools; the setting has no effect.",
        stacklevel=4,
    )


def _parse_ranges(ranges: list) -> set:
    cpus: set = set()
    for text in ranges:
        for part in text.split(","):
            low, _, high = part.partition("-")
            cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def _check_affinity(affinity_cpu_list, module_to_cpu_dict) -> None:
    if affinity_cpu_list is not None:
        if not isinstance(affinity_cpu_list, list):
            raise TypeError(
                f"The parameter '{affinity_cpu_list}' must be list, but got "
                f"{type(affinity_cpu_list)}"
            )
        for text in affinity_cpu_list:
            if not isinstance(text, str):
                raise ValueError(f"CPU range '{text}' in '{affinity_cpu_list}' should be a string.")
            if not _RANGES.match(text):
                raise ValueError(
                    f"CPU range '{text}' in '{affinity_cpu_list}' should be in format "
                    "'cpuidX-cpuidY' or 'cpuidX,cpuidY,cpuidZ'."
                )
    if module_to_cpu_dict is not None:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(
                f"The parameter '{module_to_cpu_dict}' must be dict, but got "
                f"{type(module_to_cpu_dict)}"
            )
        for module, cpus in module_to_cpu_dict.items():
            if not isinstance(cpus, list):
                raise ValueError(f"The value of module_to_cpu_dict: {cpus} should be a list.")
            for cpu in cpus:
                if not isinstance(cpu, int) or cpu < 0:
                    raise ValueError(
                        f"CPU index '{cpu}' for module '{module}' in '{cpus}' should be a "
                        "non-negative integer."
                    )


def set_cpu_affinity(
    enable_affinity: bool,
    affinity_cpu_list: list | None = None,
    module_to_cpu_dict: dict | None = None,
    bind_file: str | None = None,
) -> None:
    """Bind the process's main thread to CPU cores.

    Args:
        enable_affinity (bool): Whether to bind.
        affinity_cpu_list (list[str]): CPU ranges such as ``["0-3", "8-11"]``. Default:
            ``None``.
        module_to_cpu_dict (dict): Cores per MindSpore module (``"main"``, ``"runtime"``,
            ``"pynative"``, ``"minddata"``), e.g. ``{"main": [0, 1]}``. Default: ``None``.
        bind_file (str): A MindSpore binding JSON file. Default: ``None``.

    Raises:
        TypeError: If ``affinity_cpu_list`` is not a list or ``module_to_cpu_dict`` not a dict.
        ValueError: If a range or a core index is malformed.

    Examples:
        >>> import os
        >>> import cellax as ms
        >>> cores = sorted(os.sched_getaffinity(0))
        >>> ms.runtime.set_cpu_affinity(True, [f"{cores[0]}"])
        >>> sorted(os.sched_getaffinity(0)) == cores[:1]
        True
        >>> os.sched_setaffinity(0, cores)

    Differences from MindSpore: the calling thread (``"main"``) is bound with
    ``os.sched_setaffinity`` to ``module_to_cpu_dict["main"]`` if given, else to
    ``affinity_cpu_list``; threads XLA has already started keep their cores. MindSpore's
    automatic policy (from ``npu-smi``/NUMA data), the other modules' entries and
    ``bind_file`` have no counterpart and give one ``UserWarning``. Calling it twice is
    allowed (MindSpore raises ``RuntimeError``).
    """
    if isinstance(affinity_cpu_list, dict):  # MindSpore's per-device form: {"device0": [...]}
        affinity_cpu_list = affinity_cpu_list.get(f"device{_context.get_context('device_id')}")
    _check_affinity(affinity_cpu_list, module_to_cpu_dict)
    if not enable_affinity:
        return
    others = sorted(set(module_to_cpu_dict or {}) - {"main"})
    if bind_file is not None or others:
        warn_once(
            "runtime.set_cpu_affinity",
            "only the calling thread is bound; bind_file and the cores of MindSpore's other "
            f"modules ({others}) have no counterpart in cellax.",
            key="set_cpu_affinity:modules",
        )
    main = (module_to_cpu_dict or {}).get("main")
    cpus = set(main) if main else _parse_ranges(affinity_cpu_list or [])
    if not cpus:
        warn_once(
            "runtime.set_cpu_affinity",
            "no cores were given and cellax has no automatic binding policy; nothing is bound.",
            key="set_cpu_affinity:auto",
        )
        return
    os.sched_setaffinity(0, cpus)


@args_type_check(thread_num=int, kernel_group_num=int)
def set_kernel_launch_group(thread_num: int = 2, kernel_group_num: int = 8) -> None:
    """Launch operators in parallel groups (MindSpore O0 mode).

    Raises:
        TypeError: If an argument is not an int.
        ValueError: If either is below 1, or ``kernel_group_num`` is not a multiple of
            ``thread_num``.

    Differences from MindSpore: XLA launches its kernels itself; after the checks, one
    ``UserWarning`` says the setting has no effect.
    """
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(
            f"The value of kernel_group_num should be at least 1, but got {kernel_group_num}"
        )
    if kernel_group_num % thread_num:
        raise ValueError(
            f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot be evenly "
            f"divisible by thread_num: {thread_num}"
        )
    warn_once(
        "runtime.set_kernel_launch_group",
        "XLA launches the kernels of a compiled program itself; grouped launching has no effect.",
        stacklevel=4,
    )


@args_type_check(enable_capture_graph=bool)
def set_kernel_launch_capture(enable_capture_graph: bool, op_capture_skip: list | None = None):
    """Capture operator launches into a graph (MindSpore O0/O1 inference).

    Raises:
        TypeError: If ``enable_capture_graph`` is not a bool or ``op_capture_skip`` not a list.

    Differences from MindSpore: ``cellax.jit`` compiles a whole function into one XLA
    program, which is what capture approximates; after the checks, one ``UserWarning`` says
    the setting has no effect.
    """
    if op_capture_skip is not None and not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    warn_once(
        "runtime.set_kernel_launch_capture",
        "launch capture has no XLA counterpart (cellax.jit compiles whole functions into one "
        "XLA program); the setting has no effect.",
        stacklevel=4,
    )
