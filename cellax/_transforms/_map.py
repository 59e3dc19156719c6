"""vmap, checkpointed calls and recompute: stateful functions under vmap/checkpoint."""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp

from .. import _core
from .._core import slots_of
from .._tensor import Tensor, unwrap, wrap_tree
from . import _trace

__all__ = ["vmap", "checkpoint_call", "recompute", "scan"]


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorize ``fn`` over a batch axis (``mindspore.vmap``), also over Cells and grads.

    Parameters read inside are shared across the batch; a function that writes state must
    write unbatched values.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(ms.vmap(lambda row: (row * row).sum())(x))
        [ 5. 25.]
    """

    @ft.wraps(fn)
    def batched(*args):
        stateful = _trace.functionalize(fn, convert=True, tensors_in=True, arrays_out=True)
        axes = in_axes if isinstance(in_axes, (tuple, list)) else in_axes
        out, new_values = jax.vmap(
            lambda *call_args: stateful((), *call_args), in_axes=axes, out_axes=(out_axes, None)
        )(*[unwrap(a) if isinstance(a, Tensor) else a for a in args])
        stateful.commit(new_values)
        return wrap_tree(out)

    return batched


def checkpoint_call(fn, slots, args, kwargs, policy=None):
    """Call ``fn(*args, **kwargs)`` as ``jax.checkpoint`` of its pure function over ``slots``.

    Intermediate values are recomputed in the backward pass instead of stored.
    """
    values = [_core.read(slot) for slot in slots]
    dynamic, static = _core.partition((args, kwargs))
    stateful = _trace.functionalize(fn, slots, convert=True, arrays_out=True)

    @ft.partial(jax.checkpoint, policy=policy, prevent_cse=True)
    def pure(values, dynamic):
        call_args, call_kwargs = _core.combine(dynamic, static)
        return stateful(values, *call_args, **call_kwargs)

    out, new_values = pure(values, dynamic)
    stateful.commit(new_values)
    return wrap_tree(out)


def recompute(
    block,
    *args,
    use_reentrant=True,
    output_recompute=False,
    early_stop=True,
    context_fn=None,
    **kwargs,
):
    """Call ``block(*args, **kwargs)`` recomputing its activations in the backward pass
    (``mindspore.recompute``), as ``jax.checkpoint`` of its pure function.

    Args:
        block (Union[Cell, Callable]): The Cell or function to run.
        *args: Its inputs.
        use_reentrant, output_recompute, early_stop, context_fn: Accepted for compatibility.
        **kwargs: Its keyword inputs.

    Returns:
        The output of ``block``.

    Raises:
        TypeError: If ``block`` is not callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        >>> x = ms.Tensor([[1.0, 2.0]])
        >>> print(ms.grad(lambda x: ms.recompute(net, x))(x))
        [[2. 2.]]
    """
    if not callable(block):
        raise TypeError(
            f"For 'recompute', 'block' must be a Cell or a function, but got {block!r}."
        )
    slots: dict = {}
    collect = getattr(type(block), "_cellax_collect", None)
    if collect is not None:
        collect(block, slots, {})
    else:
        slots_of(block, slots, {}, [], set())
    return checkpoint_call(block, list(slots.values()), args, kwargs)


def scan(fn, columns: list, x, length: int, policy=None, api="ScanCell", name="block"):
    """Run ``x = fn(x)`` once per block as one ``lax.scan`` over the blocks' slots.

    ``length`` is the number of blocks; ``columns[k]`` is either a slot holding every block's value stacked on axis 0 (its row
    views, block 0's at index 0, are what ``fn`` reads), or the list of the blocks' own slots
    for that position (stacked here, unstacked back when written). ``fn`` is traced once,
    reading block 0's slots as those of the current block. Slots it writes are written back;
    writing any other slot is an error, and so is returning a value whose structure, shapes or
    dtypes differ from ``x``. ``policy`` (True or a ``jax.checkpoint_policies`` policy)
    recomputes each block in the backward pass.
    """
    stacked_column = [not isinstance(c, (list, tuple)) for c in columns]
    template_slots = [c if is_stack else c[0] for c, is_stack in zip(columns, stacked_column)]
    owned = {id(slot) for slot in template_slots}
    xs = [
        _core.read(c) if is_stack else jnp.stack([_core.read(s) for s in c])
        for c, is_stack in zip(columns, stacked_column)
    ]
    carry_leaves, carry_tree = jax.tree_util.tree_flatten(x)
    stateful = _trace.functionalize(
        lambda carry: fn(jax.tree_util.tree_unflatten(carry_tree, carry)), template_slots
    )

    def body(carry, layer_values):
        # a stacked slot holds the current block's row as a [1, ...] stack: row view 0
        layer_values = [v[None] if s else v for v, s in zip(layer_values, stacked_column)]
        out, new_values = stateful(layer_values, carry)
        foreign = [slot for slot in stateful.written if id(slot) not in owned]
        if foreign:
            raise NotImplementedError(
                f"For '{api}', a block may write only its own Parameters and buffers, but "
                f"'{name}' wrote {foreign!r} (random ops such as Dropout "
                f"draw from the global key): run such blocks in a Python loop."
            )
        out_leaves, out_tree = jax.tree_util.tree_flatten(out)
        if out_tree != carry_tree or any(
            not isinstance(o, (jax.Array, jax.core.Tracer))
            or o.shape != c.shape
            or o.dtype != c.dtype
            for o, c in zip(out_leaves, carry)
        ):
            got = [
                (tuple(getattr(o, "shape", ())), str(getattr(o, "dtype", type(o))))
                for o in out_leaves
            ]
            raise ValueError(
                f"For '{api}', each block must return a value with the structure, shapes "
                f"and dtypes of its input x, but '{name}' maps "
                f"{[(tuple(c.shape), str(c.dtype)) for c in carry]} to {got}."
            )
        index = {id(slot): k for k, slot in enumerate(template_slots)}
        new_values = [
            v[0] if stacked_column[index[id(slot)]] else v
            for slot, v in zip(stateful.written, new_values)
        ]
        return out_leaves, new_values

    if policy is not None:
        body = jax.checkpoint(body, policy=None if policy is True else policy, prevent_cse=False)
    out_leaves, new_stacked = jax.lax.scan(body, carry_leaves, xs, length=length)
    index = {id(slot): k for k, slot in enumerate(template_slots)}
    for slot, values in zip(stateful.written or (), new_stacked):
        k = index[id(slot)]
        if stacked_column[k]:
            _core.write(slot, values)
            continue
        for i, block_slot in enumerate(columns[k]):
            _core.write(block_slot, values[i])
    return jax.tree_util.tree_unflatten(carry_tree, out_leaves)
