"""Elementwise math, comparison and logic ops (functions and their primitive classes).

Most ops are built from two tables: unary ops (float-only math computes integer input in
float32, as MindSpore does) and broadcasting binary ops. Hand-written ops follow.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from ... import _dtype
from ..._tensor import _fix_int_float, _power, _true_divide
from .dtype_rules import check_accepts, check_accepts_promoted
from .eager import fused
from .utils import arr, check_real, is_float, name_op, to_float, wrap

__all__ = [
    "add",
    "div",
    "divide",
    "subtract",
    "matmul",
    "logit",
    "round",
    "pow",
    "positive",
    "eps",
    "population_count",
]


def _binary_arrays(
    x, y, api: str = "op", names=("input", "other"), tensors: int = 0, integer: bool = False
):
    """Unwrap two operands, apply MindSpore's int-Tensor-with-float rule, check broadcast.
    The first ``tensors`` operands must be Tensors (a Python number is refused); ``integer``:
    Tensors must be integer or bool (checked before the shapes, as MindSpore does)."""
    a = arr(x, api, names[0], tensor=tensors > 0)
    b = arr(y, api, names[1], tensor=tensors > 1)
    if integer:
        _check_integer(api, a, b)
    if type(b) is float and hasattr(a, "dtype"):
        a = _fix_int_float(a, b)
    elif type(a) is float and hasattr(b, "dtype"):
        b = _fix_int_float(b, a)
    shape_a = a.shape if hasattr(a, "shape") else np.shape(a)
    shape_b = b.shape if hasattr(b, "shape") else np.shape(b)
    if shape_a != shape_b and shape_a and shape_b:  # a scalar () broadcasts with anything
        try:
            jnp.broadcast_shapes(shape_a, shape_b)
        except ValueError:
            raise ValueError(
                f"For '{api}', the shapes of '{names[0]}' {shape_a} and '{names[1]}' {shape_b} "
                f"can not be broadcast together."
            ) from None
    return a, b


def _check_integer(api: str, *values) -> None:
    for value in values:
        if hasattr(value, "dtype") and not _dtype.is_integer_like(value.dtype):
            raise TypeError(
                f"For '{api}', the inputs must be integer or bool Tensors, but got "
                f"dtype {value.dtype}."
            )


def _example(name: str, arity: int) -> str:
    args = ", ".join(["x"] * arity)
    data = "[1, 2], ms.int32" if name in _INT_NAMES else "[0.25, 0.5], ms.float32"
    return (
        f"\n\n    Examples:\n        >>> import cellax as ms\n"
        f"        >>> x = ms.Tensor({data})\n"
        f"        >>> ms.ops.{name}({args}).shape\n        (2,)\n"
    )


_INT_NAMES = {
    "gcd",
    "lcm",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "invert",
    "bitwise_not",
}


def _check_unary_dtype(api: str, x, kinds: str):
    kind = np.dtype(x.dtype).kind
    if kind not in kinds and not (x.dtype == jnp.bfloat16 and "f" in kinds):
        raise TypeError(
            f"For '{api}', the dtype of 'input' must be one of the kinds {kinds!r} "
            f"(b=bool, i/u=int, f=float, c=complex), but got {x.dtype}."
        )


def _unary(name: str, jfn, to_float32: bool, kinds: str = "biufc", summary: str = ""):
    checked: set = set()  # (name, dtype) pairs that passed the dtype checks

    def op(input):
        x = arr(input, name, tensor=True)  # MindSpore 2.10 takes a Tensor only
        if (name, x.dtype) not in checked:  # the checks depend on the dtype only
            check_accepts(name, x)
            _check_unary_dtype(name, x, kinds)
            checked.add((name, x.dtype))
        if to_float32:
            x = to_float(x)
        return wrap(jfn(x))

    extra = " Integer and bool inputs are computed in float32." if to_float32 else ""
    doc = (
        f"Elementwise {summary or name}.{extra}\n\n    Args:\n        input (Tensor): The input."
        f"\n\n    Returns:\n        Tensor of the same shape.\n\n    Raises:\n"
        f"        TypeError: If the dtype of ``input`` is not supported." + _example(name, 1)
    )
    return name_op(op, name, doc)


def _sign(x):
    """MindSpore's sign: 0 for NaN and for -0.0 (a float ``x > 0`` / ``x < 0`` test)."""
    if np.dtype(x.dtype).kind in "fV" or x.dtype == jnp.bfloat16:
        one = jnp.ones_like(x)
        return jnp.where(x > 0, one, jnp.where(x < 0, -one, jnp.zeros_like(x)))
    return jnp.sign(x)


def _signbit(x):
    """MindSpore's signbit is ``x < 0``: False for -0.0 and for NaN."""
    return jnp.less(x, 0) if np.dtype(x.dtype).kind != "b" else jnp.zeros_like(x)


def _keep_int(jfn):
    return lambda x: x if _dtype.is_integer_like(x.dtype) else jfn(x)


_FLOAT_UNARY = {
    "exp": jnp.exp,
    "exp2": jnp.exp2,
    "expm1": jnp.expm1,
    "log": jnp.log,
    "log2": jnp.log2,
    "log10": jnp.log10,
    "log1p": jnp.log1p,
    "sqrt": jnp.sqrt,
    "rsqrt": jax.lax.rsqrt,
    "sin": jnp.sin,
    "cos": jnp.cos,
    "tan": jnp.tan,
    "sinh": jnp.sinh,
    "cosh": jnp.cosh,
    "tanh": jnp.tanh,
    "asin": jnp.arcsin,
    "acos": jnp.arccos,
    "atan": jnp.arctan,
    "asinh": jnp.arcsinh,
    "acosh": jnp.arccosh,
    "atanh": jnp.arctanh,
    "arcsin": jnp.arcsin,
    "arccos": jnp.arccos,
    "arctan": jnp.arctan,
    "arcsinh": jnp.arcsinh,
    "arccosh": jnp.arccosh,
    "arctanh": jnp.arctanh,
    "erf": jsp.erf,
    "erfc": jsp.erfc,
    "erfinv": jsp.erfinv,
    "lgamma": jsp.gammaln,
    "digamma": jsp.digamma,
    "sinc": jnp.sinc,
    "deg2rad": jnp.deg2rad,
    "rad2deg": jnp.rad2deg,
    "i0": jnp.i0,
    "bessel_i0": jnp.i0,
    "bessel_i0e": jsp.i0e,
    "bessel_i1": jsp.i1,
    "bessel_i1e": jsp.i1e,
    "reciprocal": lambda x: 1 / x,
    "inv": lambda x: 1 / x,
    "angle": jnp.angle,
}


_SAME_UNARY = {
    "abs": jnp.abs,
    "absolute": jnp.abs,
    "neg": jnp.negative,
    "negative": jnp.negative,
    "square": jnp.square,
    "sign": _sign,
    "sgn": _sign,
    "floor": _keep_int(jnp.floor),
    "ceil": _keep_int(jnp.ceil),
    "trunc": _keep_int(jnp.trunc),
    "fix": _keep_int(jnp.trunc),
    "frac": lambda x: x - jnp.trunc(x),
    "conj": jnp.conj,
    "real": jnp.real,
    "imag": jnp.imag,
}


_PREDICATES = {
    "isnan": jnp.isnan,
    "isinf": jnp.isinf,
    "isfinite": jnp.isfinite,
    "isneginf": jnp.isneginf,
    "isposinf": jnp.isposinf,
    "signbit": _signbit,
    "isreal": jnp.isreal,
    "logical_not": jnp.logical_not,
}


_INT_UNARY = {"invert": jnp.invert, "bitwise_not": jnp.invert}


for _name, _fn in _FLOAT_UNARY.items():
    globals()[_name] = _unary(_name, _fn, True)


# MindSpore refuses a Bool Tensor here (jnp's negative and sign have no bool rule either)
_NO_BOOL = {"neg", "negative", "sign", "sgn"}

for _name, _fn in _SAME_UNARY.items():
    globals()[_name] = _unary(_name, _fn, False, kinds="iufc" if _name in _NO_BOOL else "biufc")


for _name, _fn in _PREDICATES.items():
    globals()[_name] = _unary(_name, _fn, False, summary=f"``{_name}`` test (a Bool Tensor)")


for _name, _fn in _INT_UNARY.items():
    globals()[_name] = _unary(_name, _fn, False, kinds="biu")


__all__ += [*_FLOAT_UNARY, *_SAME_UNARY, *_PREDICATES, *_INT_UNARY]


def positive(input):
    """Return ``input`` unchanged (``+input``)."""
    return wrap(arr(input, "positive", keep_scalars=False))


def round(input, *, decimals=0):
    """Round to ``decimals`` places, halves to even (``0.5 -> 0``, ``1.5 -> 2``).

    Args:
        input (Tensor): The input.
        decimals (int): Number of decimal places. Default: ``0``.

    Returns:
        Tensor of the same shape and dtype.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.round(ms.Tensor([0.5, 1.5, 2.5, -1.5], ms.float32)))
        [ 0.  2.  2. -2.]
    """
    x = arr(input, "round", tensor=True)
    if _dtype.is_integer_like(x.dtype):
        return wrap(x)
    return wrap(jnp.round(x, decimals))


def logit(input, eps=None):
    """``log(p / (1 - p))`` with ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.logit(ms.Tensor([0.5], ms.float32)))
        [0.]
    """
    x = to_float(arr(input, "logit", tensor=True))
    eps = check_real("logit", "eps", eps, optional=True)
    if eps is not None:
        x = jnp.clip(x, eps, 1 - eps)
    return wrap(jnp.log(x / (1 - x)))


def _binary(name: str, jfn, names=("input", "other"), summary: str = ""):
    tensors, integer = _TENSOR_OPERANDS.get(name, 0), name in _INT_NAMES

    def op(input, other):
        a, b = _binary_arrays(input, other, name, names, tensors, integer)
        check_accepts(name, a, b)
        return wrap(jfn(a, b))

    a, b = names
    doc = (
        f"Elementwise {summary or name} of ``{a}`` and ``{b}``, with broadcasting.\n\n"
        f"    Args:\n        {a} (Union[Tensor, number]): The first input.\n"
        f"        {b} (Union[Tensor, number]): The second input.\n\n"
        f"    Returns:\n        Tensor with the broadcast shape.\n\n    Raises:\n"
        f"        ValueError: If the shapes can not be broadcast." + _example(name, 2)
    )
    op = name_op(op, name, doc)
    if names != ("input", "other"):
        code = op.__code__.replace(co_varnames=(a, b) + op.__code__.co_varnames[2:])
        op.__code__ = code
    return op


def _floor_mod(a, b):
    return jnp.remainder(a, b)


def _truncate_div(a, b):
    if _dtype.is_integer(jnp.result_type(a, b)):
        return jnp.sign(a) * jnp.sign(b) * (jnp.abs(a) // jnp.abs(b))
    return jnp.trunc(a / b)


def _float_binary(jfn):
    def run(a, b):
        if not (hasattr(a, "dtype") and is_float(jnp.asarray(a))) and not (
            hasattr(b, "dtype") and is_float(jnp.asarray(b))
        ):
            a = jnp.asarray(a, jnp.float32)
        return jfn(a, b)

    return run


def _xlogy(a, b):
    # MindSpore computes the plain product: xlogy(0, 0) and xlogy(0, -1) are NaN.
    return jnp.multiply(a, jnp.log(b))


def _nan_select(compare):
    """MindSpore's maximum/minimum: ``a if compare(a, b) else b`` (a NaN in ``a`` loses)."""

    def run(a, b):
        out = jnp.maximum(a, b) if compare is jnp.greater else jnp.minimum(a, b)
        if np.dtype(jnp.result_type(a, b)).kind != "f" and jnp.result_type(a, b) != jnp.bfloat16:
            return out
        return jnp.where(jnp.isnan(a) & ~jnp.isnan(b), jnp.broadcast_to(b, out.shape), out)

    return fused(run)


def _heaviside(a, b):
    dtype = jnp.result_type(a, b)
    return jnp.where(a == 0, b, jnp.where(a > 0, 1, 0)).astype(dtype)


def _xdivy(a, b):
    return jnp.where(a == 0, jnp.zeros_like(a / b), a / b)


def _ldexp(a, b):
    """``a * 2**b``; a float ``a`` keeps its dtype (exp2 of an Int64 Tensor is Float64)."""
    scale = jnp.exp2(b)
    dtype = getattr(a, "dtype", None)
    if dtype is not None and jnp.issubdtype(dtype, jnp.floating):
        scale = scale.astype(dtype)
    return a * scale


_BINARY = {
    "sub": jnp.subtract,
    "mul": jnp.multiply,
    "multiply": jnp.multiply,
    "true_divide": _true_divide,
    "floor_div": jnp.floor_divide,
    "floor_divide": jnp.floor_divide,
    "floordiv": jnp.floor_divide,
    "floor_mod": _floor_mod,
    "floormod": _floor_mod,
    "remainder": _floor_mod,
    "fmod": jnp.fmod,
    "truncate_div": _truncate_div,
    "truncate_mod": jnp.fmod,
    "float_power": lambda a, b: jnp.power(jnp.asarray(a, jnp.float64), jnp.asarray(b, jnp.float64)),
    "atan2": _float_binary(jnp.arctan2),
    "arctan2": _float_binary(jnp.arctan2),
    "hypot": _float_binary(jnp.hypot),
    "logaddexp": _float_binary(jnp.logaddexp),
    "logaddexp2": _float_binary(jnp.logaddexp2),
    "maximum": _nan_select(jnp.greater),
    "minimum": _nan_select(jnp.less),
    "fmax": jnp.fmax,
    "fmin": jnp.fmin,
    "copysign": _float_binary(jnp.copysign),
    "xlogy": _float_binary(_xlogy),
    "xdivy": _float_binary(_xdivy),
    "heaviside": _heaviside,
    "nextafter": _float_binary(jnp.nextafter),
    "ldexp": _ldexp,
    "gcd": jnp.gcd,
    "lcm": jnp.lcm,
    "bitwise_and": jnp.bitwise_and,
    "bitwise_or": jnp.bitwise_or,
    "bitwise_xor": jnp.bitwise_xor,
    "bitwise_left_shift": jnp.left_shift,
    "bitwise_right_shift": jnp.right_shift,
    "logical_and": jnp.logical_and,
    "logical_or": jnp.logical_or,
    "logical_xor": jnp.logical_xor,
    "eq": jnp.equal,
    "equal": jnp.equal,
    "ne": jnp.not_equal,
    "not_equal": jnp.not_equal,
    "gt": jnp.greater,
    "greater": jnp.greater,
    "ge": jnp.greater_equal,
    "greater_equal": jnp.greater_equal,
    "lt": jnp.less,
    "less": jnp.less,
    "le": jnp.less_equal,
    "less_equal": jnp.less_equal,
}


# the number of leading operands MindSpore 2.10 takes as Tensors only (Python numbers refused);
# the other binary ops take a number for either operand
_TENSOR_OPERANDS = {"eq": 1, "equal": 1, "logical_and": 2, "logaddexp": 2}


_BINARY_NAMES = {
    "floor_div": ("x", "y"),
    "floor_mod": ("x", "y"),
    "truncate_div": ("x", "y"),
    "truncate_mod": ("x", "y"),
    "xdivy": ("x", "y"),
    "xlogy": ("input", "other"),
    "true_divide": ("dividend", "divisor"),
    "ldexp": ("x", "other"),
    "floordiv": ("x", "y"),
    "floormod": ("x", "y"),
    "equal": ("input", "other"),
}


for _name, _fn in _BINARY.items():
    globals()[_name] = _binary(_name, _fn, _BINARY_NAMES.get(_name, ("input", "other")))


__all__ += list(_BINARY)


def add(input, other):
    """Elementwise ``input + other`` with broadcasting.

    An integer Tensor combined with a Python float gives Float32, and a Bool Tensor with an
    Int32 (Float32) Tensor gives Int32 (Float32), as in MindSpore; two Bool Tensors are refused.

    Args:
        input (Union[Tensor, number, bool]): The first input.
        other (Union[Tensor, number, bool]): The second input.

    Returns:
        Tensor with the broadcast shape.

    Raises:
        TypeError: If the Tensor inputs promote to Bool.
        ValueError: If the shapes can not be broadcast.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.add(ms.Tensor([1, 2, 3], ms.float32), ms.Tensor([4, 5, 6], ms.float32)))
        [5. 7. 9.]
    """
    a, b = _binary_arrays(input, other, "add")
    check_accepts_promoted("add", a, b)
    return wrap(jnp.add(a, b))


def div(input, other, *, rounding_mode=None):
    """Elementwise division; ``rounding_mode`` is None (true), 'floor' or 'trunc'.

    Args:
        input (Union[Tensor, number]): The dividend.
        other (Union[Tensor, number]): The divisor.
        rounding_mode (str): None, ``'floor'`` or ``'trunc'``. Default: ``None``.

    Raises:
        ValueError: If ``rounding_mode`` is not one of those.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.div(ms.Tensor([-3, 3]), 2, rounding_mode='floor'))
        [-2  1]
    """
    a, b = _binary_arrays(input, other, "div")
    if rounding_mode is None:
        return wrap(_true_divide(a, b))
    if rounding_mode == "floor":
        return wrap(jnp.floor_divide(a, b))
    if rounding_mode == "trunc":
        return wrap(_truncate_div(a, b))
    raise ValueError(
        f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}."
    )


def divide(input, other, *, rounding_mode=None):
    """Elementwise division, like :func:`div`: ``rounding_mode`` is None, 'floor' or 'trunc'.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.divide(ms.Tensor([-7., 7.]), 2., rounding_mode='trunc'))
        [-3.  3.]
    """
    return div(input, other, rounding_mode=rounding_mode)


def subtract(input, other, *, alpha=1):
    """Elementwise ``input - alpha * other`` with broadcasting.

    Args:
        input (Union[Tensor, number]): The minuend.
        other (Union[Tensor, number]): The subtrahend.
        alpha (number): The multiplier of ``other``. Default: ``1``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.subtract(ms.Tensor([5., 6.]), ms.Tensor([1., 2.]), alpha=2))
        [3. 2.]
    """
    a, b = _binary_arrays(input, other, "subtract")
    if all(getattr(v, "dtype", None) == jnp.bool_ for v in (a, b)):
        a, b = a.astype(jnp.int64), b.astype(jnp.int64)  # MindSpore subtracts bools as Int64
    if alpha != 1:
        b = jnp.multiply(b, alpha) if hasattr(b, "dtype") else b * alpha
    return wrap(jnp.subtract(a, b))


def pow(input, exponent):
    """Elementwise ``input ** exponent``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.pow(ms.Tensor([1, 2, 3]), 2))
        [1 4 9]
    """
    for name, value in (("input", input), ("exponent", exponent)):
        if isinstance(value, (complex, np.complexfloating)):  # a complex Tensor is accepted
            raise TypeError(
                f"For 'pow', '{name}' must be a Tensor, an int, a float or a bool, but got "
                f"complex: {value!r}. Pass a complex Tensor instead."
            )
        if isinstance(value, (tuple, list)):  # MindSpore refuses a sequence too
            raise TypeError(
                f"For 'pow', '{name}' must be a Tensor, an int, a float or a bool, but got "
                f"{type(value).__name__}: {value!r}."
            )
    return wrap(_power(*_binary_arrays(input, exponent, "pow", ("input", "exponent"))))


def matmul(input, other):
    """Matrix product with NumPy broadcasting semantics.

    Raises:
        TypeError: If an input is not a Tensor.
        ValueError: If an input is 0-D, or two 1-D inputs differ in length.
        RuntimeError: If the contracted dimensions differ or the batch dimensions do not
            broadcast (MindSpore's ``MatMulExt`` raises RuntimeError).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.matmul(ms.ops.ones((2, 3)), ms.ops.ones((3, 1))))
        [[3.]
         [3.]]
    """
    a, b = (
        arr(input, "matmul", tensor=True),
        arr(other, "matmul", "other", tensor=True),
    )
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"For 'matmul', the inputs must be at least 1-D, but got shapes {a.shape} and "
            f"{b.shape}."
        )
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka != kb:
        error = ValueError if a.ndim == 1 and b.ndim == 1 else RuntimeError
        raise error(
            f"For 'matmul', the last dimension of 'input' ({ka}) must equal the "
            f"contracted dimension of 'other' ({kb}), but got shapes {a.shape} and {b.shape}."
        )
    try:
        if a.ndim > 2 or b.ndim > 2:  # batch dimensions
            jnp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise RuntimeError(
            f"For 'matmul', the batch dimensions of 'input' {a.shape} and 'other' {b.shape} "
            f"must be broadcastable."
        ) from None
    return wrap(jnp.matmul(a, b))


def eps(x):
    """A Tensor like ``x`` filled with its float dtype's machine epsilon.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.eps(ms.Tensor(np.array([1.0, 2.0], np.float16))))
        [0.000977 0.000977]
    """
    data = arr(x, "eps", "x")
    if not jnp.issubdtype(data.dtype, jnp.floating):
        raise TypeError(f"For 'eps', 'x' must be a float Tensor, but got {data.dtype}.")
    return wrap(jnp.full(data.shape, jnp.finfo(data.dtype).eps, data.dtype))


def population_count(input_x):
    """The number of set bits of each element (two's complement), as UInt8.

    Raises:
        TypeError: If ``input_x`` is not an integer Tensor.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.population_count(ms.Tensor(np.array([0, 7, -1], np.int16))))
        [ 0  3 16]
    """
    api = "population_count"
    data = arr(input_x, api, "input_x")
    if not jnp.issubdtype(data.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'input_x' must be an integer Tensor, got {data.dtype}.")
    return wrap(jax.lax.population_count(data).astype(np.uint8))
