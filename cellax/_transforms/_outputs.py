"""What a compiled program takes and returns: the inputs its trace reads (liveness), and its
outputs split into arrays and the Python constants put back around them."""

from __future__ import annotations

import jax

from .._tensor import Tensor, wrap
from .._stacked import RowOf, row_of, whole_stacks

__all__ = ["used_inputs", "split_constants", "join_constants", "ONE_ARRAY", "is_device_value"]


def used_inputs(jaxpr, live_outputs=None) -> list:
    """Whether each input of ``jaxpr`` can affect one of its live outputs (default: all), by
    backward liveness: an equation counts when an output of it is live or it has effects; a
    nested ``jit`` is followed inside (an optimizer's step is one), other higher-order
    equations keep all their inputs."""
    if live_outputs is None:
        live_outputs = [True] * len(jaxpr.outvars)
    live = {id(v) for v, keep in zip(jaxpr.outvars, live_outputs) if keep}
    for eqn in reversed(jaxpr.eqns):
        outs = [id(v) in live for v in eqn.outvars]
        if not (any(outs) or eqn.effects):
            continue
        inner = eqn.params.get("jaxpr")
        if eqn.primitive.name in ("jit", "pjit") and hasattr(inner, "jaxpr") and not eqn.effects:
            keep = used_inputs(inner.jaxpr, outs)
        else:
            keep = [True] * len(eqn.invars)
        live.update(id(v) for v, k in zip(eqn.invars, keep) if k)
    return [id(v) in live for v in jaxpr.invars]


class _Row(tuple):
    """Template leaf: row ``row`` of the program's output ``index`` (a stack returned once)."""

    __slots__ = ()


def split_constants(out) -> tuple:
    """The array outputs of a traced function, and a template that puts its constants back.

    As in MindSpore, a Python number, string or NumPy array the function returns comes back
    as itself (not as a device array); every array the program computes comes back a Tensor.
    Row gradients (:class:`RowOf`) covering every row of their stack are returned as the stack,
    once, and come back as rows of it.
    """
    leaves, treedef = jax.tree_util.tree_flatten(out, is_leaf=lambda x: isinstance(x, Tensor))
    covered = whole_stacks(leaves)
    arrays: list = []  # the plain arrays in leaf order, then each whole stack once
    stacks: dict = {}  # id(stack) -> (its position among the stacks, the stack)
    template = []
    for leaf in leaves:
        if isinstance(leaf, RowOf) and id(leaf.base) in covered:
            k = stacks.setdefault(id(leaf.base), (len(stacks), leaf.base))[0]
            template.append(_Row((k, leaf.row)))
        elif isinstance(leaf, Tensor) or is_device_value(leaf):
            arrays.append(leaf)
            template.append(None)
        else:
            template.append(leaf)
    if stacks:  # a row's index: its stack's place after the plain arrays
        n = len(arrays)
        template = [_Row((n + t[0], t[1])) if type(t) is _Row else t for t in template]
        arrays.extend(stack for _, stack in stacks.values())
    if len(template) == 1 and template[0] is None and treedef.num_nodes == 1:
        return arrays, ONE_ARRAY
    return arrays, (treedef, template)


ONE_ARRAY = ("one array",)  # the template of an output that is one array


def join_constants(arrays, template):
    """The output :func:`split_constants` split: Tensors around the program's arrays."""
    if template is ONE_ARRAY:
        return wrap(arrays[0])
    treedef, leaves = template
    plain = iter(arrays)  # the plain arrays come first, in leaf order (split_constants)
    filled = []
    for leaf in leaves:
        if leaf is None:
            filled.append(wrap(next(plain)))
        elif type(leaf) is _Row:
            filled.append(row_of(arrays[leaf[0]], leaf[1]))
        else:
            filled.append(leaf)
    return jax.tree_util.tree_unflatten(treedef, filled)


def is_device_value(x) -> bool:
    return isinstance(x, (jax.Array, jax.core.Tracer))
