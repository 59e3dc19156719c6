"""Elementwise math, comparison, reductions and linear algebra."""

from __future__ import annotations

import jax.numpy as jnp

from .._tensor import _fix_int_float, _true_divide
from ._primitive import primitive
from ._utils import arr, wrap

__all__ = [
    "add", "sub", "mul", "div", "matmul", "gt", "ge", "lt", "le", "eq", "ne", "maximum",
    "minimum", "neg", "abs", "exp", "log", "sqrt", "square", "sum", "mean",
    "Add", "Sub", "Mul", "Div", "RealDiv", "MatMul", "BatchMatMul", "ReduceSum", "ReduceMean",
]  # fmt: skip


def _binary_arrays(x, y):
    a, b = arr(x), arr(y)
    if type(b) is float and hasattr(a, "dtype"):
        a = _fix_int_float(a, b)
    elif type(a) is float and hasattr(b, "dtype"):
        b = _fix_int_float(b, a)
    return a, b


def add(input, other):
    """Elementwise ``input + other`` with broadcasting.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.add(ms.Tensor([1, 2, 3], ms.float32), ms.Tensor([4, 5, 6], ms.float32)))
        [5. 7. 9.]
    """
    return wrap(jnp.add(*_binary_arrays(input, other)))


def sub(input, other):
    """Elementwise ``input - other``."""
    return wrap(jnp.subtract(*_binary_arrays(input, other)))


def mul(input, other):
    """Elementwise ``input * other``."""
    return wrap(jnp.multiply(*_binary_arrays(input, other)))


def div(input, other, *, rounding_mode=None):
    """Elementwise division; ``rounding_mode`` None (true), 'floor' or 'trunc'."""
    a, b = _binary_arrays(input, other)
    if rounding_mode is None:
        return wrap(_true_divide(a, b))
    if rounding_mode == "floor":
        return wrap(jnp.floor_divide(a, b))
    if rounding_mode == "trunc":
        return wrap(jnp.trunc(_true_divide(a, b)).astype(jnp.result_type(a, b)))
    raise ValueError(
        f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}."
    )


def matmul(input, other):
    """Matrix product with NumPy broadcasting semantics.

    Raises:
        ValueError: If the contracted dimensions differ.
    """
    a, b = arr(input), arr(other)
    if getattr(a, "ndim", 0) and getattr(b, "ndim", 0):
        ka = a.shape[-1]
        kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
        if ka != kb:
            raise ValueError(
                f"For 'matmul', the last dimension of 'input' ({ka}) must equal the "
                f"contracted dimension of 'other' ({kb}); shapes {a.shape} and {b.shape}."
            )
    return wrap(jnp.matmul(a, b))


def _compare(jfn):
    def op(input, other):
        return wrap(jfn(*_binary_arrays(input, other)))

    return op


gt = _compare(jnp.greater)
ge = _compare(jnp.greater_equal)
lt = _compare(jnp.less)
le = _compare(jnp.less_equal)
eq = _compare(jnp.equal)
ne = _compare(jnp.not_equal)
maximum = _compare(jnp.maximum)
minimum = _compare(jnp.minimum)
for _name, _op in dict(gt=gt, ge=ge, lt=lt, le=le, eq=eq, ne=ne, maximum=maximum,
                       minimum=minimum).items():  # fmt: skip
    _op.__name__ = _name
    _op.__doc__ = f"Elementwise ``{_name}`` with broadcasting."


def neg(input):
    """Elementwise ``-input``."""
    return wrap(jnp.negative(arr(input)))


def abs(input):
    """Elementwise absolute value."""
    return wrap(jnp.abs(arr(input)))


def _float_unary(jfn, name):
    def op(input):
        x = arr(input)
        if x.dtype.kind in "biu":
            x = x.astype(jnp.float32)
        return wrap(jfn(x))

    op.__name__ = name
    op.__doc__ = f"Elementwise ``{name}`` (integer inputs are computed in float32)."
    return op


exp = _float_unary(jnp.exp, "exp")
log = _float_unary(jnp.log, "log")
sqrt = _float_unary(jnp.sqrt, "sqrt")


def square(input):
    """Elementwise ``input * input``."""
    return wrap(jnp.square(arr(input)))


def _axis(axis):
    if axis is None or axis == ():
        return None
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` (all dimensions when None)."""
    from ._utils import np_dtype

    return wrap(jnp.sum(arr(input), axis=_axis(dim), keepdims=keepdim, dtype=np_dtype(dtype)))


def mean(input, axis=None, keep_dims=False):
    """Mean over ``axis`` (all dimensions when None)."""
    x = arr(input)
    if x.dtype.kind in "biu":
        x = x.astype(jnp.float32)
    return wrap(jnp.mean(x, axis=_axis(axis), keepdims=keep_dims))


Add = primitive("Add", add)
Sub = primitive("Sub", sub)
Mul = primitive("Mul", mul)
Div = primitive("Div", div)
RealDiv = primitive("RealDiv", div)


def _matmul_call(self, x, y):
    a, b = arr(x), arr(y)
    if self.attrs["transpose_a"]:
        a = jnp.swapaxes(a, -1, -2)
    if self.attrs["transpose_b"]:
        b = jnp.swapaxes(b, -1, -2)
    return matmul(a, b)


MatMul = primitive("MatMul", matmul, dict(transpose_a=False, transpose_b=False), _matmul_call)
BatchMatMul = primitive(
    "BatchMatMul", matmul, dict(transpose_a=False, transpose_b=False), _matmul_call
)
ReduceSum = primitive(
    "ReduceSum", sum, dict(keep_dims=False),
    lambda self, x, axis=(): sum(x, _axis(axis), self.attrs["keep_dims"]),
)  # fmt: skip
ReduceMean = primitive(
    "ReduceMean", mean, dict(keep_dims=False),
    lambda self, x, axis=(): mean(x, _axis(axis), self.attrs["keep_dims"]),
)  # fmt: skip
