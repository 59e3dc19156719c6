"""Registries of hooks: HookDict and the one removable HookHandle for every kind of hook."""

from __future__ import annotations

import itertools
import weakref

from . import _frame as _state

__all__ = ["HookHandle", "HookDict", "add_hook"]

_ids = itertools.count()


class HookDict(dict):
    """An ordered ``{handle_id: hook}`` mapping that handles can refer to weakly."""


class HookHandle:
    """Returned by every ``register_*hook``; ``remove()`` unregisters the hook.

    ``remove`` is idempotent, and the handle works as a context manager that removes the hook
    on exit.

    Examples:
        >>> import cellax as ms
        >>> relu = ms.nn.ReLU()
        >>> handle = relu.register_forward_hook(lambda cell, inputs, output: None)
        >>> handle.remove()
        >>> handle.remove()
    """

    __slots__ = ("handle_id", "_dicts")

    def __init__(self, *hook_dicts: HookDict) -> None:
        self.handle_id = next(_ids)
        self._dicts = tuple(weakref.ref(d) for d in hook_dicts)

    def remove(self) -> None:
        for ref in self._dicts:
            hooks = ref()
            if hooks is not None and self.handle_id in hooks:
                del hooks[self.handle_id]
                _state.bump_structure_version()

    def __enter__(self) -> HookHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"HookHandle(id={self.handle_id})"


def add_hook(hooks: HookDict, hook_fn, api: str) -> HookHandle:
    if not callable(hook_fn):
        raise TypeError(
            f"For '{api}', 'hook_fn' must be a Python function or callable, but got "
            f"{hook_fn!r} of type {type(hook_fn).__name__}."
        )
    handle = HookHandle(hooks)
    hooks[handle.handle_id] = hook_fn
    _state.bump_structure_version()
    return handle
