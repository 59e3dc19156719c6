"""``cellax.mint.linalg``: MindSpore 2.10's ``mindspore.mint.linalg``."""

from __future__ import annotations

from .. import ops

__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]

inv = ops.inv
norm = ops.norm


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """Matrix norm (``'fro'``, ``'nuc'``, ``inf``, ``-inf``, ``1``, ``-1``, ``2``, ``-2``)
    over the two dimensions ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.linalg.matrix_norm(mint.Tensor([[3., 0.], [0., 4.]])))
        5.0
    """
    return ops.matrix_norm(A, ord, tuple(dim), keepdim, dtype=dtype)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """Vector ``ord``-norm over ``dim`` (all elements when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.linalg.vector_norm(mint.Tensor([3., 4.])))
        5.0
    """
    return ops.vector_norm(x, ord, dim, keepdim, dtype=dtype)


def qr(A, mode="reduced"):
    """QR decomposition: ``(Q, R)`` with ``mode`` ``'reduced'``, ``'complete'`` or ``'r'``.

    Examples:
        >>> from cellax import mint
        >>> q, r = mint.linalg.qr(mint.Tensor([[1., 0.], [0., 1.]]))
        >>> q.shape, r.shape
        ((2, 2), (2, 2))
    """
    return ops.qr(A, mode)
