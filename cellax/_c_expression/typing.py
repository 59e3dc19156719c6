"""``mindspore._c_expression.typing``: the dtype objects behind ``mindspore.common.dtype``.

``Type`` is cellax's dtype class and each ``k<Name>`` constant is the cellax dtype of that
name (``typing.kFloat32 is cellax.float32``).

Examples:
    >>> import cellax as ms
    >>> from cellax._c_expression.typing import Type, kFloat32
    >>> kFloat32 is ms.float32 and isinstance(kFloat32, Type)
    True
"""

from __future__ import annotations

from .. import _dtype
from .._dtype import Type as Type

__all__ = ["Type"]

for _type in (
    _dtype.bool_,
    _dtype.int8,
    _dtype.int16,
    _dtype.int32,
    _dtype.int64,
    _dtype.uint8,
    _dtype.uint16,
    _dtype.uint32,
    _dtype.uint64,
    _dtype.float16,
    _dtype.float32,
    _dtype.float64,
    _dtype.bfloat16,
    _dtype.complex64,
    _dtype.complex128,
):
    globals()["k" + _type.name] = _type
    __all__.append("k" + _type.name)
del _type


def _sized(kind: str, names: dict):
    def make(bits: int = 32) -> Type:
        if bits not in names:
            raise ValueError(
                f"For '{kind}', the number of bits must be one of {sorted(names)}, but got {bits}."
            )
        return names[bits]

    make.__name__ = make.__qualname__ = kind
    make.__doc__ = f"The cellax dtype ``{kind}(bits)`` (MindSpore's ``typing.{kind}``)."
    return make


Float = _sized("Float", {16: _dtype.float16, 32: _dtype.float32, 64: _dtype.float64})
BFloat = _sized("BFloat", {16: _dtype.bfloat16})
Int = _sized("Int", {8: _dtype.int8, 16: _dtype.int16, 32: _dtype.int32, 64: _dtype.int64})
UInt = _sized("UInt", {8: _dtype.uint8, 16: _dtype.uint16, 32: _dtype.uint32, 64: _dtype.uint64})
