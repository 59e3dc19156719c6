"""MindSpore's gradient through casts to an integer dtype, which JAX cannot carry.

MindSpore's ``Cast`` bprop casts ``dout`` back to the input's dtype whatever the dtypes, so
``cast(cast(x, int32), float32)`` passes ``x``'s gradient through. In JAX an integer array has no
tangent. While a derivative transform traces (``_core.differentiating()``), a float -> integer
cast therefore keeps a float *twin* of its result on the Tensor (``Tensor._grad_source``: the
truncated values; its gradient is the cotangent cast to the integer dtype and back), and what reads it back as a float (a cast to a
float dtype, or grad's differentiated output) takes the twin. Integer arithmetic in between
drops the twin: such a gradient stays zero.
"""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp
import numpy as np

from . import _core, _dtype

__all__ = ["cast_value", "grad_source"]


def cast_value(value, np_dtype, twin=None) -> tuple:
    """``value`` cast to ``np_dtype``, with the gradient passing as MindSpore's Cast bprop:
    ``(cast array, its float twin or None)``; ``twin`` is the input's own float twin."""
    if value.dtype == np_dtype:
        return value, None
    if twin is not None and _dtype.is_inexact(np_dtype):  # the integer's value, the float's tangent
        return twin.astype(np_dtype), None
    if (
        _core.differentiating()
        and isinstance(value, jax.core.Tracer)
        and _dtype.is_integer(np_dtype)
        and _dtype.is_floating(value.dtype)
    ):
        return value.astype(np_dtype), _through_integer(value, np.dtype(np_dtype))
    return value.astype(np_dtype), None


@ft.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _through_integer(value, np_dtype):
    return jnp.trunc(value)


def _through_integer_fwd(value, np_dtype):
    return jnp.trunc(value), None


def _through_integer_bwd(np_dtype, _, cotangent):  # the cotangent is cast on the way back too
    return (cotangent.astype(np_dtype).astype(cotangent.dtype),)


_through_integer.defvjp(_through_integer_fwd, _through_integer_bwd)


def grad_source(tensor):
    """The array a gradient flows back through: a Tensor's float twin if it has one."""
    twin = getattr(tensor, "_grad_source", None)
    return tensor._value if twin is None else twin
