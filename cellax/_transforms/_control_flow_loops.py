"""Loops of converted code: ``while``, ``for``, ``range`` (part of ``_control_flow``).

A loop iterates in Python while its test is concrete; once the test is a tracer, the rest of a
``while`` is one ``lax.while_loop`` (a bounded ``lax.scan`` under grad) carrying the loop's
variables and the slots its body writes. A ``for`` unrolls; once its exit flag is a tracer the
remaining iterations run under Tensor ``if``\\ s. Frames are handled only through the helpers
of ``_control_flow``.
"""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import _core
from ._control_flow_branches import (
    condition,
    if_stmt,
    Undefined,
    _array_of,
    _is_array_leaf,
    _is_leaf,
    _is_number,
    _no_outer,
    _pred,
    _read_slots,
    _reserved,
    _run_in_child,
    _traced_array,
    _write_slots,
)
from .._tensor import Tensor, wrap
from ._fold import concrete

__all__ = ["while_stmt", "for_stmt", "range_", "TracedRange"]

DEFAULT_MAX_LOOP_ITERATIONS = 1024


class _Retry(Exception):
    """A loop body wrote slots, or defined converter variables, the carry lacks."""

    def __init__(self, slots, placeholders) -> None:
        super().__init__()
        self.slots, self.placeholders = slots, placeholders


def _carry_leaf(api, loc, name, leaf):
    """The carried array for an initial leaf (numbers become 0-d arrays), or None if static."""
    if _is_array_leaf(leaf):
        return _array_of(leaf)
    if _is_number(leaf):
        return jnp.asarray(leaf, jnp.float32 if type(leaf) is float else None)
    return None


def _zeros_like_tree(value):
    """Zeros of the structure, shapes and dtypes of ``value`` (no tracer of the trace that
    produced it escapes): the initial carry of a converter variable first set in the loop."""

    def zeros(leaf):
        if not _is_array_leaf(leaf):
            return leaf
        array = _array_of(leaf)
        z = concrete(jnp.zeros, array.shape, array.dtype)
        return wrap(z) if isinstance(leaf, Tensor) else z

    return jax.tree_util.tree_map(zeros, value, is_leaf=_is_leaf)


def _check_carry(api, loc, name, old, new):
    if old.shape != new.shape:
        raise ValueError(
            f"For '{api}' at {loc}, the loop variable '{name}' must keep its shape, but got "
            f"{tuple(old.shape)} before an iteration and {tuple(new.shape)} after it. Keep the "
            f"shape fixed, or preallocate."
        )
    if old.dtype != new.dtype:
        raise TypeError(
            f"For '{api}' at {loc}, the loop variable '{name}' must keep its dtype, but got "
            f"{old.dtype} before an iteration and {new.dtype} after it. Cast it in the body."
        )


def _max_iterations() -> int:
    options = _core.compiling()
    value = getattr(options, "max_loop_iterations", None)
    return value or DEFAULT_MAX_LOOP_ITERATIONS


def _lower_while(test, body, get_state, set_state, names, loc, api):
    init = list(get_state())
    slots: list = []
    placeholders: dict = {}
    for _ in range(16):
        try:
            return _while_once(
                test, body, get_state, set_state, names, loc, api, init, slots, placeholders
            )
        except _Retry as retry:
            slots = slots + [s for s in retry.slots if all(s is not t for t in slots)]
            placeholders.update(retry.placeholders)
            set_state(init)
    raise RuntimeError(f"For '{api}' at {loc}, the loop state did not settle.")


def _while_once(test, body, get_state, set_state, names, loc, api, init, slots, placeholders):
    carried = []  # (index in names, tree, [(array_index | None, static leaf)])
    arrays0 = []
    for i, (name, value) in enumerate(zip(names, init)):
        if isinstance(value, Undefined) or (_reserved(name) and value is None):
            if name not in placeholders:
                continue
            value = placeholders[name]
        flat, tree = jax.tree_util.tree_flatten(value, is_leaf=_is_leaf)
        marks = []
        for leaf in flat:
            array = _carry_leaf(api, loc, name, leaf)
            if array is None:
                marks.append((None, leaf))
            else:
                marks.append((len(arrays0), leaf))
                arrays0.append(array)
        carried.append((i, tree, marks))
    carried_ids = {i for i, _, _ in carried}
    slot_ids = {id(s) for s in slots}

    def load(arrays):
        values = list(init)
        for i, tree, marks in carried:
            leaves = [
                leaf
                if k is None
                else (arrays[k] if isinstance(leaf, np.ndarray) else wrap(arrays[k]))
                for k, leaf in marks
            ]
            values[i] = jax.tree_util.tree_unflatten(tree, leaves)
        for i, name in enumerate(names):
            if i not in carried_ids:
                values[i] = Undefined(name)
        set_state(values)

    def cond_fun(carry):
        arrays, slot_values = carry
        load(arrays)
        result, _ = _run_in_child(test, slots, slot_values)
        pred = _pred(result, api, loc)
        if pred is None:  # decided by Python values inside the loop
            pred = jnp.asarray(bool(result))
        return pred

    def body_fun(carry):
        arrays, slot_values = carry
        load(arrays)
        _, written = _run_in_child(body, slots, slot_values)
        new_slots = [s for s, _ in written if id(s) not in slot_ids]
        out = list(get_state())
        new_placeholders = {
            name: _zeros_like_tree(out[i])
            for i, name in enumerate(names)
            if i not in carried_ids
            and _reserved(name)
            and out[i] is not None
            and not isinstance(out[i], Undefined)
        }
        if new_slots or new_placeholders:
            raise _Retry(new_slots, new_placeholders)
        new_arrays = list(arrays)
        for i, tree, marks in carried:
            name = names[i]
            flat, new_tree = jax.tree_util.tree_flatten(out[i], is_leaf=_is_leaf)
            if new_tree != tree:
                raise TypeError(
                    f"For '{api}' at {loc}, the loop variable '{name}' must keep its structure, "
                    f"but got {tree} before an iteration and {new_tree} after it."
                )
            for (k, old_leaf), leaf in zip(marks, flat):
                if k is None:
                    if leaf is not old_leaf and not (
                        type(leaf) is type(old_leaf) and leaf == old_leaf
                    ):
                        raise TypeError(
                            f"For '{api}' at {loc}, '{name}' must not change in a Tensor loop, "
                            f"but got {old_leaf!r} and {leaf!r}. Decide it on a Python value."
                        )
                    continue
                old = arrays[k]
                new = (
                    jnp.asarray(_array_of(leaf), old.dtype) if _is_number(leaf) else _array_of(leaf)
                )
                _check_carry(api, loc, name, old, new)
                new_arrays[k] = new
        written_map = dict((id(s), v) for s, v in written)
        new_slot_values = [written_map.get(id(s), v) for s, v in zip(slots, slot_values)]
        return new_arrays, new_slot_values

    carry0 = (arrays0, _read_slots(slots))
    if _core.differentiating():
        final = _bounded_while(cond_fun, body_fun, carry0, api, loc)
    else:
        final = lax.while_loop(cond_fun, body_fun, carry0)
    load(final[0])
    values = list(get_state())
    for i, name in enumerate(names):
        if i not in carried_ids:
            values[i] = Undefined(
                name,
                f"'{name}' is first assigned inside the Tensor `{api}` at {loc}, but it is used "
                f"after it. Assign '{name}' before the loop.",
            )
    set_state(values)
    _write_slots(slots, final[1])


_BASE = 16  # steps per scan level of a bounded loop


def _loop_grad() -> str:
    return getattr(_core.compiling(), "loop_grad", None) or "bounded"


def _bounded_while(cond_fun, body_fun, carry0, api, loc):
    """A reverse-differentiable while of at most ``max_loop_iterations`` steps.

    Nested ``lax.scan`` levels of ``_BASE`` steps (Equinox's layout): each level skips its
    remaining blocks once the loop is done (``lax.cond``), so the forward pass costs about the
    iterations run. ``loop_grad="bounded"`` checkpoints the outer levels (the innermost keeps
    its residuals); ``"checkpointed"`` checkpoints every level (recursive checkpointing: fewer
    stored values, each step recomputed about once per level in the backward pass).
    """
    limit = _max_iterations()
    every_level = _loop_grad() == "checkpointed"

    def step(state):
        carry, count, running = state
        running = jnp.logical_and(jnp.logical_and(running, count < limit), cond_fun(carry))
        carry = lax.cond(running, body_fun, lambda c: c, carry)
        return carry, count + running.astype(count.dtype), running

    level, span = step, 1
    while span < limit:
        level = _scan_level(level, every_level or span > 1)
        span *= _BASE
    carry, count, _ = level((carry0, jnp.asarray(0, jnp.int32), jnp.asarray(True)))
    overflow = jnp.logical_and(count >= limit, cond_fun(carry))
    from ._control_flow_errors import raise_if

    raise_if(
        overflow,
        RuntimeError,
        f"For '{api}' at {loc}, reverse mode allows max_loop_iterations={limit} iterations, "
        f"but the loop ran longer; nothing was updated. Raise it with "
        f"cellax.jit(..., max_loop_iterations=N).",
    )
    return carry


def _scan_level(inner, checkpoint: bool):
    """``_BASE`` calls of ``inner`` in a scan, skipped as a whole once the loop stopped."""

    def block(state):
        return lax.scan(lambda st, _: (inner(st), None), state, None, length=_BASE)[0]

    def level(state):
        return lax.cond(state[2], block, lambda st: st, state)

    return jax.checkpoint(level) if checkpoint else level


def while_stmt(test, body, get_state, set_state, names, loc, outer=(), src=None):
    """``while test(): body()``; the rest becomes a lax loop once ``test()`` is traced."""
    while True:
        cond = test()
        if _pred(cond, "while", loc, condition(src)) is None:
            if not cond:
                return
            body()
            continue
        _no_outer(outer, "while", loc)
        _lower_while(test, body, get_state, set_state, names, loc, "while")
        return


class TracedRange:
    """``range`` with a traced bound: lowered as a while loop over the index."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, start, stop, step) -> None:
        self.start, self.stop, self.step = start, stop, step


def _range_bound(value, loc, name):
    array = value._value if isinstance(value, Tensor) else value
    if type(value) is int:
        return value
    ok = (
        isinstance(array, (jax.Array, jax.core.Tracer, np.ndarray, np.integer))
        and np.dtype(array.dtype).kind in "iu"
        and np.size(array) == 1
        and np.ndim(array) == 0
    )
    if not ok:
        got = (
            f"a {Tensor(array).dtype if hasattr(array, 'dtype') else type(value).__name__} Tensor "
            f"of shape {tuple(np.shape(array))}"
            if hasattr(array, "shape")
            else repr(value)
        )
        raise TypeError(
            f"For 'range' at {loc}, the bound '{name}' must be an int or a 0-d integer Tensor, "
            f"but got {got}."
        )
    if _traced_array(value) is not None:
        return array
    return int(np.asarray(array))


def range_(*args, where=None):
    """``range``; a bound that is a traced 0-d integer Tensor gives a loop, not an unrolling.
    ``where``: (file:line, the arguments' source) of the call, for error messages."""
    names = ("start", "stop", "step") if len(args) > 1 else ("stop",)
    loc, srcs = where or ("<range>", ())
    if any(s.startswith("*") for s in srcs):
        srcs = ()
    names = [
        srcs[i] if i < len(srcs) and srcs[i].isidentifier() else n for i, n in enumerate(names)
    ]
    bounds = [_range_bound(a, loc, n) for a, n in zip(args, names)]
    if all(type(b) is int for b in bounds):
        return builtins.range(*bounds)
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    if type(step) is not int:
        raise TypeError("For 'range', the step must be a Python int when a bound is a Tensor.")
    return TracedRange(start, stop, step)


def _range_loop(r, extra_test, body, get_state, set_state, names, loc):
    stop = r.stop
    dtype = getattr(stop, "dtype", None) or getattr(r.start, "dtype", jnp.int32)
    index = [wrap(jnp.asarray(r.start, dtype))]

    def test():
        i = index[0]._value
        done = i < stop if r.step > 0 else i > stop
        if extra_test is not None:
            flag = extra_test()
            if _pred(flag, "for", loc) is None:
                return wrap(jnp.logical_and(done, bool(flag)))
            flag = flag._value if isinstance(flag, Tensor) else flag
            done = jnp.logical_and(done, flag)
        return wrap(done)

    def loop_body():
        i = index[0]
        body(i)
        index[0] = wrap(i._value + r.step)

    def get():
        return (*get_state(), index[0])

    def put(values):
        set_state(values[:-1])
        index[0] = values[-1]

    _lower_while(test, loop_body, get, put, (*names, "range index"), loc, "for")


def for_stmt(iterable, extra_test, body, get_state, set_state, names, loc, outer=(), target=None):
    """``for x in iterable: body(x)`` while ``extra_test()`` (loop exit flags) holds.

    ``target(x)`` binds the loop variable alone: an iteration guarded by a traced exit flag
    binds it first, so it is the same on both sides of that ``if``.
    """
    if isinstance(iterable, TracedRange):
        _no_outer(outer, "for", loc)
        _range_loop(iterable, extra_test, body, get_state, set_state, names, loc)
        return
    for item in iterable:
        if extra_test is not None:
            flag = extra_test()
            if _pred(flag, "for", loc) is None:
                if not flag:
                    break
            else:
                _no_outer(outer, "for", loc)
                if target is not None:
                    target(item)
                if_stmt(
                    flag, lambda item=item: body(item), _nothing, get_state, set_state, names, loc
                )
                continue
        body(item)


def _nothing():
    return None
