"""``mindspore.device_context.cpu.op_tuning``: threads of CPU operators."""

from __future__ import annotations

from ..._checkparam import args_type_check, check_positive_int
from ..._device import warn_once

__all__ = ["threads_num"]


@args_type_check(num=int)
def threads_num(num: int) -> None:
    """Set the number of threads CPU operators use.

    Args:
        num (int): A positive number of threads.

    Raises:
        TypeError: If ``num`` is not an int.
        ValueError: If ``num`` is not positive.

    Differences from MindSpore: XLA's CPU backend sizes its thread pool when it starts
    (``XLA_FLAGS`` / the process's CPU affinity decide); after the checks, one
    ``UserWarning`` says the setting has no effect. Calling it twice is allowed (MindSpore
    raises ``RuntimeError``).
    """
    check_positive_int(num, "num")
    warn_once(
        "device_context.cpu.op_tuning.threads_num",
        f"{num} threads: XLA's CPU backend sizes its own thread pool when it starts (bind "
        "cores with runtime.set_cpu_affinity or taskset to limit it); the setting has no "
        "effect.",
        stacklevel=4,
    )
