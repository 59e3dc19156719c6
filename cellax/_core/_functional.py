"""The functional protocol every transform shares, and what counts as an array.

``functionalize`` turns a stateful callable into ``(values, *args) -> (out, new_values)`` run
in a frame; ``partition``/``combine`` split a call's arguments into array leaves and a
hashable static part; ``is_array`` decides which leaves are dynamic and ``to_arrays`` turns
outputs into arrays; ``slots_of`` walks closures, globals, bound ``self`` and containers to
find the slots (Parameters, buffers) and Cells a function can touch, and the roots whose
identity ``_guard`` checks.
"""

from __future__ import annotations

import functools as ft
import types

import jax
import jax.numpy as jnp
import numpy as np

from . import _frame
from ._frame import Frame, Slot, SlotDiscovered
from ._guard import may_hold_state

__all__ = [
    "is_array",
    "to_arrays",
    "slots_of",
    "functionalize",
    "Stateful",
    "WritesChanged",
    "partition",
    "combine",
    "Static",
]


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
        fn = _frame.backing(fn)  # a row view is read through its stack
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
            if isinstance(value, _INERT) or not may_hold_state(type(value)):
                continue
            refs.append((namespace, name))
            slots_of(value, slots, cells, refs, seen)


_INERT = (types.ModuleType, type, str, bytes, int, float, complex, bool, type(None))
_LIBRARY_MODULES = frozenset({"cellax", "jax", "jaxlib", "optax", "numpy", "functools"})


@ft.lru_cache(maxsize=4096)
def _global_names(code: types.CodeType) -> tuple:
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.extend(_global_names(const))
    return tuple(dict.fromkeys(names))


# -- the functional protocol ------------------------------------------------------------------
class WritesChanged(BaseException):
    """A second trace of one :class:`Stateful` wrote other slots than the first."""


class Stateful:
    """``fn`` as a pure function of slot values: see :func:`functionalize`."""

    __slots__ = ("fn", "slots", "frame", "returns", "written", "__weakref__")

    def __init__(self, fn, slots=(), frame=None, returns=None) -> None:
        self.fn = fn
        self.slots = list(slots)
        self.frame = frame or Frame
        self.returns = None if returns is None else list(returns)
        self.written: list | None = None

    def __call__(self, values, /, *args, **kwargs):
        frame = self.frame(self.slots, values, _frame.current_frame())
        with frame:
            out = self.fn(*args, **kwargs)
        missed = getattr(frame, "missed", None)
        if missed:
            raise SlotDiscovered(missed)
        written = list(frame.written.values())
        returned = self.returns
        if returned is None:
            if self.written is not None and [id(s) for s in written] != [
                id(s) for s in self.written
            ]:
                raise WritesChanged(written)
            self.written = returned = written
        else:
            allowed = {id(s) for s in returned} | getattr(frame, "born", set())
            if any(id(s) not in allowed for s in written):  # born: created in this trace
                raise WritesChanged(written)
            self.written = returned
        return out, [frame.value_of(slot) for slot in returned]

    def commit(self, new_values, how=None) -> None:
        """Write ``new_values`` (of :attr:`written`) one level up; ``how(slot, new, old)``
        computes the value to write (a cast, a ``where``) when given."""
        for slot, new in zip(self.written or (), new_values):
            if how is not None:
                new = how(slot, new, _frame.read(slot))
            _frame.write(slot, new)


def functionalize(fn, slots=(), frame=None, returns=None) -> Stateful:
    """Turn stateful ``fn`` into ``stateful(values, *args, **kwargs) -> (out, new_values)``.

    ``values`` are the values of ``slots`` in this trace; any other slot is read through the
    caller's frame (``Frame``) or reported (``DiscoveringFrame``: the call then raises
    :class:`SlotDiscovered` naming the slots to add). ``frame(slots, values, parent)`` builds
    the frame (default ``Frame``). ``new_values`` are those of ``returns`` (held slots; jit:
    donated, then kept) or, by default, of the slots the call wrote, ``stateful.written``, in
    write order. The call is pure, so it can run inside any JAX transform;
    ``stateful.commit(new_values)`` writes the results one level up afterwards. Every trace
    must write the same slots (with ``returns``: only slots among them), else
    :class:`WritesChanged` (custom_vjp, checkpoint and scan may trace twice).
    """
    return Stateful(fn, slots, frame, returns)


class _Hole:
    """Marks where a dynamic leaf was taken out of a tree (hashable, equal to every hole)."""

    __slots__ = ()

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other) -> bool:
        return isinstance(other, _Hole)

    def __repr__(self) -> str:
        return "_"


HOLE = _Hole()


class Static:
    """The static part of a tree: its treedef and its non-array leaves (arrays are holes)."""

    __slots__ = ("treedef", "leaves", "_hash")

    def __init__(self, treedef, leaves: tuple) -> None:
        self.treedef = treedef
        self.leaves = leaves
        self._hash = None

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.treedef, self.leaves))
        return self._hash

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Static)
            and self.treedef == other.treedef
            and self.leaves == other.leaves
        )


def partition(tree, predicate=is_array, is_leaf=None):
    """Split ``tree`` into ``(dynamic, static)``: the leaves for which ``predicate`` holds,
    and a hashable :class:`Static` with the rest; :func:`combine` puts them back."""
    leaves, treedef = jax.tree_util.tree_flatten(tree, is_leaf=is_leaf)
    dynamic = [leaf for leaf in leaves if predicate(leaf)]
    static = tuple(HOLE if predicate(leaf) else leaf for leaf in leaves)
    return dynamic, Static(treedef, static)


def combine(dynamic, static: Static):
    """The tree :func:`partition` split, with ``dynamic`` leaves in the holes."""
    it = iter(dynamic)
    leaves = [next(it) if leaf is HOLE else leaf for leaf in static.leaves]
    return jax.tree_util.tree_unflatten(static.treedef, leaves)
