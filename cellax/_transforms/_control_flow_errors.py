"""Run-time errors of converted code: ``raise``/``assert`` under a Tensor condition.

The error is an int32 slot carried like any Parameter: raising under a traced condition writes
a code into it; a compiled program that ends with the code set returns the old values of every
slot (nothing is committed) and ``cellax.jit`` raises the recorded exception after the run.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _core
from .._core import Slot

__all__ = ["ERROR", "raise_", "raise_if", "pending_error", "select_on_error"]

_table: list = []  # code - 1 -> (exception type, message)
_branch_depth = [0]


class _ErrorSlot(Slot):
    __slots__ = ("_value",)
    donatable = False

    def __init__(self) -> None:
        self._value = None

    @property
    def _data(self):
        # built on first use: ``import cellax`` must not start the XLA backend, or
        # ``communication.init()`` (jax.distributed.initialize) could no longer run
        if self._value is None:
            with jax.ensure_compile_time_eval():  # concrete even when first read in a trace
                self._value = jnp.zeros((), jnp.int32)
        return self._value

    @_data.setter
    def _data(self, value) -> None:
        self._value = value

    def __repr__(self) -> str:
        return "<cellax run-time error slot>"


ERROR = _ErrorSlot()


class traced_branch:
    """Context: code runs in a branch or loop body traced under a Tensor condition."""

    def __enter__(self):
        _branch_depth[0] += 1

    def __exit__(self, *exc):
        _branch_depth[0] -= 1


def _code(exc_type, message) -> int:
    entry = (exc_type, message)
    if entry in _table:
        return _table.index(entry) + 1
    _table.append(entry)
    return len(_table)


def raise_if(pred, exc_type, message: str) -> None:
    """Raise ``exc_type(message)`` after the compiled run where the traced ``pred`` holds."""
    code = _code(exc_type, message)
    current = _core.read(ERROR)
    _core.write(ERROR, jnp.where(jnp.logical_and(current == 0, pred), code, current))


def raise_(exception, loc: str = "") -> None:
    """``raise exception``: at once, or recorded when inside a traced branch."""
    if _branch_depth[0] == 0 or _core.current_frame() is None:
        raise exception
    exc_type = exception if isinstance(exception, type) else type(exception)
    message = "" if isinstance(exception, type) else str(exception)
    raise_if(jnp.asarray(True), exc_type, message)


def select_on_error(error_value, slots, new_values, old_values) -> list:
    """New slot values, or the old ones where the program recorded an error (commit nothing)."""
    failed = error_value != 0
    return [
        new if slot is ERROR else jnp.where(failed, old, new)
        for slot, new, old in zip(slots, new_values, old_values)
    ]


def pending_error():
    """The exception recorded by the last compiled run (and clear it), or None."""
    if ERROR._value is None:
        return None
    code = int(np.asarray(ERROR._data))
    if code == 0:
        return None
    _core.store(ERROR, jnp.zeros((), jnp.int32))
    exc_type, message = _table[code - 1]
    return exc_type(message)
