"""MindSpore 2.10's Tensor methods that are forms of the functional ops (registered on Tensor
once, at import, through the same seam as :mod:`.tensor_methods`): method forms of ops,
``view(dtype)`` and the ``new_*`` creators, MindSpore's overloaded methods (``select``,
``take``, ``scatter_``), ``masked_scatter``/``index_put`` and in-place forms (written back as
``add_``/``masked_fill_`` are). :mod:`.tensor_methods_runtime` has the rest.
"""

from __future__ import annotations


import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._core._seams import TENSOR_METHODS
from ..._tensor import Tensor
from . import (
    activations,
    decompositions,
    elementwise,
    inplace,
    matrix_diag,
    norms,
    products,
    random,
    rearrange,
    scatter,
    segment,
    shape,
    sorting,
    special,
    statistics,
    ufuncs,
)
from .tensor_methods import _in_place, _method_on, _scaled
from .utils import arr, np_dtype, wrap

_SAME_SIGNATURE = {
    "acosh": ufuncs.acosh,
    "arccosh": ufuncs.arccosh,
    "arcsinh": ufuncs.arcsinh,
    "arctanh": ufuncs.arctanh,
    "asinh": ufuncs.asinh,
    "atanh": ufuncs.atanh,
    "arctan2": ufuncs.arctan2,
    "angle": ufuncs.angle,
    "conj": ufuncs.conj,
    "real": ufuncs.real,
    "imag": ufuncs.imag,
    "copysign": ufuncs.copysign,
    "deg2rad": ufuncs.deg2rad,
    "rad2deg": ufuncs.rad2deg,
    "digamma": ufuncs.digamma,
    "lgamma": ufuncs.lgamma,
    "erfinv": ufuncs.erfinv,
    "i0": ufuncs.i0,
    "sinc": ufuncs.sinc,
    "sgn": ufuncs.sgn,
    "signbit": ufuncs.signbit,
    "positive": ufuncs.positive,
    "inv": ufuncs.inv,
    "invert": ufuncs.invert,
    "bitwise_not": ufuncs.bitwise_not,
    "bitwise_left_shift": ufuncs.bitwise_left_shift,
    "bitwise_right_shift": ufuncs.bitwise_right_shift,
    "isneginf": ufuncs.isneginf,
    "isposinf": ufuncs.isposinf,
    "float_power": ufuncs.float_power,
    "fmax": ufuncs.fmax,
    "fmin": ufuncs.fmin,
    "gcd": ufuncs.gcd,
    "lcm": ufuncs.lcm,
    "ldexp": ufuncs.ldexp,
    "heaviside": ufuncs.heaviside,
    "nextafter": ufuncs.nextafter,
    "logaddexp2": ufuncs.logaddexp2,
    "xdivy": ufuncs.xdivy,
    "multiply": ufuncs.multiply,
    "divide": ufuncs.divide,
    "subtract": ufuncs.subtract,
    "greater_equal": ufuncs.greater_equal,
    "less_equal": ufuncs.less_equal,
    "approximate_equal": elementwise.approximate_equal,
    "igamma": special.igamma,
    "igammac": special.igammac,
    "mvlgamma": special.mvlgamma,
    "hardshrink": activations.hardshrink,
    "soft_shrink": activations.soft_shrink,
    "addbmm": products.addbmm,
    "addmv": products.addmv,
    "adjoint": products.adjoint,
    "ger": products.ger,
    "cholesky": decompositions.cholesky,
    "cholesky_inverse": decompositions.cholesky_inverse,
    "cholesky_solve": decompositions.cholesky_solve,
    "eigvals": decompositions.eigvals,
    "geqrf": decompositions.geqrf,
    "logdet": decompositions.logdet,
    "slogdet": decompositions.slogdet,
    "log_matrix_determinant": decompositions.log_matrix_determinant,
    "matrix_determinant": decompositions.matrix_determinant,
    "lstsq": decompositions.lstsq,
    "lu_solve": decompositions.lu_solve,
    "orgqr": decompositions.orgqr,
    "ormqr": decompositions.ormqr,
    "svd": decompositions.svd,
    "triangular_solve": decompositions.triangular_solve,
    "renorm": norms.renorm,
    "cov": statistics.cov,
    "nanmedian": statistics.nanmedian,
    "nanquantile": statistics.nanquantile,
    "diagflat": matrix_diag.diagflat,
    "diagonal_scatter": scatter.diagonal_scatter,
    "select_scatter": scatter.select_scatter,
    "slice_scatter": scatter.slice_scatter,
    "scatter_div": scatter.scatter_div,
    "scatter_max": scatter.scatter_max,
    "scatter_min": scatter.scatter_min,
    "scatter_mul": scatter.scatter_mul,
    "inplace_update": inplace.inplace_update,
    "dsplit": shape.dsplit,
    "hsplit": shape.hsplit,
    "vsplit": shape.vsplit,
    "reverse": shape.reverse,
    "col2im": rearrange.col2im,
    "fold": rearrange.fold,
    "unfold": rearrange.unfold,
    "msort": sorting.msort,
    "top_k": sorting.top_k,
    "bincount": sorting.bincount,
    "unique_with_pad": segment.unique_with_pad,
    "unsorted_segment_max": segment.unsorted_segment_max,
    "unsorted_segment_min": segment.unsorted_segment_min,
    "unsorted_segment_prod": segment.unsorted_segment_prod,
    "multinomial": random.multinomial,
    "random_categorical": random.random_categorical,
}


def _index_add(self, dim, index, source, *, alpha=1):
    return scatter.index_add(self, index, _scaled(source, alpha), dim)


def _scatter_add(self, dim, index, src):
    return scatter.tensor_scatter_elements(self, index, src, dim, "add")


def _unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    return statistics.unique_sorted(self, return_inverse, return_counts, dim)


def _addr(self, vec1, vec2, beta=1, alpha=1):
    return products.addr(self, vec1, vec2, beta=beta, alpha=alpha)


def _qr(self, some=True):
    return decompositions.qr(self, "reduced" if some else "complete")


def _reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
    return rearrange.reverse_sequence(self, seq_lengths, seq_dim, batch_dim)


def _scatter_sub(self, indices, updates):
    return scatter.scatter_add(self, indices, ufuncs.neg(updates))


def _bernoulli(self, *, generator=None):
    return random.bernoulli(self, p=self, seed=inplace._seed("Tensor.bernoulli", generator))


def _H(self) -> Tensor:
    """The conjugate transpose of a matrix (0-D to 2-D; ``mH`` for batches)."""
    value = self._value
    if value.ndim > 2:
        raise ValueError(
            f"For 'Tensor.H', the Tensor must have at most 2 dimensions, but got shape "
            f"{tuple(value.shape)}. Use Tensor.mH for a batch of matrices."
        )
    return wrap(jnp.conj(jnp.transpose(value)))


def _mH(self) -> Tensor:
    """The conjugate transpose of the last two dimensions (``adjoint()``)."""
    return products.adjoint(self)


# -- reinterpretation, creation, casting -----------------------------------------------------


def _bitcast(api, value, target):
    """``value``'s bytes read as ``target`` (MindSpore's ``view(dtype)``): the last dimension
    grows or shrinks by the ratio of the item sizes."""
    source = value.dtype
    if source == target:
        return value
    src_size, dst_size = source.itemsize, np.dtype(target).itemsize
    if source == jnp.bool_:
        value, source = value.astype(jnp.uint8), np.dtype(np.uint8)
    work = jnp.uint8 if target == jnp.bool_ else target
    if src_size != dst_size and (value.ndim == 0 or value.shape[-1] * src_size % dst_size):
        last = value.shape[-1] if value.ndim else "a 0-d Tensor"
        raise ValueError(
            f"For '{api}', the last dimension must be divisible by {dst_size // src_size} to view "
            f"{_dtype.from_numpy_dtype(source)} as {_dtype.from_numpy_dtype(np.dtype(target))} "
            f"(different element sizes), but got {last}."
        )
    if src_size > dst_size:
        out = jax.lax.bitcast_convert_type(value, work)
        out = out.reshape(*value.shape[:-1], value.shape[-1] * (src_size // dst_size))
    elif src_size < dst_size:
        ratio = dst_size // src_size
        grouped = value.reshape(*value.shape[:-1], value.shape[-1] // ratio, ratio)
        out = jax.lax.bitcast_convert_type(grouped, work)
    else:
        out = jax.lax.bitcast_convert_type(value, work)
    return out != 0 if target == jnp.bool_ else out


def view(self, *shape, dtype=None) -> Tensor:
    """The same data with a new shape, or, given one dtype, its bytes reinterpreted as that
    dtype (the last dimension scales by the ratio of the item sizes).

    Args:
        shape (Union[tuple(int), int, cellax.dtype]): The new shape (one dimension may be -1),
            or a dtype to reinterpret the bits as.

    Raises:
        ValueError: For a dtype of another item size when the last dimension does not divide.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1.0, 2.0], ms.float32)
        >>> print(x.view(ms.int32))
        [1065353216 1073741824]
        >>> x.view(ms.float16).shape
        (4,)
        >>> x.view(2, 1).shape
        (2, 1)
    """
    if dtype is None and len(shape) == 1 and isinstance(shape[0], _dtype.Type):
        dtype = shape[0]
    if dtype is not None:
        target = np_dtype(dtype)
        return wrap(_bitcast("Tensor.view", self._value, target))
    return self.reshape(*shape)


def _sizes(api, size):
    """``(2, 3)``, ``((2, 3),)`` or ``([2, 3],)`` -> ``(2, 3)``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for dim in size:
        if isinstance(dim, Tensor):
            continue
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(
                f"For '{api}', 'size' must be an int or a tuple/list of ints, but got {size!r}."
            )
        if dim < 0:
            raise ValueError(f"For '{api}', 'size' must not be negative, but got {size!r}.")
    return tuple(int(d) for d in size)


def _new_filled(name, fill):
    def method(self, *size, dtype=None, device=None):
        if len(size) == 2 and isinstance(size[1], _dtype.Type) and dtype is None:
            size, dtype = size[:1], size[1]  # MindSpore's positional ``new_ones(size, dtype)``
        shape_ = _sizes(f"Tensor.{name}", size)
        return wrap(jnp.full(shape_, fill, np_dtype(dtype or self.dtype)))

    method.__name__ = name
    method.__doc__ = (
        f"A new Tensor of ``size`` (a tuple or the sizes as arguments) filled with {fill}, in "
        f"``dtype`` (default: this Tensor's).\n\nDifferences from MindSpore: MindSpore 2.10 "
        f"takes ``size`` as one tuple only; cellax also takes the sizes as arguments, as the "
        f"torch-style code in mindone does."
    )
    return method


def _new_tensor(self, data, *, dtype=None, device=None):
    return Tensor(data, dtype=dtype or self.dtype)


def _cast(dtype):
    def method(self):
        return self.astype(dtype)

    method.__doc__ = f"A copy cast to {dtype}."
    return method


# -- overloaded methods ---------------------------------------------------------------------


def select(self, *args, **kwargs) -> Tensor:
    """``select(dim, index)``: the slice at ``index`` along ``dim``; ``select(condition, y)``:
    this Tensor where ``condition`` is True, ``y`` elsewhere.

    Raises:
        ValueError: If ``index`` is out of range for that dimension.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1, 2, 3], [4, 5, 6]])
        >>> print(x.select(1, -1))
        [3 6]
        >>> print(x.select(x > 2, ms.Tensor(0)))
        [[0 0 3]
         [4 5 6]]
    """
    if "condition" in kwargs or (args and isinstance(args[0], Tensor)):
        names = ("condition", "y")
        given = dict(zip(names, args), **kwargs)
        return elementwise.where(given["condition"], self, given["y"])
    given = dict(zip(("dim", "index"), args), **kwargs)
    dim, index = given["dim"], given["index"]
    size = self.shape[dim]
    index = int(index)
    if not -size <= index < size:
        raise ValueError(
            f"For 'Tensor.select', 'index' must be in [{-size}, {size}) for dimension {dim}, "
            f"but got {index}."
        )
    return wrap(jnp.take(self._value, index % size, axis=dim))


def take(self, indices, axis=None, mode="clip") -> Tensor:
    """The elements at ``indices`` of the flattened Tensor (``axis=None``) or along ``axis``.

    ``mode``: ``'clip'`` (negative indices count from the end, then indices are clipped into
    range), ``'wrap'`` (modulo the size) or ``'raise'`` (MindSpore 2.10 does not implement it:
    NotImplementedError).

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> print(x.take(ms.Tensor([0, -1, 9])))
        [1 4 4]
        >>> print(x.take(ms.Tensor([1]), axis=1))
        [[2]
         [4]]
    """
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(
            f"For 'Tensor.take', 'mode' must be 'clip', 'wrap' or 'raise', but got {mode!r}."
        )
    if mode == "raise":
        raise NotImplementedError("For 'Tensor.take', the 'raise' mode is not implemented.")
    value = self._value
    if axis is None:
        value, axis = value.reshape(-1), 0
    index = arr(indices, "Tensor.take", "indices", keep_scalars=False)
    size = value.shape[axis]
    if mode == "wrap":
        index = index % size
    else:
        index = jnp.clip(jnp.where(index < 0, index + size, index), 0, size - 1)
    return wrap(jnp.take(value, index, axis=axis))


def _index(self, indices):
    if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor) for i in indices):
        raise TypeError(
            f"For 'Tensor.index', 'indices' must be a tuple of Tensors, but got {indices!r}."
        )
    return wrap(self._value[tuple(i._value for i in indices)])


def _scatter_call(self, dim, index, *args, reduce=None, src=None, value=None):
    """MindSpore's four ``scatter_`` overloads: ``(dim, index, src)``, ``(dim, index, value)``,
    each with an optional ``reduce`` ('add' or 'multiply')."""
    if args:
        src = args[0]
    elif src is None:
        src = value
    if not isinstance(src, Tensor):
        src = wrap(jnp.full(tuple(index.shape), arr(src), self._value.dtype))
    if reduce is None:
        return scatter.scatter(self, dim, index, src)
    modes = {"add": "add", "multiply": "mul"}
    if reduce not in modes:
        raise ValueError(
            f"For 'Tensor.scatter_', 'reduce' must be 'add' or 'multiply', but got {reduce!r}."
        )
    return scatter.tensor_scatter_elements(self, index, src, dim, modes[reduce])


def _masked_scatter_value(api, data, mask, source):
    if not isinstance(mask, Tensor) or not isinstance(source, Tensor):
        raise TypeError(
            f"For '{api}', 'mask' and 'source' must be Tensors, but got "
            f"{type(mask).__name__} and {type(source).__name__}."
        )
    mask_value, source_value = mask._value, source._value
    if mask_value.dtype not in (jnp.bool_, jnp.uint8):
        raise TypeError(
            f"For '{api}', 'mask' must be a Bool Tensor, but got {mask.dtype}. Compare it "
            f"(mask > 0) or cast it with mask.bool()."
        )
    if mask_value.ndim > data.ndim:
        raise TypeError(
            f"For '{api}', 'mask' must not have more dimensions than the Tensor, but got "
            f"mask.shape={tuple(mask_value.shape)} for a Tensor of shape {tuple(data.shape)}."
        )
    if source_value.dtype != data.dtype:
        raise TypeError(
            f"For '{api}', 'source' must have the Tensor's dtype "
            f"{_dtype.from_numpy_dtype(data.dtype)}, but got {source.dtype}."
        )
    try:
        mask_value = jnp.broadcast_to(mask_value.astype(bool), data.shape)
    except ValueError:
        raise ValueError(
            f"For '{api}', 'mask' of shape {tuple(mask.shape)} must broadcast to the Tensor's "
            f"shape {tuple(data.shape)}."
        ) from None
    flat_mask = mask_value.reshape(-1)
    if not isinstance(flat_mask, jax.core.Tracer):
        count = int(np.asarray(flat_mask).sum())
        if count > source_value.size:
            raise ValueError(
                f"For '{api}', 'source' must have at least as many elements as 'mask' has True "
                f"values ({count}), but it has {source_value.size}."
            )
    # The k-th True position takes source's k-th element: a prefix count, so it traces too.
    position = jnp.cumsum(flat_mask) - 1
    taken = jnp.take(source_value.reshape(-1), jnp.clip(position, 0, None), mode="clip")
    return jnp.where(flat_mask, taken, data.reshape(-1)).reshape(data.shape)


def masked_scatter(self, mask, source) -> Tensor:
    """This Tensor with its elements where ``mask`` is True replaced, in order, by the leading
    elements of ``source``.

    Args:
        mask (Tensor): Bool, broadcastable to this Tensor's shape.
        source (Tensor): Same dtype; at least as many elements as ``mask`` has True values.

    Raises:
        TypeError: If ``mask`` is not Bool, or ``source`` has another dtype.
        ValueError: If ``mask`` does not broadcast, or ``source`` is too short.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1.0, 2.0, 3.0, 4.0])
        >>> mask = ms.Tensor([True, True, False, True])
        >>> print(x.masked_scatter(mask, ms.Tensor([5.0, 6.0, 7.0])))
        [5. 6. 3. 7.]
    """
    return wrap(_masked_scatter_value("Tensor.masked_scatter", self._value, mask, source))


def _index_put_value(api, data, indices, values, accumulate):
    if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor) for i in indices):
        raise TypeError(f"For '{api}', 'indices' must be a tuple or list of Tensors.")
    if len(indices) > data.ndim:
        raise ValueError(
            f"For '{api}', 'indices' may hold at most {data.ndim} Tensors, but got {len(indices)}."
        )
    key = tuple(i._value for i in indices)
    new = arr(values, api, "values")
    if isinstance(new, jax.Array) and new.dtype != data.dtype and isinstance(values, Tensor):
        raise TypeError(
            f"For '{api}', 'values' must have the Tensor's dtype "
            f"{_dtype.from_numpy_dtype(data.dtype)}, but got {values.dtype}."
        )
    at = data.at[key]
    return at.add(new) if accumulate else at.set(new)


def index_put(self, indices, values, accumulate=False) -> Tensor:
    """A copy with the elements at ``indices`` (a tuple of index Tensors, one per leading
    dimension) set to ``values``, or increased by them with ``accumulate=True``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> print(x.index_put((ms.Tensor([0, 1]), ms.Tensor([1, 0])), ms.Tensor([9, 8])))
        [[1 9]
         [8 4]]
    """
    return wrap(_index_put_value("Tensor.index_put", self._value, indices, values, accumulate))


def _index_copy(self, dim, index, tensor):
    data = self._value
    dim = dim % max(data.ndim, 1)
    key = (slice(None),) * dim + (arr(index, "Tensor.index_copy_", "index"),)
    return wrap(data.at[key].set(arr(tensor, "Tensor.index_copy_", "tensor")))


def _searchsorted(self, values, *, out_int32=False, right=False, side=None, sorter=None):
    # the method takes a Python number as ``values`` (MindSpore's Tensor.searchsorted does;
    # ops.searchsorted needs a Tensor)
    if isinstance(values, (bool, int, float)):
        values = wrap(arr(values, "Tensor.searchsorted", "values", keep_scalars=False))
    return sorting.searchsorted(
        self, values, out_int32=out_int32, right=right, side=side, sorter=sorter
    )


def _addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return products.addmm(self, mat1, mat2, beta=beta, alpha=alpha)


_METHODS = {name: _method_on(fn, name) for name, fn in _SAME_SIGNATURE.items()}
_METHODS.update(
    {
        # overloads and argument mapping
        "addr": _addr,
        "qr": _qr,
        "reverse_sequence": _reverse_sequence,
        "scatter_sub": _scatter_sub,
        "bernoulli": _bernoulli,
        "unique": _unique,
        "kthvalue": _method_on(statistics.kthvalue, "kthvalue"),
        "histc": _method_on(statistics.histc, "histc"),
        "searchsorted": _searchsorted,
        "select": select,
        "take": take,
        "index": _index,
        "masked_scatter": masked_scatter,
        "index_put": index_put,
        "reshape_as": lambda self, other: self.reshape(other.shape),
        "view": view,
        "new_ones": _new_filled("new_ones", 1),
        "new_zeros": _new_filled("new_zeros", 0),
        "new_empty": _new_filled("new_empty", 0),
        "new_tensor": _new_tensor,
        "bfloat16": _cast(_dtype.bfloat16),
        "byte": _cast(_dtype.uint8),
        "short": _cast(_dtype.int16),
        "H": property(_H),
        "mH": property(_mH),
        # in place
        "masked_scatter_": _in_place(masked_scatter, "masked_scatter_"),
        "index_put_": _in_place(index_put, "index_put_"),
        "index_add_": _in_place(_index_add, "index_add_"),
        "index_copy_": _in_place(_index_copy, "index_copy_"),
        "index_fill_": _in_place(scatter.index_fill, "index_fill_"),
        "scatter_": _in_place(_scatter_call, "scatter_"),
        "scatter_add_": _in_place(_scatter_add, "scatter_add_"),
        "addmm_": _in_place(_addmm, "addmm_"),
        "floor_": _in_place(ufuncs.floor, "floor_"),
        "floor_divide_": _in_place(ufuncs.floor_divide, "floor_divide_"),
        "remainder_": _in_place(ufuncs.remainder, "remainder_"),
        "log_": _in_place(ufuncs.log, "log_"),
        "sigmoid_": _in_place(activations.sigmoid, "sigmoid_"),
        "sign_": _in_place(ufuncs.sign, "sign_"),
        "tanh_": _method_on(inplace.tanh_, "tanh_"),
        "erfinv_": _method_on(inplace.erfinv_, "erfinv_"),
        "exponential_": _method_on(inplace.exponential_, "exponential_"),
        "bernoulli_": _method_on(inplace.bernoulli_, "bernoulli_"),
        "random_": _method_on(inplace.random_, "random_"),
        "put_": _method_on(inplace.put_, "put_"),
    }
)


TENSOR_METHODS.fill(_METHODS)
