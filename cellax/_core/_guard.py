"""The identity guard of a function's roots: do its closure cells and global names still hold
the objects they held when a transform scanned it (``slots_of`` collects the roots)?

A root is ``(closure cell, None)`` or ``(namespace, name)``. Its guard is the id of what it
holds, and for a list or dict also the ids of the items that may hold state (a Cell appended
to a closed-over list changes the guard). ``guard_ids`` computes the whole guard;
``guard_matcher`` builds the check jit runs on every repeated call.
"""

from __future__ import annotations

import functools as ft
import types

from ._frame import Slot

__all__ = ["guard_ids", "guard_matcher", "guard_objects", "may_hold_state"]

_CONTAINERS = (list, tuple, dict)
_STATEFUL = (Slot, types.FunctionType, types.MethodType, ft.partial, *_CONTAINERS)
_HOLDS_STATE: dict = {}  # type -> may_hold_state(type)


def may_hold_state(tp: type) -> bool:
    """Whether instances of ``tp`` may hold state a transform must find (memoised)."""
    flag = _HOLDS_STATE.get(tp)
    if flag is None:
        flag = _HOLDS_STATE[tp] = bool(
            issubclass(tp, _STATEFUL)
            or hasattr(tp, "_cellax_collect")
            or getattr(tp, "_cellax_wraps", False)
        )
    return flag


def _contents(value, depth: int = 0):
    """The guard of one root's value: its id, and for a list/dict a tuple with the ids of the
    items that may hold state."""
    tp = type(value)
    if depth >= 4 or (tp is not list and tp is not tuple and tp is not dict):
        return id(value)
    if tp is tuple:  # immutable (and kept alive by the plan): only nested lists/dicts can change
        nested = [_contents(item, depth + 1) for item in value if type(item) in _CONTAINERS]
        return (id(value), *nested) if nested else id(value)
    out = [id(value)]
    for item in value.values() if tp is dict else value:
        item_type = type(item)
        flag = _HOLDS_STATE.get(item_type)
        if flag is None:
            flag = may_hold_state(item_type)
        if flag:
            out.append(_contents(item, depth + 1) if item_type in _CONTAINERS else id(item))
    return tuple(out)


def _root(holder, name):
    if name is None:
        try:
            return holder.cell_contents
        except ValueError:
            return None
    return holder.get(name)


def guard_ids(refs) -> tuple:
    """Identity of everything ``refs`` hold, containers deep (compare two to see a change)."""
    out = []
    for holder, name in refs:
        value = _root(holder, name)
        tp = type(value)
        out.append(_contents(value) if tp is list or tp is tuple or tp is dict else id(value))
    return tuple(out)


def guard_objects(refs) -> list:
    """The objects whose ids :func:`guard_ids` took (kept alive so ids are not reused)."""
    objects = []
    for holder, name in refs:
        value = _root(holder, name)
        objects.append(value)
        if type(value) in _CONTAINERS:
            objects.append(list(value.values() if type(value) is dict else value))
    return objects


def guard_matcher(refs):
    """A function that says whether ``refs`` still hold what they hold now: what comparing
    :func:`guard_ids` with its value now says, without building the guard.

    jit runs it before every repeated call, so it is one expression over its own arguments:
    ``cell.cell_contents is held`` per closure cell and ``namespace.get(name) is held`` per
    global name (identity needs no id objects, and the matcher keeps what it compares alive,
    so an identity can not be taken by a new object); lists and dicts (whose items may
    change) compare their part of :func:`guard_ids`.
    """
    kinds: list = []
    values: list = []
    for holder, name in refs:
        value = _root(holder, name)
        guard = _contents(value)  # an id, or a tuple for a list/dict (or a tuple holding one)
        if type(guard) is tuple or value is None:  # (None: maybe an empty closure cell)
            kinds.append("deep")
            values += [holder, name, guard]
        elif name is None:
            kinds.append("cell")
            values += [holder, value]
        else:
            kinds.append("name")
            values += [holder, name, value]
    code = _matcher_code(tuple(kinds))
    scope = {"contents": _contents, "root": _root}
    return types.FunctionType(code, scope, "holds", tuple(values))


_TESTS = {  # per kind of root: its arguments and its test
    "cell": (("c", "v"), "{c}.cell_contents is {v}"),
    "name": (("d", "n", "v"), "{d}.get({n}) is {v}"),
    "deep": (("h", "n", "g"), "contents(root({h}, {n})) == {g}"),
}


@ft.lru_cache(maxsize=256)
def _matcher_code(kinds: tuple) -> types.CodeType:
    """The code of a matcher for roots of these kinds (the held values are its defaults)."""
    params: list = []
    tests: list = []
    for i, kind in enumerate(kinds):
        args, test = _TESTS[kind]
        names = {arg: f"{arg}{i}" for arg in args}
        params += names.values()
        tests.append(test.format(**names))
    source = (
        f"def holds({''.join(name + '=None, ' for name in params)}):\n"
        f"    try:\n"
        f"        return {' and '.join(tests) or 'True'}\n"
        f"    except ValueError:  # a cell was emptied (``del`` of a closed-over name)\n"
        f"        return False\n"
    )
    module = compile(source, f"<cellax guard of {len(kinds)} roots>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))
