"""Tensor methods implemented by the functional ops (registered on Tensor once, at import).

Each method points at a functional op; only argument mapping lives here (MindSpore's Tensor
methods accept both the NumPy-style ``axis=``/``keepdims=`` and the torch-style
``dim``/``keepdim`` spellings).
"""

from __future__ import annotations

import jax.numpy as jnp

from ..._core._seams import TENSOR_METHODS
from . import (
    activations,
    cumulative,
    decompositions,
    elementwise,
    indexing,
    inplace,
    matrix_diag,
    norms,
    products,
    queries,
    reductions,
    scatter,
    shape,
    sorting,
    statistics,
    ufuncs,
)
from ..._tensor import Tensor
from .utils import arr, np_dtype, wrap


def _pick(axis, dim):
    return dim if dim is not None else axis


def _sum(self, axis=None, dtype=None, keepdims=False, initial=None, *, dim=None, keepdim=None):
    result = reductions.sum(
        self, _pick(axis, dim), keepdims if keepdim is None else keepdim, dtype=dtype
    )
    return result if initial is None else wrap(result._value + initial)


def _mean(self, axis=None, keep_dims=False, *, dim=None, keepdim=None, dtype=None):
    result = reductions.mean(self, _pick(axis, dim), keep_dims if keepdim is None else keepdim)
    return result if dtype is None else result.astype(dtype)


_UNSET = object()


def _extreme(fn):
    """``Tensor.max``/``Tensor.min`` with MindSpore 2.10's two overloads: the NumPy-style
    ``(axis=None, keepdims=False, *, initial, where, return_indices)`` returning the values, and
    the torch-style ``(dim, keepdim=False)`` returning (values, indices). ``dim=``/``keepdim=``
    pick the torch one and ``axis=``/``keepdims=``/``initial=``/``where=``/``return_indices=``
    the NumPy one; bare positional arguments pick the torch one eagerly and the NumPy one in
    graph code (a ``jit`` body, GRAPH_MODE), as MindSpore resolves them (mindyolo's
    ``x.max(-2).expand_dims(-1)`` runs only compiled)."""

    def method(
        self,
        *args,
        axis=_UNSET,
        keepdims=_UNSET,
        initial=None,
        where=None,
        return_indices=False,
        dim=None,
        keepdim=None,
    ):
        numpy_kw = (
            axis is not _UNSET
            or keepdims is not _UNSET
            or initial is not None
            or where is not None
            or return_indices
        )
        if dim is not None or keepdim is not None or (args and not numpy_kw and not _graph()):
            dim = args[0] if args else dim
            keepdim = args[1] if len(args) > 1 else bool(keepdim)
            return fn(self, dim, keepdim)
        names = ("axis", "keepdims", "initial", "where", "return_indices")
        given = dict(zip(names, args))
        axis = given.get("axis", None if axis is _UNSET else axis)
        keepdims = given.get("keepdims", False if keepdims is _UNSET else keepdims)
        initial, where = given.get("initial", initial), given.get("where", where)
        return_indices = given.get("return_indices", return_indices)
        values, index = fn(self, axis, keepdims, initial=initial, where=where)
        return (values, index) if return_indices else values

    return method


def _graph() -> bool:
    from ..._transforms._custom_vjp import _in_graph_code

    return _in_graph_code()


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
        return cumulative.cumsum(shape.ravel(self), 0, dtype)
    return cumulative.cumsum(self, axis, dtype)


def _transpose(self, *axes, dim0=None, dim1=None):
    if dim0 is not None or dim1 is not None:
        axes = (*axes, *(d for d in (dim0, dim1) if d is not None))
        return shape.swapaxes(self, *axes)
    if len(axes) == 2 and all(isinstance(a, int) for a in axes):
        # MindSpore 2.10: two ints are torch-style ``transpose(dim0, dim1)`` (swap them), also
        # on a 2-D Tensor; a full permutation (or one tuple) is the classic form.
        return shape.swapaxes(self, *axes)
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not axes:
        return wrap(jnp.transpose(arr(self)))
    return shape.transpose(self, axes)


def _permute(self, *axis):
    if len(axis) == 1 and isinstance(axis[0], (tuple, list)):
        axis = tuple(axis[0])
    return shape.permute(self, axis)


def _fill_(self, value):
    self._value = jnp.full_like(self._value, arr(value))
    return self


def _zero_(self):
    self._value = jnp.zeros_like(self._value)
    return self


def _tile(self, *reps):
    if len(reps) == 1 and isinstance(reps[0], (tuple, list)):
        reps = tuple(reps[0])
    return shape.tile(self, reps)


def _repeat(self, *repeats):
    return _tile(self, *repeats)


def _where(self, condition, y):
    return elementwise.where(condition, self, y)


def _type_as(self, other):
    return wrap(arr(self).astype(arr(other, keep_scalars=False).dtype))


def _new_full(self, size, fill_value, *, dtype=None):
    return wrap(jnp.full(tuple(size), arr(fill_value), np_dtype(dtype or self.dtype)))


def _flatten(self, order="C", end=None, *, start_dim=0, end_dim=-1):
    if isinstance(order, int):  # torch-style ``flatten(start_dim, end_dim)``, as MindSpore 2.10
        start_dim, end_dim, order = order, (end_dim if end is None else end), "C"
    return shape.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def _expand(self, *size):
    """``x.expand(2, 3)`` or ``x.expand((2, 3))``; -1 keeps that dimension."""
    if len(size) == 1 and not isinstance(size[0], int):
        size = size[0]
    return shape.broadcast_to(self, tuple(size))


def _type(self, dtype=None, non_blocking=False, **kwargs):
    """The dtype's name (``'Float32'``) without ``dtype``; otherwise a copy cast to it."""
    del non_blocking, kwargs
    return str(self.dtype) if dtype is None else self.astype(dtype)


def _gather(self, *args, **kwargs):
    """``gather(input_indices, axis, batch_dims=0)``, or torch-style ``gather(dim, index)`` (an
    int then a Tensor, or the ``dim=``/``index=`` keywords) as ``gather_elements``."""
    torch_style = len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], Tensor)
    if "dim" in kwargs or "index" in kwargs or torch_style:
        return _with_dim(indexing.gather_elements, "dim")(self, *args, **kwargs)
    return indexing.gather(self, *args, **kwargs)


def _squeeze(self, axis=None, *, dim=None):
    return shape.squeeze(self, _pick(axis, dim))


def _in_place(fn, name):
    """``x.name(...)``: ``fn(x, ...)`` written back into ``x`` (in ``x``'s dtype and shape; a
    Parameter through ``assign``) and returned, as MindSpore's in-place Tensor methods."""

    def method(self, *args, **kwargs):
        new = arr(fn(self, *args, **kwargs))
        if new.shape != self.shape:
            if jnp.broadcast_shapes(new.shape, self.shape) != self.shape:
                raise ValueError(
                    f"For 'Tensor.{name}', the result's shape {new.shape} does not broadcast "
                    f"to the Tensor's shape {self.shape}."
                )
            new = jnp.broadcast_to(new, self.shape)
        return inplace._overwrite(f"Tensor.{name}", self, new)

    method.__name__ = name
    method.__doc__ = f"In-place form of ``Tensor.{name[:-1]}``: writes into the Tensor, returns it."
    return method


def _scaled(other, alpha):
    return other if alpha == 1 else ufuncs.mul(other, alpha)


def _with_dim(fn, axis_name="axis", keep_name=None):
    """A method that also accepts MindSpore 2.10's torch-style ``dim=`` (and ``keepdim=``)
    spellings for ``fn``'s ``axis_name`` (and ``keep_name``) parameter."""

    def method(self, *args, dim=None, keepdim=None, **kwargs):
        if dim is not None:
            kwargs[axis_name] = dim
        if keepdim is not None:
            if keep_name is None:
                raise TypeError(f"{fn.__name__}() got an unexpected keyword argument 'keepdim'")
            kwargs[keep_name] = keepdim
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = f"Method form of ``ops.{fn.__name__}`` (``dim=`` is ``{axis_name}=``)."
    return method


def _method_on(fn, name):
    """``tensor.name(*args)`` -> ``fn(tensor, *args)``."""

    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Method form of ``ops.{fn.__name__}``."
    return method


_SAME_SIGNATURE = {
    # math
    "add": ufuncs.add,
    "sub": ufuncs.sub,
    "mul": ufuncs.mul,
    "div": ufuncs.div,
    "true_divide": ufuncs.true_divide,
    "floor_divide": ufuncs.floor_divide,
    "remainder": ufuncs.remainder,
    "fmod": ufuncs.fmod,
    "pow": ufuncs.pow,
    "matmul": ufuncs.matmul,
    "abs": ufuncs.abs,
    "absolute": ufuncs.abs,
    "neg": ufuncs.neg,
    "negative": ufuncs.neg,
    "exp": ufuncs.exp,
    "expm1": ufuncs.expm1,
    "log": ufuncs.log,
    "log2": ufuncs.log2,
    "log10": ufuncs.log10,
    "log1p": ufuncs.log1p,
    "sqrt": ufuncs.sqrt,
    "rsqrt": ufuncs.rsqrt,
    "square": ufuncs.square,
    "sin": ufuncs.sin,
    "cos": ufuncs.cos,
    "tan": ufuncs.tan,
    "sinh": ufuncs.sinh,
    "cosh": ufuncs.cosh,
    "tanh": ufuncs.tanh,
    "asin": ufuncs.asin,
    "acos": ufuncs.acos,
    "atan": ufuncs.atan,
    "arcsin": ufuncs.asin,
    "arccos": ufuncs.acos,
    "arctan": ufuncs.atan,
    "atan2": ufuncs.atan2,
    "erf": ufuncs.erf,
    "erfc": ufuncs.erfc,
    "reciprocal": ufuncs.reciprocal,
    "sign": ufuncs.sign,
    "floor": ufuncs.floor,
    "ceil": ufuncs.ceil,
    "round": ufuncs.round,
    "trunc": ufuncs.trunc,
    "frac": ufuncs.frac,
    "clip": elementwise.clamp,
    "clamp": elementwise.clamp,
    "lerp": elementwise.lerp,
    "addcmul": elementwise.addcmul,
    "addcdiv": elementwise.addcdiv,
    "maximum": ufuncs.maximum,
    "minimum": ufuncs.minimum,
    "eq": ufuncs.eq,
    "ne": ufuncs.ne,
    "gt": ufuncs.gt,
    "ge": ufuncs.ge,
    "lt": ufuncs.lt,
    "le": ufuncs.le,
    "greater": ufuncs.gt,
    "less": ufuncs.lt,
    "equal": ufuncs.eq,
    "not_equal": ufuncs.ne,
    "logical_and": ufuncs.logical_and,
    "logical_or": ufuncs.logical_or,
    "logical_not": ufuncs.logical_not,
    "logical_xor": ufuncs.logical_xor,
    "bitwise_and": ufuncs.bitwise_and,
    "bitwise_or": ufuncs.bitwise_or,
    "bitwise_xor": ufuncs.bitwise_xor,
    "isnan": ufuncs.isnan,
    "isinf": ufuncs.isinf,
    "isfinite": ufuncs.isfinite,
    "isclose": elementwise.isclose,
    "allclose": elementwise.allclose,
    "nan_to_num": elementwise.nan_to_num,
    "logit": ufuncs.logit,
    "xlogy": ufuncs.xlogy,
    "hypot": ufuncs.hypot,
    "logaddexp": ufuncs.logaddexp,
    # reductions
    "amax": reductions.amax,
    "amin": reductions.amin,
    "logsumexp": reductions.logsumexp,
    "cumprod": cumulative.cumprod,
    "cummax": cumulative.cummax,
    "cummin": cumulative.cummin,
    "count_nonzero": reductions.count_nonzero,
    "nansum": reductions.nansum,
    "nanmean": reductions.nanmean,
    "trace": reductions.trace,
    "diff": reductions.diff,
    "logcumsumexp": cumulative.logcumsumexp,
    "aminmax": reductions.aminmax,
    "quantile": statistics.quantile,
    # shape
    "unsqueeze": shape.unsqueeze,
    "expand_dims": shape.expand_dims,
    "broadcast_to": shape.broadcast_to,
    "expand_as": shape.expand_as,
    "view_as": shape.view_as,
    "tril": matrix_diag.tril,
    "triu": matrix_diag.triu,
    "swapaxes": shape.swapaxes,
    "swapdims": shape.swapdims,
    "movedim": shape.movedim,
    "moveaxis": shape.moveaxis,
    "flip": shape.flip,
    "roll": shape.roll,
    "narrow": shape.narrow,
    "unbind": shape.unbind,
    "diagonal": matrix_diag.diagonal,
    "diag": matrix_diag.diag,
    "ravel": shape.ravel,
    "t": shape.t,
    "tensor_split": shape.tensor_split,
    "rot90": shape.rot90,
    "fliplr": shape.fliplr,
    "flipud": shape.flipud,
    # indexing
    "gather_elements": indexing.gather_elements,
    "gather_nd": indexing.gather_nd,
    "masked_fill": scatter.masked_fill,
    "masked_select": indexing.masked_select,
    "scatter_add": scatter.scatter_add,
    "index_add": scatter.index_add,
    "index_fill": scatter.index_fill,
    "topk": sorting.topk,
    "unique_consecutive": sorting.unique_consecutive,
    "nonzero": sorting.nonzero,
    "argwhere": sorting.argwhere,
    # nn
    "relu": activations.relu,
    "sigmoid": activations.sigmoid,
    "softmax": activations.softmax,
    "log_softmax": activations.log_softmax,
    # linalg
    "norm": norms.norm,
    "mm": products.mm,
    "bmm": products.bmm,
    "dot": products.dot,
    "inner": products.inner,
    "outer": products.outer,
    "addmm": products.addmm,
    "baddbmm": products.baddbmm,
    "det": decompositions.det,
    "inverse": decompositions.inverse,
    "matrix_power": decompositions.matrix_power,
    "cross": products.cross,
    "kron": products.kron,
}


_METHODS = {name: _method_on(fn, name) for name, fn in _SAME_SIGNATURE.items()}


_METHODS.update(
    {
        "sum": _sum,
        "mean": _mean,
        "max": _extreme(reductions.max),
        "min": _extreme(reductions.min),
        "argmax": _arg(reductions.argmax),
        "argmin": _arg(reductions.argmin),
        "std": _moment(reductions.std),
        "var": _moment(reductions.var),
        "cumsum": _cumsum,
        "transpose": _transpose,
        "add_": _in_place(
            lambda x, other, *, alpha=1: ufuncs.add(x, _scaled(other, alpha)), "add_"
        ),
        "sub_": _in_place(
            lambda x, other, *, alpha=1: ufuncs.sub(x, _scaled(other, alpha)), "sub_"
        ),
        "mul_": _in_place(ufuncs.mul, "mul_"),
        "div_": _in_place(ufuncs.div, "div_"),
        "exp_": _in_place(ufuncs.exp, "exp_"),
        "masked_fill_": _in_place(scatter.masked_fill, "masked_fill_"),
        "copy_": _in_place(lambda x, src, non_blocking=False: src, "copy_"),
        "clamp_": inplace.clamp_,
        "uniform_": inplace.uniform_,
        "normal_": inplace.normal_,
        "expand": _expand,
        "type": _type,
        "gather": _gather,
        "chunk": _with_dim(shape.chunk),
        "split": _with_dim(shape.split),
        "prod": _with_dim(reductions.prod, keep_name="keep_dims"),
        "all": _with_dim(reductions.all, keep_name="keep_dims"),
        "any": _with_dim(reductions.any, keep_name="keep_dims"),
        "median": _with_dim(statistics.median, keep_name="keepdims"),
        "sort": _with_dim(sorting.sort),
        "argsort": _with_dim(sorting.argsort),
        "repeat_interleave": _with_dim(shape.repeat_interleave),
        "index_select": _with_dim(indexing.index_select),
        "scatter": _with_dim(scatter.scatter),
        "permute": _permute,
        "squeeze": _squeeze,
        "flatten": _flatten,
        "tile": _tile,
        "repeat": _repeat,
        "fill_": _fill_,
        "zero_": _zero_,
        "where": _where,
        "type_as": _type_as,
        "new_full": _new_full,
        "ndimension": lambda self: self.ndim,
        "isreal": lambda self: ufuncs.isreal(self),
        "is_complex": lambda self: queries.is_complex(self),
    }
)


TENSOR_METHODS.fill(_METHODS)
