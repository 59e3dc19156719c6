"""Optimizers over a ScanCell's stacked Parameters: one vectorized update per stack.

A ScanCell stores its blocks' Parameters as row views of one ``[depth, ...]`` slot per
Parameter position (``nn/_stacked.py``). An optimizer given every row of such a stack (the usual
``net.trainable_params()``) keeps its per-parameter state (moments...) stacked the same way,
and updates the whole stack with its one-parameter rule under ``jax.vmap``: the same
arithmetic per row as separate Parameters, but read and written as one array, so a compiled
train step updates the stack in place (writing rows one by one after reading them all would
make XLA copy the stack).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._stacked import stack_rows

__all__ = ["find_row_groups", "stack_state_rows", "grouped_updates"]


def find_row_groups(opt) -> tuple:
    """``((positions ordered by row, stack), ...)`` for every stack all of whose rows the
    optimizer updates with one learning rate, decay flag and centralization flag."""
    by_stack: dict = {}
    for i, param in enumerate(opt._parameters):
        row = param._stack_row
        if row is not None:
            by_stack.setdefault(id(row[0]), (row[0], {}))[1][row[1]] = i
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
