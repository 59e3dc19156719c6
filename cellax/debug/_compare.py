"""``compare_modes``: run a step eagerly and compiled from the same state; name where they part."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _core, _transforms
from .._random import RNG_STATE
from .._tensor import Tensor, unwrap, wrap
from ._observe import Recorder, arrays_of, cell_names, observing

__all__ = ["compare_modes", "ModeReport", "Difference"]


class Difference:
    """How far the compiled run is from the eager one at one place.

    Attributes:
        label (str): The Cell call (``backbone.layer3.0.bn1``, ``decoder.block.2#3`` for the
            fourth call), ``output[i]`` for the step's outputs, or a Parameter's name.
        kind (str): ``"forward"``, ``"grad"``, ``"output"`` or ``"state"``.
        cell_type (str): The Cell's class name ('' for outputs and state).
        source (str): ``file:line`` of the Cell's ``construct`` ('' for outputs and state).
        max_abs (float): Largest absolute difference over the compared arrays.
        max_rel (float): Largest relative difference (``|c - e| / |e|`` where ``e != 0``).
        differs (bool): Beyond ``atol + rtol * |eager|`` somewhere (or shapes/dtypes differ).
        inputs_differ (bool): For ``"forward"``: the Cell's inputs already differed.
        shapes (list[tuple]): Shapes of the compared arrays (eager run).
        dtypes (list[str]): Their dtypes.
        only_in (str): ``"eager"`` or ``"compiled"`` when the call happened in one run only.
    """

    def __init__(self, label, kind, cell_type="", source="") -> None:
        self.label = label
        self.kind = kind
        self.cell_type = cell_type
        self.source = source
        self.max_abs = 0.0
        self.max_rel = 0.0
        self.differs = False
        self.inputs_differ = False
        self.shapes: list = []
        self.dtypes: list = []
        self.only_in = ""

    def __repr__(self) -> str:
        state = "differs" if self.differs else "same"
        return f"Difference({self.label!r}, {self.kind}, {state}, max_abs={self.max_abs:.3g})"


def _measure(eager: list, compiled: list, rtol: float, atol: float) -> tuple:
    """(differs, max_abs, max_rel) over paired arrays; a shape/dtype/count mismatch differs."""
    if len(eager) != len(compiled):
        return True, float("inf"), float("inf")
    differs, max_abs, max_rel = False, 0.0, 0.0
    for e, c in zip(eager, compiled):
        if e.shape != c.shape or e.dtype != c.dtype:
            return True, float("inf"), float("inf")
        if e.size == 0:
            continue
        if not (np.issubdtype(e.dtype, np.number) or e.dtype == np.bool_):
            continue
        e64 = e.astype(np.float64) if e.dtype != np.bool_ else e.astype(np.float64)
        c64 = c.astype(np.float64)
        both_nan = np.isnan(e64) & np.isnan(c64)
        same_inf = np.isinf(e64) & (e64 == c64)
        gap = np.where(both_nan | same_inf, 0.0, np.abs(c64 - e64))
        gap = np.where(np.isnan(gap), np.inf, gap)
        scale = np.abs(e64)
        rel = np.where(
            scale > 0, gap / np.where(scale > 0, scale, 1.0), np.where(gap > 0, np.inf, 0)
        )
        max_abs = max(max_abs, float(gap.max()))
        max_rel = max(max_rel, float(rel.max()))
        differs = differs or bool((gap > atol + rtol * np.where(np.isinf(scale), 0, scale)).any())
    return differs, max_abs, max_rel


class ModeReport:
    """What :func:`compare_modes` found. ``str(report)`` prints a short table.

    Attributes:
        calls (list[Difference]): Every Cell call, forward records in eager completion order
            (a child finishes before its parent), then gradient records in backward order.
        outputs (list[Difference]): The step's outputs, ``output[i]``.
        state (list[Difference]): Every Parameter and buffer the step reaches (and the random
            key) after the step.
        eager (list[CallRecord]), compiled (list[CallRecord]): The raw records of both runs.
        first (Difference or None): The first Cell call whose outputs differ.
        first_grad (Difference or None): The first gradient (backward order) that differs.
        culprit (Difference or None): The first Cell call whose outputs differ while its inputs
            agree: where the two modes start to disagree.
    """

    def __init__(self, calls, outputs, state, eager, compiled, rtol, atol) -> None:
        self.calls = calls
        self.outputs = outputs
        self.state = state
        self.eager = eager
        self.compiled = compiled
        self.rtol = rtol
        self.atol = atol
        forward = [d for d in calls if d.kind == "forward" and d.differs]
        self.first = forward[0] if forward else None
        culprits = [d for d in forward if not d.inputs_differ]
        self.culprit = culprits[0] if culprits else self.first
        grads = [d for d in calls if d.kind == "grad" and d.differs]
        self.first_grad = grads[0] if grads else None

    @property
    def same(self) -> bool:
        """True when nothing differs beyond tolerance."""
        return not any(d.differs for d in (*self.calls, *self.outputs, *self.state))

    def __bool__(self) -> bool:
        return not self.same

    def __str__(self) -> str:
        head = f"compare_modes: eager vs compiled (rtol={self.rtol:g}, atol={self.atol:g})"
        if self.same:
            n = sum(d.kind == "forward" for d in self.calls)
            return f"{head}\nno difference in {n} Cell calls, outputs and state."
        lines = [head]
        if self.culprit is not None:
            d = self.culprit
            where = "its inputs agree" if not d.inputs_differ else "its inputs already differ"
            lines.append(f"first differing Cell: {d.label} ({d.cell_type}), {where}")
            lines.append(f"  construct at {d.source}")
        rows = [d for d in (*self.calls, *self.outputs, *self.state) if d.differs][:12]
        lines.append(f"{'where':<36} {'kind':<8} {'max abs':>10} {'max rel':>10}  shapes")
        for d in rows:
            shapes = ",".join("x".join(map(str, s)) or "()" for s in d.shapes[:3])
            note = f"  only in {d.only_in}" if d.only_in else ""
            lines.append(
                f"{d.label[:36]:<36} {d.kind:<8} {d.max_abs:>10.3g} {d.max_rel:>10.3g}  "
                f"{shapes}{note}"
            )
        return "\n".join(lines)

    __repr__ = __str__


def _compare_records(eager: list, compiled: list, rtol, atol) -> list:
    by_key = {r.key: r for r in compiled}
    seen = set()
    out = []
    for kind in ("forward", "grad"):
        for e in (r for r in eager if r.kind == kind):
            c = by_key.get(e.key)
            d = Difference(e.label, kind, e.cell_type, e.source)
            d.shapes = [a.shape for a in e.outputs]
            d.dtypes = [str(a.dtype) for a in e.outputs]
            if c is None:
                d.differs, d.only_in = True, "eager"
            else:
                seen.add(e.key)
                d.differs, d.max_abs, d.max_rel = _measure(e.outputs, c.outputs, rtol, atol)
                d.inputs_differ = _measure(e.inputs, c.inputs, rtol, atol)[0]
            out.append(d)
        for c in (r for r in compiled if r.kind == kind and r.key not in seen):
            d = Difference(c.label, kind, c.cell_type, c.source)
            d.differs, d.only_in = True, "compiled"
            d.shapes = [a.shape for a in c.outputs]
            out.append(d)
    return out


def _compare_values(labels, kind, eager, compiled, rtol, atol) -> list:
    out = []
    for label, e, c in zip(labels, eager, compiled):
        d = Difference(label, kind)
        d.shapes, d.dtypes = [e.shape], [str(e.dtype)]
        d.differs, d.max_abs, d.max_rel = _measure([e], [c], rtol, atol)
        out.append(d)
    return out


def _state_slots(target, args, kwargs) -> list:
    slots: dict = {}
    _core.slots_of(target, slots, {}, [], set())
    for value in (*args, *kwargs.values()):
        _core.slots_of(value, slots, {}, [], set())
    slots.pop(id(RNG_STATE), None)
    return [*slots.values(), RNG_STATE]


def _slot_label(slot) -> str:
    if slot is RNG_STATE:
        return "<random key>"
    return str(getattr(slot, "name", type(slot).__name__))


def _float_tensors(tree) -> list:
    return [x for x in arrays_of(tree) if jnp.issubdtype(x.dtype, jnp.inexact)]


def _differentiated(fn, args, weights):
    """``fn`` wrapped to also differentiate the sum of its float outputs (inputs, weights)."""
    positions = tuple(
        i
        for i, a in enumerate(args)
        if isinstance(a, Tensor) and jnp.issubdtype(unwrap(a).dtype, jnp.inexact)
    )
    if not positions and not weights:
        return None

    def summed(*call_args):
        out = fn(*call_args)
        total = sum((jnp.sum(x.astype(jnp.float32)) for x in _float_tensors(out)), 0.0)
        return wrap(jnp.asarray(total, jnp.float32)), out

    return _transforms.value_and_grad(
        summed, grad_position=positions or None, weights=weights or None, has_aux=True
    )


def compare_modes(fn_or_cell, *args, rtol=1e-5, atol=1e-6, grads=True, **kwargs):
    """Run a step eagerly and compiled from the same state and report where they differ.

    Both runs start from the same Parameters, buffers and random key; the eager run commits
    nothing and the compiled run's writes are undone, so afterwards every Parameter, buffer and
    the random key hold bit for bit what they held before. Every Cell call is recorded on both
    paths (its inputs and outputs; a Cell called several times, e.g. in a loop, once per call:
    ``block.2#3``), and with ``grads`` the gradient arriving at each Cell's float outputs.

    Args:
        fn_or_cell (Union[Cell, Callable]): A Cell, a function that calls Cells, or a
            ``cellax.jit`` function (a train step with an optimizer: its state after the step
            is compared too).
        args (tuple): The step's inputs.
        rtol (float): Relative tolerance (as ``numpy.allclose``). Default: ``1e-5``.
        atol (float): Absolute tolerance. Default: ``1e-6``.
        grads (bool): Also compare gradients at Cell boundaries. If the step computes no
            gradients itself, both runs differentiate the sum of its float outputs with respect
            to its float Tensor inputs and trainable Parameters. Default: ``True``.
        kwargs (dict): Keyword inputs of the step.

    Returns:
        ModeReport: ``report.culprit`` names the first Cell whose outputs differ while its
        inputs agree; ``str(report)`` is a short table; ``report.same`` is True when nothing
        differs.

    Raises:
        TypeError: If ``fn_or_cell`` is not callable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn, Tensor
        >>> from cellax.debug import compare_modes
        >>> net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2))
        >>> report = compare_modes(net, Tensor(np.ones((2, 3), np.float32)))
        >>> report.same, len(report.calls)
        (True, 8)
    """
    from ..nn import Cell

    if not callable(fn_or_cell):
        raise TypeError(
            f"For 'compare_modes', 'fn_or_cell' must be a Cell or a function, but got "
            f"{type(fn_or_cell).__name__}."
        )
    is_cell = isinstance(fn_or_cell, Cell)
    wrapped = getattr(type(fn_or_cell), "_cellax_wraps", False)
    plain = fn_or_cell._run if is_cell else (fn_or_cell.fn if wrapped else fn_or_cell)
    static = {}
    if wrapped:
        static = dict(
            static_argnums=fn_or_cell.static_argnums, static_argnames=fn_or_cell.static_argnames
        )
    known = cell_names(fn_or_cell)
    if is_cell:
        known[id(fn_or_cell)] = ""
    slots = _state_slots(fn_or_cell, args, kwargs)
    before = [(slot, jnp.array(_core.read(slot), copy=True)) for slot in slots]

    def restore() -> None:
        for slot, value in before:
            _core.write(slot, jnp.array(value, copy=True))

    def eager_run(step) -> tuple:
        recorder = Recorder()
        try:
            with observing(recorder, known, grads):
                out, written = _core.dry_run(step, *args, **kwargs)
            jax.effects_barrier()
        finally:
            restore()
        written = {id(slot): value for slot, value in written}
        state = [np.asarray(written.get(id(s), v)) for s, v in before]
        return recorder.records, out, state

    def compiled_run(step) -> tuple:
        recorder = Recorder()
        try:
            with observing(recorder, known, grads):
                out = _transforms.jit(step, **static)(*args, **kwargs)
                jax.effects_barrier()
            state = [np.asarray(_core.read(s)) for s, _ in before]
        finally:
            restore()
        return recorder.records, out, state

    step = plain
    eager, out_e, state_e = eager_run(step)
    if grads and not any(r.kind == "grad" for r in eager):
        weights = [s for s in slots if getattr(s, "requires_grad", False)]
        differentiated = _differentiated(plain, args, weights)
        if differentiated is not None and _float_tensors(out_e):
            step = differentiated
            eager, out_e, state_e = eager_run(step)
    compiled, out_c, state_c = compiled_run(step)

    calls = _compare_records(eager, compiled, rtol, atol)
    outs_e = [np.asarray(a) for a in arrays_of(out_e)]
    outs_c = [np.asarray(a) for a in arrays_of(out_c)]
    labels = [f"output[{i}]" for i in range(max(len(outs_e), len(outs_c)))]
    outputs = _compare_values(labels, "output", outs_e, outs_c, rtol, atol)
    if len(outs_e) != len(outs_c):
        mismatch = Difference("outputs", "output")
        mismatch.differs = True
        outputs.append(mismatch)
    state = _compare_values(
        [_slot_label(s) for s, _ in before], "state", state_e, state_c, rtol, atol
    )
    return ModeReport(calls, outputs, state, eager, compiled, rtol, atol)
