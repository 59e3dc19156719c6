"""Slots and state frames: the substitution of slot values inside one trace level.

The invariants are in ``README.md`` beside this file.
"""

from __future__ import annotations

import threading

import jax

from .. import _dtype

__all__ = [
    "Slot",
    "Frame",
    "dry_run",
    "DiscoveringFrame",
    "SlotDiscovered",
    "read",
    "write",
    "store",
    "WRITER",
    "current_frame",
    "run_in_frame",
    "commit",
    "is_tracer",
    "concrete",
    "CastFrame",
    "read_master",
    "LOCAL",
    "backing",
    "born",
    "compiling",
    "differentiating",
]


class _Local(threading.local):
    frame: Frame | None = None
    # options of the compiled trace (cellax.jit) being built, None outside one; converted
    # control flow and constant folding are active while it is set (_transforms/_control_flow)
    compiling: object = None
    # > 0 while grad/value_and_grad trace the function they differentiate
    differentiating: int = 0
    # > 0 while a cellax.jit function runs inline inside another transform (its body is
    # graph code for MindSpore even when not compiled on its own: ops.HookBackward skips it)
    inline_jit: int = 0
    # user hooks called so far (PyNative gradient replay keeps functions with hooks eager)
    user_hooks: int = 0


LOCAL = _Local()
_local = LOCAL  # old private name


class Slot:
    """Marker base for objects whose value a frame can substitute (Parameter, buffers, RNG).

    ``donatable``: a compiled step may hand the slot's buffer to XLA to update in place. Slots
    that other threads read concurrently (the global random key) set it False.

    Frames know no kinds of slot: they ask the slot how it is held, read and written. A plain
    slot is held as itself. A kind whose value is part of another slot's value (a ScanCell
    block's Parameter, a row of its stack: ``cellax/_stacked.py``) overrides the protocol:

    * ``_backing()``: the slot a frame holds for this one (what transforms collect as inputs);
    * ``_read_in(frame)`` / ``_write_in(frame, value)``: a read the frame's own values do not
      answer, and a write;
    * ``_settle(frame, items)``: at a frame's start, turn the values ``[(slot, value)]`` it was
      given for slots of this kind into values of their backing slots;
    * ``_part_of(backing_value, lazy)`` / ``_with_part(backing_value, fn)``: this slot's part of
      a value (or gradient) of its backing slot, and that value with the part replaced by
      ``fn(part)`` (``grad`` differentiates backing slots and runs hooks on parts).
    """

    __slots__ = ()
    donatable = True

    def _check_new_value(self, value):
        """Hook for subclasses: validate/convert a value about to be written."""
        return value

    def _backing(self) -> Slot:
        return self

    def _read_in(self, frame):
        return frame._miss(self)

    def _write_in(self, frame, value) -> None:
        frame._hold_written(self, value)

    @staticmethod
    def _settle(frame, items) -> None:
        pass

    def _part_of(self, value, lazy: bool = False):
        return value

    def _with_part(self, value, fn):
        return fn(value)


class SlotDiscovered(BaseException):
    """Raised after a discovering trace that touched slots it did not hold (``.slots``).

    A BaseException so that a user's ``except Exception`` does not swallow it.
    """

    def __init__(self, slots: list) -> None:
        super().__init__(slots)
        self.slots = slots


class Frame:
    """Values of slots current in one trace level; see the module docstring."""

    __slots__ = ("parent", "values", "written", "_prev")

    def __init__(self, slots=(), values=(), parent: Frame | None = None) -> None:
        self.parent = parent
        self.values = {id(s): (s, v) for s, v in zip(slots, values)}
        self.written: dict[int, Slot] = {}
        kinds: dict = {}  # each kind of slot settles the values given for its slots
        for slot, value in zip(slots, values):
            kinds.setdefault(type(slot)._settle, []).append((slot, value))
        for settle, items in kinds.items():
            settle(self, items)

    def read(self, slot: Slot):
        entry = self.values.get(id(slot))
        if entry is not None:
            return entry[1]
        return slot._read_in(self)

    def _miss(self, slot: Slot):
        value = self.parent.read(slot) if self.parent is not None else slot._data
        self.values[id(slot)] = (slot, value)
        return value

    def write(self, slot: Slot, value) -> None:
        slot._write_in(self, value)

    def _hold_written(self, slot: Slot, value) -> None:
        if id(slot) not in self.values:
            self._miss(slot)
        self.values[id(slot)] = (slot, value)
        self.written[id(slot)] = slot

    def value_of(self, slot: Slot):
        """The value this frame holds for ``slot`` (read through its backing slot)."""
        if slot._backing() is not slot:
            return self.read(slot)
        return self.values[id(slot)][1]

    def written_items(self) -> list:
        """[(slot, new value)] for every slot written in this frame, in write order."""
        return [(slot, self.values[key][1]) for key, slot in self.written.items()]

    def __enter__(self) -> Frame:
        self._prev = _local.frame
        _local.frame = self
        return self

    def __exit__(self, *exc) -> None:
        _local.frame = self._prev


class DiscoveringFrame(Frame):
    """A top-level compiled trace: every slot must be an input of the program.

    A slot it does not hold is recorded in ``missed`` and read concretely so the trace can
    finish; the caller then discards the trace and retraces with the missed slots as inputs.
    """

    __slots__ = ("missed", "born")

    def __init__(self, slots=(), values=(), parent: Frame | None = None) -> None:
        self.missed: list = []
        # slots created during this trace (a Cell built inside a jitted function): local to
        # the trace, never program inputs or outputs, never committed
        self.born: set = set()
        super().__init__(slots, values)  # top level: no parent to read through

    def _miss(self, slot: Slot):
        self.missed.append(slot)
        value = slot._data
        self.values[id(slot)] = (slot, value)
        return value


def current_frame() -> Frame | None:
    return _local.frame


def read(slot: Slot):
    frame = _local.frame
    if frame is None:
        return slot._data
    return frame.read(slot)


def write(slot: Slot, value) -> None:
    frame = _local.frame
    if frame is None:
        store(slot, value)
    else:
        frame.write(slot, value)


# Who wrote slots' eager values last: a compiled program's entry that wrote them back (and
# may pass what it wrote to its next call without reading its slots again) or None.
WRITER: list = [None]


def store(slot: Slot, value) -> None:
    """Replace ``slot``'s eager value (``slot._data``) outside any frame, as ``write`` does.

    Every change of a ``_data`` goes through here or ``write`` (tests/test_layers.py checks):
    it clears ``WRITER``, so no compiled entry reuses values it wrote before this change.
    """
    slot._data = value
    WRITER[0] = None


def backing(slot: Slot) -> Slot:
    """The slot whose value frames hold for ``slot`` (itself unless its kind says otherwise)."""
    return slot._backing()


def commit(items) -> None:
    """Write ``[(slot, value)]`` produced by a finished transform into the enclosing level."""
    for slot, value in items:
        write(slot, value)


def run_in_frame(frame: Frame, fn, *args, **kwargs):
    """Call ``fn`` with ``frame`` active; return its output."""
    with frame:
        return fn(*args, **kwargs)


def born(slot: Slot) -> None:
    """Register a slot created during a compiled trace as local to that trace."""
    if _local.compiling is None or _local.frame is None:
        return
    frame = _local.frame
    while frame.parent is not None:
        frame = frame.parent
    if isinstance(frame, DiscoveringFrame):
        frame.values[id(slot)] = (slot, slot._data)
        frame.born.add(id(slot))


def compiling():
    """The options of the compiled trace being built on this thread, or None."""
    return _local.compiling


def differentiating() -> bool:
    return _local.differentiating > 0


def dry_run(fn, *args, **kwargs):
    """Run ``fn`` eagerly without committing: ``(output, [(slot, value) written])``.

    Its writes stay in a private top-level Frame; jit functions called inside run inline (op
    by op), as under any Frame.
    """
    frame = Frame()
    with frame:
        out = fn(*args, **kwargs)
    return out, frame.written_items()


def is_tracer(value) -> bool:
    return isinstance(value, jax.core.Tracer)


def concrete(value):
    """The concrete array behind ``value``: eager grad traces (JVP/linearize) carry their
    primal value, which PyNative code may print; None for abstract (jit) tracers."""
    while isinstance(value, jax.core.Tracer):
        value = getattr(value, "primal", None)
    return value


class CastFrame(Frame):
    """A frame whose floating slots read as ``dtype`` copies of their master values."""

    __slots__ = ("dtype",)

    def __init__(self, dtype, parent) -> None:
        super().__init__(parent=parent)
        self.dtype = dtype

    def _miss(self, slot):
        master = read_master(self.parent, slot)
        value = master
        if (
            self.dtype is not None
            and _dtype.is_floating(master.dtype)
            and master.dtype != self.dtype
        ):
            value = master.astype(self.dtype)
        self.values[id(slot)] = (slot, value)
        return value


def read_master(frame, slot):
    """The value of ``slot`` below every CastFrame from ``frame`` outwards."""
    while isinstance(frame, CastFrame):
        frame = frame.parent
    return frame.read(slot) if frame is not None else slot._data
