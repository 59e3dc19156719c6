"""Tensor methods implemented by ops (registered on Tensor once, at import)."""

from __future__ import annotations

import jax.numpy as jnp

from .._tensor import Tensor
from . import _array, _math, _nn
from ._utils import arr, wrap


def _argmax(self, axis=None, keepdims=False):
    return wrap(jnp.argmax(arr(self), axis=axis, keepdims=keepdims))


def _argmin(self, axis=None, keepdims=False):
    return wrap(jnp.argmin(arr(self), axis=axis, keepdims=keepdims))


Tensor._register_methods(
    {
        "add": _math.add,
        "sub": _math.sub,
        "mul": _math.mul,
        "div": _math.div,
        "matmul": _math.matmul,
        "sum": lambda self, axis=None, keepdims=False, dtype=None: _math.sum(
            self, axis, keepdims, dtype=dtype
        ),
        "mean": lambda self, axis=None, keep_dims=False: _math.mean(self, axis, keep_dims),
        "abs": _math.abs,
        "exp": _math.exp,
        "log": _math.log,
        "sqrt": _math.sqrt,
        "square": _math.square,
        "neg": _math.neg,
        "argmax": _argmax,
        "argmin": _argmin,
        "transpose": lambda self, *axes: wrap(jnp.transpose(arr(self), axes or None)),
        "expand_dims": _array.expand_dims,
        "flatten": lambda self, order="C", *, start_dim=0, end_dim=-1: _array.flatten(
            self, order, start_dim=start_dim, end_dim=end_dim
        ),
        "squeeze": lambda self, axis=None: wrap(jnp.squeeze(arr(self), axis)),
        "relu": _nn.relu,
        "sigmoid": _nn.sigmoid,
        "softmax": _nn.softmax,
        "all": lambda self, axis=None, keep_dims=False: wrap(jnp.all(arr(self), axis, keepdims=keep_dims)),
        "any": lambda self, axis=None, keep_dims=False: wrap(jnp.any(arr(self), axis, keepdims=keep_dims)),
        "max": lambda self, axis=None, keepdims=False: wrap(jnp.max(arr(self), axis, keepdims=keepdims)),
        "min": lambda self, axis=None, keepdims=False: wrap(jnp.min(arr(self), axis, keepdims=keepdims)),
    }
)
