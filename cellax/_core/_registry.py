"""Registries: dicts whose every mutation bumps their owner's version (the jit cache key).

A compiled program depends on the Python structure it was traced from: which Parameters,
sub-Cells, buffers and hooks a Cell holds, and a few per-Cell fields (recompute, to_float).
Each Cell keeps those in :class:`Registry` objects (and :func:`versioned` fields) owned by the
Cell; every mutation, by whatever path (``del``, ``clear``, ``pop``, assignment, a hook
handle's ``remove()``), bumps ``owner._version``. jit keys its programs on the versions of the
Cells a function reaches, so a change in one Cell recompiles only the programs that use it.

Hooks on Tensors and Parameters have no Cell: their registries bump the process-wide
:func:`param_hook_epoch` (read by grad while tracing). This module is the only writer of
``_version`` and of the epoch.

:func:`changes` counts every change that can make jit pick another program (each bump, a
Cell's ``training`` flag, a call observer coming or going): a jitted function called again
with no change in between reuses its last call's program without reading its key.
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict

__all__ = [
    "Registry",
    "HookDict",
    "HookHandle",
    "add_hook",
    "versioned",
    "bump",
    "param_hook_epoch",
    "PARAM_HOOKS",
    "CALL_OBSERVERS",
    "observer_token",
    "watch_calls",
    "unwatch_calls",
    "changes",
    "note_change",
]

_ids = itertools.count()
_epoch = [0]
_changes = [0]


class _ParamHooks:
    """Owner of the registries of Tensor/Parameter hooks: bumps the process-wide epoch."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "PARAM_HOOKS"


PARAM_HOOKS = _ParamHooks()

# Tools that watch every Cell call (``cellax.debug``) push ``(token, observer)`` here; the last
# one wraps each call as ``observer(cell, run, args, kwargs)``. A traced program contains the
# observer's effects, so jit keys its programs on the active token too.
CALL_OBSERVERS: list = []


def observer_token():
    """The token of the innermost active call observer, or None (part of jit's cache key)."""
    return CALL_OBSERVERS[-1][0] if CALL_OBSERVERS else None


def watch_calls(token, observer) -> None:
    """Make ``observer`` the innermost call observer (``token`` keys the programs it sees)."""
    CALL_OBSERVERS.append((token, observer))
    _changes[0] += 1


def unwatch_calls(token, observer) -> None:
    """Remove an observer added with :func:`watch_calls`."""
    CALL_OBSERVERS.remove((token, observer))
    _changes[0] += 1


def changes() -> int:
    """How many changes that can make jit pick another compiled program happened so far."""
    return _changes[0]


def note_change() -> None:
    """Count a change jit's cache key reads that is not a bump (a Cell's ``training`` flag)."""
    _changes[0] += 1


def param_hook_epoch() -> int:
    """Changes whenever a hook is registered on or removed from any Tensor or Parameter."""
    return _epoch[0]


def bump(owner) -> None:
    """Record that ``owner``'s structure changed (its compiled programs are stale)."""
    if owner is None:
        return
    _changes[0] += 1
    if owner is PARAM_HOOKS:
        _epoch[0] += 1
        return
    state = owner.__dict__
    state["_version"] = state.get("_version", 0) + 1


class Registry(OrderedDict):
    """An ordered dict owned by a Cell: every mutating method bumps ``owner._version``.

    Examples:
        >>> from cellax import nn
        >>> net = nn.SequentialCell([nn.ReLU()])
        >>> before = net._version
        >>> net._cells.pop("0") is not None, net._version > before
        (True, True)
    """

    owner = None  # set after construction; None while unpickling/copying (no bumps)

    def __init__(self, owner=None, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        bump(self.owner)

    def __delitem__(self, key) -> None:
        super().__delitem__(key)
        bump(self.owner)

    def clear(self) -> None:
        super().clear()
        bump(self.owner)

    def pop(self, *args):
        value = super().pop(*args)
        bump(self.owner)
        return value

    def popitem(self, last: bool = True):
        item = super().popitem(last)
        bump(self.owner)
        return item

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        self[key] = default
        return default

    def update(self, *args, **kwargs) -> None:
        super().update(*args, **kwargs)
        bump(self.owner)

    def move_to_end(self, key, last: bool = True) -> None:
        super().move_to_end(key, last)
        bump(self.owner)

    def __ior__(self, other):
        self.update(other)
        return self

    def __reduce__(self):
        # rebuilt without an owner; the owner's state (which holds it) restores ``owner``
        return (type(self), (), self.__dict__ or None, None, iter(self.items()))


class versioned:
    """A Cell field whose assignment bumps the Cell's version (``_recompute_policy``, ...).

    Stored in the instance ``__dict__`` under its own name; ``default`` when never set.
    """

    def __init__(self, default=None) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return obj.__dict__.get(self.name, self.default)

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.name] = value
        bump(obj)


class HookDict(Registry):
    """An ordered ``{handle_id: hook}`` registry that handles can refer to weakly."""


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
    return handle
