"""Row views: Parameters whose value is one row of a stacked ``[depth, ...]`` slot.

``nn.ScanCell`` stores its blocks' Parameters pre-stacked: for every Parameter position of a
block it keeps one hidden slot holding all blocks' values stacked on axis 0, and turns each
block's Parameter, in place (same object, name, flags, hooks), into a *row view* of that slot.
A row view is a complete Parameter: reading it gives its row, writing it (an optimizer update,
``set_data``, a checkpoint load) replaces its row. The state frame (``cellax/_core``) reads and
writes a row view through its stack, so a compiled program takes the stack as one input, and
``lax.scan`` runs over it without stacking anything; names, ``parameters_and_names()``,
``trainable_params()``, ``state_dict``, checkpoints and optimizers still see one Parameter per
block.
"""

from __future__ import annotations

import copy

import jax
import numpy as np

from .. import _core
from .._parameter import Parameter, StateTensor

__all__ = ["stack_rows", "is_row"]

# the storage of StateTensor's ``_data`` slot: a row view keeps ``(stack, index)`` there
_RAW = StateTensor.__dict__["_data"]


@jax.jit
def _put_row_copy(stack, row, index):
    return jax.lax.dynamic_update_index_in_dim(stack, row.astype(stack.dtype), index, 0)


_put_row = jax.jit(_put_row_copy.__wrapped__, donate_argnums=0)


class _RowParameter(Parameter):
    """A Parameter whose value is row ``index`` of the slot ``stack`` (see the module doc)."""

    __slots__ = ()

    @property
    def _stack_row(self):
        return _RAW.__get__(self)

    @property
    def _data(self):
        stack, index = _RAW.__get__(self)
        return stack._data[index]

    @_data.setter
    def _data(self, value) -> None:  # eager writes (no frame): replace the row in place
        stack, index = _RAW.__get__(self)
        current = stack._data
        if tuple(value.shape) != tuple(current.shape[1:]):
            raise ValueError(
                f"For 'Parameter.set_data', the shape of Parameter '{self.name}' can not change "
                f"while it is stored in a ScanCell: it is {tuple(current.shape[1:])}, but the "
                f"new data has shape {tuple(value.shape)}."
            )
        if _core.is_tracer(value):
            _core.store(stack, _put_row_copy(current, value, index))
        else:
            _core.store(stack, _put_row(current, value, np.int32(index)))

    @property
    def shape(self) -> tuple:
        return tuple(_core.read(_RAW.__get__(self)[0]).shape[1:])

    def __deepcopy__(self, memo):
        stack, index = _RAW.__get__(self)
        new_stack = copy.deepcopy(stack, memo)
        clone = Parameter.clone(self)
        _make_row(clone, new_stack, index)
        return clone

    def __reduce__(self):  # pickled with its stack (pickle keeps one stack for all rows)
        stack, index = _RAW.__get__(self)
        return (_rebuild_row, (stack, index, self.name, self.requires_grad))


_RowParameter.__name__ = _RowParameter.__qualname__ = "Parameter"


def _rebuild_row(stack, index, name, requires_grad):
    param = Parameter(stack._data[index], name=name, requires_grad=requires_grad)
    _make_row(param, stack, index)
    return param


def _make_row(param: Parameter, stack, index: int) -> None:
    param.__class__ = _RowParameter
    _RAW.__set__(param, (stack, index))


def is_row(param) -> bool:
    return getattr(param, "_stack_row", None) is not None


def stack_rows(columns: list) -> list:
    """Store each column of Parameters (one per block, same shape and dtype) as one stacked
    slot; every Parameter becomes a row view of it. Returns the stacked slots."""
    stacks = []
    for column in columns:
        first = column[0]
        stack = Parameter(
            jax.numpy.stack([_core.read(p) for p in column]),
            name=f"{first.name}.stacked",
            requires_grad=False,
        )
        for index, param in enumerate(column):
            _make_row(param, stack, index)
        stacks.append(stack)
    return stacks
