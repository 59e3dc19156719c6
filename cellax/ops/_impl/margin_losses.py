"""Margin and embedding losses: ``margin_ranking_loss``, ``cosine_embedding_loss``,
``soft_margin_loss``, ``multi_margin_loss``, ``hinge_embedding_loss``,
``multilabel_margin_loss``, ``multilabel_soft_margin_loss``, ``triplet_margin_loss``."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .losses import _class_targets, _pointwise, _same_shape, check_reduction, reduce
from .dtype_rules import check_same_kind
from .utils import arr, to_float, wrap

__all__ = [
    "margin_ranking_loss",
    "cosine_embedding_loss",
    "soft_margin_loss",
    "multi_margin_loss",
    "hinge_embedding_loss",
    "multilabel_soft_margin_loss",
    "multilabel_margin_loss",
    "triplet_margin_loss",
]


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    r"""Ranking loss :math:`\max(0, -y (x_1 - x_2) + margin)` with :math:`y \in \{1, -1\}`.

    Examples:
        >>> import cellax as ms
        >>> a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 1.0])
        >>> print(ms.ops.margin_ranking_loss(a, b, ms.Tensor([1.0, 1.0]), 0.5))
        0.75
    """
    api = "margin_ranking_loss"
    check_reduction(api, reduction)
    a, b, y = (arr(v, tensor=True) for v in (input1, input2, target))
    check_same_kind(api, input1=a, input2=b, target=y)  # the dtypes first, as MindSpore
    a, b, y = to_float(a), to_float(b), to_float(y)
    _same_shape(api, a, b, ("input1", "input2"))
    _same_shape(api, a, y, ("input1", "target"))
    return wrap(reduce(jnp.maximum(0, -y * (a - b) + margin), reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    r"""Cosine embedding loss over dim 1: :math:`1 - \cos(x_1, x_2)` for :math:`y = 1` and
    :math:`\max(0, \cos(x_1, x_2) - margin)` for :math:`y = -1`.

    Examples:
        >>> import cellax as ms
        >>> a = ms.Tensor([[1.0, 0.0], [1.0, 0.0]])
        >>> b = ms.Tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> print(ms.ops.cosine_embedding_loss(a, b, ms.Tensor([1.0, -1.0]), reduction='none'))
        [0.         0.70710677]
    """
    api = "cosine_embedding_loss"
    check_reduction(api, reduction)
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"For '{api}', 'margin' must be in [-1, 1], but got {margin}.")
    a, b = to_float(arr(input1, tensor=True)), to_float(arr(input2, tensor=True))
    y = arr(target, tensor=True)
    _same_shape(api, a, b, ("input1", "input2"))
    if y.shape != a.shape[:1] + a.shape[2:]:
        raise ValueError(
            f"For '{api}', 'target' must have shape {a.shape[:1] + a.shape[2:]}, but got "
            f"{tuple(y.shape)}."
        )
    eps = 1e-12
    cos = jnp.sum(a * b, 1) / jnp.sqrt(jnp.sum(a * a, 1) * jnp.sum(b * b, 1) + eps)
    loss = jnp.where(y == 1, 1 - cos, jnp.where(y == -1, jnp.maximum(0, cos - margin), 0))
    return wrap(reduce(loss, reduction))


def soft_margin_loss(input, target, reduction="mean"):
    r"""Two-class logistic loss :math:`\log(1 + e^{-y x})` with :math:`y \in \{1, -1\}`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.soft_margin_loss(ms.Tensor([0.0]), ms.Tensor([1.0])).asnumpy().round(4))
        0.6931
    """
    api = "soft_margin_loss"  # MindSpore's SoftMarginLoss takes equal shapes, no broadcasting
    _same_shape(api, arr(input, api, "input", tensor=True), arr(target, api, "target", tensor=True))
    return _pointwise(
        "soft_margin_loss", input, target, reduction, lambda x, y: jax.nn.softplus(-y * x)
    )


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    r"""Multi-class hinge loss for :math:`(N, C)` scores and class indices :math:`(N,)`:
    :math:`\sum_{i \ne y} \max(0, margin - x_y + x_i)^p / C`, scaled by ``weight[y]``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(ms.ops.multi_margin_loss(x, ms.Tensor([3], ms.int32)).asnumpy().round(4))
        0.325
    """
    api = "multi_margin_loss"
    check_reduction(api, reduction)
    if p not in (1, 2):
        raise ValueError(f"For '{api}', 'p' must be 1 or 2, but got {p!r}.")
    x = to_float(arr(input, api, "input", tensor=True))
    if x.ndim == 1:
        x = x[None]
    target = jnp.asarray(arr(target, api, "target", tensor=True))
    if x.ndim != 2 or target.size != x.shape[0]:
        raise ValueError(
            f"For '{api}', 'input' must be (N, C) or (C,) and 'target' hold N class indices, "
            f"but got shapes {tuple(x.shape)} and {tuple(target.shape)}."
        )
    y = _class_targets(api, x, jnp.reshape(target, (x.shape[0],)))
    picked = jnp.take_along_axis(x, y[:, None], axis=1)
    hinge = jnp.maximum(0, margin - picked + x) ** p
    hinge = jnp.where(jnp.arange(x.shape[1])[None] == y[:, None], 0, hinge)
    if weight is not None:
        hinge = hinge * to_float(arr(weight))[y][:, None]
    return wrap(reduce(jnp.sum(hinge, 1) / x.shape[1], reduction))


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``x`` where the target is 1, ``max(0, margin - x)`` where it is -1.

    Examples:
        >>> import cellax as ms
        >>> x, y = ms.Tensor([0.3, 0.8]), ms.Tensor([1., -1.])
        >>> print(ms.ops.hinge_embedding_loss(x, y, reduction='none'))
        [0.3 0.2]
    """
    api = "hinge_embedding_loss"
    x, y = (
        to_float(arr(inputs, api, "inputs", keep_scalars=False)),
        arr(targets, api, "targets", keep_scalars=False),
    )
    y = y.astype(x.dtype)
    loss = jnp.where(y == 1, x, 0) + jnp.where(y == -1, jnp.maximum(0, margin - x), 0)
    return wrap(reduce(loss, check_reduction(api, reduction)))


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    r"""Multi-label one-versus-all loss:
    :math:`-\frac1C \sum_c y_c \log\sigma(x_c) + (1 - y_c) \log\sigma(-x_c)` per sample.

    Examples:
        >>> import cellax as ms
        >>> x, y = ms.Tensor([[0., 0.]]), ms.Tensor([[1., 0.]])
        >>> print(ms.ops.multilabel_soft_margin_loss(x, y))
        0.6931472
    """
    api = "multilabel_soft_margin_loss"
    x, y = (
        to_float(arr(input, api, keep_scalars=False)),
        arr(target, api, "target", keep_scalars=False),
    )
    y = y.astype(x.dtype)
    loss = -(y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x))
    if weight is not None:
        loss = loss * arr(weight, api, "weight", keep_scalars=False)
    return wrap(reduce(jnp.mean(loss, axis=-1), check_reduction(api, reduction)))


def multilabel_margin_loss(input, target, reduction="mean"):
    """The multi-class multi-label hinge loss: for each sample, the target classes are
    ``target``'s entries up to the first ``-1``, and the loss sums
    ``max(0, 1 - (x[j] - x[i]))`` over target classes ``j`` and other classes ``i``, over C.

    Differences from MindSpore: MindSpore 2.10 CPU has no kernel for it (RuntimeError).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.1, 0.2, 0.4, 0.8]], np.float32))
        >>> y = ms.Tensor(np.array([[3, 0, -1, 1]], np.int32))
        >>> print(ms.ops.multilabel_margin_loss(x, y).asnumpy().round(4))
        0.85
    """
    api = "multilabel_margin_loss"
    x = to_float(arr(input, api, "input", keep_scalars=False))
    y = arr(target, api, "target", keep_scalars=False)
    single = x.ndim == 1
    x, y = jnp.atleast_2d(x), jnp.atleast_2d(y)
    if x.shape != y.shape or not jnp.issubdtype(y.dtype, jnp.integer):
        raise ValueError(f"For '{api}', 'target' must be an int Tensor of the input's shape.")
    classes = x.shape[-1]
    valid = jnp.cumprod(y >= 0, axis=-1).astype(bool)  # entries before the first -1
    is_target = jnp.zeros(x.shape, bool)
    rows = jnp.arange(x.shape[0])[:, None]
    is_target = is_target.at[rows, jnp.where(valid, y, 0)].max(valid)
    picked = jnp.take_along_axis(x, jnp.where(valid, y, 0), -1)  # x[j] per target slot
    margins = jnp.maximum(0, 1 - (picked[..., :, None] - x[..., None, :]))
    mask = valid[..., :, None] & ~is_target[..., None, :]
    loss = jnp.sum(jnp.where(mask, margins, 0), axis=(-2, -1)) / classes
    loss = loss[0] if single else loss
    return wrap(reduce(loss, check_reduction(api, reduction)).astype(x.dtype))


def triplet_margin_loss(
    anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"
):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d`` the ``p``-norm distance of
    ``x - y + eps`` along the last axis; ``swap`` uses ``min(d(a, n), d(p, n))``.

    Differences from MindSpore: MindSpore 2.10 CPU has no kernel for it (RuntimeError).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a = ms.Tensor(np.array([[0.0, 0.0]], np.float32))
        >>> pos = ms.Tensor(np.array([[3.0, 4.0]], np.float32))
        >>> neg = ms.Tensor(np.array([[1.0, 0.0]], np.float32))
        >>> print(ms.ops.triplet_margin_loss(a, pos, neg).asnumpy().round(3))
        5.0
    """
    api = "triplet_margin_loss"
    a, pos, neg = (to_float(arr(v, api, n, keep_scalars=False)) for v, n in
                   ((anchor, "anchor"), (positive, "positive"), (negative, "negative")))  # fmt: skip

    def dist(x, y):
        return jnp.sum(jnp.abs(x - y + eps) ** p, axis=-1) ** (1.0 / p)

    d_pos, d_neg = dist(a, pos), dist(a, neg)
    if swap:
        d_neg = jnp.minimum(d_neg, dist(pos, neg))
    loss = jnp.maximum(d_pos - d_neg + margin, 0)
    return wrap(reduce(loss, check_reduction(api, reduction)).astype(a.dtype))
