"""``mindspore.profiler.common``: the profiler's shared constants (``constant``)."""

from . import constant as constant

__all__ = ["constant"]
