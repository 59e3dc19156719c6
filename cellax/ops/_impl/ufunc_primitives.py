"""The primitive classes of the elementwise math ops (``ops.Add()``, ``ops.Exp()``, ...)."""

from __future__ import annotations

import collections

import jax.numpy as jnp

from . import elementwise, ufuncs
from .elementwise import addn, clip_by_value
from .primitive import primitive
from .ufuncs import _binary_arrays, add, div, matmul, pow
from .utils import arr, wrap

__all__ = [
    "Add",
    "Sub",
    "Mul",
    "Div",
    "RealDiv",
    "MatMul",
    "BatchMatMul",
    "AddN",
    "Pow",
]


def _matmul_call(self, x, y, *extra):
    api = type(self).__name__
    if extra:  # Python would name this helper; MindSpore's text names the primitive
        raise TypeError(
            f"{api}.__call__() takes 3 positional arguments but {3 + len(extra)} were given"
        )
    a, b = arr(x, api, "x", tensor=True), arr(y, api, "y", tensor=True)
    if api == "MatMul" and (a.ndim != 2 or b.ndim != 2):
        raise ValueError(
            f"For 'MatMul', 'x' and 'y' must be 2-D, but got shapes {tuple(a.shape)} and "
            f"{tuple(b.shape)}. Use ops.BatchMatMul or ops.matmul for other ranks."
        )
    if self.attrs["transpose_a"]:
        a = jnp.swapaxes(a, -1, -2)
    if self.attrs["transpose_b"]:
        b = jnp.swapaxes(b, -1, -2)
    return matmul(a, b)


_G = collections.ChainMap(globals(), vars(ufuncs), vars(elementwise))


Add = primitive("Add", add)


Sub = primitive("Sub", _G["sub"])


Mul = primitive("Mul", _G["mul"])


Div = primitive("Div", div)


RealDiv = primitive("RealDiv", div)


Pow = primitive("Pow", pow)


AddN = primitive("AddN", addn)


MatMul = primitive("MatMul", matmul, dict(transpose_a=False, transpose_b=False), _matmul_call)


BatchMatMul = primitive(
    "BatchMatMul", matmul, dict(transpose_a=False, transpose_b=False), _matmul_call
)


_PRIMITIVES = {
    "Exp": "exp",
    "Log": "log",
    "Log1p": "log1p",
    "Expm1": "expm1",
    "Sqrt": "sqrt",
    "Rsqrt": "rsqrt",
    "Square": "square",
    "Abs": "abs",
    "Neg": "neg",
    "Sin": "sin",
    "Cos": "cos",
    "Tan": "tan",
    "Sinh": "sinh",
    "Cosh": "cosh",
    "Asin": "asin",
    "Acos": "acos",
    "Atan": "atan",
    "Asinh": "asinh",
    "Acosh": "acosh",
    "Atanh": "atanh",
    "Erf": "erf",
    "Erfc": "erfc",
    "Erfinv": "erfinv",
    "Floor": "floor",
    "Ceil": "ceil",
    "Round": "round",
    "Trunc": "trunc",
    "Sign": "sign",
    "Reciprocal": "reciprocal",
    "Inv": "inv",
    "Lgamma": "lgamma",
    "Digamma": "digamma",
    "IsNan": "isnan",
    "IsInf": "isinf",
    "IsFinite": "isfinite",
    "LogicalNot": "logical_not",
    "Invert": "invert",
    "Maximum": "maximum",
    "Minimum": "minimum",
    "Equal": "eq",
    "NotEqual": "ne",
    "Greater": "gt",
    "GreaterEqual": "ge",
    "Less": "lt",
    "LessEqual": "le",
    "LogicalAnd": "logical_and",
    "LogicalOr": "logical_or",
    "LogicalXor": "logical_xor",
    "BitwiseAnd": "bitwise_and",
    "BitwiseOr": "bitwise_or",
    "BitwiseXor": "bitwise_xor",
    "FloorDiv": "floor_div",
    "FloorMod": "floor_mod",
    "Mod": "fmod",
    "TruncateDiv": "truncate_div",
    "TruncateMod": "truncate_mod",
    "DivNoNan": "xdivy",
    "Xdivy": "xdivy",
    "Xlogy": "xlogy",
    "Atan2": "atan2",
    "SquaredDifference": "squared_difference",
    "Lerp": "lerp",
    "Addcmul": "addcmul",
    "Addcdiv": "addcdiv",
    "IsClose": "isclose",
    "Tanh": "tanh",
    "Exp2": "exp2",
    "Log2": "log2",
}


def squared_difference(x, y):
    """``(x - y) ** 2`` with broadcasting."""
    a, b = _binary_arrays(x, y, "squared_difference", ("x", "y"))
    return wrap(jnp.square(jnp.subtract(a, b)))


__all__.append("squared_difference")


for _cls, _fn_name in _PRIMITIVES.items():
    globals()[_cls] = primitive(_cls, _G[_fn_name])


__all__ += list(_PRIMITIVES)


ClipByValue = primitive("ClipByValue", clip_by_value)


__all__.append("ClipByValue")


del _G
