"""Watching every Cell call: a name per call, its values shipped to the host in run order.

An observer is pushed with ``cellax._core.watch_calls``; ``Cell._run`` hands it every call.
The observer names the call while Python runs (at trace time under jit), then stages a
``jax.debug.callback`` that delivers the call's input and output arrays to a host-side
:class:`Recorder` when the program runs: eagerly the callback runs at once; in a compiled
program it runs in program order (``ordered=True``), once per execution, so a Cell inside a
``lax.while_loop`` body is recorded once per iteration. With ``grads``, the float outputs pass
through an identity with a custom VJP whose backward rule delivers their cotangents the same
way: the gradient at the Cell's output boundary.
"""

from __future__ import annotations

import functools as ft
import inspect
import itertools
import types

import jax
import jax.numpy as jnp
import numpy as np

from .. import _core
from .._tensor import Tensor, unwrap, wrap

__all__ = ["CallRecord", "Recorder", "Namer", "observing", "source_of", "cell_names"]

_tokens = itertools.count(1)


class CallRecord:
    """The values one Cell call saw, as recorded on the host.

    Attributes:
        name (str): The Cell's full name (``backbone.layer3.0.bn1``); the root Cell is named
            by its class.
        index (int): Which call of that name this is (0 for the first).
        kind (str): ``"forward"`` (inputs and outputs) or ``"grad"`` (the gradients arriving
            at the Cell's float outputs during the backward pass).
        cell_type (str): The Cell's class name.
        source (str): ``file:line`` of the Cell's ``construct``.
        inputs (list[numpy.ndarray]): The array inputs (empty for ``"grad"``).
        outputs (list[numpy.ndarray]): The array outputs, or the output gradients.
    """

    __slots__ = ("name", "index", "kind", "cell_type", "source", "inputs", "outputs")

    def __init__(self, name, index, kind, cell_type, source, inputs, outputs) -> None:
        self.name = name
        self.index = index
        self.kind = kind
        self.cell_type = cell_type
        self.source = source
        self.inputs = inputs
        self.outputs = outputs

    @property
    def key(self) -> tuple:
        return (self.name, self.index, self.kind)

    @property
    def label(self) -> str:
        """``name`` with ``#index`` when the Cell was called more than once."""
        return self.name if self.index == 0 else f"{self.name}#{self.index}"

    def __repr__(self) -> str:
        return f"CallRecord({self.label!r}, {self.kind}, {self.cell_type})"


class Recorder:
    """Host side: receives the callbacks, numbers repeated calls, keeps the records in order."""

    def __init__(self, keep=None) -> None:
        self.records: list = []
        self._counts: dict = {}
        self.keep = keep  # optional filter(record) -> bool; records it rejects are dropped

    def reset(self) -> None:
        self.records = []
        self._counts = {}

    def arrive(self, info: tuple, kind: str, n_inputs: int, *arrays) -> None:
        name, cell_type, source = info
        index = self._counts.get((name, kind), 0)
        self._counts[(name, kind)] = index + 1
        values = [np.asarray(a) for a in arrays]
        record = CallRecord(
            name, index, kind, cell_type, source, values[:n_inputs], values[n_inputs:]
        )
        if self.keep is None or self.keep(record):
            self.records.append(record)


def source_of(cell) -> str:
    """``file:line`` of ``type(cell).construct`` (``?`` when Python cannot tell)."""
    construct = getattr(type(cell), "construct", None)
    try:
        path = inspect.getsourcefile(construct)
        line = inspect.getsourcelines(construct)[1]
    except (TypeError, OSError):
        return "?"
    return f"{path}:{line}"


def cell_names(target) -> dict:
    """``{id(cell): full name}`` for the Cells a Cell or a function reaches by name.

    A Cell target names its descendants as ``cells_and_names`` does (the root is ``""``); a
    function names the Cells its closure and globals hold by their variable names, and their
    descendants under that prefix.
    """
    from ..nn import Cell

    names: dict = {}

    def add(cell, prefix: str) -> None:
        for name, sub in cell.cells_and_names(name_prefix=prefix):
            names.setdefault(id(sub), name)

    if isinstance(target, Cell):
        add(target, "")
        return names
    _names_in_function(target, add, set(), depth=0)
    return names


def _names_in_function(fn, add, seen: set, depth: int) -> None:
    """Name the Cells a function's closure and globals hold, then look into the functions
    they hold (a train step's closure holds ``grad_fn``, whose closure holds the network)."""
    from ..nn import Cell

    if id(fn) in seen or depth > 4:
        return
    seen.add(id(fn))
    if getattr(type(fn), "_cellax_wraps", False):
        fn = fn.fn
    if isinstance(fn, types.MethodType):
        if isinstance(fn.__self__, Cell):
            add(fn.__self__, "")
        fn = fn.__func__
    if isinstance(fn, ft.partial):
        fn = fn.func
    if not isinstance(fn, types.FunctionType):
        return
    code = fn.__code__
    pairs = []
    for var, closure_cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            pairs.append((var, closure_cell.cell_contents))
        except ValueError:
            continue
    if fn.__globals__.get("__name__", "").partition(".")[0] != "cellax":
        pairs += [(n, fn.__globals__[n]) for n in code.co_names if n in fn.__globals__]
    for var, value in pairs:
        if isinstance(value, Cell):
            add(value, var)
    for _, value in pairs:
        if callable(value) and not isinstance(value, (Cell, type, types.ModuleType)):
            _names_in_function(value, add, seen, depth + 1)


class Namer:
    """Full names of Cell calls from the call stack (trace-time Python state)."""

    def __init__(self, known: dict) -> None:
        self.known = known
        self.stack: list = []

    def enter(self, cell) -> str:
        name = None
        if self.stack:
            parent, parent_name = self.stack[-1]
            for attr, child in parent._cells.items():
                if child is cell:
                    name = f"{parent_name}.{attr}" if parent_name else attr
                    break
        if name is None:
            name = self.known.get(id(cell))
        if name is None:
            name = type(cell).__name__
        self.stack.append((cell, name))
        return name or type(cell).__name__  # the root Cell ("") is shown by its class

    def exit(self) -> None:
        self.stack.pop()


def _is_value(x) -> bool:
    return isinstance(x, Tensor) or isinstance(x, (jax.Array, jax.core.Tracer))


def _leaves(tree):
    leaves, treedef = jax.tree_util.tree_flatten(tree, is_leaf=lambda x: isinstance(x, Tensor))
    return leaves, treedef


def arrays_of(tree) -> list:
    """The arrays inside ``tree`` (Tensors unwrapped), in flattening order."""
    return [unwrap(leaf) for leaf in _leaves(tree)[0] if _is_value(leaf)]


def _map_arrays(fn, tree):
    leaves, treedef = _leaves(tree)
    where = [i for i, leaf in enumerate(leaves) if _is_value(leaf)]
    if not where:
        return tree
    new = fn([unwrap(leaves[i]) for i in where])
    for i, value in zip(where, new):
        leaves[i] = wrap(value) if isinstance(leaves[i], Tensor) else value
    return jax.tree_util.tree_unflatten(treedef, leaves)


def _is_float(array) -> bool:
    return jnp.issubdtype(array.dtype, jnp.inexact)


def _tap_gradients(arrays: list, deliver) -> list:
    """``arrays`` unchanged; their cotangents go to ``deliver(*cotangents)`` in backward."""
    where = [i for i, a in enumerate(arrays) if _is_float(a)]
    if not where:
        return arrays

    @jax.custom_vjp
    def identity(xs):
        return xs

    def forward(xs):
        return xs, None

    def backward(_, cotangents):
        jax.debug.callback(deliver, *cotangents, ordered=True)
        return (cotangents,)

    identity.defvjp(forward, backward)
    tapped = identity([arrays[i] for i in where])
    out = list(arrays)
    for i, value in zip(where, tapped):
        out[i] = value
    return out


class observing:
    """Context manager: while active, every Cell call is named and recorded into ``recorder``.

    ``token`` identifies the observer in jit's cache key: reuse one token for repeated runs
    of the same instrumented program (so it compiles once), a fresh one otherwise.
    """

    def __init__(self, recorder: Recorder, known: dict, grads: bool, token=None) -> None:
        self.recorder = recorder
        self.namer = Namer(known)
        self.grads = grads
        self.token = token if token is not None else ("cellax.debug", next(_tokens))

    def __call__(self, cell, run, args, kwargs):
        name = self.namer.enter(cell)
        try:
            out = run(*args, **kwargs)
        finally:
            self.namer.exit()
        info = (name, type(cell).__name__, source_of(cell))
        inputs = arrays_of((args, kwargs))
        outputs = arrays_of(out)
        if inputs or outputs:
            deliver = ft.partial(self.recorder.arrive, info, "forward", len(inputs))
            jax.debug.callback(deliver, *inputs, *outputs, ordered=True)
        if self.grads:
            deliver = ft.partial(self.recorder.arrive, info, "grad", 0)
            out = _map_arrays(lambda arrays: _tap_gradients(arrays, deliver), out)
        return out

    def __enter__(self):
        _core.watch_calls(self.token, self)
        return self

    def __exit__(self, *exc) -> None:
        _core.unwatch_calls(self.token, self)
