"""``mindspore._c_expression.amp``: mixed-precision strategies as records.

MindSpore's runtime reads the innermost pushed strategy (or a Cell's ``amp_strategy``
attribute) and casts each listed primitive's inputs. cellax casts at Cell boundaries instead
(``cellax.amp.auto_mixed_precision``); these objects keep MindSpore's constructors, stack and
accessors so code that builds or inspects strategies runs.

Examples:
    >>> import cellax as ms
    >>> from cellax._c_expression.amp import AmpLevel, create_amp_strategy
    >>> strategy = create_amp_strategy(AmpLevel.AmpO3, ms.float16, [], [])
    >>> strategy.get_amp_level() is AmpLevel.AmpO3, strategy.get_amp_dtype() is ms.float16
    (True, True)
"""

from __future__ import annotations

import enum
import threading

__all__ = [
    "AmpLevel",
    "AmpStrategy",
    "create_amp_strategy",
    "push_amp_strategy",
    "pop_amp_strategy",
    "get_curr_amp_strategy",
]


class AmpLevel(enum.IntEnum):
    """MindSpore's mixed-precision levels (``AmpO0`` ... ``AmpO3``, ``AmpAuto``)."""

    AmpO0 = 0
    AmpO1 = 1
    AmpO2 = 2
    AmpO3 = 3
    AmpAuto = 4


class AmpStrategy:
    """A level, a low-precision dtype and the white and black lists (entries are
    ``(primitive name, [argument indexes])`` pairs in MindSpore's own use)."""

    def __init__(self, amp_level, amp_dtype, white_list, black_list) -> None:
        self._level = AmpLevel(amp_level)
        self._dtype = amp_dtype
        self._white_list = list(white_list)
        self._black_list = list(black_list)

    def get_amp_level(self) -> AmpLevel:
        return self._level

    def get_amp_dtype(self):
        return self._dtype

    def get_white_list(self) -> list:
        return list(self._white_list)

    def get_black_list(self) -> list:
        return list(self._black_list)

    def __repr__(self) -> str:
        return f"AmpStrategy({self._level.name}, {self._dtype})"


_stack = threading.local()


def _strategies() -> list:
    if not hasattr(_stack, "items"):
        _stack.items = []
    return _stack.items


def create_amp_strategy(amp_level, amp_dtype, white_list, black_list) -> AmpStrategy:
    """A new :class:`AmpStrategy`."""
    return AmpStrategy(amp_level, amp_dtype, white_list, black_list)


def push_amp_strategy(amp_level, amp_dtype, white_list, black_list) -> None:
    """Make a new strategy the current one (this thread), until :func:`pop_amp_strategy`."""
    _strategies().append(AmpStrategy(amp_level, amp_dtype, white_list, black_list))


def pop_amp_strategy() -> None:
    """Drop the current strategy (nothing happens when none is pushed)."""
    if _strategies():
        _strategies().pop()


def get_curr_amp_strategy() -> AmpStrategy | None:
    """The innermost pushed strategy of this thread, or ``None``."""
    items = _strategies()
    return items[-1] if items else None
