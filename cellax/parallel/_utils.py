"""``mindspore.parallel._utils``: the private helpers that custom training cells of
MindSpore's model zoo import (``_get_device_num``, ``_get_gradients_mean``,
``_get_parallel_mode``, ...), read from the auto-parallel context.

Examples:
    >>> from cellax.parallel._utils import _get_device_num, _get_parallel_mode
    >>> _get_parallel_mode(), _get_device_num()
    ('stand_alone', 1)
"""

from __future__ import annotations

from .. import _parallel_state
from ..communication import get_group_size, get_rank

__all__ = [
    "_get_device_num",
    "_get_gradients_mean",
    "_get_parallel_mode",
    "_get_global_rank",
    "_get_pipeline_stages",
    "_get_stage_device_num",
    "_get_enable_parallel_optimizer",
    "_is_in_auto_parallel_mode",
    "_need_to_full",
    "_check_full_batch",
    "_is_sharding_propagation",
]


def _setting(key: str):
    return _parallel_state.setting(key)


def _get_parallel_mode() -> str:
    """The ``parallel_mode`` of the auto-parallel context."""
    return _parallel_state.mode()


def _get_device_num() -> int:
    """1 stand-alone; else ``device_num`` when set (not 1), or the number of ranks."""
    if _get_parallel_mode() == "stand_alone":
        return 1
    device_num = _setting("device_num")
    return device_num if device_num != 1 else get_group_size()


def _get_global_rank() -> int:
    """0 stand-alone; else ``global_rank`` when set (not 0), or this process's rank."""
    if _get_parallel_mode() == "stand_alone":
        return 0
    global_rank = _setting("global_rank")
    return global_rank if global_rank != 0 else get_rank()


def _get_gradients_mean() -> bool:
    """The ``gradients_mean`` of the auto-parallel context."""
    return bool(_setting("gradients_mean"))


def _get_pipeline_stages() -> int:
    """The ``pipeline_stages`` of the auto-parallel context."""
    return int(_setting("pipeline_stages"))


def _get_stage_device_num() -> int:
    """The devices of one pipeline stage: ``_get_device_num() // pipeline stages``."""
    return _get_device_num() // _get_pipeline_stages()


def _get_enable_parallel_optimizer() -> bool:
    """The ``enable_parallel_optimizer`` of the auto-parallel context."""
    return bool(_setting("enable_parallel_optimizer"))


def _is_in_auto_parallel_mode() -> bool:
    """Whether the mode is SEMI_AUTO_PARALLEL or AUTO_PARALLEL."""
    return _get_parallel_mode() in ("semi_auto_parallel", "auto_parallel")


def _need_to_full() -> bool:
    """Whether batches must be completed to full (semi/auto parallel without full_batch)."""
    return _is_in_auto_parallel_mode() and not _setting("full_batch")


def _check_full_batch() -> None:
    """MindSpore checks the full_batch setting against the dataset here; nothing to check."""


def _is_sharding_propagation() -> bool:
    """Whether the auto-parallel search mode is ``"sharding_propagation"``."""
    return _setting("search_mode") == "sharding_propagation" or bool(
        _setting("sharding_propagation")
    )
