"""Vector and matrix norms and rescaling by a norm: ``norm``, ``vector_norm``,
``matrix_norm``, ``clip_by_norm``, ``renorm``, ``LpNorm``, ``L2Normalize``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .elementwise import _floating
from .primitive import Primitive
from .utils import arr, check_axes, np_dtype, to_float, wrap

__all__ = [
    "norm",
    "vector_norm",
    "matrix_norm",
    "LpNorm",
    "L2Normalize",
    "clip_by_norm",
    "renorm",
]


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm (``torch.linalg.norm``-style ``ord`` and ``dim``).

    With ``dim=None`` and ``ord=None`` it is the 2-norm of the flattened input; a 2-D ``dim``
    or a 2-D input with ``ord`` given computes a matrix norm.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0., 1., 2.], [3., 4., 5.]])
        >>> print(ms.ops.norm(x), ms.ops.norm(x, dim=0))
        7.4161983 [3.        4.1231055 5.3851647]
    """
    x = to_float(arr(A, "norm", "A", tensor=True))
    if dtype is not None:
        x = x.astype(np_dtype(dtype))
    axes = check_axes("norm", dim, x.ndim, "dim")
    if axes == ():  # a 0-D input: its norm over "its" dimension is its absolute value
        return wrap(jnp.abs(x))
    if axes is None:
        if ord is None:
            return wrap(jnp.sqrt(jnp.sum(jnp.square(jnp.abs(x)), keepdims=keepdim)))
        axes = tuple(range(x.ndim))
    if len(axes) > 2:
        raise ValueError(f"For 'norm', 'dim' must name one or two dimensions, but got {dim}.")
    if len(axes) == 2 and isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise ValueError(f"For 'norm', 'ord' must be 'fro', 'nuc' or a number, but got {ord!r}.")
    return wrap(jnp.linalg.norm(x, ord, axes, keepdims=keepdim))


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The ``ord``-norm of ``x`` viewed as vectors along ``axis`` (flattened when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.vector_norm(ms.Tensor([3., 4.]), 1))
        7.0
    """
    value = to_float(arr(x, "vector_norm", "x", keep_scalars=False))
    if dtype is not None:
        value = value.astype(np_dtype(dtype))
    axes = check_axes("vector_norm", axis, value.ndim)
    if axes is None:
        flat = value.reshape(-1)
        result = jnp.linalg.vector_norm(flat, ord=ord)
        if keepdims:
            result = result.reshape((1,) * value.ndim)
        return wrap(result)
    return wrap(jnp.linalg.vector_norm(value, ord=ord, axis=axes, keepdims=keepdims))


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """Matrix norm over the two dimensions ``axis``."""
    x = to_float(arr(A, "matrix_norm", "A", keep_scalars=False))
    if dtype is not None:
        x = x.astype(np_dtype(dtype))
    return wrap(jnp.linalg.norm(x, ord, tuple(axis), keepdims=keepdims))


def _axes(api: str, axis, ndim: int) -> tuple:
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        if isinstance(a, bool) or not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(f"For '{api}', 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
        out.append(a % ndim)
    return tuple(out)


class LpNorm(Primitive):
    """The p-norm over ``axis`` (``mindspore.ops.LpNorm``): ``max((sum |x|^p)^(1/p), epsilon)``.

    Args:
        axis (Union[int, list[int], tuple[int]]): The reduced dimensions.
        p (int): The order, >= 0 (0 counts non-zero elements). Default: ``2``.
        keep_dims (bool): Keep the reduced dimensions with size 1. Default: ``False``.
        epsilon (float): The lower bound of the result. Default: ``1e-12``.

    Inputs:
        - **input** (Tensor) - A float Tensor.

    Outputs:
        Tensor with ``axis`` reduced.

    Raises:
        ValueError: If ``p`` is negative or an axis is out of range.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.LpNorm(axis=1)(ms.Tensor([[3.0, 4.0], [0.0, 0.0]])))
        [5.0000000e+00 1.0000000e-12]
    """

    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        Primitive.__init__(self, "LpNorm")
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(f"For 'LpNorm', 'p' must be an int >= 0, but got {p!r}.")
        self.axis, self.p, self.keep_dims, self.epsilon = axis, p, bool(keep_dims), epsilon
        for key in ("axis", "p", "keep_dims", "epsilon"):
            self.add_prim_attr(key, getattr(self, key))

    def __call__(self, input):
        x = to_float(arr(input))
        axes = _axes("LpNorm", self.axis, x.ndim)
        if self.p == 0:
            norm = jnp.sum(x != 0, axis=axes, keepdims=self.keep_dims).astype(x.dtype)
        else:
            powered = jnp.sum(jnp.abs(x) ** self.p, axis=axes, keepdims=self.keep_dims)
            norm = powered ** (1.0 / self.p)
        return wrap(jnp.maximum(norm, jnp.asarray(self.epsilon, x.dtype)))


class L2Normalize(Primitive):
    """Divide by the L2 norm over ``axis`` (``mindspore.ops.L2Normalize``):
    ``x / sqrt(max(sum(x ** 2, axis), epsilon))``.

    Args:
        axis (Union[int, list[int], tuple[int]]): The normalised dimensions. Default: ``0``.
        epsilon (float): The lower bound of the squared norm. Default: ``1e-4``.

    Inputs:
        - **x** (Tensor) - A float Tensor.

    Outputs:
        Tensor of the input's shape and dtype.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.L2Normalize(axis=-1)(ms.Tensor([[3.0, 4.0]])))
        [[0.6 0.8]]
    """

    def __init__(self, axis=0, epsilon=1e-4):
        Primitive.__init__(self, "L2Normalize")
        self.axis, self.epsilon = axis, float(epsilon)
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("epsilon", self.epsilon)

    def __call__(self, x):
        x = to_float(arr(x))
        axes = _axes("L2Normalize", self.axis, x.ndim)
        squared = jnp.sum(x * x, axis=axes, keepdims=True)
        return wrap(x / jnp.sqrt(jnp.maximum(squared, jnp.asarray(self.epsilon, x.dtype))))


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
