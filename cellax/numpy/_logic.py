"""Logic and set tests of cellax.numpy: isclose, array_equal, isin, setdiff1d, sometrue."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._tensor import Tensor
from ._utils import arr, axis_arg, check_eager, out

__all__ = [
    "isclose",
    "array_equal",
    "array_equiv",
    "isscalar",
    "sometrue",
    "in1d",
    "isin",
    "setdiff1d",
]


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|a - b| <= atol + rtol * |b|``, element-wise (Bool).

    Args:
        a (Union[Tensor, int, float, list]): The first input.
        b (Union[Tensor, int, float, list]): The second input.
        rtol (float): Relative tolerance. Default: ``1e-05``.
        atol (float): Absolute tolerance. Default: ``1e-08``.
        equal_nan (bool): Whether two NaNs compare equal. Default: ``False``.

    Returns:
        Bool Tensor of the broadcast shape.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.isclose(mnp.array([1.0, 2.0]), mnp.array([1.0, 2.1])))
        [ True False]
    """
    x, y = arr(a, "isclose", "a"), arr(b, "isclose", "b")
    return out(jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """Whether both inputs have the same shape and elements (a Bool Tensor scalar).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.array_equal(mnp.array([1, 2]), mnp.array([1, 2])))
        True
    """
    x, y = arr(a1, "array_equal", "a1"), arr(a2, "array_equal", "a2")
    if x.shape != y.shape:
        return out(jnp.asarray(False))
    return out(jnp.array_equal(x, y, equal_nan=equal_nan))


def array_equiv(a1, a2):
    """Whether the inputs broadcast to one shape and are equal there (a Bool Tensor scalar).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.array_equiv(mnp.array([1, 2]), mnp.array([[1, 2], [1, 2]])))
        True
    """
    x, y = arr(a1, "array_equiv", "a1"), arr(a2, "array_equiv", "a2")
    try:
        jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return out(jnp.asarray(False))
    return out(jnp.all(x == y))


def isscalar(element):
    """Whether ``element`` is a Python or NumPy scalar (Tensors are not), a Python bool.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.isscalar(3), mnp.isscalar(mnp.array(3))
        (True, False)
    """
    if isinstance(element, (Tensor, jax.Array)):
        return False
    return bool(np.isscalar(element))


def sometrue(a, axis=None, keepdims=False):
    """Whether any element (along ``axis``) is True (Bool).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.sometrue(mnp.array([0, 1])))
        True
    """
    x = arr(a, "sometrue", "a")
    return out(jnp.any(x, axis=axis_arg("sometrue", axis, x.ndim), keepdims=keepdims))


def in1d(ar1, ar2, invert=False):
    """Whether each element of the flattened ``ar1`` is in ``ar2`` (1-D Bool).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.in1d(mnp.array([1, 5]), mnp.array([1, 2])))
        [ True False]
    """
    x = arr(ar1, "in1d", "ar1").reshape(-1)
    return isin(x, ar2, invert)


def isin(element, test_elements, invert=False):
    """Whether each element of ``element`` is in ``test_elements`` (Bool, shape of ``element``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.isin(mnp.array([[1, 5]]), [1, 2]))
        [[ True False]]
    """
    x = arr(element, "isin", "element")
    t = arr(test_elements, "isin", "test_elements").reshape(-1)
    found = jnp.any(x[..., None] == t, axis=-1)
    return out(~found if invert else found)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (eager only).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.setdiff1d(mnp.array([1, 2, 3, 4]), mnp.array([2, 4])))
        [1 3]
    """
    x, y = arr(ar1, "setdiff1d", "ar1"), arr(ar2, "setdiff1d", "ar2")
    check_eager("setdiff1d", x, y)
    return out(jnp.setdiff1d(x, y, assume_unique=assume_unique))
