"""Products and norms of cellax.numpy: dot, matmul, tensordot, inner, outer, kron, norm."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .. import ops
from .._tensor import wrap
from ._utils import arr, axis_arg, cast, check_int, out, to_float

__all__ = [
    "dot",
    "matmul",
    "inner",
    "outer",
    "tensordot",
    "kron",
    "multi_dot",
    "matrix_power",
    "norm",
    "cross",
]


def _pair(api, a, b, names=("a", "b")):
    return arr(a, api, names[0]), arr(b, api, names[1])


def _shape_error(api, x, y, error):
    return ValueError(
        f"For '{api}', the shapes {tuple(x.shape)} and {tuple(y.shape)} are not aligned: {error}"
    )


def dot(a, b):
    """The dot product: a sum over the last axis of ``a`` and the second-to-last of ``b``.

    Args:
        a (Union[Tensor, list, int, float]): The first input.
        b (Union[Tensor, list, int, float]): The second input.

    Returns:
        Tensor.

    Raises:
        ValueError: If the contracted dimensions differ.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.dot(mnp.array([1.0, 2.0]), mnp.array([3.0, 4.0])))
        11.0
    """
    x, y = _pair("dot", a, b)
    try:
        return out(jnp.dot(x, y))
    except (TypeError, ValueError) as error:
        raise _shape_error("dot", x, y, error) from None


def matmul(x1, x2, dtype=None):
    """The matrix product (batched over leading dimensions; 1-D inputs are vectors).

    Args:
        x1 (Tensor): The first input.
        x2 (Tensor): The second input.
        dtype (cellax.dtype, optional): Casts the result. Default: ``None``.

    Returns:
        Tensor.

    Raises:
        RuntimeError: If the inner dimensions differ (MindSpore's type for this error).
        ValueError: If an input is a scalar.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.matmul(mnp.ones((2, 3)), mnp.ones((3, 4))).shape
        (2, 4)
    """
    x, y = _pair("matmul", x1, x2, ("x1", "x2"))
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("For 'matmul', the inputs must not be scalars.")
    try:
        return out(cast(jnp.matmul(x, y), dtype, "matmul"))
    except (TypeError, ValueError) as error:
        # MindSpore 2.10 reports mismatched matmul shapes as a RuntimeError.
        raise RuntimeError(str(_shape_error("matmul", x, y, error))) from None


def inner(a, b):
    """The inner product over the last axes.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.inner(mnp.array([1, 2]), mnp.array([3, 4])))
        11
    """
    x, y = _pair("inner", a, b)
    try:
        return out(jnp.inner(x, y))
    except (TypeError, ValueError) as error:
        raise _shape_error("inner", x, y, error) from None


def outer(a, b):
    """The outer product of the flattened inputs.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.outer(mnp.ones(2), mnp.ones(3)).shape
        (2, 3)
    """
    x, y = _pair("outer", a, b)
    return out(jnp.outer(x, y))


def tensordot(a, b, axes=2):
    """Sums products over ``axes`` (``cellax.ops.tensor_dot``).

    Args:
        a (Tensor): The first input.
        b (Tensor): The second input.
        axes (Union[int, list, tuple]): Either N (the last N axes of ``a`` with the first N
            of ``b``) or a pair of axis sequences. Default: ``2``.

    Returns:
        Tensor.

    Raises:
        ValueError: If the contracted dimensions differ.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.tensordot(mnp.ones((2, 3)), mnp.ones((3, 4)), 1).shape
        (2, 4)
    """
    x, y = _pair("tensordot", a, b)
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = check_int("tensordot", "axes", axes, 0)
        if n > x.ndim or n > y.ndim:
            raise ValueError(
                f"For 'tensordot', 'axes' must not exceed the ranks {x.ndim} and {y.ndim}, "
                f"but got {n}."
            )
        axes = (list(range(x.ndim - n, x.ndim)), list(range(n)))
    else:
        axes = tuple(list(ax) if isinstance(ax, (list, tuple)) else [ax] for ax in axes)
        if len(axes) != 2:
            raise ValueError(f"For 'tensordot', 'axes' must be a pair, but got {axes}.")
    xa = [axis_arg("tensordot", ax, x.ndim, "axes") for ax in axes[0]]
    ya = [axis_arg("tensordot", ax, y.ndim, "axes") for ax in axes[1]]
    if [x.shape[i] for i in xa] != [y.shape[i] for i in ya]:
        raise ValueError(
            f"For 'tensordot', the contracted dimensions differ: {[x.shape[i] for i in xa]} "
            f"and {[y.shape[i] for i in ya]}."
        )
    dtype = jnp.result_type(x, y)
    return ops.tensor_dot(wrap(x.astype(dtype)), wrap(y.astype(dtype)), (xa, ya))


def kron(a, b):
    """The Kronecker product.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.kron(mnp.array([1, 2]), mnp.array([1, 10])))
        [ 1 10  2 20]
    """
    x, y = _pair("kron", a, b)
    return out(jnp.kron(x, y))


def multi_dot(arrays):
    """The chained dot product of two or more arrays (first may be 1-D, last may be 1-D).

    Raises:
        ValueError: If fewer than two arrays are given.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.multi_dot([mnp.ones((2, 3)), mnp.ones((3, 4)), mnp.ones((4, 5))]).shape
        (2, 5)
    """
    xs = [arr(a, "multi_dot", "arrays") for a in arrays]
    if len(xs) < 2:
        raise ValueError(f"For 'multi_dot', at least two arrays are needed, but got {len(xs)}.")
    return out(jnp.linalg.multi_dot(xs))


def matrix_power(a, n):
    """``a`` (square in its last two axes) raised to the integer power ``n``.

    Raises:
        ValueError: If the last two dimensions are not square.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.matrix_power(mnp.array([[1, 1], [0, 1]]), 3))
        [[1 3]
         [0 1]]
    """
    x = arr(a, "matrix_power", "a")
    n = check_int("matrix_power", "n", n)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"For 'matrix_power', 'a' must be square in its last two axes, but got {x.shape}."
        )
    return out(jnp.linalg.matrix_power(x, n))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (MindSpore's name)
    """A vector or matrix norm (Float32 for integer input), as ``numpy.linalg.norm``.

    Args:
        x (Tensor): The input.
        ord (Union[None, int, float, str]): The order ('fro', 'nuc', inf, -inf, an int).
            Default: ``None`` (2-norm / Frobenius norm).
        axis (Union[None, int, tuple[int]]): The vector axis or matrix axes. Default: ``None``.
        keepdims (bool): Keep the reduced axes. Default: ``False``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.norm(mnp.array([3.0, 4.0])))
        5.0
    """
    a = to_float(arr(x, "norm", "x"))
    if axis is not None:
        axis = axis_arg("norm", axis, a.ndim)
    return out(jnp.linalg.norm(a, ord, axis, keepdims))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (or 2-vectors) along the given axes.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.cross(mnp.array([1.0, 0.0, 0.0]), mnp.array([0.0, 1.0, 0.0])))
        [0. 0. 1.]
    """
    x, y = _pair("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    return out(jnp.cross(x, y, axisa, axisb, axisc))
