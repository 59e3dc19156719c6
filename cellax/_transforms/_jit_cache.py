"""jit's cache: a plan per guard of the function's roots, a group per argument signature,
an entry (compiled program) per key of the Cells involved, and the last call's program."""

from __future__ import annotations

from .. import _core

__all__ = ["Plan", "Group", "LastCall", "Static", "static_key", "entry_key"]


class Plan:
    """What the roots of a jitted function hold: its slots and Cells (per guard).

    ``keepalive`` holds the guarded objects so that their ids can not be reused by new objects
    while the plan exists; ``holds()`` says whether ``refs`` (the roots it was made from)
    still hold them.
    """

    __slots__ = ("slots", "cells", "groups", "keepalive", "refs", "holds")

    def __init__(self, slots: dict, cells: dict, refs: list) -> None:
        self.slots = slots
        self.cells = cells
        self.keepalive = _core.guard_objects(refs)
        self.watch(refs)
        self.groups: dict = {}

    def watch(self, refs: list) -> None:
        """Make ``refs`` (roots holding the objects this plan guards) the ones ``holds`` reads."""
        self.refs = refs
        self.holds = _core.guard_matcher(refs)


class LastCall:
    """The program of a jitted function's last call with positional Tensors: the next such
    call takes it without reading the cache keys when nothing that selects a program changed
    since (``_core.changes()``) and the function's roots hold the same objects."""

    __slots__ = ("changes", "nargs", "plan", "holds", "group", "entry")

    def __init__(self, changes: int, nargs: int, plan: Plan, group, entry) -> None:
        self.changes = changes
        self.nargs = nargs
        self.plan = plan
        self.holds = plan.holds
        self.group = group
        self.entry = entry


class Group:
    """All compiled entries for one argument signature (tree structure + static leaves).

    ``leaves`` keeps the static leaves (dynamic positions hold None) to rebuild the call.
    ``versions`` are the Cells' versions when the group was built: a Cell that changed since
    (a child, Parameter, buffer or hook added or removed) makes the group stale.
    """

    __slots__ = ("slots", "cells", "versions", "entries", "treedef", "leaves")

    def __init__(self, slots: list, cells: list, treedef, leaves: list) -> None:
        self.slots = slots
        self.cells = cells
        self.versions = tuple([cell._version for cell in cells])
        self.treedef = treedef
        self.leaves = leaves
        self.entries: dict = {}


class Static:
    """A positional argument marked static with ``static_argnums`` (a pytree leaf)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __hash__(self) -> int:
        key = static_key(self.value)
        return hash(key)

    def __eq__(self, other) -> bool:
        return isinstance(other, Static) and static_key(self.value) == static_key(other.value)


def static_key(leaf):
    """A static leaf's part of a signature: itself, or its identity when it is unhashable."""
    try:
        hash(leaf)
        return leaf
    except TypeError:
        return ("id", id(leaf))


def entry_key(cells) -> tuple:
    """Which compiled program of a group applies: the Cells' training flags and versions, and
    the epoch of Tensor/Parameter hooks (grad reads Parameter hooks while tracing) and the
    active call observer (``cellax.debug`` traces its recording into the program). Whatever
    changes one of these also counts in ``_core.changes()`` (what :class:`LastCall` reads)."""
    return (
        _core.param_hook_epoch(),
        _core.observer_token(),
        tuple([(cell.training, cell._version) for cell in cells]),
    )
