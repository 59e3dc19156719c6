"""``mutable``: mark a Python scalar (or a tuple/list of them) as a variable jit input."""

from __future__ import annotations

import jax.numpy as jnp

from .._tensor import Tensor, wrap

__all__ = ["mutable"]


def _to_tensor(value):
    if isinstance(value, Tensor):
        return value
    if type(value) is bool:
        return wrap(jnp.asarray(value, jnp.bool_))
    if type(value) is int:
        return wrap(jnp.asarray(value, jnp.int64))
    if type(value) is float:
        return wrap(jnp.asarray(value, jnp.float32))
    if isinstance(value, (tuple, list)):
        return type(value)(_to_tensor(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_tensor(v) for k, v in value.items()}
    raise TypeError(
        f"For 'mutable', the 'input_data' must be a number, a Tensor, or a tuple, list or dict "
        f"of them, but got {type(value).__name__}."
    )


def mutable(input_data, dynamic_len: bool = False):
    """Make ``input_data`` a variable input of ``cellax.jit`` (``mindspore.mutable``).

    A Python number passed to a jitted function is a compile-time constant (a new value
    compiles again); ``mutable(n)`` passes it as a 0-d Tensor instead, so one program serves
    every value and ``range(mutable(n))`` is a real loop.

    Args:
        input_data (Union[int, float, bool, Tensor, tuple, list, dict]): The value.
        dynamic_len (bool): Whether a sequence may change length. Default: ``False``.

    Returns:
        The value with every number turned into a 0-d Tensor (Int64, Float32 or Bool).

    Raises:
        TypeError: If ``input_data`` holds other objects.
        ValueError: If ``dynamic_len`` is True.

    Examples:
        >>> import cellax as ms
        >>> print(ms.mutable(3), ms.mutable(3).dtype)
        3 Int64

    Differences from MindSpore: the result is a plain 0-d Tensor; ``dynamic_len=True`` is
    not supported (XLA shapes are static).
    """
    if dynamic_len:
        raise ValueError(
            "For 'mutable', 'dynamic_len=True' is not supported: XLA programs have static "
            "shapes, so a sequence keeps its length. Pass a Tensor instead."
        )
    return _to_tensor(input_data)
