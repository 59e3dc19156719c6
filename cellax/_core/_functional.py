"""What counts as an array, and which slots and Cells a callable reaches.

Every transform shares these: ``is_array`` decides the dynamic leaves of a call, ``to_arrays``
turns outputs into arrays, and ``slots_of`` walks closures, globals, bound ``self`` and
containers to find the slots (Parameters, buffers) and Cells a function can touch.
"""

from __future__ import annotations

import functools as ft
import types

import jax
import jax.numpy as jnp
import numpy as np

from ._frame import Slot

__all__ = ["is_array", "to_arrays", "slots_of", "guard_ids", "guard_objects"]


def is_array(x) -> bool:
    return isinstance(x, (jax.Array, jax.core.Tracer, np.ndarray))


def to_arrays(tree):
    """Tensors -> arrays, Python numbers -> arrays; keeps the structure."""
    return jax.tree_util.tree_map(
        lambda x: x if is_array(x) else jnp.asarray(x), tree, is_leaf=lambda x: x is None
    )


def slots_of(fn, slots: dict, cells: dict, refs: list, seen: set) -> None:
    """Find slots and Cells reachable from ``fn`` through closures, globals and bound self.

    ``refs`` collects (namespace, name) / (closure cell, None) pairs whose identity guards the
    result: if one of them is rebound, the scan must run again.
    """
    if id(fn) in seen:
        return
    seen.add(id(fn))
    if isinstance(fn, Slot):
        slots.setdefault(id(fn), fn)
        return
    collect = getattr(type(fn), "_cellax_collect", None)
    if collect is not None:
        collect(fn, slots, cells)
        return
    if isinstance(fn, (types.MethodType,)):
        slots_of(fn.__self__, slots, cells, refs, seen)
        slots_of(fn.__func__, slots, cells, refs, seen)
        return
    if isinstance(fn, ft.partial):
        for item in (fn.func, *fn.args, *fn.keywords.values()):
            slots_of(item, slots, cells, refs, seen)
        return
    if getattr(type(fn), "_cellax_wraps", False):  # a jitted function: scan what it wraps
        slots_of(fn.fn, slots, cells, refs, seen)
        return
    if isinstance(fn, (list, tuple)):
        for item in fn:
            slots_of(item, slots, cells, refs, seen)
        return
    if isinstance(fn, dict):
        for item in fn.values():
            slots_of(item, slots, cells, refs, seen)
        return
    if not isinstance(fn, types.FunctionType):
        return
    for cell in fn.__closure__ or ():
        try:
            content = cell.cell_contents
        except ValueError:
            continue
        if isinstance(content, _INERT):
            continue
        refs.append((cell, None))
        slots_of(content, slots, cells, refs, seen)
    namespace = fn.__globals__
    if namespace.get("__name__", "").partition(".")[0] in _LIBRARY_MODULES:
        return  # library code reaches user state only through its closures and arguments
    for name in _global_names(fn.__code__):
        if name in namespace:
            value = namespace[name]
            if isinstance(value, _INERT) or not _may_hold_state(value):
                continue
            refs.append((namespace, name))
            slots_of(value, slots, cells, refs, seen)


_INERT = (types.ModuleType, type, str, bytes, int, float, complex, bool, type(None))
_LIBRARY_MODULES = frozenset({"cellax", "jax", "jaxlib", "optax", "numpy", "functools"})


def _may_hold_state(value) -> bool:
    return (
        isinstance(
            value,
            (Slot, types.FunctionType, types.MethodType, ft.partial, list, tuple, dict),
        )
        or hasattr(type(value), "_cellax_collect")
        or getattr(type(value), "_cellax_wraps", False)
    )


@ft.lru_cache(maxsize=4096)
def _global_names(code: types.CodeType) -> tuple:
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.extend(_global_names(const))
    return tuple(dict.fromkeys(names))


def _contents(value, depth: int = 0):
    """The guard of one root: its id, and for a list/tuple/dict also the ids of the items
    that may hold state (a Cell appended to a closed-over list changes the guard)."""
    if depth < 4 and type(value) in _CONTAINERS:
        items = value.values() if type(value) is dict else value
        return (id(value), *[_contents(v, depth + 1) for v in items if _may_hold_state(v)])
    return id(value)


_CONTAINERS = (list, tuple, dict)


def _root(holder, name):
    if name is None:
        try:
            return holder.cell_contents
        except ValueError:
            return None
    return holder.get(name)


def guard_ids(refs) -> tuple:
    """Identity of everything ``refs`` (closure cells, global names) hold, containers deep."""
    return tuple([_contents(_root(holder, name)) for holder, name in refs])


def guard_objects(refs) -> list:
    """The objects whose ids :func:`guard_ids` took (kept alive so ids are not reused)."""
    objects = []
    for holder, name in refs:
        value = _root(holder, name)
        objects.append(value)
        if type(value) in _CONTAINERS:
            objects.append(list(value.values() if type(value) is dict else value))
    return objects
