"""``mindspore.parallel._auto_parallel_context``: ``auto_parallel_context()``, the object
model-zoo code reads settings from (``auto_parallel_context().get_parallel_mode()``).

Examples:
    >>> from cellax.parallel._auto_parallel_context import auto_parallel_context
    >>> auto_parallel_context().get_parallel_mode()
    'stand_alone'
"""

from __future__ import annotations

from .. import context as _context

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """``get_<key>()`` / ``set_<key>(value)`` for each key of the auto-parallel context, and
    ``reset()``."""

    def __getattr__(self, name: str):
        if name.startswith("get_"):
            key = name[4:]
            return lambda: _context.get_auto_parallel_context(key)
        if name.startswith("set_"):
            key = name[4:]
            return lambda value: _context.set_auto_parallel_context(**{key: value})
        raise AttributeError(f"'auto_parallel_context' has no attribute {name!r}")

    def reset(self) -> None:
        """Restore the defaults (``reset_auto_parallel_context``)."""
        _context.reset_auto_parallel_context()


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """The auto-parallel context object.

    Examples:
        >>> from cellax.parallel._auto_parallel_context import auto_parallel_context
        >>> auto_parallel_context().get_device_num()
        1
    """
    return _CONTEXT
