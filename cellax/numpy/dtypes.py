"""Dtypes, constants and type promotion of cellax.numpy (``mindspore.numpy.dtypes``).

``int_`` is Int32 and ``float_`` Float32 here, MindSpore mnp's defaults.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._dtype import (
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._utils import arr, np_dtype

int_ = int32
float_ = float32
uint = uint32

inf = math.inf
PINF = math.inf
NINF = -math.inf
nan = math.nan
pi = math.pi
e = math.e

numeric_types = [
    "int_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float_",
    "float16",
    "float32",
    "float64",
    "bool_",
]

__all__ = [
    "int_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float_",
    "float16",
    "float32",
    "float64",
    "bool_",
    "inf",
    "PINF",
    "NINF",
    "nan",
    "pi",
    "e",
    "numeric_types",
    "promote_types",
    "result_type",
]


def _type(value, api):
    try:
        return np_dtype(value, api)
    except TypeError:
        raise TypeError(
            f"For '{api}', the inputs must be dtypes such as cellax.float32, but got {value!r}."
        ) from None


def promote_types(type1, type2):
    """The smallest dtype both ``type1`` and ``type2`` safely convert to.

    Args:
        type1 (Union[cellax.dtype, str]): A dtype.
        type2 (Union[cellax.dtype, str]): A dtype.

    Returns:
        cellax.dtype.

    Raises:
        TypeError: If an input is not a dtype.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.promote_types(mnp.int32, mnp.float16))
        Float16
    """
    a, b = _type(type1, "promote_types"), _type(type2, "promote_types")
    return _dtype.from_numpy_dtype(np.dtype(jnp.promote_types(a, b)))


def result_type(*arrays_and_dtypes):
    """The dtype of applying MindSpore's promotion rules to the inputs.

    Python ints count as Int32, floats as Float32 and bools as Bool (mnp's defaults).

    Returns:
        cellax.dtype.

    Examples:
        >>> import cellax as ms
        >>> import cellax.numpy as mnp
        >>> print(mnp.result_type(mnp.array([1]), 1.0))
        Float32
    """
    if not arrays_and_dtypes:
        raise ValueError("For 'result_type', at least one input is needed, but got none.")
    dtypes = []
    for item in arrays_and_dtypes:
        if isinstance(item, (_dtype.Type, str, np.dtype)) or isinstance(item, type):
            dtypes.append(_type(item, "result_type"))
        else:
            dtypes.append(arr(item, "result_type", "arrays_and_dtypes").dtype)
    result = dtypes[0]
    for d in dtypes[1:]:
        result = jnp.promote_types(result, d)
    return _dtype.from_numpy_dtype(np.dtype(result))
