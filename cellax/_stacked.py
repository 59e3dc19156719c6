"""Stacked state: a ScanCell's Parameters stored as rows of one ``[depth, ...]`` slot.

``nn.ScanCell`` stores its blocks' Parameters pre-stacked: for every Parameter position of a
block it keeps one hidden slot holding all blocks' values stacked on axis 0, and turns each
block's Parameter, in place (same object, name, flags, hooks), into a *row view* of that slot
(:func:`stack_rows`). A row view is a complete Parameter: reading it gives its row, writing it
(an optimizer update, ``set_data``, a checkpoint load) replaces its row. Names,
``parameters_and_names()``, ``trainable_params()``, ``state_dict``, checkpoints and optimizers
still see one Parameter per block, while a compiled program takes the stack as one input and
``lax.scan`` runs over it without stacking anything.

Everything that knows about rows is here:

* the row view is a kind of slot (:class:`_RowParameter`) implementing the slot protocol of
  ``_core/_frame.py`` (``_backing``, ``_read_in``, ``_write_in``, ``_settle``, ``_part_of``,
  ``_with_part``): frames hold, read and write its stack, and ``grad`` differentiates the stack
  once, a row view's gradient being its row;
* that gradient is a :class:`RowOf` Tensor (sliced when read), so that ``jit`` returns a
  stack's gradient once when every row of it is returned (:func:`whole_stacks`);
* an optimizer given every row of a stack keeps its state stacked the same way and updates the
  stack with one vectorized step (:func:`find_row_groups`, :func:`grouped_updates`).
"""

from __future__ import annotations

import copy

import jax
import jax.numpy as jnp
import numpy as np

from . import _core
from ._parameter import Parameter, StateTensor
from ._tensor import Tensor, _flatten, _new, _unflatten, unwrap

__all__ = [
    "stack_rows",
    "is_row",
    "RowOf",
    "row_of",
    "whole_stacks",
    "find_row_groups",
    "stack_state_rows",
    "optimizer_gradient",
    "whole_stack_gradients",
    "grouped_updates",
]

# the storage of StateTensor's ``_data`` slot: a row view keeps ``(stack, index)`` there
_RAW = StateTensor.__dict__["_data"]


@jax.jit
def _put_row_copy(stack, row, index):
    return jax.lax.dynamic_update_index_in_dim(stack, row.astype(stack.dtype), index, 0)


_put_row = jax.jit(_put_row_copy.__wrapped__, donate_argnums=0)


# -- the row view: a slot whose value is a row of another ------------------------------------
class _RowParameter(Parameter):
    """A Parameter whose value is row ``index`` of the slot ``stack`` (see the module doc)."""

    __slots__ = ()

    @property
    def _stack_row(self):
        return _RAW.__get__(self)

    # the slot protocol (``_core.Slot``): a frame holds the stack, never the row view
    def _backing(self):
        return _RAW.__get__(self)[0]

    def _read_in(self, frame):
        stack, index = _RAW.__get__(self)
        return frame.read(stack)[index]

    def _write_in(self, frame, value) -> None:
        stack, index = _RAW.__get__(self)
        frame.write(stack, frame.read(stack).at[index].set(value))

    @staticmethod
    def _settle(frame, items) -> None:
        """Row views given to a new frame become substitutions of their stacks (every row
        given: the rows stacked; some: the stack read through the frame with them replaced)."""
        by_stack: dict = {}
        for view, value in items:
            frame.values.pop(id(view), None)  # a view given twice: its last value
            stack, index = _RAW.__get__(view)
            by_stack.setdefault(id(stack), (stack, {}))[1][index] = value
        for stack, given in by_stack.values():
            depth = stack._data.shape[0]
            if len(given) == depth and id(stack) not in frame.values:
                value = jnp.stack([given[i] for i in range(depth)])
            else:
                value = frame.read(stack)
                for index, row in given.items():
                    value = value.at[index].set(row)
            frame.values[id(stack)] = (stack, value)

    def _part_of(self, value, lazy: bool = False):
        index = _RAW.__get__(self)[1]
        return row_of(value, index) if lazy else value[index]

    def _with_part(self, value, fn):
        index = _RAW.__get__(self)[1]
        return value.at[index].set(fn(value[index]))

    # eager values (no frame)
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
    return isinstance(param, _RowParameter)


def stack_rows(columns: list) -> list:
    """Store each column of Parameters (one per block, same shape and dtype) as one stacked
    slot; every Parameter becomes a row view of it. Returns the stacked slots."""
    stacks = []
    for column in columns:
        first = column[0]
        stack = Parameter(
            jnp.stack([_core.read(p) for p in column]),
            name=f"{first.name}.stacked",
            requires_grad=False,
        )
        for index, param in enumerate(column):
            _make_row(param, stack, index)
        stacks.append(stack)
    return stacks


# -- a row view's gradient -------------------------------------------------------------------
class RowOf(Tensor):
    """Row ``row`` of the array ``base``, sliced when first read: the gradient of a row view,
    so that a compiled gradient can hand back the stacked gradient once instead of one sliced
    copy per block (``jit`` returns the base when every row of it is returned). Otherwise a
    Tensor like any other."""

    __slots__ = ("base", "row", "_sliced")

    @property
    def _value(self):
        sliced = self._sliced
        if sliced is None:
            sliced = self._sliced = self.base[self.row]
        return sliced

    @_value.setter
    def _value(self, array) -> None:  # an in-place write: the Tensor no longer views ``base``
        self._sliced = array
        self.base = None


def row_of(base, row: int) -> Tensor:
    """A Tensor of row ``row`` of ``base``, sliced when read (see :class:`RowOf`)."""
    tensor_ = _new(RowOf)
    tensor_.base, tensor_.row, tensor_._sliced = base, row, None
    return tensor_


jax.tree_util.register_pytree_node(RowOf, _flatten, _unflatten)


def whole_stacks(leaves) -> set:
    """ids of the stacks every row of which is among ``leaves`` as a :class:`RowOf`."""
    rows: dict = {}
    for leaf in leaves:
        if isinstance(leaf, RowOf) and leaf.base is not None:
            rows.setdefault(id(leaf.base), (leaf.base, set()))[1].add(leaf.row)
    return {key for key, (base, seen) in rows.items() if len(seen) == base.shape[0]}


# -- optimizers over stacks: one vectorized update per stack ---------------------------------
# An optimizer given every row of a stack (the usual ``net.trainable_params()``) keeps its
# per-parameter state (moments...) stacked the same way, and updates the whole stack with its
# one-parameter rule under ``jax.vmap``: the same arithmetic per row as separate Parameters, but
# read and written as one array, so a compiled train step updates the stack in place (writing
# rows one by one after reading them all would make XLA copy the stack).
def find_row_groups(opt) -> tuple:
    """``((positions ordered by row, stack), ...)`` for every stack all of whose rows the
    optimizer updates with one learning rate, decay flag and centralization flag."""
    by_stack: dict = {}
    for i, param in enumerate(opt._parameters):
        if is_row(param):
            stack, index = param._stack_row
            by_stack.setdefault(id(stack), (stack, {}))[1][index] = i
    groups = []
    for stack, rows in by_stack.values():
        depth = stack._data.shape[0]
        if len(rows) != depth:
            continue
        positions = tuple(rows[r] for r in range(depth))
        keys = {
            (opt._lr_of[i], opt._decay_flags[i], opt._gc_flags[i], opt._parameters[i].dtype)
            for i in positions
        }
        if len(keys) == 1:
            groups.append((positions, stack))
    return tuple(groups)


def stack_state_rows(opt, clones) -> None:
    """Store the state slots of every row group's Parameters stacked like the group."""
    for positions, _ in opt._row_groups:
        stack_rows([[clones[i] for i in positions]])


def optimizer_gradient(grad) -> tuple:
    """``(array, shape)`` of a gradient given to an optimizer; a row gradient stays a lazy
    :class:`RowOf` (its stack may be used whole: :func:`whole_stack_gradients`)."""
    if isinstance(grad, RowOf) and grad.base is not None:
        return grad, tuple(grad.base.shape[1:])
    array = unwrap(grad)
    if not hasattr(array, "shape"):
        array = jnp.asarray(array)
    return array, tuple(array.shape)


def whole_stack_gradients(groups, arrays: list) -> list:
    """``arrays`` as the step takes them: a row group whose rows are exactly the rows of one
    stacked gradient gets that gradient, whole, at its first position (None at the others);
    other row gradients are sliced."""
    arrays = list(arrays)
    for positions, _ in groups:
        rows = [arrays[i] for i in positions]
        base = getattr(rows[0], "base", None)
        if (
            base is not None
            and base.shape[0] == len(rows)
            and all(
                isinstance(r, RowOf) and r.base is base and r.row == k for k, r in enumerate(rows)
            )
        ):
            arrays[positions[0]] = base
            for i in positions[1:]:
                arrays[i] = None
    return [a._value if isinstance(a, RowOf) else a for a in arrays]


def grouped_updates(opt, step_one, lrs, wds, hyper_now, count, params, grads, states):
    """Run ``step_one`` (one parameter's update) once per row group under ``jax.vmap``.

    ``params``/``states`` hold the groups' stacked values at the positions of their first
    rows (None at the other rows); returns ``{first position: (new stack, new states)}``.
    """
    out = {}
    for positions, _ in opt._row_groups:
        first = positions[0]
        stacked_grad = grads[first]  # the stack's gradient, when it came whole (RowOf rows)
        if stacked_grad.ndim != params[first].ndim:
            stacked_grad = jnp.stack([grads[i] for i in positions])
        stacked_wd = jnp.stack([jnp.asarray(wds[i]) for i in positions])

        def one(wd, param, grad, state, first=first):
            wds_row = list(wds)
            wds_row[first] = wd
            return step_one(lrs, wds_row, hyper_now, count, first, param, grad, state)

        out[first] = jax.vmap(one)(stacked_wd, params[first], stacked_grad, states[first])
    return out
