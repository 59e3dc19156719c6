"""Creation, shape and selection ops."""

from __future__ import annotations

import jax.numpy as jnp

from .. import _dtype
from ._primitive import primitive
from ._utils import arr, check_axis, np_dtype, wrap

__all__ = [
    "ones", "zeros", "ones_like", "zeros_like", "fill", "full", "select", "where", "reshape",
    "transpose", "expand_dims", "cast", "flatten",
    "Transpose", "ExpandDims", "Reshape", "Cast", "Select", "Fill",
]  # fmt: skip


def _shape(api: str, shape) -> tuple:
    if isinstance(shape, int):
        return (shape,)
    if hasattr(shape, "asnumpy"):
        return tuple(int(d) for d in shape.asnumpy().reshape(-1))
    try:
        return tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"For '{api}', 'shape' must be an int or a tuple of ints, got {shape!r}.") from None


def ones(shape, dtype=None):
    """A Tensor of ones (Float32 unless ``dtype`` is given)."""
    return wrap(jnp.ones(_shape("ones", shape), np_dtype(dtype) or jnp.float32))


def zeros(size, dtype=None):
    """A Tensor of zeros (Float32 unless ``dtype`` is given)."""
    return wrap(jnp.zeros(_shape("zeros", size), np_dtype(dtype) or jnp.float32))


def ones_like(input, *, dtype=None):
    """Ones with the shape (and dtype unless given) of ``input``."""
    return wrap(jnp.ones_like(arr(input), dtype=np_dtype(dtype)))


def zeros_like(input, *, dtype=None):
    """Zeros with the shape (and dtype unless given) of ``input``."""
    return wrap(jnp.zeros_like(arr(input), dtype=np_dtype(dtype)))


def fill(type, shape, value):
    """A Tensor of ``shape`` and dtype ``type`` filled with ``value``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.fill(ms.float32, (2, 2), 1))
        [[1. 1.]
         [1. 1.]]
    """
    return wrap(jnp.full(_shape("fill", shape), arr(value), np_dtype(type)))


def full(size, fill_value, *, dtype=None):
    """A Tensor of ``size`` filled with ``fill_value``."""
    value = arr(fill_value)
    if dtype is None and isinstance(fill_value, float):
        dtype = _dtype.float32
    elif dtype is None and isinstance(fill_value, bool):
        dtype = _dtype.bool_
    elif dtype is None and isinstance(fill_value, int):
        dtype = _dtype.int64
    return wrap(jnp.full(_shape("full", size), value, np_dtype(dtype)))


def select(cond, input, other):
    """Elementwise ``input if cond else other``; a traced-safe replacement for ``if``."""
    x, y = arr(input), arr(other)
    if isinstance(y, float) and hasattr(x, "dtype"):
        y = jnp.asarray(y, x.dtype)
    elif isinstance(x, float) and hasattr(y, "dtype"):
        x = jnp.asarray(x, y.dtype)
    return wrap(jnp.where(arr(cond), x, y))


def where(condition, input, other):
    """Elementwise ``input if condition else other``."""
    return select(condition, input, other)


def reshape(input, shape):
    """Reshape; one dimension may be -1.

    Raises:
        ValueError: If the number of elements differs.
    """
    x = arr(input)
    try:
        return wrap(jnp.reshape(x, _shape("reshape", shape)))
    except TypeError as error:
        raise ValueError(
            f"For 'reshape', can not reshape a Tensor of shape {x.shape} into {shape}: {error}"
        ) from None


def transpose(input, input_perm):
    """Permute dimensions by ``input_perm``."""
    x = arr(input)
    perm = tuple(input_perm)
    if sorted(p % max(x.ndim, 1) for p in perm) != list(range(x.ndim)):
        raise ValueError(
            f"For 'transpose', 'input_perm' must be a permutation of range({x.ndim}), "
            f"but got {input_perm}."
        )
    return wrap(jnp.transpose(x, perm))


def expand_dims(input_x, axis):
    """Insert a dimension of size 1 at ``axis``."""
    x = arr(input_x)
    check_axis("expand_dims", axis, x.ndim + 1)
    return wrap(jnp.expand_dims(x, axis))


def cast(input, dtype):
    """Convert ``input`` to ``dtype``."""
    return wrap(arr(input).astype(np_dtype(dtype)))


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Flatten dimensions ``start_dim`` .. ``end_dim`` (default: all but the batch)."""
    x = arr(input)
    if x.ndim == 0:
        return wrap(x.reshape(1))
    start = start_dim % x.ndim
    end = end_dim % x.ndim
    shape = x.shape[:start] + (-1,) + x.shape[end + 1 :]
    return wrap(x.reshape(shape))


Transpose = primitive("Transpose", transpose)
ExpandDims = primitive("ExpandDims", expand_dims)
Reshape = primitive("Reshape", reshape)
Cast = primitive("Cast", cast)
Select = primitive("Select", select)
Fill = primitive("Fill", fill)
