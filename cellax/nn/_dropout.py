"""Dropout layers (active only in training; randomness from the global cellax key)."""

from __future__ import annotations

import numbers

import jax
import jax.numpy as jnp

from .. import _dtype
from .._errors import check_drop_probability
from .._random import next_key
from ..ops._impl.utils import arr, wrap
from ._cell import Cell

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


def _drop(x, p: float, mask_shape):
    keep = jax.random.bernoulli(next_key(), 1.0 - p, mask_shape)
    return jnp.where(keep, x / (1.0 - p), 0).astype(x.dtype)


class Dropout(Cell):
    r"""Randomly zero elements with probability ``p`` (``1 - keep_prob``) in training and scale
    the kept ones by :math:`1 / (1 - p)`; the identity in inference.

    Args:
        keep_prob (float): The keep probability, in (0, 1]. Deprecated in favour of ``p``.
            Default: ``0.5``.
        p (float): The drop probability, in [0, 1); overrides ``keep_prob``. Default: ``None``.
        dtype (cellax.dtype): Unused, for compatibility. Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - Any shape.

    Outputs:
        Tensor of the shape and dtype of ``x``.

    Raises:
        ValueError: If ``keep_prob`` is not in (0, 1] or ``p`` not in [0, 1).
        TypeError: If ``x`` is not a Tensor (also outside training).

    Differences from MindSpore: outside training, MindSpore returns ``x`` unchecked (``None``
    for ``None``); cellax raises a TypeError for an input that is not a Tensor in both modes.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Dropout(p=0.2)
        >>> net.set_train()
        Dropout(p=0.2)
        >>> net(ms.ops.ones((2, 3))).shape
        (2, 3)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Dropout.html
    """

    def __init__(self, keep_prob=0.5, p=None, dtype=_dtype.float32) -> None:
        super().__init__()
        if p is None:
            if (
                isinstance(keep_prob, bool)
                or not isinstance(keep_prob, numbers.Real)
                or not 0 < keep_prob <= 1
            ):
                raise ValueError(
                    f"For 'Dropout', 'keep_prob' must be in (0, 1], but got {keep_prob!r}."
                )
            self.keep_prob = float(keep_prob)
            self.p = 1.0 - self.keep_prob
            self._show = f"keep_prob={keep_prob}"
        else:
            self.p = check_drop_probability("Dropout", p)
            self.keep_prob = 1.0 - self.p
            self._show = f"p={p}"
        self.dtype = dtype

    def construct(self, x):
        value = arr(x, tensor=True)
        if not self.training or self.p == 0:
            return x
        return wrap(_drop(value, self.p, value.shape))

    def extend_repr(self) -> str:
        return self._show


class _ChannelDropout(Cell):
    _nd = 2

    def __init__(self, p=0.5) -> None:
        super().__init__()
        self.p = check_drop_probability(type(self).__name__, p)

    def construct(self, x):
        api, n = type(self).__name__, self._nd
        value = arr(x, tensor=True)
        if value.ndim not in (n + 1, n + 2):
            raise ValueError(
                f"For '{api}', 'x' must be {n + 1}-D or {n + 2}-D, but got shape "
                f"{tuple(value.shape)}."
            )
        if not self.training or self.p == 0:
            return x
        lead = value.shape[: value.ndim - n]
        return wrap(_drop(value, self.p, lead + (1,) * n))

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    r"""Zero whole channels of :math:`(N, C, L)` (or :math:`(C, L)`) with probability ``p`` in
    training, scaling the rest by :math:`1 / (1 - p)`. Default: ``p=0.5``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Dropout1d(0.5)
        >>> net(ms.ops.ones((2, 3, 4))).shape
        (2, 3, 4)
    """

    _nd = 1

    def extend_repr(self) -> str:
        return ""


class Dropout2d(_ChannelDropout):
    r"""Zero whole channels of NCHW (or CHW) input with probability ``p`` in training.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.Dropout2d(p=0.5)
        Dropout2d(p=0.5)
    """

    _nd = 2


class Dropout3d(_ChannelDropout):
    r"""Zero whole channels of NCDHW (or CDHW) input with probability ``p`` in training.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.Dropout3d(p=0.5)(ms.ops.ones((1, 2, 2, 2, 2))).shape
        (1, 2, 2, 2, 2)
    """

    _nd = 3
