"""MindSpore 2.10's input-dtype checks, as one table shared by the ops.

MindSpore's primitives check the dtype of their inputs when the op is built (the check is the
same on every device) and raise ``TypeError`` for a dtype they do not accept, e.g. ``ops.add`` of
two Bool Tensors or ``ops.cumsum`` of a Bool Tensor. This table holds those frontend checks, read
off MindSpore 2.10 (tests/goldens/record_conformance.py records them). Failures that come only
from MindSpore's CPU kernel selection ("Select CPU operator ... fail") are backend gaps, not
MindSpore semantics, and are not reproduced.
"""

from __future__ import annotations

import numpy as np

import jax
import jax.numpy as jnp

from ... import _dtype

_FLOATS = "Float16 Float32 Float64 BFloat16"


_INTS = "Int8 Int16 Int32 Int64 UInt8 UInt16 UInt32 UInt64"


_COMPLEX = "Complex64 Complex128"


# api name -> the MindSpore dtype names its primitive accepts (checked on every Tensor input).
ACCEPTS = {
    "add": f"{_FLOATS} {_INTS} {_COMPLEX}",
    "sub": f"{_FLOATS} {_INTS} {_COMPLEX}",
    "truncate_mod": "Float16 Float32 Float64 Int32 Int8 UInt8",
    "hypot": "Float32 Float64",
    "fmax": "Float16 Float32 Float64 Int32 Int64",
    "fmin": "Float16 Float32 Float64 Int32 Int64",
    "xdivy": f"Float16 Float32 Float64 {_COMPLEX}",
    "heaviside": f"Float16 Float32 Float64 {_INTS}",
    "nextafter": "Float32 Float64",
    "gcd": "Int16 Int32 Int64",
    "lcm": "Int32 Int64",
    "bitwise_left_shift": _INTS,
    "bitwise_right_shift": _INTS,
    "logaddexp": _FLOATS,
    "logaddexp2": _FLOATS,
    "copysign": f"{_FLOATS} {_INTS}",
    "exp": f"BFloat16 Bool Float16 Float32 Float64 Int64 {_COMPLEX}",
    "lgamma": "Float16 Float32 Float64 Int32",
    "digamma": "Float16 Float32 Float64",
    "i0": "Float16 Float32 Float64",
    "bessel_i0": "Float16 Float32 Float64",
    "bessel_i0e": "Float16 Float32 Float64",
    "bessel_i1": "Float16 Float32 Float64",
    "bessel_i1e": f"{_FLOATS} {_INTS}",
    "deg2rad": "Float16 Float32 Float64",
    "rad2deg": "Float16 Float32 Float64",
    "sign": f"BFloat16 Bool Float16 Float32 Float64 Int32 Int64 {_COMPLEX}",
    "sgn": f"BFloat16 Bool Float16 Float32 Float64 Int32 Int64 {_COMPLEX}",
    "ceil": "BFloat16 Float16 Float32 Float64",
    "conj": f"{_FLOATS} {_INTS} {_COMPLEX}",
    "invert": _INTS,
    "bitwise_not": _INTS,
    "cumsum": f"{_FLOATS} {_INTS} {_COMPLEX}",
    "logcumsumexp": "Float16 Float32 Float64",
    "median": "Float32 Float64 Int16 Int32 Int64",
    # MindSpore also refuses BFloat16 here; cellax takes it (JAX's training dtype)
    "unfold": f"{_FLOATS} {_COMPLEX} Int8 Int16 Int32 Int64 UInt8",
    "multinomial": f"{_FLOATS} {_INTS}",
    "kl_div": _FLOATS,
    # activations, products and distances of float Tensors (MindSpore 2.10's lists name some
    # of the float dtypes only; every float dtype is accepted here)
    "softmax": _FLOATS,
    "softmin": _FLOATS,
    "mish": _FLOATS,
    "relu6": _FLOATS,
    "celu": _FLOATS,
    "softsign": _FLOATS,
    "softshrink": _FLOATS,
    "hardshrink": _FLOATS,
    "gelu": _FLOATS,
    "prelu": _FLOATS,
    "leaky_relu_ext": _FLOATS,  # mint.nn.functional.leaky_relu (ops.leaky_relu takes any)
    "selu": "Float16 Float32 Float64 BFloat16 Int8 Int32",
    "hardsigmoid": f"{_FLOATS} Int8 Int16 Int32 Int64",
    "addcmul": f"{_FLOATS} Int8 Int32 Int64 UInt8",
    "lerp": _FLOATS,
    "dot": _FLOATS,
    "einsum": _FLOATS,
    "pdist": _FLOATS,
    "inverse": f"{_FLOATS} {_COMPLEX}",
}


# Float-only inputs of the nn functions and Cells (MindSpore's "For primitive[X], the input
# argument[x] must be a type of {Tensor[Float16], ...}"; Int and Bool Tensors refused).
ACCEPTS.update(
    dict.fromkeys(
        (
            "adaptive_avg_pool2d",
            "avg_pool1d",
            "avg_pool2d",
            "dropout",
            "group_norm",
            "GroupNorm",
            "cross_entropy",
            "binary_cross_entropy",
            "binary_cross_entropy_with_logits",
            "ELU",
            "GELU",
            "PReLU",
            "Softmax",
            "LayerNorm",
        ),
        _FLOATS,
    )
)
ACCEPTS["max_pool2d"] = f"{_FLOATS} {_INTS}"  # MaxPoolWithArgmaxV2 refuses Bool only


_SETS = {api: frozenset(names.split()) for api, names in ACCEPTS.items()}


_ACCEPTED: dict = {}  # (api, numpy dtype) -> True once accepted


def dtype_name(value) -> str:
    """MindSpore's name of an array's dtype (``'Float32'``, ``'Bool'``, ...)."""
    return str(_dtype.from_numpy_dtype(np.dtype(value.dtype)))


def check_accepts(api: str, *values, rule: str | None = None) -> None:
    """Raise MindSpore's ``TypeError`` when a Tensor input's dtype is not accepted by ``api``
    (by the table's ``rule`` where one public name has two rules, as ``ops.leaky_relu`` and
    ``mint.nn.functional.leaky_relu``).

    Python scalars are not checked (MindSpore converts them to the Tensor's dtype).
    """
    allowed = _SETS.get(rule or api)
    if allowed is None:
        return
    for value in values:
        dtype = getattr(value, "dtype", None)
        if dtype is None:
            continue
        if _ACCEPTED.get((rule or api, dtype)):  # the eager hot path: one lookup per input
            continue
        name = dtype_name(value)
        if name in allowed:
            _ACCEPTED[(rule or api, dtype)] = True
        else:
            raise TypeError(
                f"For '{api}', the dtype of the input Tensor must be one of "
                f"{{{', '.join(sorted(allowed))}}}, but got {name}."
            )


def check_same_dtype(api: str, **values) -> None:
    """Raise MindSpore's ``TypeError`` unless the named Tensor inputs share one dtype (its
    Dense and KLDivLoss, for example, check this on every device)."""
    names = {name: dtype_name(value) for name, value in values.items()}
    if len(set(names.values())) > 1:
        listed = " and ".join(f"'{name}' {dtype}" for name, dtype in names.items())
        raise TypeError(f"For '{api}', the inputs must have the same dtype, but got {listed}.")


def check_same_kind(api: str, **values) -> tuple:
    """MindSpore's "the type of 'x2' should be same as 'x1'" for an op whose Tensor inputs
    must share a dtype (a matmul's input and weight, a loss's input and target): TypeError
    naming ``api`` and the two arguments when one is an Int or Bool Tensor and another not of
    its dtype. Two floating dtypes of different widths are computed in the wider one (cellax
    accepts more there; :func:`check_same_dtype` where it does not). Returns the values, in
    order."""
    named = [(name, value) for name, value in values.items() if hasattr(value, "dtype")]
    for (name, value), (other, second) in zip(named[:1] * len(named), named[1:]):
        first, then = np.dtype(value.dtype), np.dtype(second.dtype)
        if first == then or (_dtype.is_inexact(first) and _dtype.is_inexact(then)):
            continue
        raise TypeError(
            f"For '{api}', '{name}' and '{other}' must have the same dtype, but got "
            f"{_dtype.from_numpy_dtype(first)} and {_dtype.from_numpy_dtype(then)}."
        )
    return tuple(values.values())


def check_accepts_promoted(api: str, *values) -> None:
    """:func:`check_accepts` of the dtype the Tensor inputs promote to: MindSpore casts them to
    one dtype before its check, so a Bool and an Int32 Tensor are an Int32 ``add``, while two
    Bool Tensors (or a Bool Tensor and a Python number) stay Bool and are refused."""
    try:
        check_accepts(api, *values)  # the eager hot path: every input accepted as it is
    except TypeError:
        dtypes = [value.dtype for value in values if getattr(value, "dtype", None) is not None]
        check_accepts(api, jax.ShapeDtypeStruct((), jnp.result_type(*dtypes)))
