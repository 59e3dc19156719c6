"""MindSpore dtype objects and their one table of JAX/NumPy equivalents.

``cellax.float32`` prints as ``Float32`` like ``mindspore.float32``; it compares equal to
itself, to its NumPy dtype and to the name strings MindSpore users write (``'float32'``).
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

__all__ = [
    "Type",
    "bool_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "complex64",
    "complex128",
    "half",
    "single",
    "double",
    "float_",
    "int_",
    "uint",
    "dtype_to_nptype",
    "dtype_to_pytype",
    "pytype_to_dtype",
    "get_py_obj_dtype",
    "number_type",
    "int_type",
    "uint_type",
    "float_type",
]


class Type:
    """A MindSpore data type (``cellax.float32`` ...), backed by a NumPy dtype.

    Examples:
        >>> import cellax as ms
        >>> print(ms.float32)
        Float32
        >>> ms.float32 == ms.dtype.float32
        True
    """

    __slots__ = ("name", "np_dtype")

    def __init__(self, name: str, np_dtype) -> None:
        self.name = name
        self.np_dtype = np.dtype(np_dtype)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        # MindSpore's repr names the module attribute (``mindspore.float32``); ours names the
        # package the user imported, as the Cell class paths do.
        return "cellax." + ("bool_" if self.name == "Bool" else self.name.lower())

    def __eq__(self, other) -> bool:
        if isinstance(other, Type):
            return self.np_dtype == other.np_dtype
        try:
            return self is to_dtype(other)
        except (TypeError, ValueError):
            return False

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.np_dtype)

    def __reduce__(self):
        return (to_dtype, (self.name,))

    @property
    def is_floating(self) -> bool:
        return self.np_dtype.kind == "f" or self.name == "BFloat16"


bool_ = Type("Bool", np.bool_)
int8 = Type("Int8", np.int8)
int16 = Type("Int16", np.int16)
int32 = Type("Int32", np.int32)
int64 = Type("Int64", np.int64)
uint8 = Type("UInt8", np.uint8)
uint16 = Type("UInt16", np.uint16)
uint32 = Type("UInt32", np.uint32)
uint64 = Type("UInt64", np.uint64)
float16 = Type("Float16", np.float16)
float32 = Type("Float32", np.float32)
float64 = Type("Float64", np.float64)
bfloat16 = Type("BFloat16", jnp.bfloat16)
complex64 = Type("Complex64", np.complex64)
complex128 = Type("Complex128", np.complex128)

half, single, double = float16, float32, float64
float_, int_, uint = float32, int64, uint64

_ALL = (
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    float32,
    float64,
    bfloat16,
    complex64,
    complex128,
)
_BY_NP = {t.np_dtype: t for t in _ALL}
_BY_NAME = {}
for _t in _ALL:
    _BY_NAME[_t.name.lower()] = _t
    _BY_NAME[_t.np_dtype.name] = _t
_BY_NAME.update(bool=bool_, half=float16, float=float32, double=float64, int=int64)
_BY_PY = {bool: bool_, int: int64, float: float32, complex: complex64}

number_type = tuple(t for t in _ALL if t is not bool_)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)


def to_dtype(value) -> Type:
    """Return the cellax Type for a Type, NumPy/JAX dtype, Python type or name string."""
    if isinstance(value, Type):
        return value
    if isinstance(value, str):
        found = _BY_NAME.get(value.lower())
        if found is None:
            raise TypeError(
                f"For 'dtype', the name must be one of {sorted(_BY_NAME)}, but got {value!r}."
            )
        return found
    try:
        if value in _BY_PY:
            return _BY_PY[value]
        np_dtype = np.dtype(value)
    except TypeError:
        raise TypeError(
            f"For 'dtype', expected a cellax dtype (e.g. cellax.float32), a NumPy dtype or a "
            f"dtype name, but got {value!r} of type {type(value).__name__}."
        ) from None
    found = _BY_NP.get(np_dtype)
    if found is None:
        raise TypeError(f"For 'dtype', the NumPy dtype {np_dtype} has no cellax equivalent.")
    return found


def from_numpy_dtype(np_dtype) -> Type:
    """The Type of an array's dtype (fast path for Tensor.dtype)."""
    return _BY_NP[np_dtype]


def dtype_to_nptype(type_) -> type:
    """Return the NumPy scalar type of a cellax dtype, e.g. ``numpy.float32``."""
    return to_dtype(type_).np_dtype.type


def dtype_to_pytype(type_) -> type:
    """Return the Python type (bool, int, float or complex) matching a cellax dtype."""
    kind = to_dtype(type_).np_dtype.kind
    return {"b": bool, "i": int, "u": int, "f": float, "V": float, "c": complex}[kind]


def pytype_to_dtype(obj) -> Type:
    """Return the cellax dtype of a Python or NumPy type (``int`` -> Int64, ``float`` ->
    Float64, ``bool`` -> Bool), as ``mindspore.common.dtype.pytype_to_dtype``.

    Raises:
        TypeError: If ``obj`` is not a type with a cellax equivalent.

    Examples:
        >>> import cellax as ms
        >>> print(ms.dtype.pytype_to_dtype(float))
        Float64
    """
    if obj is float:
        return float64
    if isinstance(obj, Type):
        return obj
    if not isinstance(obj, (type, np.dtype)):
        raise TypeError(
            f"For 'pytype_to_dtype', 'obj' must be a Python or NumPy type such as int, float, "
            f"bool or numpy.float32, but got {obj!r} of type {type(obj).__name__}."
        )
    return to_dtype(obj)


def get_py_obj_dtype(obj) -> Type:
    """Return the cellax dtype of a Python value (``1.0`` -> Float64) or of a Tensor.

    Examples:
        >>> import cellax as ms
        >>> print(ms.dtype.get_py_obj_dtype(1))
        Int64
    """
    if hasattr(obj, "dtype"):
        return to_dtype(obj.dtype)
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


def is_float(type_: Type) -> bool:
    return type_ in float_type


# The one set of dtype predicates (NumPy, JAX or cellax dtypes; bfloat16 counts as floating).
def _np(dtype) -> np.dtype:
    return np.dtype(getattr(dtype, "np_dtype", dtype))


def is_floating(dtype) -> bool:
    """Real floating point, bfloat16 included (the dtypes amp and the cast frame cast)."""
    d = _np(dtype)
    return d.kind == "f" or (d.kind == "V" and bool(jnp.issubdtype(d, jnp.floating)))


def is_complex(dtype) -> bool:
    return _np(dtype).kind == "c"


def is_inexact(dtype) -> bool:
    """Floating or complex (the dtypes grad differentiates)."""
    return is_complex(dtype) or is_floating(dtype)


def is_integer(dtype) -> bool:
    """Signed or unsigned integer; bool is not one."""
    return _np(dtype).kind in "iu"


def is_integer_like(dtype) -> bool:
    """Bool or integer (the kinds an integer-valued op keeps as they are)."""
    return _np(dtype).kind in "biu"


def is_bool(dtype) -> bool:
    return _np(dtype).kind == "b"
