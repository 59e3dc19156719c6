"""Clamping, interpolation, accumulation and closeness ops (clamp, lerp, addcmul, isclose, ...)."""

from __future__ import annotations

import builtins

import jax.numpy as jnp

from .._tensor import _fix_int_float, _true_divide
from ._math import _binary_arrays
from ._utils import arr, array, check_eager, name_op, wrap

__all__ = [
    "clamp",
    "clip",
    "clip_by_value",
    "lerp",
    "addcmul",
    "addcdiv",
    "addn",
    "isclose",
    "allclose",
    "nan_to_num",
    "is_nonzero",
]


def clamp(input, min=None, max=None):
    """Clamp every element into ``[min, max]`` (either bound may be None).

    Args:
        input (Tensor): The input.
        min (Union[Tensor, number, None]): The lower bound. Default: ``None``.
        max (Union[Tensor, number, None]): The upper bound. Default: ``None``.

    Raises:
        ValueError: If both ``min`` and ``max`` are None.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.clamp(ms.Tensor([-2., 0.5, 3.]), -1, 1))
        [-1.   0.5  1. ]
    """
    if min is None and max is None:
        raise ValueError(
            "For 'clamp', at least one of 'min' and 'max' must be given, but got None for both."
        )
    x = array(input, "clamp")
    for bound in (min, max):
        if type(bound) is float:
            x = _fix_int_float(x, bound)
    low = None if min is None else arr(min, "clamp", "min")
    high = None if max is None else arr(max, "clamp", "max")
    if low is not None:
        x = jnp.maximum(x, low)
    if high is not None:
        x = jnp.minimum(x, high)
    return wrap(x)


clip = name_op(
    lambda input, min=None, max=None: clamp(input, min, max), "clip", "Alias of :func:`clamp`."
)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` into ``[clip_value_min, clip_value_max]``."""
    return clamp(x, clip_value_min, clip_value_max)


def lerp(input, end, weight):
    """``input + weight * (end - input)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lerp(ms.Tensor([0., 2.]), ms.Tensor([1., 4.]), 0.5))
        [0.5 3. ]
    """
    a, b = _binary_arrays(input, end, "lerp", ("input", "end"))
    return wrap(a + arr(weight, "lerp", "weight") * (b - a))


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcmul(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([3.]), 0.5))
        [4.]
    """
    x = arr(input, "addcmul")
    return wrap(x + arr(value) * jnp.multiply(arr(tensor1), arr(tensor2)))


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcdiv(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([4.]), 2))
        [2.]
    """
    x = arr(input, "addcdiv")
    return wrap(x + arr(value) * _true_divide(arr(tensor1), arr(tensor2)))


def addn(x):
    """Sum of a list/tuple of Tensors of the same shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addn([ms.Tensor([1., 2.]), ms.Tensor([3., 4.])]))
        [4. 6.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(
            f"For 'addn', 'x' must be a non-empty list or tuple of Tensors, but got {x!r}."
        )
    values = [arr(t, "addn", "x") for t in x]
    total = values[0]
    for value in values[1:]:
        total = total + value
    return wrap(total)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.isclose(ms.Tensor([1., 2.]), ms.Tensor([1., 2.1])))
        [ True False]
    """
    a, b = _binary_arrays(input, other, "isclose")
    return wrap(jnp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when :func:`isclose` holds everywhere (a 0-d Bool Tensor).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.allclose(ms.Tensor([1., 2.]), ms.Tensor([1., 2.])))
        True
    """
    return wrap(jnp.all(isclose(input, other, rtol, atol, equal_nan)._value))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """Replace NaN, +inf and -inf by finite numbers.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.nan_to_num(ms.Tensor([float('nan'), 1.]), 0.5))
        [0.5 1. ]
    """
    return wrap(jnp.nan_to_num(arr(input, "nan_to_num"), nan=nan, posinf=posinf, neginf=neginf))


def is_nonzero(input):
    """True when the single element of ``input`` is nonzero (eager only).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.is_nonzero(ms.Tensor([3.]))
        True
    """
    x = array(input, "is_nonzero")
    check_eager("is_nonzero", x)
    if x.size != 1:
        raise ValueError(
            f"For 'is_nonzero', 'input' must have one element, but got shape {x.shape}."
        )
    return builtins.bool(x.reshape(()) != 0)
