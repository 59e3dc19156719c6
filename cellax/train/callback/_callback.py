"""``mindspore.train.callback._callback``: the module where MindSpore defines ``Callback`` and
``RunContext``; library code imports them, and ``_handle_loss``, from here."""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from .._callback import Callback, RunContext

__all__ = ["Callback", "RunContext"]


def _handle_loss(loss):
    """The loss a callback prints: the first element of a tuple or list (returned as is),
    the mean of a Tensor as a float, anything else unchanged.

    Examples:
        >>> import cellax as ms
        >>> from cellax.train.callback._callback import _handle_loss
        >>> _handle_loss(ms.Tensor([1.5, 2.0]))
        1.75
    """
    if isinstance(loss, (tuple, list)) and loss:
        return loss[0]
    if isinstance(loss, Tensor) and np.issubdtype(loss.asnumpy().dtype, np.number):
        return float(np.mean(loss.asnumpy()))
    return loss
