"""Distances between vectors and sets of vectors: ``cdist``, ``dist``, ``pdist``,
``cosine_similarity``."""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from .dtype_rules import check_accepts
from .utils import arr, check_axis, check_broadcast, to_float, wrap

__all__ = [
    "cdist",
    "dist",
    "cosine_similarity",
    "pdist",
]


def cdist(x1, x2, p=2.0):
    """Pairwise ``p``-norm distances between the rows of ``x1`` and ``x2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cdist(ms.Tensor([[0., 0.]]), ms.Tensor([[3., 4.]])))
        [[5.]]
    """
    a, b = (
        to_float(arr(x1, "cdist", "x1", tensor=True)),
        to_float(arr(x2, "cdist", "x2", tensor=True)),
    )
    if a.ndim < 2 or a.ndim != b.ndim or a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"For 'cdist', 'x1' and 'x2' must have the same rank (at least 2) and the same last "
            f"dimension, but got shapes {tuple(a.shape)} and {tuple(b.shape)}."
        )
    check_broadcast("cdist", x1=a[..., 0, 0], x2=b[..., 0, 0])
    diff = a[..., :, None, :] - b[..., None, :, :]
    return wrap(jnp.linalg.vector_norm(diff, ord=p, axis=-1))


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other``."""
    diff = to_float(arr(input, "dist", keep_scalars=False)) - arr(
        other, "dist", "other", keep_scalars=False
    )
    return wrap(jnp.linalg.vector_norm(diff.reshape(-1), ord=p))


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    r"""Cosine similarity along ``dim``: :math:`x_1 \cdot x_2 / \max(\|x_1\| \|x_2\|, eps)`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cosine_similarity(ms.Tensor([[1., 0.]]), ms.Tensor([[1., 1.]])))
        [0.70710677]
    """
    api = "cosine_similarity"
    a, b = (
        to_float(arr(x1, api, "x1", tensor=True)),
        to_float(arr(x2, api, "x2", tensor=True)),
    )
    check_broadcast(api, x1=a, x2=b)
    a, b = jnp.broadcast_arrays(a, b)
    dim = check_axis(api, dim, a.ndim, "dim")
    dot = jnp.sum(a * b, axis=dim)
    norms = jnp.sqrt(jnp.sum(a * a, axis=dim) * jnp.sum(b * b, axis=dim))
    return wrap(dot / jnp.maximum(norms, eps))


def pdist(input, p=2.0):
    """The ``p``-norm distances between every pair of rows of ``input`` (``(..., N, M)``):
    the upper triangle, row by row, of shape ``(..., N * (N - 1) / 2)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.pdist(ms.Tensor([[0., 0.], [3., 4.], [6., 8.]])))
        [ 5. 10.  5.]
    """
    api = "pdist"
    x = arr(input, api, tensor=True)
    check_accepts(api, x)
    x = to_float(x)
    if x.ndim < 2:
        raise ValueError(f"For '{api}', 'input' must be at least 2-D, but got shape {x.shape}.")
    if p < 0:
        raise ValueError(f"For '{api}', 'p' must be non-negative, but got {p}.")
    n = x.shape[-2]
    rows, cols = np.triu_indices(n, 1)
    diff = jnp.abs(x[..., rows, :] - x[..., cols, :])
    if p == 0:
        return wrap(jnp.sum(diff != 0, axis=-1).astype(x.dtype))
    if math.isinf(p):
        return wrap(jnp.max(diff, axis=-1))
    return wrap(jnp.sum(diff**p, axis=-1) ** (1.0 / p))
