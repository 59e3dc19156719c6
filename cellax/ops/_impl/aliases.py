"""Names MindSpore 2.10 keeps in ``mindspore.ops`` for ops cellax already has under another
name (``tensor_add``, ``upsample``, ``grad``...), and small value ops (identity, range, ...)."""

from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype, _transforms
from ..._tensor import Tensor
from .resample import interpolate
from .ufuncs import add, floor_mod, mul, subtract, true_divide
from .utils import arr, np_dtype, static_value, wrap

__all__ = [
    "identity",
    "deepcopy",
    "range",
    "scalar_to_tensor",
    "tensor_add",
    "tensor_sub",
    "tensor_mul",
    "tensor_div",
    "tensor_mod",
    "upsample",
    "grad",
    "value_and_grad",
    "vmap",
    "jvp",
    "vjp",
    "jacfwd",
    "jacrev",
    "linearize",
    "derivative",
    "jet",
    "get_grad",
]


def identity(x):
    """Return ``x`` unchanged.

    As MindSpore 2.10's ``ops.identity`` (``Prim[identity]``), any value passes, a tuple of
    Tensors included (mindyolo's single-device gradient "reducer" is
    ``ops.functional.identity``); ``ops.Identity()`` is the one that takes only a Tensor.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.identity(ms.Tensor([1, 2])))
        [1 2]
    """
    return x


def deepcopy(input_x):
    """A copy of the Tensor ``input_x`` that shares no storage with it.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.deepcopy(ms.Tensor([1., 2.])))
        [1. 2.]
    """
    return wrap(jnp.array(arr(input_x, "deepcopy", "input_x", keep_scalars=False), copy=True))


def range(start, end, step, maxlen=1000000):
    """``[start, start + step, ...)`` up to ``end`` (exclusive); Int64 when all three arguments
    are integers, Float32 when all are floats (eager only: the length depends on values).

    Args:
        start, end, step (Union[int, float, Tensor]): Numbers or one-element Tensors, all
            integers or all floats.
        maxlen (int): Accepted for compatibility; like MindSpore 2.10 on CPU, it does not limit
            the output. Default: ``1000000``.

    Raises:
        TypeError: If an argument is not a number or a Tensor, is a bool, or the arguments mix
            integers and floats.
        ValueError: If ``step`` is 0 or moves away from ``end``, or a Tensor has several values.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.range(0, 10, 3))
        [0 3 6 9]
    """
    values = []
    for arg, v in zip(("start", "end", "step"), (start, end, step)):
        v = static_value("range", arg, v) if isinstance(v, Tensor) else v
        if isinstance(v, bool) or not isinstance(v, (int, float, np.number, np.ndarray)):
            raise TypeError(
                f"For 'range', '{arg}' must be a Tensor or a number, but got {type(v).__name__}."
            )
        v = np.asarray(v)
        if v.size != 1:
            raise ValueError(
                f"For 'range', '{arg}' must have one element, but got shape {v.shape}."
            )
        values.append(v.reshape(()))
    kinds = ["Bool" if v.dtype == np.bool_ else "Int" if v.dtype.kind in "iu" else "Float"
             for v in values]  # fmt: skip
    if "Bool" in kinds or len(set(kinds)) != 1:
        raise TypeError(
            f"For 'range', the dtypes of 'start', 'end' and 'step' must be the same kind (all "
            f"int or all float), but got {tuple(kinds)}."
        )
    a, b, s = (v.item() for v in values)
    if s == 0:
        raise ValueError("For 'range', 'step' can not be 0.")
    if (s > 0 and a > b) or (s < 0 and a < b):
        raise ValueError(
            f"For 'range', 'step' must move 'start' towards 'end', but got start={a}, end={b}, "
            f"step={s}."
        )
    out = np.arange(a, b, s, dtype=np.int64 if kinds[0] == "Int" else np.float32)
    return wrap(jnp.asarray(out))


def scalar_to_tensor(input_x, dtype=None):
    """A 0-D Tensor holding the Python number ``input_x`` (Float32 by default).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scalar_to_tensor(3, ms.int32))
        3
    """
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(
            f"For 'scalar_to_tensor', 'input_x' must be an int or a float, but got "
            f"{type(input_x).__name__}."
        )
    return wrap(jnp.asarray(input_x, np_dtype(dtype) if dtype is not None else np.float32))


def _alias(name, fn, names=("input", "other")):
    a, b = names

    def op(*args, **kwargs):
        if len(args) + len(kwargs) != 2:
            raise TypeError(
                f"For '{name}', two inputs '{a}' and '{b}' are required, but got "
                f"{len(args) + len(kwargs)}."
            )
        return fn(*args, **kwargs)

    op.__name__ = op.__qualname__ = name
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    op.__signature__ = inspect.Signature([inspect.Parameter(a, kind), inspect.Parameter(b, kind)])
    op.__doc__ = (
        f"MindSpore's older name of :func:`{fn.__name__}`.\n\n    Examples:\n"
        f"        >>> import cellax as ms\n"
        f"        >>> ms.ops.{name}(ms.Tensor([4., 6.]), ms.Tensor([2., 4.])).shape\n"
        f"        (2,)\n"
    )
    return op


tensor_add = _alias("tensor_add", add)


tensor_sub = _alias("tensor_sub", subtract)


tensor_mul = _alias("tensor_mul", mul)


def _div_keeping_integers(x, y):
    """MindSpore's Div: Integer Tensors divide to their dtype, rounding toward zero."""
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        a, b = x._value, y._value
        if _dtype.is_integer(a.dtype) and _dtype.is_integer(b.dtype):
            dtype = jnp.promote_types(a.dtype, b.dtype)
            return wrap(jax.lax.div(*jnp.broadcast_arrays(a.astype(dtype), b.astype(dtype))))
    return true_divide(x, y)


_div_keeping_integers.__name__ = "true_divide"
tensor_div = _alias("tensor_div", _div_keeping_integers, ("x", "y"))


tensor_mod = _alias("tensor_mod", floor_mod, ("x", "y"))


def upsample(
    input, size=None, scale_factor=None, mode="nearest", align_corners=None,
    recompute_scale_factor=None,
):  # fmt: skip
    """Alias of :func:`interpolate`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.upsample(ms.ops.ones((1, 1, 2, 2)), size=(4, 4)).shape
        (1, 1, 4, 4)
    """
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


grad = _transforms.grad


value_and_grad = _transforms.value_and_grad


vmap = _transforms.vmap


jvp = _transforms.jvp


vjp = _transforms.vjp


jacfwd = _transforms.jacfwd


jacrev = _transforms.jacrev


linearize = _transforms.linearize


derivative = _transforms.derivative


jet = _transforms.jet


get_grad = _transforms.get_grad
