"""mint element-wise math and comparisons: adapters over :mod:`cellax.ops`.

Functions whose MindSpore mint signature equals the ``cellax.ops`` one are re-exported as is.
"""

from __future__ import annotations

from .. import _dtype, ops

_SAME = [
    "abs", "acos", "acosh", "arccos", "arccosh", "arcsinh", "arctan", "arctan2", "arctanh",
    "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and", "bitwise_or", "bitwise_xor",
    "ceil", "cos", "cosh", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "fix", "floor",
    "frac", "gcd", "greater", "gt", "isclose", "isfinite", "isinf", "isneginf", "le",
    "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "ne", "neg", "negative",
    "not_equal", "pow", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin", "sinc",
    "sinh", "sqrt", "square", "tan", "tanh", "trunc", "allclose",
]  # fmt: skip
globals().update({name: getattr(ops, name) for name in _SAME})

__all__ = _SAME + [
    "add", "sub", "mul", "div", "divide", "addcdiv", "addcmul", "arcsin", "bitwise_not",
    "clamp", "clip", "eq", "ge", "greater_equal", "less", "lt", "float_power",
    "floor_divide", "fmod", "remainder", "imag", "real", "isnan", "lerp", "xlogy",
    "nan_to_num", "where", "equal",
]  # fmt: skip


def _is_bool(value) -> bool:
    return getattr(value, "dtype", None) == _dtype.bool_


def _scaled(other, alpha):
    return other if alpha == 1 else ops.mul(other, alpha)


def _bool_operand(value) -> bool:
    return isinstance(value, bool) or _is_bool(value)


def _unbool(value, other):
    """``value`` cast out of Bool when ``other`` is not Bool: ``ops.add``/``ops.sub`` reject
    Bool Tensors (MindSpore's ops rule), while mint promotes a Bool Tensor to the other
    operand's dtype (Int64 for a Python int, Float32 for a Python float)."""
    if not _is_bool(value) or _bool_operand(other):
        return value
    if hasattr(other, "dtype"):
        return ops.cast(value, other.dtype)
    return ops.cast(value, _dtype.int64 if isinstance(other, int) else _dtype.float32)


def add(input, other, *, alpha=1):
    """``input + alpha * other`` with MindSpore's type promotion.

    Examples:
        >>> from cellax import mint
        >>> print(mint.add(mint.Tensor([1., 2.]), mint.Tensor([1., 1.]), alpha=2))
        [3. 4.]
        >>> print(mint.add(mint.Tensor([True, False]), mint.Tensor([True, True])))
        [ True  True]
    """
    if _bool_operand(input) and _bool_operand(other):  # as MindSpore: a Bool "or"
        return ops.logical_or(input, other if alpha else False)
    return ops.add(_unbool(input, other), _unbool(_scaled(other, alpha), input))


def sub(input, other, *, alpha=1):
    """``input - alpha * other``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.sub(mint.Tensor([3., 2.]), 1.0, alpha=2))
        [1. 0.]
        >>> print(mint.sub(mint.Tensor([True, False]), mint.Tensor([True, True])))
        [False  True]
    """
    if _bool_operand(input) and _bool_operand(other):  # as MindSpore: a Bool "exclusive or"
        return ops.logical_xor(input, other if alpha else False)
    return ops.sub(_unbool(input, other), _unbool(_scaled(other, alpha), input))


def mul(input, other):
    """Element-wise product.

    Examples:
        >>> from cellax import mint
        >>> print(mint.mul(mint.Tensor([1., 2.]), 3.0))
        [3. 6.]
    """
    return ops.mul(input, other)


def div(input, other, *, rounding_mode=None):
    """True division, or ``rounding_mode='trunc'`` / ``'floor'``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.div(mint.Tensor([-3., 3.]), 2.0, rounding_mode='floor'))
        [-2.  1.]
    """
    return ops.div(input, other, rounding_mode=rounding_mode)


def divide(input, other, *, rounding_mode=None):
    """Alias of :func:`div`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.divide(mint.Tensor([1., 3.]), 2.0))
        [0.5 1.5]
    """
    return ops.div(input, other, rounding_mode=rounding_mode)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.addcdiv(mint.Tensor([1.]), mint.Tensor([4.]), mint.Tensor([2.]), value=3))
        [7.]
    """
    return ops.addcdiv(input, tensor1, tensor2, value)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.addcmul(mint.Tensor([1.]), mint.Tensor([4.]), mint.Tensor([2.]), value=3))
        [25.]
    """
    return ops.addcmul(input, tensor1, tensor2, value)


def arcsin(x):
    """Element-wise arcsine.

    Examples:
        >>> from cellax import mint
        >>> print(mint.arcsin(mint.Tensor([0.])))
        [0.]
    """
    return ops.arcsin(x)


def bitwise_not(input):
    """Element-wise bitwise NOT (logical NOT for Bool).

    Examples:
        >>> from cellax import mint
        >>> print(mint.bitwise_not(mint.Tensor([0, 1])))
        [-1 -2]
    """
    return ops.bitwise_not(input)


def clamp(input, min=None, max=None):
    """Clip ``input`` into ``[min, max]`` (either bound may be a Tensor or None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.clamp(mint.Tensor([-2., 0.5, 2.]), -1, 1))
        [-1.   0.5  1. ]
    """
    return ops.clamp(input, min, max)


def clip(input, min=None, max=None):
    """Alias of :func:`clamp`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.clip(mint.Tensor([-2., 2.]), max=1))
        [-2.  1.]
    """
    return ops.clamp(input, min, max)


def eq(input, other):
    """Element-wise ``input == other`` (Bool).

    Examples:
        >>> from cellax import mint
        >>> print(mint.eq(mint.Tensor([1, 2]), 2))
        [False  True]
    """
    return ops.eq(input, other)


def ge(input, other):
    """Element-wise ``input >= other`` (Bool).

    Examples:
        >>> from cellax import mint
        >>> print(mint.ge(mint.Tensor([1, 2]), 2))
        [False  True]
    """
    return ops.ge(input, other)


def greater_equal(input, other):
    """Alias of :func:`ge`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.greater_equal(mint.Tensor([1, 2]), 2))
        [False  True]
    """
    return ops.ge(input, other)


def lt(input, other):
    """Element-wise ``input < other`` (Bool).

    Examples:
        >>> from cellax import mint
        >>> print(mint.lt(mint.Tensor([1, 2]), 2))
        [ True False]
    """
    return ops.lt(input, other)


def less(input, other):
    """Alias of :func:`lt`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.less(mint.Tensor([1, 2]), 2))
        [ True False]
    """
    return ops.lt(input, other)


def float_power(input, exponent):
    """``input ** exponent`` computed in Float64.

    Examples:
        >>> from cellax import mint
        >>> print(mint.float_power(mint.Tensor([2]), 2))
        [4.]
    """
    return ops.float_power(input, exponent)


def floor_divide(input, other):
    """Element-wise floor of ``input / other``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.floor_divide(mint.Tensor([-3, 3]), 2))
        [-2  1]
    """
    return ops.floor_divide(input, other)


def fmod(input, other):
    """Remainder with the sign of ``input`` (C ``fmod``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.fmod(mint.Tensor([-3., 3.]), 2.))
        [-1.  1.]
    """
    return ops.fmod(input, other)


def remainder(input, other):
    """Remainder with the sign of ``other`` (Python ``%``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.remainder(mint.Tensor([-3., 3.]), 2.))
        [1. 1.]
    """
    return ops.remainder(input, other)


def imag(input):
    """The imaginary part of a complex Tensor.

    Examples:
        >>> import numpy as np
        >>> from cellax import mint
        >>> print(mint.imag(mint.Tensor(np.array([1 + 2j], np.complex64))))
        [2.]
    """
    return ops.imag(input)


def real(input):
    """The real part of a complex Tensor (a real Tensor is returned as is).

    Examples:
        >>> import numpy as np
        >>> from cellax import mint
        >>> print(mint.real(mint.Tensor(np.array([1 + 2j], np.complex64))))
        [1.]
    """
    return ops.real(input)


def isnan(tensor):
    """Element-wise NaN test (Bool).

    Examples:
        >>> from cellax import mint
        >>> print(mint.isnan(mint.Tensor([1., float('nan')])))
        [False  True]
    """
    return ops.isnan(tensor)


def lerp(input, end, weight):
    """``input + weight * (end - input)``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.lerp(mint.Tensor([0.]), mint.Tensor([10.]), 0.5))
        [5.]
    """
    return ops.lerp(input, end, weight)


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 and ``other`` is positive (``0 * log(0)``
    is NaN, as in MindSpore 2.10).

    Examples:
        >>> from cellax import mint
        >>> print(mint.xlogy(mint.Tensor([0., 2.]), mint.Tensor([3., 1.])))
        [0. 0.]
    """
    return ops.xlogy(input, other)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Replace NaN (by 0 when ``nan`` is None) and infinities (by the dtype's extremes).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nan_to_num(mint.Tensor([float('nan'), 1.])))
        [0. 1.]
    """
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


def where(condition, input=None, other=None):
    """``where(condition, input, other)`` selects element-wise; ``where(condition)`` is
    ``nonzero(condition, as_tuple=True)``.

    Examples:
        >>> from cellax import mint
        >>> c = mint.Tensor([True, False])
        >>> print(mint.where(c, mint.Tensor([1., 2.]), 0.))
        [1. 0.]
    """
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    return ops.where(condition, input, other)


def equal(input, other):
    """Whether ``input`` and ``other`` have the same shape and elements (a 0-D Bool Tensor).

    Examples:
        >>> from cellax import mint
        >>> print(mint.equal(mint.Tensor([1, 2]), mint.Tensor([1, 2])))
        True
    """
    if tuple(input.shape) != tuple(other.shape):
        return ops.full((), False, dtype=_dtype.bool_)
    return ops.all(ops.eq(input, other))
