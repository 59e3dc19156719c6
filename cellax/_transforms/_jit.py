"""jit: compile a stateful function with its slots as (donated) program inputs."""

from __future__ import annotations

import functools as ft
import operator
import types
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .. import _core, _parallel_state
from .._core import DiscoveringFrame, Slot, SlotDiscovered, WritesChanged, is_array, slots_of
from .._tensor import Tensor, wrap, wrap_tree
from .._stacked import RowOf
from . import _control_flow, _trace
from ._jit_cache import Group, LastCall, Plan, Static, entry_key, static_key
from ._outputs import ONE_ARRAY, join_constants, split_constants, used_inputs

__all__ = ["jit"]


class _Unpruned(Exception):
    """A retrace (new shapes) of a program that leaves out the slots its first trace did not
    read: the new trace may read them, so the entry is built again with every slot."""


_REBUILD = (SlotDiscovered, WritesChanged, _Unpruned)  # a trace asks for another entry
_LOCAL = _core.LOCAL
_VALUE = operator.attrgetter("_value")
_DATA = operator.attrgetter("_data")
_WRITER = _core.WRITER


class _Entry:
    """One compiled program: written slots are donated and returned, the others only read.

    The first call traces the function once, through ``functionalize`` in a
    ``DiscoveringFrame``, to a closed jaxpr over every slot: that trace tells which slots it
    writes. ``pure(donated, others, dynamic)`` (the written slots that may be donated, then the
    other written ones, e.g. the random key, and the read ones) is compiled by re-binding that
    jaxpr, so the user's Python runs once. Inputs of other shapes trace the function again
    inside ``pure`` (and must write the same slots, else :class:`WritesChanged`).
    """

    __slots__ = (
        "owner",
        "group",
        "written",
        "donated",
        "others",
        "jitted",
        "also_written",
        "raises",
        "out_template",
        "nameable",
        "prune",
        "multi_device",
        "ranks",
        "kept",
        "token",
    )

    def __init__(self, owner, group: Group, also_written=None, prune: bool = True) -> None:
        self.owner = owner
        self.group = group
        self.written: list | None = None
        self.donated: list = []
        self.others: list = []
        self.jitted = None
        self.also_written = {id(s) for s in also_written or ()}
        self.raises = False
        self.out_template = None  # see split_constants
        self.nameable = False  # mark layouts for JAX (see _nameable), after it failed to name one
        # leave the slots the program does not read out of its inputs (JAX drops them from the
        # executable, but each argument still costs the call); off after a retrace needed one
        self.prune = prune
        # one device: inputs are never placed on a mesh (see _parallel_state.place)
        self.multi_device = jax.device_count() > 1
        # > 0: DATA_PARALLEL over this many processes, each running the step on its own
        # batch as a MindSpore rank does (see _per_rank); 0: JAX's global view
        self.ranks = 0
        self.kept = 0  # written slots that are not donated (last in ``written``)
        self.token = object()  # names this entry in _core.WRITER (see __call__)

    def _call(self, dynamic):
        """The user function on the call's dynamic leaves (static ones from the group)."""
        group = self.group
        it = iter(dynamic)
        call_leaves = [next(it) if leaf is None else leaf for leaf in group.leaves]
        args, kwargs = jax.tree_util.tree_unflatten(group.treedef, call_leaves)
        args = tuple(a.value if isinstance(a, Static) else a for a in wrap_tree(args))
        kwargs = {k: v.value if isinstance(v, Static) else v for k, v in wrap_tree(kwargs).items()}
        with _control_flow.compiled_trace(self.owner):
            out = _trace.call_converted(self.owner.fn, *args, **kwargs)
            # a returned Parameter is its value at the end of this trace, not its eager data
            out = jax.tree_util.tree_map(  # (row gradients stay lazy: see split_constants)
                lambda x: wrap(_core.read(x)) if isinstance(x, Slot) else x,
                out,
                is_leaf=lambda x: isinstance(x, (Slot, Static, RowOf)),
            )
        _check_outputs(out)
        return out

    def _learn(self, dynamic) -> None:
        slots = self.group.slots
        learner = _trace.functionalize(self._call, slots, DiscoveringFrame)
        values = [_abstract(s._data) for s in slots]
        ranks = self.ranks = _parallel_state.world_size() if _parallel_state.per_rank() else 0
        dyn = [_abstract(d, ranks) for d in dynamic]
        learned = {}

        def trace(values, dyn):
            out, new_values = learner(values, dyn)
            self.owner.trace_count += 1  # a trace that met new slots raised: it does not count
            arrays, learned["template"] = split_constants(out)
            return arrays, new_values

        # per rank: the rank axis is bound while tracing, so collectives (the gradient
        # reducer's all-reduce) reduce over the ranks
        axis_env = [(_parallel_state.DATA_AXIS, ranks)] if ranks else None
        closed, out_shape = jax.make_jaxpr(trace, axis_env=axis_env, return_shape=True)(values, dyn)
        learned_written = list(learner.written)
        written_ids = {id(s) for s in learned_written} | self.also_written
        written = [s for s in slots if id(s) in written_ids]
        read = [s for s in slots if id(s) not in written_ids]
        # donated: written slots whose buffers XLA updates in place; the rest are plain inputs
        donated = [s for s in written if s.donatable]
        kept = [s for s in written if not s.donatable]
        if self.prune:  # (key arrays stay: no placeholder of their type is made below)
            used = used_inputs(closed.jaxpr)[: len(slots)]
            unread = {
                id(s)
                for s, u, a in zip(slots, used, closed.in_avals)
                if not u and not jax.dtypes.issubdtype(a.dtype, jax.dtypes.extended)
            }
            pruned = any(id(s) in unread for s in read)
            read = [s for s in read if id(s) not in unread]
        else:
            pruned = False
        others = kept + read
        returned = donated + kept
        stateful = _trace.functionalize(self._call, donated + others, DiscoveringFrame, returned)

        raises = any(slot is _control_flow.ERROR for slot in returned)

        order = {id(s): i for i, s in enumerate(donated + others)}
        position = [order.get(id(s)) for s in slots]  # None: a slot left out (never read)
        in_avals = list(closed.in_avals)
        learned_avals = _avals_of(
            [a for i, a in zip(position, in_avals) if i is not None] + in_avals[len(slots) :]
        )
        present = [i for i in position if i is not None]
        placeholders = list(zip(position, in_avals))
        out_tree = jax.tree_util.tree_structure(out_shape)

        def replay(old, dynamic):
            """The learned program on these inputs: the user's Python does not run again."""
            flat = jax.core.eval_jaxpr(  # a left-out slot is never read: zeros stand in
                closed.jaxpr,
                closed.consts,
                *[jnp.zeros(a.shape, a.dtype) if i is None else old[i] for i, a in placeholders],
                *dynamic,
            )
            arrays, new = jax.tree_util.tree_unflatten(out_tree, flat)
            self.out_template = learned["template"]
            by_id = {id(s): v for s, v in zip(learned_written, new)}
            return arrays, [by_id.get(id(s), old[order[id(s)]]) for s in returned]

        def pure(donated_values, other_values, dynamic):
            old = list(donated_values) + list(other_values)
            if self.nameable:  # the program's first layouts: see _nameable
                old, dynamic = [_nameable(v) for v in old], [_nameable(v) for v in dynamic]
            if _avals([old[i] for i in present] + list(dynamic)) == learned_avals:
                arrays, new_values = replay(old, dynamic)
            else:  # other shapes: trace the function again
                if pruned:
                    raise _Unpruned
                self.owner.trace_count += 1
                out, new_values = stateful(old, dynamic)
                arrays, self.out_template = split_constants(out)
            if raises:  # a run-time error commits nothing
                error = new_values[[id(s) for s in returned].index(id(_control_flow.ERROR))]
                new_values = _control_flow.select_on_error(error, returned, new_values, old)
            # plain arrays out (Tensors are made by join_constants: no pytree callbacks)
            arrays = [a._value if isinstance(a, Tensor) else a for a in arrays]
            if self.nameable:
                arrays = [_nameable(a) for a in arrays]
            return arrays, list(new_values)  # a list, as the next call's donated inputs

        pure.__name__ = getattr(self.owner.fn, "__name__", "jitted")
        self.written, self.donated, self.others = returned, donated, others
        self.kept = len(kept)
        self.token = object()  # values an earlier layout wrote are not this one's inputs
        self.raises = raises
        options = {}
        if _parallel_state.active():
            # state keeps its layout across steps (and donation stays in place); per rank,
            # each process keeps its own rank's row of every output
            outputs = _parallel_state.rank_sharding() if ranks else None
            options["out_shardings"] = (outputs, [slot._data.sharding for slot in returned])
        program = _per_rank(pure, ranks) if ranks else pure
        self.jitted = jax.jit(program, donate_argnums=(0,) if self.owner.donate else (), **options)

    def __call__(self, dynamic):
        if self.multi_device and _parallel_state.active():
            dynamic = _parallel_state.place(self.group.slots, dynamic, _core.store)
        if self.jitted is None:
            self._learn(dynamic)
        last = _WRITER[0]
        if last is not None and last[0] is self.token:
            # no slot changed since this entry's last call wrote them: its inputs are the
            # values it wrote (read from no Parameter: W3 in docs/performance.md)
            donated, others = last[1], last[2]
        else:
            donated, others = self._read_inputs()
        try:
            arrays, new_values = self.jitted(donated, others, dynamic)
        except ValueError as error:  # raised while compiling: no buffer was donated yet
            if type(error).__name__ != "IndivisibleError" or self.nameable:
                raise
            # JAX could not name a propagated output layout on the mesh it chose: mark the
            # layouts (global view only) and compile again
            self.nameable = _parallel_state.global_view()
            if not self.nameable:
                raise
            self._learn(dynamic)
            donated, others = self._read_inputs()
            arrays, new_values = self.jitted(donated, others, dynamic)
        for slot, value in zip(self.written, new_values):
            slot._data = value
        kept = self.kept  # the next call's inputs: what was written, then the read ones
        if kept:
            split = len(new_values) - kept
            others = [*new_values[split:], *others[kept:]]
            new_values = new_values[:split]
        _WRITER[0] = (self.token, new_values, others)
        if self.raises:
            error = _control_flow.pending_error()
            if error is not None:
                raise error
        if self.ranks:
            arrays = [_parallel_state.own_row(a) for a in arrays]
        template = self.out_template
        return wrap(arrays[0]) if template is ONE_ARRAY else join_constants(arrays, template)

    def lower(self, dynamic):
        if _parallel_state.active():
            dynamic = _parallel_state.place(self.group.slots, dynamic, _core.store)
        if self.jitted is None:
            self._learn(dynamic)
        return self.jitted.lower(*self._read_inputs(), dynamic)

    def _read_inputs(self) -> tuple:
        """The program's state inputs read from the slots: (donated values, other values)."""
        return list(map(_DATA, self.donated)), list(map(_DATA, self.others))


class _JitFunction:
    """A function compiled with XLA on first call per signature; see :func:`jit`."""

    _cellax_wraps = True  # slots_of scans ``self.fn``

    def __init__(
        self, fn, static_argnums=(), static_argnames=(), donate: bool = True, control=None
    ):
        self.fn = fn
        default = ("auto", 1024, "bounded")
        self.control_flow, self.max_loop_iterations, self.loop_grad = control or default
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self.static_argnums = tuple(static_argnums)
        self.static_argnames = tuple(static_argnames)
        self.donate = donate
        self.check_indices = False  # jit(check_indices=True): indices checked in the program
        self.trace_count = 0
        self._plans: dict = {}
        self._refs: list | None = None
        self._last: LastCall | None = None
        self._discovered: dict = {}
        ft.update_wrapper(self, fn, updated=())

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self) -> str:
        return f"<cellax.jit of {getattr(self.fn, '__qualname__', self.fn)!r}>"

    # -- the hot path ------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _LOCAL.frame is not None:  # inside another transform: trace inline
            _LOCAL.inline_jit += 1
            try:
                if self.control_flow == "python" or _LOCAL.compiling is None:
                    return self.fn(*args, **kwargs)
                return _trace.converted(self.fn)(*args, **kwargs)  # its own option
            finally:
                _LOCAL.inline_jit -= 1
        changes = _core.changes()
        if not kwargs:
            for arg in args:
                if type(arg) is not Tensor:
                    break
            else:  # positional Tensors only
                dynamic = list(map(_VALUE, args))
                last = self._last
                if (
                    last is not None
                    and last.changes == changes
                    and len(args) == last.nargs
                    and last.holds()
                ):  # the last call's program: nothing that selects one changed since
                    try:
                        return last.entry(dynamic)
                    except _REBUILD as error:  # raised while tracing: nothing was committed
                        group, entry = self._rebuilt(last.plan, last.group, last.entry, error)
                        return self._execute(last.plan, len(args), group, entry, dynamic, changes)
                plan = self._plan()
                group = plan.groups.get(len(args))  # built by the general path
                if group is not None:
                    entry = group.entries.get(entry_key(group.cells))
                    if entry is not None:
                        return self._execute(plan, len(args), group, entry, dynamic, changes)
                return self._call_general(plan, args, kwargs, changes)
        return self._call_general(self._plan(), args, kwargs, changes)

    def _call_general(self, plan, args, kwargs, changes):
        leaves, treedef, static, dynamic = self._flatten(args, kwargs)
        key = (treedef, tuple(static))
        group = plan.groups.get(key)
        if group is not None and group.versions != tuple([c._version for c in group.cells]):
            plan = self._new_plan()  # a Cell changed: find its slots and Cells again
            group = None
        if group is None:
            group = plan.groups[key] = self._make_group(plan, leaves, static, treedef)
            if self._is_fast_signature(args, kwargs):
                plan.groups[len(args)] = group
        flags = entry_key(group.cells)
        entry = group.entries.get(flags)
        if entry is None:
            entry = group.entries[flags] = _Entry(self, group)
        if plan.groups.get(len(args)) is group:  # positional Tensors only
            key = len(args)
        return self._execute(plan, key, group, entry, dynamic, changes)

    def _is_fast_signature(self, args, kwargs) -> bool:
        return not kwargs and not self.static_argnums and all(type(arg) is Tensor for arg in args)

    def _flatten(self, args, kwargs):
        if self.static_argnums:
            args = tuple(Static(a) if i in self.static_argnums else a for i, a in enumerate(args))
        if self.static_argnames and kwargs:
            kwargs = {k: Static(v) if k in self.static_argnames else v for k, v in kwargs.items()}
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
        dynamic = []
        static = []
        for leaf in leaves:
            if is_array(leaf):
                dynamic.append(leaf)
                static.append(None)
            else:
                static.append(static_key(leaf))
        return leaves, treedef, static, dynamic

    def _execute(self, plan, key, group, entry, dynamic, changes):
        """Run ``entry``, chosen by the cache keys when ``_core.changes()`` was ``changes``.
        The program of a call with positional Tensors (``key``: their number) is remembered
        for the next one if ``plan`` was made from the roots the function has now."""
        for _ in range(64):
            try:
                out = entry(dynamic)
            except _REBUILD as error:
                group, entry = self._rebuilt(plan, group, entry, error)
                continue
            if type(key) is int and plan.refs is self._refs:
                self._last = LastCall(changes, key, plan, group, entry)
            return out
        raise RuntimeError(f"For 'jit', tracing {self!r} did not settle on a set of Parameters.")

    def _rebuilt(self, plan, group, entry, error):
        """The group and entry to run after ``entry``'s trace raised ``error``."""
        if isinstance(error, SlotDiscovered):
            for slot in error.slots:
                self._discovered[id(slot)] = slot
            # only this signature is rebuilt; other programs did not touch the slots
            new_group = self._make_group(plan, group.leaves, None, group.treedef)
            for group_key, old in list(plan.groups.items()):
                if old is group:
                    plan.groups[group_key] = new_group
            group = new_group
            entry = _Entry(self, group)
        else:  # new shapes wrote other slots, or read the slots the first trace left out
            prune = entry.prune and isinstance(error, WritesChanged)
            entry = _Entry(self, group, also_written=entry.written, prune=prune)
        group.entries[entry_key(group.cells)] = entry
        return group, entry

    # -- building ----------------------------------------------------------------------------
    def _plan(self) -> Plan:
        refs = self._refs
        if refs is None:
            refs = self._refs = self._scan()[2]
        plan = self._plans.get(_core.guard_ids(refs))
        if plan is None:
            plan = self._new_plan()
        elif plan.refs is not refs:  # an older plan: the roots hold its objects again
            plan.watch(refs)
        return plan

    def _new_plan(self) -> Plan:
        slots, cells, refs = self._scan()
        self._refs = refs
        plan = Plan(slots, cells, refs)
        # one plan per guard: programs compiled for an older structure are dropped
        self._plans[_core.guard_ids(refs)] = plan
        return plan

    def _scan(self):
        slots: dict = {}
        cells: dict = {}
        refs: list = []
        slots_of(self.fn, slots, cells, refs, set())
        return slots, cells, refs

    def _make_group(self, plan: Plan, leaves, static, treedef) -> Group:
        slots = dict(plan.slots)
        cells = dict(plan.cells)
        seen: set = set()
        for leaf in leaves:
            if leaf is not None and not is_array(leaf):
                slots_of(leaf.value if isinstance(leaf, Static) else leaf, slots, cells, [], seen)
        for key, slot in self._discovered.items():
            slots.setdefault(key, slot)
        group_slots = list(slots.values())
        _separate_shared_buffers(group_slots)
        kept = [None if is_array(leaf) else leaf for leaf in leaves]
        return Group(group_slots, list(cells.values()), treedef, kept)

    # -- introspection -----------------------------------------------------------------------
    def lower(self, *args, **kwargs):
        """Lower for these inputs without running (``jax.stages.Lowered``)."""
        plan = self._plan()
        leaves, treedef, static, dynamic = self._flatten(args, kwargs)
        for _ in range(8):
            group = self._make_group(plan, leaves, static, treedef)
            try:
                return _Entry(self, group).lower(dynamic)
            except SlotDiscovered as discovered:
                for slot in discovered.slots:
                    self._discovered[id(slot)] = slot
        raise RuntimeError(f"For 'jit', tracing {self!r} did not settle on a set of Parameters.")


def _abstract(x, ranks: int = 0) -> jax.ShapeDtypeStruct:
    """``x``'s abstract value; with ``ranks``, one rank's part of a batch (dim 0 split)."""
    shape = np.shape(x)
    if ranks and shape:
        shape = (shape[0] // ranks, *shape[1:])
    return jax.ShapeDtypeStruct(shape, x.dtype, weak_type=getattr(x, "weak_type", False))


def _per_rank(pure, ranks: int):
    """``pure`` run by every rank on its own part of the batch, as MindSpore's ranks run a
    DATA_PARALLEL step: batch inputs (every input with a dimension: each process feeds its
    rank's part, ``_parallel_state.place``) are cut into ``ranks`` rows on dim 0, and ``pure``
    is vmapped over them with the rank axis named ``'data'``, which the collectives (the
    gradient reducer's all-reduce) reduce over. Outputs come back stacked (row r is rank
    r's); state comes back from rank 0 (after the reducer every rank holds the same
    Parameters).
    """

    def program(donated_values, other_values, dynamic):
        axes = [0 if np.ndim(d) else None for d in dynamic]
        split = [
            d.reshape((ranks, d.shape[0] // ranks, *d.shape[1:])) if np.ndim(d) else d
            for d in dynamic
        ]
        run = jax.vmap(
            pure,
            in_axes=(None, None, axes),
            axis_name=_parallel_state.DATA_AXIS,
            axis_size=ranks,
        )
        arrays, new_values = run(donated_values, other_values, split)
        return arrays, [value[0] for value in new_values]

    program.__name__ = pure.__name__
    return program


def _avals_of(avals) -> tuple:
    return tuple([(a.shape, a.dtype, a.weak_type) for a in avals])


_typeof = getattr(jax, "typeof", None) or getattr(jax.core, "get_aval")  # jax < 0.4.36


def _avals(values) -> tuple:
    return _avals_of([_typeof(v) for v in values])


def _is_leaf(x) -> bool:
    return isinstance(x, (Slot, Static))


class UncarriedOutputError(TypeError):
    """A compiled function returned a Python object a program cannot carry out (a GRAPH_MODE
    Cell call catches it and runs the call in PyNative mode)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _check_outputs(out) -> None:
    for leaf in jax.tree_util.tree_leaves(out):
        if not is_array(leaf) and not isinstance(leaf, (bool, int, float, complex)):
            raise UncarriedOutputError(
                f"For 'jit', a compiled function can return only Tensors, numbers and "
                f"tuples/lists/dicts of them, but it returned {type(leaf).__name__}: {leaf!r}.",
                type(leaf).__name__,
            )


def _nameable(value):
    """A global-view input or output marked so that JAX names the propagated layouts of the
    outputs on one mesh that expresses them all (``_parallel_state.output_sharding``): the
    outputs' own marks, or the first marked input for a program whose outputs JAX recovers
    from its first intermediate layout."""
    if not hasattr(value, "shape"):
        return value
    sharding = _parallel_state.output_sharding(len(value.shape))
    if sharding is None:
        return value
    raw = value._value if isinstance(value, Tensor) else value
    out = jax.lax.with_sharding_constraint(raw, sharding)
    return wrap(out) if isinstance(value, Tensor) else out


def _separate_shared_buffers(slots) -> None:
    """Donation needs one owner per buffer: give slots that share an array their own copy."""
    owners: set = set()
    for slot in slots:
        if id(slot._data) in owners:
            _core.store(slot, jnp.array(slot._data, copy=True))
        owners.add(id(slot._data))


def jit(
    function=None, *, static_argnums=(), static_argnames=(), donate: bool = True, **options
) -> Any:
    """Compile a function, Cell or Cell method with XLA (``mindspore.jit``).

    The compiled program takes every Parameter, buffer and random key the function touches as
    (donated) inputs and returns their new values, which are written back after each call:
    a train step that closes over a network and an optimizer updates them in place. Programs
    are cached by argument structure, shapes and dtypes, non-Tensor arguments (by value, Cells
    by identity), the Parameters involved and the training flags and versions of the Cells
    involved: adding, replacing or removing a Cell's child, Parameter, buffer or hook (by any
    path: assignment, ``del``, ``pop``, ``clear``, ``insert_child_to_cell``, a hook handle's
    ``remove()``) or calling ``recompute()``/``to_float()`` on it compiles again; changes to
    unrelated Cells do not. Other Python attributes read while tracing (and a Parameter's
    ``requires_grad``) are compile-time constants. ``fn.trace_count`` counts traces.

    Args:
        function (Callable): The function. Used as ``@jit`` or ``@jit(...)``.
        static_argnums, static_argnames: Accepted for JAX users; Python numbers, strings and
            Cells are always static (compiled in as constants), as in MindSpore.
        donate (bool): Donate the state buffers to the program (no copies). Default: ``True``.
        **options: MindSpore's options (``mode``, ``input_signature``, ``jit_config``,
            ``capture_mode``, ``jit_level``, ``backend``, ...), accepted; XLA decides. cellax's
            own (also read from ``jit_config``): ``control_flow`` (``"auto"``: Python
            ``if``/``while``/``for`` on Tensors compile to ``lax.cond``/``lax.while_loop``, see
            :func:`cellax.autograph_source`; ``"python"``: trace the code as written, a
            Tensor condition raising ``TypeError``), ``max_loop_iterations`` (int, default
            1024: the bound of a Tensor ``while`` differentiated in reverse mode; a longer loop
            raises ``RuntimeError`` after the run and commits nothing) and ``loop_grad``
            (``"bounded"``: nested scans, outer levels checkpointed; ``"checkpointed"``: every
            level checkpointed, less memory and more recomputation), ``check_indices``
            (bool, default ``False``: inside the program the index values are unknown, so
            out-of-range indices of ``gather``, ``gather_elements``, ``gather_nd``,
            ``index_select``, ``embedding``, ``scatter_nd``, ``tensor_scatter_*``, the class
            targets of ``cross_entropy``/``nll_loss`` and ``Tensor[Tensor]`` are clamped or
            dropped as XLA does; ``True`` checks them in the program and raises the error the
            eager call raises after the run, committing no Parameter update).

    Returns:
        The compiled callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> b = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0]), name="b")
        >>> @ms.jit
        ... def modify():
        ...     ops.assign(b, ms.Tensor([7.0, 8.0, 9.0]))
        ...     return True
        >>> _ = modify()
        >>> print(b.asnumpy())
        [7. 8. 9.]
        >>> @ms.jit
        ... def absolute(x):
        ...     if x.sum() < 0:
        ...         x = -x
        ...     return x
        >>> print(absolute(ms.Tensor([-1.0, -2.0])), absolute(ms.Tensor([3.0])))
        [1. 2.] [3.]

    Differences from MindSpore: Python numbers passed in are compile-time constants (a new
    value compiles again); Tensor shapes are static per compiled program.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.jit.html
    """
    options.pop("fn", None)
    if function is None:
        return ft.partial(
            jit,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            donate=donate,
            **options,
        )
    if isinstance(function, _JitFunction):
        return function
    if not callable(function):
        raise TypeError(f"For 'jit', 'function' must be callable, but got {function!r}.")
    config = getattr(options.get("jit_config"), "jit_config_dict", None) or {}
    check_indices = options.pop("check_indices", config.get("check_indices", False))
    if not isinstance(check_indices, bool):
        raise TypeError(f"For 'jit', 'check_indices' must be a bool, but got {check_indices!r}.")
    control = _control_flow.jit_options(options)
    compiled = _JitFunction(function, static_argnums, static_argnames, donate, control)
    compiled.check_indices = check_indices
    return compiled
