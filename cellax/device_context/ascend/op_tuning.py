"""``mindspore.device_context.ascend.op_tuning``: Ascend kernel compilation and tuning.

Checked as MindSpore checks them, then one ``UserWarning`` each; XLA compiles and autotunes
its own kernels.
"""

from __future__ import annotations

from ._ignored import ignored

__all__ = ["op_compile", "aoe_tune_mode", "aoe_job_type", "aclnn_cache"]


def op_compile(value: bool) -> None:
    """Whether Ascend compiles operators online (checked; no effect on XLA).

    Raises:
        TypeError: If ``value`` is not ``True`` or ``False``.
    """
    if value not in (True, False):
        raise TypeError(
            f"For 'op_compile', the type of input value must be one of [True, False], but got "
            f"{value}."
        )
    ignored("op_tuning", "op_compile", value)


def aoe_tune_mode(tune_mode: str) -> None:
    """Ascend's AOE tuning mode, ``"online"`` or ``"offline"`` (checked; no effect on XLA).

    Raises:
        ValueError: If ``tune_mode`` is neither.
    """
    if tune_mode not in ("online", "offline"):
        raise ValueError(
            "For 'device_context.ascend.op_tuning.aoe_tune_mode', the argument 'tune_mode' "
            f"must be in ['online', 'offline'], but got {tune_mode}."
        )
    ignored("op_tuning", "aoe_tune_mode", tune_mode)


def aoe_job_type(config: str) -> None:
    """Ascend's AOE job type, ``"1"`` or ``"2"`` (checked; no effect on XLA).

    Raises:
        ValueError: If ``config`` is neither.
    """
    if config not in ("1", "2"):
        raise ValueError(
            f"For 'aoe_job_type', the config must be one of ['1', '2'], but got {config}."
        )
    ignored("op_tuning", "aoe_job_type", config)


def aclnn_cache(enable_global_cache: bool = False, cache_queue_length: int = 10000) -> None:
    """Ascend's aclnn operator cache (checked; no effect on XLA).

    Raises:
        ValueError: If ``enable_global_cache`` is not a bool or ``cache_queue_length`` is
            negative.
    """
    if enable_global_cache not in (True, False):
        raise ValueError(
            "For 'aclnn_cache', the config must be one of [True, False], but got "
            f"{enable_global_cache}."
        )
    if cache_queue_length < 0:
        raise ValueError(
            f"For 'aclnn_cache', the 'cache_queue_length' must be at least 0, but got "
            f"{cache_queue_length}."
        )
    ignored("op_tuning", "aclnn_cache", (enable_global_cache, cache_queue_length))
