"""Ops that touch state or gradients: assign, stop_gradient, depend."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._parameter import StateTensor
from ..._tensor import Tensor
from .primitive import primitive
from .utils import arr, wrap

__all__ = [
    "assign",
    "assign_add",
    "assign_sub",
    "stop_gradient",
    "depend",
    "Assign",
    "AssignAdd",
    "AssignSub",
    "StopGradient",
    "Depend",
]


def _check_target(api: str, variable):
    if not isinstance(variable, StateTensor):
        raise TypeError(
            f"For '{api}', 'variable' must be a Parameter (or buffer), but got "
            f"{type(variable).__name__}."
        )


def assign(variable, value):
    """Write ``value`` into the Parameter ``variable`` (eagerly or inside jit); return it.

    Raises:
        TypeError: If ``variable`` is not a Parameter.
        ValueError: If the shapes can not be broadcast to the Parameter's shape.
    """
    _check_target("assign", variable)
    current = variable._value
    new = jnp.asarray(arr(value))
    if new.shape != current.shape:
        try:
            new = jnp.broadcast_to(new, current.shape)
        except ValueError:
            raise ValueError(
                f"For 'assign', the shape of 'value' {new.shape} must match the shape of "
                f"Parameter '{getattr(variable, 'name', '')}' {current.shape}."
            ) from None
    variable._value = new.astype(current.dtype)
    return variable


def assign_add(variable, value):
    """``variable += value`` for a Parameter; return it."""
    _check_target("assign_add", variable)
    return assign(variable, variable._value + arr(value))


def assign_sub(variable, value):
    """``variable -= value`` for a Parameter; return it."""
    _check_target("assign_sub", variable)
    return assign(variable, variable._value - arr(value))


def stop_gradient(value):
    """Identity whose gradient is zero (works on Tensors and tuples of them)."""
    # a Tensor is a pytree around its array: treat it as a leaf, or it would be wrapped twice
    return jax.tree_util.tree_map(
        lambda x: wrap(jax.lax.stop_gradient(arr(x))),
        value,
        is_leaf=lambda x: isinstance(x, Tensor),
    )


def depend(value, expr):
    """Return ``value``; ``expr`` is evaluated first (JAX orders by data dependence)."""
    return value


Assign = primitive("Assign", assign)


AssignAdd = primitive("AssignAdd", assign_add)


AssignSub = primitive("AssignSub", assign_sub)


StopGradient = primitive("StopGradient", stop_gradient)


Depend = primitive("Depend", depend)
