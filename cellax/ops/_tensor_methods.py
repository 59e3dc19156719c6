"""Tensor methods implemented by the functional ops (registered on Tensor once, at import).

Each method points at a functional op; only argument mapping lives here (MindSpore's Tensor
methods accept both the NumPy-style ``axis=``/``keepdims=`` and the torch-style
``dim``/``keepdim`` spellings).
"""

from __future__ import annotations

import jax.numpy as jnp

from .._tensor import Tensor
from . import (
    _array,
    _creation,
    _cumulative,
    _elementwise,
    _index,
    _linalg,
    _math,
    _nn,
    _reduce,
    _shape,
)
from ._utils import arr, array, np_dtype, wrap


def _pick(axis, dim):
    return dim if dim is not None else axis


def _sum(self, axis=None, dtype=None, keepdims=False, initial=None, *, dim=None, keepdim=None):
    result = _reduce.sum(
        self, _pick(axis, dim), keepdims if keepdim is None else keepdim, dtype=dtype
    )
    return result if initial is None else wrap(result._value + initial)


def _mean(self, axis=None, keep_dims=False, *, dim=None, keepdim=None, dtype=None):
    result = _reduce.mean(self, _pick(axis, dim), keep_dims if keepdim is None else keepdim)
    return result if dtype is None else result.astype(dtype)


def _extreme(fn):
    def method(
        self,
        *args,
        axis=None,
        keepdims=False,
        initial=None,
        where=None,
        return_indices=False,
        dim=None,
        keepdim=False,
    ):
        if args or dim is not None:
            # torch-style ``x.max(dim, keepdim)`` returns (values, indices), as in MindSpore.
            dim = args[0] if args else dim
            keepdim = args[1] if len(args) > 1 else keepdim
            return fn(self, dim, keepdim)
        values, index = fn(self, axis, keepdims, initial=initial, where=where)
        return (values, index) if return_indices else values

    return method


def _arg(fn):
    def method(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return fn(self, _pick(axis, dim), keepdims if keepdim is None else keepdim)

    return method


def _moment(fn):
    def method(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
        return fn(
            self,
            _pick(axis, dim),
            ddof if correction is None else correction,
            keepdims if keepdim is None else keepdim,
        )

    return method


_NARROW_INTS = (jnp.bool_, jnp.int8, jnp.uint8, jnp.int16)


def _cumsum(self, axis=None, dtype=None, *, dim=None):
    axis = _pick(axis, dim)
    if dtype is None and arr(self).dtype in _NARROW_INTS:
        dtype = jnp.int32  # MindSpore's Tensor.cumsum sums bool and narrow ints in Int32
    if axis is None:
        return _cumulative.cumsum(_shape.ravel(self), 0, dtype)
    return _cumulative.cumsum(self, axis, dtype)


def _transpose(self, *axes):
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not axes:
        return wrap(jnp.transpose(arr(self)))
    return _shape.transpose(self, axes)


def _permute(self, *axis):
    if len(axis) == 1 and isinstance(axis[0], (tuple, list)):
        axis = tuple(axis[0])
    return _shape.permute(self, axis)


def _fill_(self, value):
    self._value = jnp.full_like(self._value, arr(value))
    return self


def _zero_(self):
    self._value = jnp.zeros_like(self._value)
    return self


def _tile(self, *reps):
    if len(reps) == 1 and isinstance(reps[0], (tuple, list)):
        reps = tuple(reps[0])
    return _shape.tile(self, reps)


def _repeat(self, *repeats):
    return _tile(self, *repeats)


def _where(self, condition, y):
    return _array.where(condition, self, y)


def _type_as(self, other):
    return wrap(arr(self).astype(array(other).dtype))


def _new(fn):
    def method(self, size, *, dtype=None):
        return fn(size, dtype or self.dtype)

    return method


def _new_full(self, size, fill_value, *, dtype=None):
    return wrap(jnp.full(tuple(size), arr(fill_value), np_dtype(dtype or self.dtype)))


def _flatten(self, order="C", *, start_dim=0, end_dim=-1):
    return _shape.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def _squeeze(self, axis=None, *, dim=None):
    return _shape.squeeze(self, _pick(axis, dim))


def _method_on(fn, name):
    """``tensor.name(*args)`` -> ``fn(tensor, *args)``."""

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Method form of ``ops.{fn.__name__}``."
    return method


_SAME_SIGNATURE = {
    # math
    "add": _math.add,
    "sub": _math.sub,
    "mul": _math.mul,
    "div": _math.div,
    "true_divide": _math.true_divide,
    "floor_divide": _math.floor_divide,
    "remainder": _math.remainder,
    "fmod": _math.fmod,
    "pow": _math.pow,
    "matmul": _math.matmul,
    "abs": _math.abs,
    "absolute": _math.abs,
    "neg": _math.neg,
    "negative": _math.neg,
    "exp": _math.exp,
    "expm1": _math.expm1,
    "log": _math.log,
    "log2": _math.log2,
    "log10": _math.log10,
    "log1p": _math.log1p,
    "sqrt": _math.sqrt,
    "rsqrt": _math.rsqrt,
    "square": _math.square,
    "sin": _math.sin,
    "cos": _math.cos,
    "tan": _math.tan,
    "sinh": _math.sinh,
    "cosh": _math.cosh,
    "tanh": _math.tanh,
    "asin": _math.asin,
    "acos": _math.acos,
    "atan": _math.atan,
    "arcsin": _math.asin,
    "arccos": _math.acos,
    "arctan": _math.atan,
    "atan2": _math.atan2,
    "erf": _math.erf,
    "erfc": _math.erfc,
    "reciprocal": _math.reciprocal,
    "sign": _math.sign,
    "floor": _math.floor,
    "ceil": _math.ceil,
    "round": _math.round,
    "trunc": _math.trunc,
    "frac": _math.frac,
    "clip": _elementwise.clamp,
    "clamp": _elementwise.clamp,
    "lerp": _elementwise.lerp,
    "addcmul": _elementwise.addcmul,
    "addcdiv": _elementwise.addcdiv,
    "maximum": _math.maximum,
    "minimum": _math.minimum,
    "eq": _math.eq,
    "ne": _math.ne,
    "gt": _math.gt,
    "ge": _math.ge,
    "lt": _math.lt,
    "le": _math.le,
    "greater": _math.gt,
    "less": _math.lt,
    "equal": _math.eq,
    "not_equal": _math.ne,
    "logical_and": _math.logical_and,
    "logical_or": _math.logical_or,
    "logical_not": _math.logical_not,
    "logical_xor": _math.logical_xor,
    "bitwise_and": _math.bitwise_and,
    "bitwise_or": _math.bitwise_or,
    "bitwise_xor": _math.bitwise_xor,
    "isnan": _math.isnan,
    "isinf": _math.isinf,
    "isfinite": _math.isfinite,
    "isclose": _elementwise.isclose,
    "allclose": _elementwise.allclose,
    "nan_to_num": _elementwise.nan_to_num,
    "logit": _math.logit,
    "xlogy": _math.xlogy,
    "hypot": _math.hypot,
    "logaddexp": _math.logaddexp,
    # reductions
    "prod": _reduce.prod,
    "all": _reduce.all,
    "any": _reduce.any,
    "amax": _reduce.amax,
    "amin": _reduce.amin,
    "logsumexp": _reduce.logsumexp,
    "cumprod": _cumulative.cumprod,
    "cummax": _cumulative.cummax,
    "cummin": _cumulative.cummin,
    "median": _reduce.median,
    "count_nonzero": _reduce.count_nonzero,
    "nansum": _reduce.nansum,
    "nanmean": _reduce.nanmean,
    "trace": _reduce.trace,
    "diff": _reduce.diff,
    "logcumsumexp": _cumulative.logcumsumexp,
    "aminmax": _reduce.aminmax,
    "quantile": _reduce.quantile,
    # shape
    "unsqueeze": _shape.unsqueeze,
    "expand_dims": _shape.expand_dims,
    "broadcast_to": _shape.broadcast_to,
    "expand_as": _shape.expand_as,
    "view_as": _shape.view_as,
    "split": _shape.split,
    "chunk": _shape.chunk,
    "tril": _array.tril,
    "triu": _array.triu,
    "swapaxes": _shape.swapaxes,
    "swapdims": _shape.swapdims,
    "movedim": _shape.movedim,
    "moveaxis": _shape.moveaxis,
    "flip": _shape.flip,
    "roll": _shape.roll,
    "narrow": _shape.narrow,
    "unbind": _shape.unbind,
    "diagonal": _array.diagonal,
    "diag": _array.diag,
    "repeat_interleave": _shape.repeat_interleave,
    "ravel": _shape.ravel,
    "t": _shape.t,
    "tensor_split": _shape.tensor_split,
    "rot90": _shape.rot90,
    "fliplr": _shape.fliplr,
    "flipud": _shape.flipud,
    # indexing
    "gather": _index.gather,
    "gather_elements": _index.gather_elements,
    "gather_nd": _index.gather_nd,
    "index_select": _index.index_select,
    "masked_fill": _index.masked_fill,
    "masked_select": _index.masked_select,
    "scatter": _index.scatter,
    "scatter_add": _index.scatter_add,
    "index_add": _index.index_add,
    "index_fill": _index.index_fill,
    "sort": _index.sort,
    "argsort": _index.argsort,
    "topk": _index.topk,
    "unique_consecutive": _index.unique_consecutive,
    "nonzero": _index.nonzero,
    "argwhere": _index.argwhere,
    "searchsorted": _index.searchsorted,
    # nn
    "relu": _nn.relu,
    "sigmoid": _nn.sigmoid,
    "softmax": _nn.softmax,
    "log_softmax": _nn.log_softmax,
    # linalg
    "norm": _linalg.norm,
    "mm": _linalg.mm,
    "bmm": _linalg.bmm,
    "dot": _linalg.dot,
    "inner": _linalg.inner,
    "outer": _linalg.outer,
    "addmm": _linalg.addmm,
    "baddbmm": _linalg.baddbmm,
    "det": _linalg.det,
    "inverse": _linalg.inverse,
    "matrix_power": _linalg.matrix_power,
    "cross": _linalg.cross,
    "kron": _linalg.kron,
}

_METHODS = {name: _method_on(fn, name) for name, fn in _SAME_SIGNATURE.items()}
_METHODS.update(
    {
        "sum": _sum,
        "mean": _mean,
        "max": _extreme(_reduce.max),
        "min": _extreme(_reduce.min),
        "argmax": _arg(_reduce.argmax),
        "argmin": _arg(_reduce.argmin),
        "std": _moment(_reduce.std),
        "var": _moment(_reduce.var),
        "cumsum": _cumsum,
        "transpose": _transpose,
        "permute": _permute,
        "squeeze": _squeeze,
        "flatten": _flatten,
        "tile": _tile,
        "repeat": _repeat,
        "fill_": _fill_,
        "zero_": _zero_,
        "where": _where,
        "type_as": _type_as,
        "new_zeros": _new(_creation.zeros),
        "new_ones": _new(_creation.ones),
        "new_empty": _new(_creation.zeros),
        "new_full": _new_full,
        "ndimension": lambda self: self.ndim,
        "isreal": lambda self: _math.isreal(self),
        "is_complex": lambda self: _array.is_complex(self),
    }
)
Tensor._register_methods(_METHODS)
