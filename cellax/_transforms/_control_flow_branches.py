"""Branches of Tensor control flow (part of ``_control_flow``): Undefined, frames, joins.

``select_branch`` traces each Python branch once into a closed jaxpr under a child frame,
joins the variables the branches produce (same structure, dtype and shape; differing Python
numbers become 0-d Tensors) and the slots they write, and runs ``lax.cond``/``lax.switch``.
All state-frame handling of control flow lives in the four helpers of the "frames" section.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import _core
from . import _trace
from ._control_flow_errors import traced_branch
from .._core import Slot
from .._tensor import Tensor, _concrete, wrap

_RESERVED = ("do_return", "retval_", "break_", "continue_")


# --------------------------------------------------------------------------------------------
# Undefined: a variable bound on one path only


class Undefined:
    """The value of a variable not (yet) assigned on the path taken; any use raises."""

    __slots__ = ("name", "message")

    def __init__(self, name: str, message: str | None = None) -> None:
        self.name = name
        self.message = message

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(
            self.message
            or f"cannot access local variable '{self.name}' where it is not associated with a value"
        )

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self) -> str:
        return f"Undefined({self.name!r})"


for _dunder in (
    "__bool__ __call__ __getitem__ __setitem__ __iter__ __len__ __neg__ __pos__ __abs__ __add__ "
    "__radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __mod__ "
    "__pow__ __rpow__ __matmul__ __rmatmul__ __lt__ __le__ __gt__ __ge__ __int__ __float__ "
    "__index__"
).split():
    setattr(Undefined, _dunder, Undefined._fail)


def _reserved(name: str) -> bool:
    return name.startswith(_RESERVED)


# --------------------------------------------------------------------------------------------
# conditions


def _traced_array(value):
    """The abstract tracer behind ``value`` (a Tensor or an array), or None if concrete."""
    array = value._value if isinstance(value, Tensor) else value
    if isinstance(array, jax.core.Tracer) and _concrete(array) is None:
        return array
    return None


def condition(src) -> str:
    """How messages name a condition: with its source text when the converter gave it."""
    return f"the condition `{src}`" if src else "the condition"


def _pred(value, api: str, loc: str, what: str = "the condition"):
    """A boolean 0-d tracer for a traced condition, None for a concrete one."""
    array = _traced_array(value)
    if array is None:
        return None
    if array.size != 1:
        raise ValueError(
            f"For '{api}' at {loc}, {what} must have one element, but got shape "
            f"{tuple(array.shape)}. Use .any() or .all()."
        )
    array = array.reshape(())
    return array if array.dtype == jnp.bool_ else array != 0


def _copy(values) -> list:
    """Fresh containers and Tensor boxes, so that a traced branch cannot mutate the caller's."""
    out = []
    for v in values:
        if type(v) is list:
            v = list(v)
        elif type(v) is dict:
            v = dict(v)
        elif type(v) is Tensor:
            v = wrap(v._value)
        out.append(v)
    return out


# --------------------------------------------------------------------------------------------
# frames: the only code that handles state frames (through `_trace.functionalize`)


def _run_in_child(fn, slots=(), values=()):
    """Run ``fn()`` in a child frame of the current one; return (out, written [(slot, value)]).

    ``fn`` is converted code already: it needs no set-up beyond the frame."""
    stateful = _trace.functionalize(fn, slots)
    with traced_branch():
        out, new_values = stateful(values)
    return out, list(zip(stateful.written, new_values))


def _read_slots(slots) -> list:
    return [_core.read(slot) for slot in slots]


def _write_slots(slots, values) -> None:
    for slot, value in zip(slots, values):
        _core.write(slot, value)


def _slot_union(*written_lists) -> list:
    seen: dict = {}
    for written in written_lists:
        for slot in written:
            seen.setdefault(id(slot), slot)
    return list(seen.values())


# --------------------------------------------------------------------------------------------
# flattening the variables of a statement


def _is_leaf(x) -> bool:
    return x is None or isinstance(x, (Tensor, Slot, Undefined))


def _is_array_leaf(x) -> bool:
    if isinstance(x, Slot):
        return False
    return isinstance(x, (Tensor, jax.Array, jax.core.Tracer, np.ndarray))


def _array_of(x):
    return jnp.asarray(x._value if isinstance(x, Tensor) else x)


def _is_number(x) -> bool:
    return type(x) in (bool, int, float)


def _number_dtype(*values):
    if any(type(v) is float for v in values):
        return jnp.float32
    if any(type(v) is int for v in values):
        return jnp.int64  # a Python int is an Int64 scalar, as in MindSpore
    return jnp.bool_


def _describe(x) -> str:
    if _is_array_leaf(x):
        a = _array_of(x)
        return f"a {a.dtype} Tensor of shape {tuple(a.shape)}"
    return repr(x)


class _BranchTrace:
    """One branch traced into a closed jaxpr: its outputs and the slots it wrote."""

    __slots__ = ("closed", "trees", "leaves", "written", "n_arrays")


def _trace_branch(fn) -> _BranchTrace:
    record = _BranchTrace()

    def run():
        out, written = _run_in_child(fn)
        arrays, trees, leaves = [], [], []
        for value in out:
            flat, tree = jax.tree_util.tree_flatten(value, is_leaf=_is_leaf)
            trees.append(tree)
            marked = []
            for leaf in flat:
                if _is_array_leaf(leaf):
                    marked.append((len(arrays), leaf))
                    arrays.append(_array_of(leaf))
                else:
                    marked.append((None, leaf))
            leaves.append(marked)
        record.trees, record.leaves, record.n_arrays = trees, leaves, len(arrays)
        record.written = [slot for slot, _ in written]
        return arrays, [value for _, value in written]

    record.closed = jax.make_jaxpr(run)()
    return record


def _join_error(api, loc, name, a, b, kind="value"):
    if kind == "list":
        return TypeError(
            f"For '{api}' at {loc}, the Python list '{name}' must have the same length in both "
            f"branches, but got {len(a)} and {len(b)}. Build it in a loop with a Python bound "
            f"and stack it, or preallocate a Tensor."
        )
    if kind == "structure":
        return TypeError(
            f"For '{api}' at {loc}, '{name}' must have the same structure in both branches of a "
            f"Tensor condition, but got {type(a).__name__} and {type(b).__name__}."
        )
    return TypeError(
        f"For '{api}' at {loc}, '{name}' must not depend on a Tensor condition, but got "
        f"{_describe(a)} and {_describe(b)}. Decide it on a Python value."
    )


def _undefined_here(name, x) -> bool:
    return isinstance(x, Undefined) or (_reserved(name) and x is None)


def _join_leaf(api, loc, name, leaves, side_names):
    """How to produce one output leaf: ('static', v) or ('dyn', [producer per branch], wrap).

    A producer is a leaf of that branch (an array it computed), ('const', number, dtype) or
    ('zeros', like): a converter variable the branch left undefined.
    """
    first = leaves[0]
    if all(
        x is first
        or (_is_array_leaf(x) and _is_array_leaf(first) and _array_of(x) is _array_of(first))
        for x in leaves
    ):
        return ("static", first)
    undefined = [_undefined_here(name, x) for x in leaves]
    if any(undefined):
        if all(undefined):
            return ("static", first)
        if not _reserved(name):
            side = side_names[undefined.index(False)]
            return (
                "static",
                Undefined(
                    name,
                    f"'{name}' is assigned only in the {side} branch of the Tensor `{api}` at "
                    f"{loc}, but it is used after it. Assign '{name}' before the `{api}`.",
                ),
            )
        defined = [x for x, u in zip(leaves, undefined) if not u]
        if not _is_array_leaf(defined[0]):
            return ("static", defined[0])
        if len(defined) > 1:
            _join_leaf(api, loc, name, defined, side_names)  # the defined ones must agree
        like = _array_of(defined[0])
        prods = [("zeros", like) if u else x for x, u in zip(leaves, undefined)]
        return ("dyn", prods, isinstance(defined[0], Tensor))
    if all(_is_array_leaf(x) for x in leaves):
        ref = _array_of(first)
        for x in leaves[1:]:
            other = _array_of(x)
            if other.dtype != ref.dtype:
                raise TypeError(
                    f"For '{api}' at {loc}, '{name}' must have the same dtype in all branches "
                    f"of a Tensor condition, but got {ref.dtype} and {other.dtype}. Cast one "
                    f"branch."
                )
            if other.shape != ref.shape:
                raise ValueError(
                    f"For '{api}' at {loc}, '{name}' must have the same shape in all branches "
                    f"of a Tensor condition, but got {tuple(ref.shape)} and "
                    f"{tuple(other.shape)}. MindSpore 2.10 joins some shapes dynamically; XLA "
                    f"cannot. Pad or reshape one branch, or decide the branch on a Python value."
                )
        return ("dyn", list(leaves), any(isinstance(x, Tensor) for x in leaves))
    if all(_is_number(x) for x in leaves):
        if all(type(x) is type(first) and x == first for x in leaves):
            return ("static", first)
        dtype = _number_dtype(*leaves)
        return ("dyn", [("const", x, dtype) for x in leaves], True)
    if all(_is_array_leaf(x) or _is_number(x) for x in leaves):
        arrays = [_array_of(x) for x in leaves if _is_array_leaf(x)]
        for a in arrays:
            if a.shape != ():
                raise ValueError(
                    f"For '{api}' at {loc}, '{name}' must have the same shape in all branches "
                    f"of a Tensor condition, but got {tuple(a.shape)} and a Python number. "
                    f"Decide the branch on a Python value."
                )
        dtype = arrays[0].dtype
        for a in arrays[1:]:
            if a.dtype != dtype:
                raise TypeError(
                    f"For '{api}' at {loc}, '{name}' must have the same dtype in all branches "
                    f"of a Tensor condition, but got {dtype} and {a.dtype}. Cast one branch."
                )
        prods = [x if _is_array_leaf(x) else ("const", x, dtype) for x in leaves]
        return ("dyn", prods, True)
    for x in leaves[1:]:
        try:
            same = type(x) is type(first) and bool(x == first)
        except Exception:  # noqa: BLE001 - objects without a usable ==
            same = False
        if not same:
            raise _join_error(api, loc, name, first, x)
    return ("static", first)


def _unset_like_set(traces, values, i) -> None:
    """A converter variable (``retval_``) still None in some branches takes the structure of
    a branch that set it, its leaves undefined there (zeros in the program, never used)."""
    set_k = [k for k, v in enumerate(values) if v is not None]
    if not set_k or len(set_k) == len(values):
        return
    ref = traces[set_k[0]]
    for k, value in enumerate(values):
        if value is None:
            traces[k].trees[i] = ref.trees[i]
            traces[k].leaves[i] = [(None, None)] * len(ref.leaves[i])


def select_branch(index, branches, names, loc, api="if"):
    """Run one of ``branches`` (Python callables returning the values of ``names``).

    ``index`` is a traced bool (two branches: True runs the first) or int32 (lax.switch).
    """
    traces = [_trace_branch(fn) for fn in branches]
    slots = _slot_union(*[tr.written for tr in traces])
    parent_values = _read_slots(slots)
    sides = ("true", "false") if len(branches) == 2 else [f"#{k}" for k in range(len(branches))]
    layout = []  # per name: (tree, [('static', v) | ('dyn', j, wrap)])
    producers = [[] for _ in branches]
    for i, name in enumerate(names):
        if _reserved(name):
            _unset_like_set(traces, [br.values[i] for br in branches], i)
        for k, tr in enumerate(traces[1:], 1):
            if tr.trees[i] != traces[0].trees[i]:
                a, b = branches[0].values[i], branches[k].values[i]
                kind = "list" if type(a) is list and type(b) is list else "structure"
                raise _join_error(api, loc, name, a, b, kind)
        specs = []
        for position in range(len(traces[0].leaves[i])):
            marks = [tr.leaves[i][position] for tr in traces]
            spec = _join_leaf(api, loc, name, [leaf for _, leaf in marks], sides)
            if spec[0] == "static":
                specs.append(spec)
                continue
            for k, ((ref, leaf), prod) in enumerate(zip(marks, spec[1])):
                producers[k].append(("ref", ref) if prod is leaf else prod)
            specs.append(("dyn", len(producers[0]) - 1, spec[2]))
        layout.append((traces[0].trees[i], specs))

    def branch(trace, prods):
        def run():
            outs = jax.core.eval_jaxpr(trace.closed.jaxpr, trace.closed.consts)
            arrays, written = outs[: trace.n_arrays], outs[trace.n_arrays :]
            dyn = []
            for p in prods:
                if p[0] == "ref":
                    dyn.append(arrays[p[1]])
                elif p[0] == "const":
                    dyn.append(jnp.asarray(p[1], p[2]))
                else:  # zeros like the other branch
                    dyn.append(jnp.zeros(p[1].shape, p[1].dtype))
            index_of = {id(s): k for k, s in enumerate(trace.written)}
            new = [
                written[index_of[id(s)]] if id(s) in index_of else old
                for s, old in zip(slots, parent_values)
            ]
            return dyn, new

        return run

    fns = [branch(tr, prods) for tr, prods in zip(traces, producers)]
    if len(fns) == 2 and index.dtype == jnp.bool_:
        dyn, new_values = lax.cond(index, fns[0], fns[1])
    else:
        dyn, new_values = lax.switch(index, fns)
    _write_slots(slots, new_values)
    out = []
    for tree, specs in layout:
        leaves = [
            spec[1] if spec[0] == "static" else (wrap(dyn[spec[1]]) if spec[2] else dyn[spec[1]])
            for spec in specs
        ]
        out.append(jax.tree_util.tree_unflatten(tree, leaves))
    return out


class _Branch:
    """A branch as a function returning the statement's variables (kept for messages)."""

    __slots__ = ("fn", "init", "get_state", "set_state", "values")

    def __init__(self, fn, init, get_state, set_state) -> None:
        self.fn, self.init, self.get_state, self.set_state = fn, init, get_state, set_state
        self.values = None

    def __call__(self):
        self.set_state(_copy(self.init))
        self.fn()
        self.values = list(self.get_state())
        return self.values


class _ValueBranch:
    """A branch of an expression: returns ``[fn()]``."""

    __slots__ = ("fn", "values")

    def __init__(self, fn) -> None:
        self.fn, self.values = fn, None

    def __call__(self):
        self.values = [self.fn()]
        return self.values


def _no_outer(outer, api, loc):
    if outer:
        raise NotImplementedError(
            f"For '{api}' at {loc}, the `global`/`nonlocal` assignment to '{outer[0]}' cannot "
            f"depend on a Tensor condition. Return the value instead."
        )


# --------------------------------------------------------------------------------------------
# if


def if_stmt(test, body, orelse, get_state, set_state, names, loc, outer=(), src=None):
    """``if test: body() else: orelse()``; a lax.cond for a traced ``test``."""
    pred = _pred(test, "if", loc, condition(src))
    if pred is None:
        if test:
            body()
        else:
            orelse()
        return
    _no_outer(outer, "if", loc)
    init = list(get_state())
    true_fn = _Branch(body, init, get_state, set_state)
    false_fn = _Branch(orelse, init, get_state, set_state)
    set_state(select_branch(pred, [true_fn, false_fn], names, loc))
