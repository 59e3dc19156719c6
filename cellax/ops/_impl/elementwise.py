"""Elementwise ops beyond the ufunc tables: selection (``select``, ``where``), clamping,
interpolation, accumulation (``addcmul``, ``addn``, ``accumulate_n``), closeness
(``isclose``, ``approximate_equal``), complex views (``polar``, ``view_as_real``) and the
rotary position embedding."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor, _fix_int_float, _true_divide
from . import ufuncs
from .ufuncs import _binary_arrays, greater, less, mul
from .utils import arr, check_broadcast, check_eager, check_real, name_op, wrap

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
    "select",
    "where",
    "polar",
    "approximate_equal",
    "rotary_position_embedding",
    "float_power_ext",
    "isnan_ext",
    "view_as_real",
    "accumulate_n",
    "tensor_gt",
    "tensor_lt",
    "tensor_muls",
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
    x = arr(input, "clamp", keep_scalars=False)
    for bound in (min, max):
        if type(bound) is float:
            x = _fix_int_float(x, bound)
    low = None if min is None else arr(min, "clamp", "min", real=True)
    high = None if max is None else arr(max, "clamp", "max", real=True)
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
    return wrap(a + arr(weight, "lerp", "weight", real=True) * (b - a))


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcmul(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([3.]), 0.5))
        [4.]
    """
    x = arr(input, "addcmul")
    value = arr(value, "addcmul", "value", real=True)
    check_broadcast("addcmul", input=x, tensor1=arr(tensor1), tensor2=arr(tensor2), value=value)
    return wrap(x + value * jnp.multiply(arr(tensor1), arr(tensor2)))


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcdiv(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([4.]), 2))
        [2.]
    """
    x = arr(input, "addcdiv")
    value = arr(value, "addcdiv", "value", real=True)
    check_broadcast("addcdiv", input=x, tensor1=arr(tensor1), tensor2=arr(tensor2), value=value)
    return wrap(x + value * _true_divide(arr(tensor1), arr(tensor2)))


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
    api = "nan_to_num"
    x = arr(input, api, tensor=True)
    nan = check_real(api, "nan", nan, optional=True)
    nan = 0.0 if nan is None else nan  # None: MindSpore's default
    posinf = check_real(api, "posinf", posinf, optional=True)
    neginf = check_real(api, "neginf", neginf, optional=True)
    return wrap(jnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf))


def is_nonzero(input):
    """True when the single element of ``input`` is nonzero (eager only).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.is_nonzero(ms.Tensor([3.]))
        True
    """
    x = arr(input, "is_nonzero", keep_scalars=False)
    check_eager("is_nonzero", x)
    if x.size != 1:
        raise ValueError(
            f"For 'is_nonzero', 'input' must have one element, but got shape {x.shape}."
        )
    return builtins.bool(x.reshape(()) != 0)


def select(cond, input, other):
    """Elementwise ``input if cond else other``; a trace-safe replacement for ``if``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.select(ms.Tensor([True, False]), ms.Tensor([1., 2.]), 0.))
        [1. 0.]
    """
    x, y = arr(input, "select", "input"), arr(other, "select", "other")
    if isinstance(y, float) and hasattr(x, "dtype"):
        y = jnp.asarray(y, x.dtype if x.dtype.kind == "f" else jnp.float32)
    elif isinstance(x, float) and hasattr(y, "dtype"):
        x = jnp.asarray(x, y.dtype if y.dtype.kind == "f" else jnp.float32)
    condition = arr(cond, "select", "cond")
    shapes = {getattr(v, "shape", None) for v in (condition, x, y)}
    if len(shapes) == 1 and None not in shapes:  # one shape: nothing to broadcast
        return wrap(jnp.where(condition, x, y))
    try:
        jnp.broadcast_shapes(np.shape(condition), np.shape(x), np.shape(y))
    except ValueError:
        raise ValueError(
            f"For 'select', the shapes of 'cond' {np.shape(condition)}, 'input' {np.shape(x)} "
            f"and 'other' {np.shape(y)} can not be broadcast together."
        ) from None
    return wrap(jnp.where(condition, x, y))


def where(condition, input, other):
    """Elementwise ``input if condition else other``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1., -2.])
        >>> print(ms.ops.where(x > 0, x, 0.))
        [1. 0.]
    """
    return select(condition, input, other)


def polar(abs, angle):
    """The complex Tensor ``abs * (cos(angle) + i sin(angle))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.polar(ms.Tensor([2.]), ms.Tensor([0.])))
        [2.+0.j]
    """
    r, theta = (
        arr(abs, "polar", "abs", keep_scalars=False),
        arr(angle, "polar", "angle", keep_scalars=False),
    )
    return wrap(jax.lax.complex(r * jnp.cos(theta), r * jnp.sin(theta)))


def approximate_equal(x, y, tolerance=1e-05):
    """``|x - y| < tolerance`` elementwise (a Bool Tensor).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.approximate_equal(ms.Tensor([1., 2.]), ms.Tensor([1., 2.5]), 0.1))
        [ True False]
    """
    a, b = (
        arr(x, "approximate_equal", "x", keep_scalars=False),
        arr(y, "approximate_equal", "y", keep_scalars=False),
    )
    return wrap(jnp.abs(a - b) < tolerance)


def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotary position embedding ``x * cos + rotate(x) * sin`` over the last axis: ``mode``
    0 rotates halves (``(-x2, x1)``), 1 interleaved pairs (``(-x_odd, x_even)``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0, 3.0, 4.0]], np.float32))
        >>> print(ms.ops.rotary_position_embedding(x, ms.ops.zeros((1, 4)), ms.ops.ones((1, 4))))
        [[-3. -4.  1.  2.]]
    """
    api = "rotary_position_embedding"
    data, c, s = arr(x, api, "x"), arr(cos, api, "cos"), arr(sin, api, "sin")
    if mode not in (0, 1):
        raise ValueError(f"For '{api}', 'mode' must be 0 or 1, but got {mode!r}.")
    if mode == 0:
        first, second = jnp.split(data, 2, axis=-1)
        rotated = jnp.concatenate([-second, first], -1)
    else:
        pairs = data.reshape(data.shape[:-1] + (-1, 2))
        rotated = jnp.stack([-pairs[..., 1], pairs[..., 0]], -1).reshape(data.shape)
    return wrap((data * c + rotated * s).astype(data.dtype))


def float_power_ext(input, exponent):
    """:func:`float_power` (Float64 results).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.float_power_ext(ms.Tensor([2, 3]), 2))
        [4. 9.]
    """
    return ufuncs.float_power(input, exponent)


def isnan_ext(tensor):
    """:func:`isnan`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.isnan_ext(ms.Tensor([1.0, float('nan')])))
        [False  True]
    """
    return ufuncs.isnan(tensor)


def _floating(x):
    return x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(np.float32)


def view_as_real(input):
    """A complex Tensor as a real one with a last dimension (real, imaginary).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.view_as_real(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [[1. 2.]]
    """
    data = arr(input, "view_as_real")
    if not jnp.iscomplexobj(data):
        raise TypeError(
            f"For 'view_as_real', the dtype of input Tensor must be complex, got {data.dtype}."
        )
    return wrap(jnp.stack([jnp.real(data), jnp.imag(data)], -1))


def accumulate_n(x):
    """The element-wise sum of a list or tuple of Tensors of one shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.accumulate_n([ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])]))
        [4. 6.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError("For 'accumulate_n', 'x' must be a non-empty list or tuple of Tensors.")
    values = [arr(v, "accumulate_n", "x") for v in x]
    if len({tuple(v.shape) for v in values}) != 1:
        raise ValueError("For 'accumulate_n', all the Tensors of 'x' must have one shape.")
    total = values[0]
    for v in values[1:]:
        total = total + v
    return wrap(total)


def tensor_gt(input, other):
    """MindSpore's older name of :func:`greater`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_gt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [False  True]
    """
    return greater(input, other)


def tensor_lt(input, other):
    """MindSpore's older name of :func:`less`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_lt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [ True False]
    """
    return less(input, other)


def tensor_muls(input, other):
    """``input`` times the scalar ``other`` (MindSpore's ``Muls``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_muls(ms.Tensor([1.0, 3.0]), 2.0))
        [2. 6.]
    """
    if not isinstance(other, (int, float, Tensor)) or isinstance(other, bool):
        raise TypeError(f"For 'tensor_muls', 'other' must be a number, but got {other!r}.")
    return mul(input, other)
