"""Element-wise math and logic of cellax.numpy, built from tables on ``jax.numpy``.

Every function takes Tensors or Python data (ints become Int32, floats Float32, bools Bool)
and an optional ``dtype`` that casts the result. Dtype rules follow MindSpore 2.10's mnp:

- "float" ops compute integer/bool input in Float32 (``sqrt``, ``sin``, ``ceil``, ``sign``...);
- "keep" ops keep the input dtype (``negative``, ``square``, ``absolute``...);
- "back" ops compute in Float32 and cast back to the integer input dtype (``exp2``,
  ``reciprocal``: ``reciprocal(Tensor([4], int32))`` is 0, as in MindSpore);
- "bool" ops return Bool.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._utils import arr, cast, is_int, out, set_doc, to_float

__all__: list[str] = []


def _sign(x):
    return jnp.sign(to_float(x))


def _rint(x):
    return jnp.round(to_float(x))


def _fix_op(x):
    return jnp.trunc(to_float(x))


def _reciprocal(x):
    return 1.0 / x


def _invert(x):
    return jnp.logical_not(x) if x.dtype == jnp.bool_ else jnp.invert(x)


# name -> (function on a jax array, dtype rule, what it computes)
_UNARY = {
    "absolute": (jnp.abs, "keep", "the absolute value"),
    "abs": (jnp.abs, "keep", "the absolute value"),
    "fabs": (jnp.abs, "keep", "the absolute value"),
    "negative": (jnp.negative, "keep", "the numerical negative"),
    "positive": (jnp.positive, "keep", "a copy of the input (numerical positive)"),
    "square": (jnp.square, "keep", "the square"),
    "invert": (_invert, "keep", "the bitwise NOT (logical NOT for Bool)"),
    "bitwise_not": (_invert, "keep", "the bitwise NOT (logical NOT for Bool)"),
    "sqrt": (jnp.sqrt, "float", "the non-negative square root"),
    "cbrt": (jnp.cbrt, "float", "the cube root"),
    "exp": (jnp.exp, "float", "the exponential"),
    "expm1": (jnp.expm1, "float", "``exp(x) - 1``"),
    "log": (jnp.log, "float", "the natural logarithm"),
    "log2": (jnp.log2, "float", "the base-2 logarithm"),
    "log10": (jnp.log10, "float", "the base-10 logarithm"),
    "log1p": (jnp.log1p, "float", "``log(1 + x)``"),
    "sin": (jnp.sin, "float", "the sine"),
    "cos": (jnp.cos, "float", "the cosine"),
    "tan": (jnp.tan, "float", "the tangent"),
    "arcsin": (jnp.arcsin, "float", "the inverse sine"),
    "arccos": (jnp.arccos, "float", "the inverse cosine"),
    "arctan": (jnp.arctan, "float", "the inverse tangent"),
    "sinh": (jnp.sinh, "float", "the hyperbolic sine"),
    "cosh": (jnp.cosh, "float", "the hyperbolic cosine"),
    "tanh": (jnp.tanh, "float", "the hyperbolic tangent"),
    "arcsinh": (jnp.arcsinh, "float", "the inverse hyperbolic sine"),
    "arccosh": (jnp.arccosh, "float", "the inverse hyperbolic cosine"),
    "arctanh": (jnp.arctanh, "float", "the inverse hyperbolic tangent"),
    "floor": (jnp.floor, "float", "the floor"),
    "ceil": (jnp.ceil, "float", "the ceiling"),
    "trunc": (jnp.trunc, "float", "the value rounded towards zero"),
    "fix": (_fix_op, "float", "the value rounded towards zero"),
    "rint": (_rint, "float", "the value rounded to the nearest integer (half to even)"),
    "sign": (_sign, "float", "the sign (-1, 0 or 1)"),
    "deg2rad": (jnp.deg2rad, "float", "the angle in radians of an angle in degrees"),
    "radians": (jnp.deg2rad, "float", "the angle in radians of an angle in degrees"),
    "rad2deg": (jnp.rad2deg, "float", "the angle in degrees of an angle in radians"),
    "exp2": (jnp.exp2, "back", "``2 ** x``"),
    "reciprocal": (_reciprocal, "back", "``1 / x``"),
    "isfinite": (jnp.isfinite, "bool", "whether the value is finite"),
    "isnan": (jnp.isnan, "bool", "whether the value is NaN"),
    "isinf": (jnp.isinf, "bool", "whether the value is positive or negative infinity"),
    "signbit": (jnp.signbit, "bool", "whether the sign bit is set (the value is negative)"),
    "logical_not": (jnp.logical_not, "bool", "the logical NOT"),
}
_NO_DTYPE = {"isposinf", "isneginf", "fix"}
_UNARY_ARG = {"logical_not": "a", "negative": "a", "positive": "a", "arccos": "input"}

_UNARY.update(
    {
        "isposinf": (jnp.isposinf, "bool", "whether the value is positive infinity"),
        "isneginf": (jnp.isneginf, "bool", "whether the value is negative infinity"),
    }
)


def _binary_arrays(x1, x2, api):
    return arr(x1, api, "x1"), arr(x2, api, "x2")


def _true_divide(a, b):
    if is_int(a) and is_int(b):
        a, b = to_float(a), to_float(b)
    return jnp.true_divide(a, b)


def _floor_divide(a, b):
    return jnp.floor_divide(a, b)


def _heaviside(a, b):
    return jnp.where(a < 0, jnp.zeros_like(b), jnp.where(a > 0, jnp.ones_like(b), b)).astype(
        jnp.result_type(a, b)
    )


def _copysign(a, b):
    result = jnp.copysign(to_float(a), to_float(b))
    return result.astype(jnp.result_type(a, b)) if is_int(a) and is_int(b) else result


def _float_pair(fn):
    def run(a, b):
        if is_int(a) and is_int(b):
            a, b = to_float(a), to_float(b)
        return fn(a, b)

    return run


_BINARY = {
    "add": (jnp.add, "the sum"),
    "subtract": (jnp.subtract, "the difference"),
    "multiply": (jnp.multiply, "the product"),
    "divide": (_true_divide, "the true quotient (integer inputs give Float32)"),
    "true_divide": (_true_divide, "the true quotient (integer inputs give Float32)"),
    "floor_divide": (_floor_divide, "the largest integer not above the quotient"),
    "power": (jnp.power, "``x1 ** x2``"),
    "float_power": (_float_pair(jnp.power), "``x1 ** x2`` in floating point"),
    "remainder": (jnp.remainder, "the remainder with the sign of the divisor"),
    "mod": (jnp.remainder, "the remainder with the sign of the divisor"),
    "fmod": (jnp.fmod, "the remainder with the sign of the dividend"),
    "maximum": (jnp.maximum, "the element-wise maximum"),
    "minimum": (jnp.minimum, "the element-wise minimum"),
    "arctan2": (_float_pair(jnp.arctan2), "the quadrant-aware inverse tangent of ``x1 / x2``"),
    "hypot": (_float_pair(jnp.hypot), "``sqrt(x1 ** 2 + x2 ** 2)``"),
    "logaddexp": (_float_pair(jnp.logaddexp), "``log(exp(x1) + exp(x2))``"),
    "logaddexp2": (_float_pair(jnp.logaddexp2), "``log2(2 ** x1 + 2 ** x2)``"),
    "copysign": (_copysign, "the magnitude of ``x1`` with the sign of ``x2``"),
    "heaviside": (_heaviside, "the Heaviside step of ``x1`` (``x2`` where ``x1 == 0``)"),
    "gcd": (jnp.gcd, "the greatest common divisor of integers"),
    "lcm": (jnp.lcm, "the least common multiple of integers"),
    "bitwise_and": (jnp.bitwise_and, "the bitwise AND"),
    "bitwise_or": (jnp.bitwise_or, "the bitwise OR"),
    "bitwise_xor": (jnp.bitwise_xor, "the bitwise XOR"),
    "equal": (jnp.equal, "``x1 == x2`` (Bool)"),
    "not_equal": (jnp.not_equal, "``x1 != x2`` (Bool)"),
    "less": (jnp.less, "``x1 < x2`` (Bool)"),
    "less_equal": (jnp.less_equal, "``x1 <= x2`` (Bool)"),
    "greater": (jnp.greater, "``x1 > x2`` (Bool)"),
    "greater_equal": (jnp.greater_equal, "``x1 >= x2`` (Bool)"),
    "logical_and": (jnp.logical_and, "the logical AND (Bool)"),
    "logical_or": (jnp.logical_or, "the logical OR (Bool)"),
    "logical_xor": (jnp.logical_xor, "the logical XOR (Bool)"),
}
_INT_ONLY = {"gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_not"}


def _example(name: str, arity: int) -> str:
    data = "[1, 2]" if name in _INT_ONLY else "[0.25, 0.5]"
    args = ", ".join(["x"] * arity)
    return (
        "\n    Examples:\n        >>> import cellax.numpy as mnp\n"
        f"        >>> x = mnp.array({data})\n"
        f"        >>> mnp.{name}({args}).shape\n        (2,)\n"
    )


def _make_unary(name, fn, rule, what):
    arg = _UNARY_ARG.get(name, "x")
    has_dtype = name not in _NO_DTYPE

    def op(x, dtype=None):
        a = arr(x, name, arg)
        if rule == "float":
            a = to_float(a)
            result = fn(a)
        elif rule == "back" and is_int(a):
            result = fn(to_float(a)).astype(a.dtype)
        else:
            result = fn(a)
        return out(cast(result, dtype, name))

    namespace = {"op": op}
    params = f"{arg}, dtype=None" if has_dtype else arg
    call = f"{arg}, dtype" if has_dtype else arg
    exec(f"def public({params}):\n    return op({call})\n", namespace)
    public = namespace["public"]
    rules = {
        "float": "Integer and Bool input is computed in Float32.",
        "keep": "The result keeps the input dtype.",
        "back": "Integer input is computed in Float32 and cast back (truncated) to its dtype.",
        "bool": "The result is a Bool Tensor.",
    }
    dtype_doc = (
        "        dtype (cellax.dtype, optional): Casts the result to this dtype. Default: ``None``.\n"
        if has_dtype
        else ""
    )
    doc = (
        f"Computes {what}, element-wise.\n\n    {rules[rule]}\n\n"
        f"    Args:\n        {arg} (Union[Tensor, int, float, bool, list, tuple]): The input.\n"
        f"{dtype_doc}\n    Returns:\n        Tensor of the input's shape.\n\n"
        f"    Raises:\n        TypeError: If ``{arg}`` is not a Tensor, number, list or tuple.\n"
        + _example(name, 1)
    )
    return set_doc(public, name, doc)


def _make_binary(name, fn, what):
    def public(x1, x2, dtype=None):
        a, b = _binary_arrays(x1, x2, name)
        try:
            result = fn(a, b)
        except (TypeError, ValueError) as error:
            if "broadcast" in str(error) or "shapes" in str(error):
                raise ValueError(
                    f"For '{name}', the shapes of 'x1' {tuple(a.shape)} and 'x2' "
                    f"{tuple(b.shape)} can not be broadcast together."
                ) from None
            raise TypeError(f"For '{name}', {error}") from None
        return out(cast(result, dtype, name))

    doc = (
        f"Computes {what} of ``x1`` and ``x2``, element-wise, with broadcasting.\n\n"
        "    Python scalars become Int32, Float32 or Bool Tensors before type promotion.\n\n"
        "    Args:\n"
        "        x1 (Union[Tensor, int, float, bool, list, tuple]): The first input.\n"
        "        x2 (Union[Tensor, int, float, bool, list, tuple]): The second input.\n"
        "        dtype (cellax.dtype, optional): Casts the result to this dtype. Default: ``None``.\n"
        "\n    Returns:\n        Tensor of the broadcast shape.\n\n"
        "    Raises:\n        ValueError: If the shapes cannot be broadcast together.\n"
        + _example(name, 2)
    )
    return set_doc(public, name, doc)


for _name, (_fn, _rule, _what) in _UNARY.items():
    globals()[_name] = _make_unary(_name, _fn, _rule, _what)
    __all__.append(_name)
for _name, (_fn, _what) in _BINARY.items():
    globals()[_name] = _make_binary(_name, _fn, _what)
    __all__.append(_name)


def divmod(x1, x2, dtype=None):  # noqa: A001 (MindSpore's name)
    """Returns ``(floor_divide(x1, x2), remainder(x1, x2))``, element-wise.

    Args:
        x1 (Union[Tensor, int, float, list, tuple]): The dividend.
        x2 (Union[Tensor, int, float, list, tuple]): The divisor.
        dtype (cellax.dtype, optional): Casts both results to this dtype. Default: ``None``.

    Returns:
        Tuple of two Tensors.

    Examples:
        >>> import cellax.numpy as mnp
        >>> q, r = mnp.divmod(mnp.array([7, -7]), 2)
        >>> print(q, r)
        [ 3 -4] [1 1]
    """
    a, b = _binary_arrays(x1, x2, "divmod")
    return out((cast(jnp.floor_divide(a, b), dtype), cast(jnp.remainder(a, b), dtype)))


def around(a, decimals=0):
    """Rounds to the given number of decimals (half to even); integer input is kept.

    Args:
        a (Union[Tensor, int, float, list, tuple]): The input.
        decimals (int): Number of decimal places. Default: ``0``.

    Returns:
        Tensor of the input's shape and dtype.

    Raises:
        TypeError: If ``decimals`` is not an int.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.around(mnp.array([0.5, 1.55]), 1))
        [0.5 1.6]
    """
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise TypeError(f"For 'around', 'decimals' must be an int, but got {decimals!r}.")
    x = arr(a, "around", "a")
    if is_int(x):
        return out(x)
    return out(jnp.round(x, decimals))


def round(a, decimals=0):  # noqa: A001 (MindSpore's name)
    """Alias of :func:`around`.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.round(mnp.array([1.25, 2.5])))
        [1. 2.]
    """
    return around(a, decimals)


def clip(x, xmin, xmax, dtype=None):
    """Limits the values of ``x`` to ``[xmin, xmax]``; the result keeps ``x``'s dtype.

    Args:
        x (Union[Tensor, int, float, list, tuple]): The input.
        xmin (Union[Tensor, int, float, None]): Lower bound (``None``: no lower bound).
        xmax (Union[Tensor, int, float, None]): Upper bound (``None``: no upper bound).
        dtype (cellax.dtype, optional): Casts the result to this dtype. Default: ``None``.

    Returns:
        Tensor.

    Raises:
        ValueError: If both ``xmin`` and ``xmax`` are None.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.clip(mnp.array([-3, 1, 4]), 0, 2))
        [0 1 2]
    """
    if xmin is None and xmax is None:
        raise ValueError("For 'clip', 'xmin' and 'xmax' must not both be None, but got None.")
    a = arr(x, "clip", "x")
    result = a
    if xmin is not None:
        result = jnp.maximum(result, arr(xmin, "clip", "xmin").astype(a.dtype))
    if xmax is not None:
        result = jnp.minimum(result, arr(xmax, "clip", "xmax").astype(a.dtype))
    return out(cast(result, dtype, "clip"))


__all__ += ["divmod", "around", "round", "clip"]
