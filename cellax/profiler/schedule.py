"""``mindspore.profiler.schedule``: which steps a :class:`~cellax.profiler.profile` records.
(``cellax.profiler.schedule`` is the class; this module is
``sys.modules["cellax.profiler.schedule"]``, as in MindSpore.)

Examples:
    >>> from cellax.profiler import schedule
    >>> plan = schedule(wait=1, warmup=1, active=2, repeat=1)
    >>> [plan(step).name for step in range(5)]
    ['NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
"""

from __future__ import annotations

import enum

__all__ = ["ProfilerAction", "Schedule"]


class ProfilerAction(enum.Enum):
    """What the profiler does at a step."""

    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def _check(name: str, value: int, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(
            f"For 'schedule', '{name}' must be an int of at least {minimum}, but got {value!r}."
        )
    return value


class Schedule:
    """A step plan: skip ``skip_first`` steps, then ``repeat`` cycles (``0``: no end) of
    ``wait`` idle steps, ``warmup`` warm-up steps and ``active`` recorded steps, the last of
    which saves the trace.

    Args:
        wait (int): Idle steps per cycle.
        active (int): Recorded steps per cycle, at least 1.
        warmup (int): Warm-up steps per cycle. Default: ``0``.
        repeat (int): Cycles; ``0`` repeats without end. Default: ``0``.
        skip_first (int): Steps skipped before the first cycle. Default: ``0``.

    Raises:
        ValueError: If a count is negative or ``active`` is 0.
    """

    def __init__(
        self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0, skip_first: int = 0
    ):
        self.wait = _check("wait", wait, 0)
        self.active = _check("active", active, 1)
        self.warmup = _check("warmup", warmup, 0)
        self.repeat = _check("repeat", repeat, 0)
        self.skip_first = _check("skip_first", skip_first, 0)

    def __call__(self, step: int) -> ProfilerAction:
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat and step // cycle >= self.repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < self.wait:
            return ProfilerAction.NONE
        if position < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        if position < cycle - 1:
            return ProfilerAction.RECORD
        return ProfilerAction.RECORD_AND_SAVE

    def to_dict(self) -> dict:
        """The plan's counts."""
        return {
            "wait": self.wait,
            "active": self.active,
            "warmup": self.warmup,
            "repeat": self.repeat,
            "skip_first": self.skip_first,
        }
