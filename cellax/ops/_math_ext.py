"""Smaller math and utility functions of MindSpore 2.10's ``mindspore.ops`` list: norms
(``clip_by_norm``, ``renorm``), statistics (``cov``, ``trapz``), bit counting, complex views and
the older names (``tensor_gt``, ``tensor_muls``, ``accumulate_n``, ``scalar_cast``, ...)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._tensor import Tensor
from ._math import greater, less, mul
from ._utils import arr, wrap

__all__ = [
    "clip_by_norm",
    "renorm",
    "cov",
    "trapz",
    "population_count",
    "view_as_real",
    "adjoint",
    "dyn_shape",
    "type_as",
    "scalar_cast",
    "scalar_to_array",
    "accumulate_n",
    "tensor_gt",
    "tensor_lt",
    "tensor_muls",
    "einsum_ext",
]


def _floating(x):
    return x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(np.float32)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale ``x`` (a Tensor, or a list/tuple of Tensors taken together) so that its total
    ``norm_type``-norm is at most ``max_norm``: ``x * min(1, max_norm / (norm + 1e-6))``.

    Args:
        x (Union[Tensor, list[Tensor], tuple[Tensor]]): The values (ints become Float32).
        max_norm (Union[float, int, Tensor]): The largest norm kept.
        norm_type (Union[float, int]): The order; ``float('inf')`` for the max-norm.
            Default: ``2.0``.
        error_if_nonfinite (bool): Raise when the total norm is NaN or infinite.
            Default: ``False``.

    Returns:
        A Tensor, or a tuple/list of Tensors like ``x``.

    Raises:
        RuntimeError: If ``error_if_nonfinite`` and the norm is not finite (eager only).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.clip_by_norm(ms.Tensor(np.array([3.0, 4.0], np.float32)), 1.0))
        [0.6 0.8]
    """
    api = "clip_by_norm"
    many = isinstance(x, (list, tuple))
    values = [_floating(arr(v, api, "x")) for v in (x if many else [x])]
    order = float(norm_type)
    if order == float("inf"):
        norms = [jnp.max(jnp.abs(v)) for v in values]
        total = jnp.max(jnp.stack(norms))
    else:
        norms = [jnp.sum(jnp.abs(v.astype(np.float32)) ** order) for v in values]
        total = jnp.sum(jnp.stack(norms)) ** (1.0 / order)
    if error_if_nonfinite and not isinstance(total, jax.core.Tracer):
        if not bool(jnp.isfinite(total)):
            raise RuntimeError(
                f"For '{api}', the total norm of order {order} from input is non-finite."
            )
    limit = arr(max_norm, api, "max_norm")
    if np.size(limit) != 1:
        raise ValueError(f"For '{api}', 'max_norm' must be a scalar, but got {np.shape(limit)}.")
    scale = jnp.minimum(limit / (total + 1e-6), 1.0)
    out = [wrap((v * scale).astype(v.dtype)) for v in values]
    return type(x)(out) if many else out[0]


def renorm(input, p, axis, maxnorm):
    """Rescale each slice ``input`` takes along ``axis`` whose ``p``-norm exceeds ``maxnorm``
    to the norm ``maxnorm``.

    Raises:
        TypeError: If ``input`` is not a float Tensor.
        ValueError: If ``p`` is not positive.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[3.0, 4.0], [0.3, 0.4]], np.float32))
        >>> print(ms.ops.renorm(x, 2, 0, 1.0))
        [[0.6 0.8]
         [0.3 0.4]]
    """
    api = "renorm"
    data = arr(input, api)
    if not (jnp.issubdtype(data.dtype, jnp.floating) or jnp.iscomplexobj(data)):
        raise TypeError(f"For '{api}', 'input' must be a float Tensor, but got {data.dtype}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p <= 0:
        raise ValueError(f"For '{api}', 'p' must be a positive number, but got {p}.")
    axis = axis % data.ndim
    others = tuple(i for i in range(data.ndim) if i != axis)
    norm = jnp.sum(jnp.abs(data) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return wrap((data * scale).astype(data.dtype))


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), with integer frequency weights and float observation weights.

    Args:
        input (Tensor): A 1-D (one variable) or 2-D Tensor; ints give Float32.
        correction (int): The degrees-of-freedom correction (1: unbiased). Default: ``1``.
        fweights (Tensor, optional): 1-D integer repeat counts per observation.
        aweights (Tensor, optional): 1-D float weights per observation.

    Returns:
        Tensor of shape ``(V, V)``, or a 0-D Tensor for one variable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]], np.float32))
        >>> print(ms.ops.cov(x))
        [[ 1. -1.]
         [-1.  1.]]
    """
    api = "cov"
    data = _floating(arr(input, api))
    if data.ndim > 2:
        raise ValueError(f"For '{api}', 'input' must be 1-D or 2-D, but got rank {data.ndim}.")
    fw = None if fweights is None else arr(fweights, api, "fweights")
    aw = None if aweights is None else arr(aweights, api, "aweights")
    if fw is not None and not jnp.issubdtype(fw.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'fweights' must be an integer Tensor.")
    out = jnp.cov(data, ddof=int(correction), fweights=fw, aweights=aw)
    return wrap(out.astype(data.dtype))


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at sample points ``x`` (1-D
    or ``y``'s shape) or spaced ``dx`` apart; ints give Float32.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.trapz(ms.Tensor(np.array([1.0, 2.0, 4.0], np.float32))))
        4.5
    """
    api = "trapz"
    values = _floating(arr(y, api, "y"))
    if x is None:
        return wrap(jnp.trapezoid(values, dx=dx, axis=dim))
    points = _floating(arr(x, api, "x"))
    return wrap(jnp.trapezoid(values, points, axis=dim).astype(values.dtype))


def population_count(input_x):
    """The number of set bits of each element (two's complement), as UInt8.

    Raises:
        TypeError: If ``input_x`` is not an integer Tensor.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.population_count(ms.Tensor(np.array([0, 7, -1], np.int16))))
        [ 0  3 16]
    """
    api = "population_count"
    data = arr(input_x, api, "input_x")
    if not jnp.issubdtype(data.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'input_x' must be an integer Tensor, got {data.dtype}.")
    return wrap(jax.lax.population_count(data).astype(np.uint8))


def view_as_real(input):
    """A complex Tensor as a real one with a last dimension (real, imaginary).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.view_as_real(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [[1. 2.]]
    """
    data = arr(input, "view_as_real")
    if not jnp.iscomplexobj(data):
        raise TypeError(
            f"For 'view_as_real', the dtype of input Tensor must be complex, got {data.dtype}."
        )
    return wrap(jnp.stack([jnp.real(data), jnp.imag(data)], -1))


def adjoint(x):
    """The conjugate transpose of the last two dimensions.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.adjoint(ms.Tensor(np.array([[1 + 2j, 3j]], np.complex64))))
        [[1.-2.j]
         [0.-3.j]]
    """
    data = arr(x, "adjoint", "x")
    if data.ndim < 2:
        raise ValueError(f"For 'adjoint', 'x' must have rank >= 2, but got {data.ndim}.")
    return wrap(jnp.conj(jnp.swapaxes(data, -1, -2)))


def dyn_shape(input_x):
    """The shape of ``input_x`` as a 1-D Int64 Tensor.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dyn_shape(ms.ops.ones((2, 3))))
        [2 3]
    """
    data = arr(input_x, "dyn_shape", "input_x")
    return wrap(jnp.asarray(np.array(data.shape, np.int64)))


def type_as(input, other):
    """``input`` cast to ``other``'s dtype.

    Differences from MindSpore: MindSpore 2.10 CPU has no kernel for it (RuntimeError).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.type_as(ms.Tensor([1.5, 2.5]), ms.Tensor([1, 2])))
        [1 2]
    """
    data, ref = arr(input, "type_as"), arr(other, "type_as", "other")
    return wrap(jnp.asarray(data).astype(ref.dtype))


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


def accumulate_n(x):
    """The element-wise sum of a list or tuple of Tensors of one shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.accumulate_n([ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])]))
        [4. 6.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError("For 'accumulate_n', 'x' must be a non-empty list or tuple of Tensors.")
    values = [arr(v, "accumulate_n", "x") for v in x]
    if len({tuple(v.shape) for v in values}) != 1:
        raise ValueError("For 'accumulate_n', all the Tensors of 'x' must have one shape.")
    total = values[0]
    for v in values[1:]:
        total = total + v
    return wrap(total)


def tensor_gt(input, other):
    """MindSpore's older name of :func:`greater`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_gt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [False  True]
    """
    return greater(input, other)


def tensor_lt(input, other):
    """MindSpore's older name of :func:`less`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_lt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [ True False]
    """
    return less(input, other)


def tensor_muls(input, other):
    """``input`` times the scalar ``other`` (MindSpore's ``Muls``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_muls(ms.Tensor([1.0, 3.0]), 2.0))
        [2. 6.]
    """
    if not isinstance(other, (int, float, Tensor)) or isinstance(other, bool):
        raise TypeError(f"For 'tensor_muls', 'other' must be a number, but got {other!r}.")
    return mul(input, other)


def einsum_ext(equation, *operands):
    """:func:`einsum` (MindSpore 2.10 runs ``einsum_ext`` on Ascend only; cellax everywhere).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.einsum_ext('ij->j', ms.ops.ones((2, 3))))
        [2. 2. 2.]
    """
    if not isinstance(equation, str):
        raise TypeError(f"For 'einsum_ext', 'equation' must be a str, but got {equation!r}.")
    values = [arr(v, "einsum_ext", "operands") for v in operands]
    try:
        return wrap(jnp.einsum(equation, *values))
    except ValueError as error:
        raise ValueError(f"For 'einsum_ext', {error}") from None
