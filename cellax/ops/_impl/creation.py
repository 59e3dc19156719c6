"""Creation ops: ones, zeros, full, arange, linspace, eye, ... (MindSpore's default dtypes)."""

from __future__ import annotations

import builtins
import itertools
import math

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._limits import check_alloc
from ..._tensor import Tensor
from .utils import alloc_shape, arr, check_int_arg, check_rank, check_real, np_dtype, wrap

__all__ = [
    "ones",
    "zeros",
    "ones_like",
    "zeros_like",
    "fill",
    "fills",
    "full",
    "full_like",
    "empty",
    "empty_like",
    "arange",
    "linspace",
    "logspace",
    "eye",
    "tril_indices",
    "triu_indices",
    "meshgrid",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "cartesian_prod",
    "block_diag",
    "vander",
    "combinations",
    "scalar_cast",
    "scalar_to_array",
]


def ones(shape, dtype=None):
    """A Tensor of ones (Float32 unless ``dtype`` is given).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ones((2,), ms.int32))
        [1 1]
    """
    return wrap(
        jnp.ones(
            alloc_shape("ones", shape, dtype=np_dtype(dtype) or jnp.float32),
            np_dtype(dtype) or jnp.float32,
        )
    )


def zeros(size, dtype=None):
    """A Tensor of zeros (Float32 unless ``dtype`` is given).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.zeros(2))
        [0. 0.]
    """
    return wrap(
        jnp.zeros(
            alloc_shape("zeros", size, "size", np_dtype(dtype) or jnp.float32),
            np_dtype(dtype) or jnp.float32,
        )
    )


def empty(*size, dtype=None, device=None):
    """An uninitialised Tensor; cellax fills it with zeros.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.empty(2, 3).shape
        (2, 3)
    """
    if len(size) == 1 and not isinstance(size[0], (int, np.integer)):
        size = size[0]
    return wrap(
        jnp.zeros(
            alloc_shape("empty", size, "size", np_dtype(dtype) or jnp.float32),
            np_dtype(dtype) or jnp.float32,
        )
    )


def ones_like(input, *, dtype=None):
    """Ones with the shape (and dtype unless given) of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.ones_like(ms.Tensor([1, 2])))
        [1 1]
    """
    return wrap(jnp.ones_like(arr(input, "ones_like", tensor=True), dtype=np_dtype(dtype)))


def zeros_like(input, *, dtype=None):
    """Zeros with the shape (and dtype unless given) of ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.zeros_like(ms.Tensor([1., 2.])))
        [0. 0.]
    """
    return wrap(jnp.zeros_like(arr(input, "zeros_like", tensor=True), dtype=np_dtype(dtype)))


def empty_like(input, *, dtype=None, device=None):
    """Like :func:`zeros_like` (cellax has no uninitialised memory)."""
    return zeros_like(input, dtype=dtype)


def fill(type, shape, value):
    """A Tensor of ``shape`` and dtype ``type`` filled with ``value``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fill(ms.float32, (2, 2), 1))
        [[1. 1.]
         [1. 1.]]
    """
    value = _number("fill", "value", value)
    return wrap(jnp.full(alloc_shape("fill", shape), value, np_dtype(type)))


def _scalar_dtype(value, dtype):
    if dtype is not None:
        return np_dtype(dtype)
    if isinstance(value, bool):
        return np.bool_
    if isinstance(value, int):
        return np.int64
    if isinstance(value, float):
        return np.float32
    return None


def full(size, fill_value, *, dtype=None):
    """A Tensor of ``size`` filled with ``fill_value``.

    As in MindSpore 2.10, the dtype is Int64 when ``dtype`` is None, whatever the type of
    ``fill_value`` (``full((2,), 1.5)`` is ``[1, 1]``, ``full((2,), True)`` is ``[1, 1]``).

    Args:
        size (Union[tuple[int], list[int]]): The shape.
        fill_value (number): The value.
        dtype (cellax.dtype): The result dtype. Default: ``None`` (Int64).

    Raises:
        TypeError: If ``size`` is not a tuple or list.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.full((2,), 3))
        [3 3]
        >>> print(ms.ops.full((2,), 1.5, dtype=ms.float32))
        [1.5 1.5]
    """
    if not isinstance(size, (list, tuple)):
        raise TypeError(
            f"For 'ops.full', 'size' must be a tuple or list of ints, but got {type(size)}."
        )
    value = arr(check_real("full", "fill_value", fill_value), "full", "fill_value")
    target = np_dtype(dtype) if dtype is not None else np.int64
    return wrap(jnp.full(alloc_shape("full", size, "size"), jnp.asarray(value).astype(target)))


def full_like(input, fill_value, *, dtype=None):
    """A Tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype by default).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.full_like(ms.Tensor([1., 2.]), 7))
        [7. 7.]
    """
    x = arr(input, "full_like", tensor=True)
    fill_value = check_real("full_like", "fill_value", fill_value)
    return wrap(jnp.full(x.shape, fill_value, np_dtype(dtype) or x.dtype))


def fills(x, value):
    """A Tensor shaped like ``x`` filled with ``value``."""
    return full_like(x, value)


def _number(api, name, value, shaped=TypeError):
    """A Python number from a number or a one-element Tensor; ``shaped`` is the error for a
    Tensor of several values or a tuple or list (MindSpore's LinSpace checks their rank: a
    ValueError), a TypeError for anything else."""
    if isinstance(value, Tensor):
        value = value._value
    if isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer) and value.size == 1:
        return value.item()
    if isinstance(value, (bool, int, float, np.number)):
        return value
    if isinstance(value, (jax.Array, tuple, list)):
        got = f"a Tensor of shape {value.shape}" if isinstance(value, jax.Array) else repr(value)
        raise shaped(
            f"For '{api}', '{name}' must be a number or a one-element Tensor, but got {got}."
        )
    raise TypeError(f"For '{api}', '{name}' must be a number, but got {value!r}.")


def _index_args(row, col, offset):
    return (("row", row), ("col", col), ("offset", offset))


def _integer(api, name, value) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"For '{api}', '{name}' must be an int, but got {value!r}.")


def arange(start=0, end=None, step=1, *, dtype=None):
    """Values from ``start`` to ``end`` (exclusive) by ``step``; Int64 for ints, else Float32.

    Raises:
        ValueError: If ``step`` is 0 or has the wrong sign.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.arange(5), ms.ops.arange(0, 1, 0.25))
        [0 1 2 3 4] [0.   0.25 0.5  0.75]
    """
    start, step = _number("arange", "start", start), _number("arange", "step", step)
    if end is None:
        start, end = 0, start
    end = _number("arange", "end", end)
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0, but got 0.")
    if (end - start) * step < 0:
        raise ValueError(
            f"For 'arange', 'step' must move from 'start' ({start}) towards 'end' ({end}), "
            f"but got step={step}."
        )
    if dtype is None:
        is_int = builtins.all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = np.int64 if is_int else np.float32
    else:
        dtype = np_dtype(dtype)
    check_alloc(
        "arange", "end", (max(0, math.ceil((end - start) / step)),), np.dtype(dtype).itemsize
    )
    return wrap(jnp.arange(start, end, step, dtype=dtype))


def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 values from ``start`` to ``end`` inclusive.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    steps = check_int_arg("linspace", "steps", _number("linspace", "steps", steps), 1)
    start = _number("linspace", "start", start, ValueError)
    end = _number("linspace", "end", end, ValueError)
    check_alloc("linspace", "steps", (steps,), 4)
    return wrap(jnp.linspace(start, end, steps, dtype=jnp.float32))


def logspace(start, end, steps, base=10, *, dtype=None):
    """``base ** linspace(start, end, steps)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.logspace(0, 2, 3))
        [  1.  10. 100.]
    """
    steps = check_int_arg("logspace", "steps", steps, 1)
    dtype = np_dtype(dtype) or jnp.float32
    check_alloc("logspace", "steps", (steps,), np.dtype(dtype).itemsize)
    return wrap(
        jnp.logspace(
            arr(start, "logspace", "start", real=True),
            arr(end, "logspace", "end", real=True),
            steps,
            base=base,
            dtype=dtype,
        )
    )


def eye(n, m=None, dtype=None):
    """An ``n x m`` identity matrix (Float32 by default).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.eye(2, dtype=ms.int32))
        [[1 0]
         [0 1]]
    """
    check_int_arg("eye", "n", n, 0)
    if m is not None:
        check_int_arg("eye", "m", m, 0)
    check_alloc("eye", "n", (n, n if m is None else m))
    return wrap(jnp.eye(n, m, dtype=np_dtype(dtype) or jnp.float32))


def tril_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """Indices (2, N) of the lower triangle of a ``row x col`` matrix.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tril_indices(2, 2))
        [[0 1 1]
         [0 0 1]]
    """
    row, col, offset = (_integer("tril_indices", n, v) for n, v in _index_args(row, col, offset))
    return wrap(jnp.stack(jnp.tril_indices(row, offset, col)).astype(np_dtype(dtype)))


def triu_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """Indices (2, N) of the upper triangle of a ``row x col`` matrix."""
    row, col, offset = (_integer("triu_indices", n, v) for n, v in _index_args(row, col, offset))
    return wrap(jnp.stack(jnp.triu_indices(row, offset, col)).astype(np_dtype(dtype)))


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D Tensors (``indexing`` 'xy' or 'ij').

    Examples:
        >>> import cellax as ms
        >>> x, y = ms.ops.meshgrid(ms.Tensor([1, 2, 3]), ms.Tensor([4, 5]))
        >>> x.shape
        (2, 3)
    """
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    arrays = _vectors("meshgrid", inputs)
    return tuple(wrap(g) for g in jnp.meshgrid(*arrays, indexing=indexing))


def _vectors(api: str, inputs) -> list:
    arrays = [arr(v, api, "inputs", tensor=True) for v in inputs]
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"For '{api}', each input must be 1-D, but got shape {a.shape}.")
    return arrays


def _atleast(api, fn, inputs):
    """``fn`` of a Tensor, or of each of a list or tuple of them (Python numbers refused)."""
    if isinstance(inputs, (list, tuple)):
        return tuple(wrap(fn(arr(v, api, "inputs", tensor=True))) for v in inputs)
    return wrap(fn(arr(inputs, api, "inputs", tensor=True)))


def atleast_1d(inputs):
    """Views with at least one dimension."""
    return _atleast("atleast_1d", jnp.atleast_1d, inputs)


def atleast_2d(inputs):
    """Views with at least two dimensions."""
    return _atleast("atleast_2d", jnp.atleast_2d, inputs)


def atleast_3d(inputs):
    """Views with at least three dimensions."""
    return _atleast("atleast_3d", jnp.atleast_3d, inputs)


def cartesian_prod(*inputs):
    """The cartesian product of 1-D Tensors as rows of a 2-D Tensor."""
    grids = jnp.meshgrid(*_vectors("cartesian_prod", inputs), indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], axis=1))


def block_diag(*inputs):
    """A block-diagonal matrix from 2-D Tensors."""
    blocks = [arr(v, "block_diag", "inputs", tensor=True) for v in inputs]
    for block in blocks:
        if block.ndim > 2:
            raise ValueError(
                f"For 'block_diag', each input must be at most 2-D, but got shape "
                f"{tuple(block.shape)}."
            )
    return wrap(jax.scipy.linalg.block_diag(*[jnp.atleast_2d(block) for block in blocks]))


def vander(x, N=None):
    """The Vandermonde matrix with decreasing powers."""
    x = check_rank("vander", arr(x, "vander", "x", tensor=True), 1, "x")
    if N is not None:
        N = check_int_arg("vander", "N", N, 0)
        check_alloc("vander", "N", (x.shape[0], N), x.dtype.itemsize)
    return wrap(jnp.vander(x, N))


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the 1-D ``input``, one per row (``itertools`` order).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.combinations(ms.Tensor([1, 2, 3])))
        [[1 2]
         [1 3]
         [2 3]]
    """
    api = "combinations"
    x = arr(input, api, tensor=True)
    if x.ndim != 1:
        raise ValueError(f"For '{api}', 'input' must be 1-D, but got shape {x.shape}.")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(make(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if index.size == 0:
        return wrap(jnp.zeros((0,) if r != 1 else (0, 1), x.dtype))
    return wrap(x[jnp.asarray(index)])


_SCALAR_TYPES = {"Int64": int, "Float64": float, "Bool": bool}


def scalar_cast(input_x, input_y):
    """A Python number converted to the Python type of the dtype ``input_y`` (``int64``,
    ``float64`` or ``bool_``): ``scalar_cast(3.7, ms.int64)`` is ``3``.

    Raises:
        TypeError: If ``input_x`` is not a bool or a number.
        ValueError: If ``input_y`` is another dtype.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.scalar_cast(3.7, ms.int64)
        3
    """
    api = "scalar_cast"
    if not isinstance(input_x, (bool, int, float, np.number)):
        raise TypeError(
            f"For '{api}', 'input_x' must be a bool or a number, but got {type(input_x).__name__}."
        )
    name = str(input_y)
    if name not in _SCALAR_TYPES:
        raise ValueError(
            f"For '{api}', 'input_y' must be one of int64, float64 or bool_, but got {name}."
        )
    return _SCALAR_TYPES[name](input_x)


def scalar_to_array(input_x):
    """A 0-D Tensor holding the Python number ``input_x`` (Int64 for ints, Float32 for floats).

    Differences from MindSpore: MindSpore 2.10 raises RuntimeError in PyNative mode.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.scalar_to_array(2))
        2
    """
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(
            f"For 'scalar_to_array', 'input_x' must be an int or a float, but got "
            f"{type(input_x).__name__}."
        )
    dtype = np.int64 if isinstance(input_x, int) else np.float32
    return wrap(jnp.asarray(input_x, dtype))
