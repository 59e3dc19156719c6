"""A way out to raw JAX: a Cell's state as a dict of arrays and the Cell as a pure function."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import _core
from .._random import RNG_STATE
from .._tensor import Tensor, unwrap, wrap_tree

__all__ = ["state", "functional_call", "load_state"]

RNG_KEY = "rng"  # the entry ``state(cell, rng=True)`` adds for the global random key


def _named_slots(cell, api: str) -> dict:
    """``{path: slot}`` for every Parameter and buffer ``cell`` reaches (shared slots once)."""
    if not hasattr(cell, "parameters_and_names") or not hasattr(cell, "named_buffers"):
        raise TypeError(f"For '{api}', 'cell' must be a Cell, but got {type(cell).__name__}.")
    named: dict = {}
    seen: set = set()
    pairs = list(cell.parameters_and_names()) + list(cell.named_buffers())
    for path, slot in pairs:
        if slot is not None and id(slot) not in seen:
            seen.add(id(slot))
            named[path] = slot
    return named


def state(cell, rng: bool = False) -> dict:
    """The arrays of every Parameter and buffer ``cell`` reaches, by attribute path.

    Args:
        cell (Cell): The network (an optimizer is a Cell too).
        rng (bool): Also return the global random key under ``"rng"`` (needed by
            :func:`functional_call` when the Cell draws random numbers, e.g. Dropout in
            training). Default: ``False``.

    Returns:
        dict[str, jax.Array]: ``{"dense1.weight": array, ...}`` in ``parameters_and_names``
        order, then the buffers (non-persistent ones included); a slot shared by two paths
        appears once, under its first path.

    Raises:
        TypeError: If ``cell`` is not a Cell.

    Examples:
        >>> from cellax import nn
        >>> values = state(nn.Dense(3, 2))
        >>> {k: v.shape for k, v in values.items()}
        {'weight': (2, 3), 'bias': (2,)}
    """
    values = {path: _core.read(slot) for path, slot in _named_slots(cell, "state").items()}
    if rng:
        values[RNG_KEY] = _core.read(RNG_STATE)
    return values


class _ExactFrame(_core.Frame):
    """Holds exactly the given values: reading any other slot is an error naming it."""

    __slots__ = ("paths",)

    def __init__(self, slots, values, paths: dict) -> None:
        self.paths = paths  # first: holding row views may read (and miss) their stack
        super().__init__(slots, values, None)

    def _miss(self, slot):
        if slot is RNG_STATE:
            raise KeyError(
                "For 'functional_call', the Cell draws random numbers, but 'values' has no "
                "'rng' entry. Use cellax.state(cell, rng=True)."
            )
        path = self.paths.get(id(slot))
        where = f"'{path}'" if path else repr(slot)
        raise KeyError(
            f"For 'functional_call', the Cell reads {where}, but 'values' has no entry for it. "
            f"Pass every entry of cellax.state(cell)."
        )


def functional_call(cell, values: dict, *args, **kwargs):
    """Run ``cell(*args, **kwargs)`` as a pure function of ``values``.

    The Cell runs in a state frame holding exactly ``values`` (see :func:`state`); it touches
    no Python object, so the call composes with raw ``jax.jit``, ``jax.grad``/``jax.vmap``
    over ``values``, ``optax.apply_updates`` and checkpoint libraries.

    Args:
        cell (Cell): The network.
        values (dict[str, jax.Array]): One array per entry of ``state(cell)`` (plus ``"rng"``
            when the Cell draws random numbers).
        *args, **kwargs: The Cell's inputs (Tensors or arrays).

    Returns:
        tuple: ``(out, new_values)``: the output with Tensors as arrays, and ``values`` with
        the entries the call wrote (BatchNorm statistics, the random key, ...) updated.

    Raises:
        TypeError: If ``cell`` is not a Cell.
        KeyError: If ``values`` has an unknown entry, or misses one the Cell reads.

    Examples:
        >>> import jax, optax
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
        >>> x = np.ones((4, 2), np.float32)
        >>> y = np.full((4, 1), 3.0, np.float32)
        >>> def loss_fn(values):
        ...     out, _ = ms.functional_call(net, values, x)
        ...     return ((out - y) ** 2).mean()
        >>> tx = optax.sgd(0.1)
        >>> @jax.jit
        ... def train_step(values, opt_state):
        ...     loss, grads = jax.value_and_grad(loss_fn)(values)
        ...     updates, opt_state = tx.update(grads, opt_state)
        ...     return optax.apply_updates(values, updates), opt_state, loss
        >>> values = ms.state(net)
        >>> opt_state = tx.init(values)
        >>> for _ in range(50):
        ...     values, opt_state, loss = train_step(values, opt_state)
        >>> print(f"{float(loss):.4f}")
        0.0000
        >>> ms.load_state(net, values)
        >>> print(net(ms.Tensor(x[:1])))
        [[3.]]
    """
    named = _named_slots(cell, "functional_call")
    unknown = sorted(set(values) - set(named) - {RNG_KEY})
    if unknown:
        raise KeyError(
            f"For 'functional_call', 'values' has entries the Cell does not hold: {unknown}. "
            f"Build it with cellax.state(cell)."
        )
    keys = [k for k in values if k in named or k == RNG_KEY]
    slots = [RNG_STATE if k == RNG_KEY else named[k] for k in keys]
    paths = {id(slot): path for path, slot in named.items()}
    frame = _ExactFrame(slots, [jnp.asarray(values[k]) for k in keys], paths)
    with frame:
        out = cell(*wrap_tree(args), **wrap_tree(kwargs))
    new_values = dict(values)
    for key, slot in zip(keys, slots):
        if id(_core.backing(slot)) in frame.written:  # a row view: its stack was written
            new_values[key] = frame.value_of(slot)
    out = jax.tree_util.tree_map(unwrap, out, is_leaf=lambda x: isinstance(x, Tensor))
    return out, new_values


def load_state(cell, values: dict) -> None:
    """Write ``values`` (as from :func:`state` or :func:`functional_call`) into the Cell's
    Parameters and buffers (and the global random key for ``"rng"``).

    Raises:
        TypeError: If ``cell`` is not a Cell.
        KeyError: If an entry names no Parameter or buffer of the Cell.
        ValueError: If an array's shape differs from the slot's.

    Examples:
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> values = {k: v * 0 + 1 for k, v in state(net).items()}
        >>> load_state(net, values)
        >>> print(net.weight.asnumpy())
        [[1. 1.]]
    """
    named = _named_slots(cell, "load_state")
    targets = []
    for key, value in values.items():
        slot = RNG_STATE if key == RNG_KEY else named.get(key)
        if slot is None:
            raise KeyError(f"For 'load_state', the Cell has no Parameter or buffer '{key}'.")
        array = jnp.asarray(value)
        if array.shape != _core.read(slot).shape:
            raise ValueError(
                f"For 'load_state', '{key}' has shape {_core.read(slot).shape}, but the value "
                f"has shape {array.shape}."
            )
        if _core.is_tracer(array):
            raise ValueError(
                f"For 'load_state', '{key}' is a traced value: call load_state outside "
                f"jax.jit/grad with concrete arrays."
            )
        targets.append((slot, array))
    if _core.current_frame() is not None:
        raise RuntimeError("For 'load_state', call it eagerly, not inside a cellax transform.")
    for slot, array in targets:
        _core.write(slot, jax.device_put(array))
