"""``mindspore.profiler.common.constant``: the profiler's option enums. XLA's trace has one
level and no Ascend AI-core counters, so they are accepted and recorded only.

Examples:
    >>> from cellax.profiler.common.constant import ProfilerLevel
    >>> ProfilerLevel.Level1.value
    'Level1'
"""

from __future__ import annotations

import enum

__all__ = ["ProfilerLevel", "ProfilerActivity", "AicoreMetrics"]


class ProfilerLevel(enum.Enum):
    """How much the profiler collects."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(enum.Enum):
    """Which devices are profiled (the JAX trace covers host and device together)."""

    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(enum.Enum):
    """Ascend AI-core counters (no counterpart on XLA devices)."""

    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"
