"""vmap, checkpointed calls and recompute: stateful functions under vmap/checkpoint."""

from __future__ import annotations

import functools as ft

import jax

from .. import _core as _state
from .._core import Frame
from .._core import is_array as _is_array
from .._core import slots_of as _scan_roots
from .._core import to_arrays as _to_arrays
from .._tensor import Tensor, unwrap
from .._tensor import wrap_tree as _to_tensors

__all__ = ["vmap", "checkpoint_call", "recompute"]


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
        parent = _state.current_frame()
        written: list = []

        def pure(*call_args):
            frame = Frame(parent=parent)
            with frame:
                out = fn(*_to_tensors(call_args))
            items = frame.written_items()
            written[:] = [slot for slot, _ in items]
            return _to_arrays(out), [value for _, value in items]

        axes = in_axes if isinstance(in_axes, (tuple, list)) else in_axes
        out, new_values = jax.vmap(pure, in_axes=axes, out_axes=(out_axes, None))(
            *[unwrap(a) if isinstance(a, Tensor) else a for a in args]
        )
        _state.commit(zip(written, new_values))
        return _to_tensors(out)

    return batched


def checkpoint_call(fn, slots, args, kwargs, policy=None):
    """Call ``fn(*args, **kwargs)`` as ``jax.checkpoint`` of its pure function over ``slots``.

    Intermediate values are recomputed in the backward pass instead of stored.
    """
    parent = _state.current_frame()
    values = [_state.read(slot) for slot in slots]
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    is_dynamic = [_is_array(leaf) for leaf in leaves]
    dynamic = [leaf for leaf, d in zip(leaves, is_dynamic) if d]
    written: list = []

    @ft.partial(jax.checkpoint, policy=policy, prevent_cse=True)
    def pure(values, dynamic):
        it = iter(dynamic)
        call_leaves = [next(it) if d else leaf for d, leaf in zip(is_dynamic, leaves)]
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, call_leaves)
        frame = Frame(slots, values, parent)
        with frame:
            out = fn(*call_args, **call_kwargs)
        items = frame.written_items()
        written[:] = [slot for slot, _ in items]
        return _to_arrays(out), [value for _, value in items]

    out, new_values = pure(values, dynamic)
    _state.commit(zip(written, new_values))
    return _to_tensors(out)


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
        _scan_roots(block, slots, {}, [], set())
    return checkpoint_call(block, list(slots.values()), args, kwargs)
