"""``cellax.mint.special``: MindSpore 2.10's ``mindspore.mint.special``."""

from __future__ import annotations

from .. import ops
from .nn._functional_activation import log_softmax as _log_softmax

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]

erfc = ops.erfc
exp2 = ops.exp2
expm1 = ops.expm1
log1p = ops.log1p
sinc = ops.sinc


def log_softmax(input, dim=None, *, dtype=None):
    """Log of the softmax along ``dim`` (the last dimension when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.special.log_softmax(mint.Tensor([0., 0.]), 0))
        [-0.6931472 -0.6931472]
    """
    return _log_softmax(input, dim, dtype=dtype)


def round(input):
    """Round half to even.

    Examples:
        >>> from cellax import mint
        >>> print(mint.special.round(mint.Tensor([0.5, 1.5, 2.7])))
        [0. 2. 3.]
    """
    return ops.round(input)
