"""Array creation of cellax.numpy: array, ones, zeros, full, arange, linspace, eye and friends.

MindSpore's mnp defaults: Float32 for float creation (``ones``, ``zeros``, ``eye``,
``linspace``), Int32 for Python ints (``array([1, 2])``, ``arange(5)``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._tensor import Tensor
from ._utils import arr, cast, check_eager, check_int, np_dtype, out, shape_arg

__all__ = [
    "array",
    "asarray",
    "asfarray",
    "copy",
    "ones",
    "zeros",
    "full",
    "empty",
    "ones_like",
    "zeros_like",
    "full_like",
    "empty_like",
    "arange",
    "linspace",
    "logspace",
    "geomspace",
    "eye",
    "identity",
]


def array(obj, dtype=None, copy=True, ndmin=0):
    """Creates a Tensor from ``obj``; Python ints become Int32 and floats Float32.

    Args:
        obj (Union[Tensor, list, tuple, int, float, bool, numpy.ndarray]): The data.
        dtype (cellax.dtype, optional): The dtype of the result. Default: ``None`` (inferred).
        copy (bool): Ignored: cellax Tensors are immutable values. Default: ``True``.
        ndmin (int): Minimum number of dimensions (ones are prepended). Default: ``0``.

    Returns:
        Tensor.

    Raises:
        TypeError: If ``obj`` is not array-like.

    Differences from MindSpore: NumPy arrays are accepted (MindSpore 2.10 rejects them).

    Examples:
        >>> import cellax.numpy as mnp
        >>> x = mnp.array([1, 2], ndmin=2)
        >>> print(x.shape, x.dtype)
        (1, 2) Int32
    """
    x = cast(arr(obj, "array", "obj"), dtype, "array")
    ndmin = check_int("array", "ndmin", ndmin, 0)
    if x.ndim < ndmin:
        x = x.reshape((1,) * (ndmin - x.ndim) + x.shape)
    return out(x)


def asarray(a, dtype=None):
    """Converts ``a`` to a Tensor (Python ints become Int32, floats Float32).

    Args:
        a (Union[Tensor, list, tuple, int, float, bool, numpy.ndarray]): The data.
        dtype (cellax.dtype, optional): The dtype of the result. Default: ``None``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.asarray(3).dtype)
        Int32
    """
    return out(cast(arr(a, "asarray", "a"), dtype, "asarray"))


def asfarray(a, dtype=np.float32):
    """Converts ``a`` to a floating-point Tensor (integer dtypes are replaced by Float32).

    Args:
        a (Union[Tensor, list, tuple, int, float, bool]): The data.
        dtype (cellax.dtype): A float dtype. Default: ``cellax.float32``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.asfarray([1, 2]).dtype)
        Float32
    """
    target = np_dtype(dtype, "asfarray")
    if target.kind not in "fc":
        target = np.dtype(np.float32)
    return out(arr(a, "asfarray", "a").astype(target))


def copy(a):
    """Returns a copy of ``a`` as a Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.copy([1, 2]))
        [1 2]
    """
    return out(jnp.array(arr(a, "copy", "a"), copy=True))


def _filled(api, shape, value, dtype):
    return out(jnp.full(shape_arg(api, shape), value, np_dtype(dtype, api)))


def ones(shape, dtype=np.float32):
    """Returns a Tensor of ``shape`` filled with ones (Float32 by default).

    Args:
        shape (Union[int, tuple[int], list[int]]): The shape.
        dtype (cellax.dtype): The dtype. Default: ``cellax.float32``.

    Returns:
        Tensor.

    Raises:
        TypeError: If ``shape`` is not an int or a tuple of ints.
        ValueError: If a dimension is negative.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.ones((2, 2)))
        [[1. 1.]
         [1. 1.]]
    """
    return _filled("ones", shape, 1, dtype)


def zeros(shape, dtype=np.float32):
    """Returns a Tensor of ``shape`` filled with zeros (Float32 by default).

    Args:
        shape (Union[int, tuple[int], list[int]]): The shape.
        dtype (cellax.dtype): The dtype. Default: ``cellax.float32``.

    Returns:
        Tensor.

    Raises:
        TypeError: If ``shape`` is not an int or a tuple of ints.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.zeros(3, mnp.int32))
        [0 0 0]
    """
    return _filled("zeros", shape, 0, dtype)


def empty(shape, dtype=np.float32):
    """Returns a Tensor of ``shape`` (its contents are zeros in cellax).

    Args:
        shape (Union[int, tuple[int], list[int]]): The shape.
        dtype (cellax.dtype): The dtype. Default: ``cellax.float32``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.empty((2, 3)).shape
        (2, 3)
    """
    return _filled("empty", shape, 0, dtype)


def full(shape, fill_value, dtype=None):
    """Returns a Tensor of ``shape`` filled with ``fill_value`` (broadcast if a Tensor).

    Args:
        shape (Union[int, tuple[int], list[int]]): The shape.
        fill_value (Union[int, float, bool, list, tuple, Tensor]): The fill value; its
            dtype (Int32 for Python ints, Float32 for floats) is the default.
        dtype (cellax.dtype, optional): The dtype. Default: ``None``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.full((2,), 1.5))
        [1.5 1.5]
    """
    shape = shape_arg("full", shape)
    value = cast(arr(fill_value, "full", "fill_value"), dtype, "full")
    return out(jnp.broadcast_to(value, shape))


def _like(api, a, value, dtype, shape):
    x = arr(a, api, "a")
    target = np_dtype(dtype, api) or x.dtype
    shape = x.shape if shape is None else shape_arg(api, shape)
    if value is None:
        return out(jnp.zeros(shape, target))
    return out(jnp.broadcast_to(arr(value, api, "fill_value").astype(target), shape))


def ones_like(a, dtype=None, shape=None):
    """Returns ones with the shape and dtype of ``a`` (overridden by ``shape``/``dtype``).

    Args:
        a (Union[Tensor, list, tuple]): The prototype.
        dtype (cellax.dtype, optional): The dtype. Default: ``None`` (``a``'s).
        shape (Union[int, tuple[int]], optional): The shape. Default: ``None`` (``a``'s).

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.ones_like(mnp.array([1, 2])))
        [1 1]
    """
    return _like("ones_like", a, 1, dtype, shape)


def zeros_like(a, dtype=None, shape=None):
    """Returns zeros with the shape and dtype of ``a`` (overridden by ``shape``/``dtype``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.zeros_like(mnp.ones(2)))
        [0. 0.]
    """
    return _like("zeros_like", a, 0, dtype, shape)


def empty_like(prototype, dtype=None, shape=None):
    """Returns a Tensor like ``prototype`` (its contents are zeros in cellax).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.empty_like(mnp.ones((2, 3))).shape
        (2, 3)
    """
    return _like("empty_like", prototype, None, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    """Returns ``fill_value`` with the shape and dtype of ``a`` (the value is cast).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.full_like(mnp.array([1, 2]), 1.7))
        [1 1]
    """
    return _like("full_like", a, fill_value, dtype, shape)


def _static_number(api, name, value):
    """A Python number from an int/float/0-d Tensor argument (must be concrete)."""
    if isinstance(value, Tensor):
        check_eager(api, value._value)
        value = value._value
    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        if np.ndim(value) != 0:
            raise TypeError(f"For '{api}', '{name}' must be a scalar, but got shape {value.shape}.")
        return np.asarray(value).item(), True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{api}', '{name}' must be an int or a float, but got {value!r}.")
    return value, False


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``.

    Python int arguments give Int32; a float or a Tensor argument gives Float32.

    Args:
        start (Union[int, float, Tensor]): The start (the stop when ``stop`` is None).
        stop (Union[int, float, Tensor], optional): The end (excluded). Default: ``None``.
        step (Union[int, float, Tensor], optional): The spacing. Default: ``None`` (1).
        dtype (cellax.dtype, optional): The dtype. Default: ``None``.

    Returns:
        Tensor of rank 1.

    Raises:
        TypeError: If an argument is not a number.
        ValueError: If ``step`` is 0.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.arange(0, 1, 0.25))
        [0.   0.25 0.5  0.75]
    """
    values = []
    floating = False
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if v is None:
            values.append(None)
            continue
        number, from_array = _static_number("arange", name, v)
        floating = floating or from_array or isinstance(number, float)
        values.append(number)
    start, stop, step = values
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0, but got 0.")
    default = np.float32 if floating else np.int32
    target = np_dtype(dtype, "arange") or np.dtype(default)
    if target.kind in "iu" and not floating:
        return out(jnp.arange(start, stop, step, dtype=target))
    count = max(int(np.ceil((stop - start) / step)), 0)
    values = jnp.arange(count, dtype=jnp.float64) * step + start
    return out(values.astype(target))


def _scalar_or_array(api, name, value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return to_float32(arr(value, api, name))


def to_float32(x):
    return x.astype(jnp.float32) if x.dtype != jnp.float32 else x


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values over ``[start, stop]`` (Float32 by default).

    Args:
        start (Union[int, float, list, tuple, Tensor]): The start.
        stop (Union[int, float, list, tuple, Tensor]): The end.
        num (int): Number of samples. Default: ``50``.
        endpoint (bool): Whether ``stop`` is included. Default: ``True``.
        retstep (bool): Also return the spacing. Default: ``False``.
        dtype (cellax.dtype, optional): The dtype. Default: ``None`` (Float32).
        axis (int): The axis of the samples when ``start``/``stop`` are arrays. Default: ``0``.

    Returns:
        Tensor, or ``(Tensor, step)`` with ``retstep=True``.

    Raises:
        ValueError: If ``num`` is negative.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    num = check_int("linspace", "num", num, 0)
    a = _scalar_or_array("linspace", "start", start)
    b = _scalar_or_array("linspace", "stop", stop)
    values, step = jnp.linspace(a, b, num, endpoint=endpoint, retstep=True, axis=axis)
    values = to_float32(jnp.asarray(values))
    target = np_dtype(dtype, "linspace")
    if target is not None and target.kind in "iu":
        values = jnp.floor(values)
    values = cast(values, dtype, "linspace")
    if retstep:
        return out(values), out(to_float32(jnp.asarray(step)))
    return out(values)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)`` (Float32 by default).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.logspace(0, 2, 3))
        [  1.  10. 100.]
    """
    exponents = linspace(start, stop, num, endpoint, axis=axis)._value
    return out(cast(to_float32(jnp.power(jnp.float32(base), exponents)), dtype, "logspace"))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale from ``start`` to ``stop`` (Float32 by default).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.geomspace(1, 100, 3))
        [  1.  10. 100.]
    """
    num = check_int("geomspace", "num", num, 0)
    a = _scalar_or_array("geomspace", "start", start)
    b = _scalar_or_array("geomspace", "stop", stop)
    values = jnp.geomspace(a, b, num, endpoint=endpoint, axis=axis)
    return out(cast(to_float32(values), dtype, "geomspace"))


def eye(N, M=None, k=0, dtype=np.float32):
    """A 2-D Tensor with ones on the ``k``-th diagonal (Float32 by default).

    Args:
        N (int): Number of rows.
        M (int, optional): Number of columns. Default: ``None`` (``N``).
        k (int): The diagonal (positive: above the main one). Default: ``0``.
        dtype (cellax.dtype): The dtype. Default: ``cellax.float32``.

    Returns:
        Tensor of shape ``(N, M)``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.eye(2, dtype=mnp.int32))
        [[1 0]
         [0 1]]
    """
    n = check_int("eye", "N", N, 0)
    m = n if M is None else check_int("eye", "M", M, 0)
    k = check_int("eye", "k", k)
    return out(jnp.eye(n, m, k, dtype=np_dtype(dtype, "eye")))


def identity(n, dtype=np.float32):
    """The ``n x n`` identity matrix (Float32 by default).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.identity(3).shape
        (3, 3)
    """
    return eye(n, dtype=dtype)
