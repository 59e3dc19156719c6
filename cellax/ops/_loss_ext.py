"""Distances and losses added for MindSpore 2.10 coverage: cosine_similarity, pdist,
approximate_equal, gaussian_nll_loss, hinge_embedding_loss, multilabel_soft_margin_loss,
ctc_loss, multilabel_margin_loss and triplet_margin_loss."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ._utils import array, check_axis, to_float, wrap

__all__ = [
    "cosine_similarity",
    "pdist",
    "approximate_equal",
    "gaussian_nll_loss",
    "hinge_embedding_loss",
    "multilabel_soft_margin_loss",
    "ctc_loss",
    "multilabel_margin_loss",
    "triplet_margin_loss",
]

_REDUCTIONS = ("mean", "sum", "none")


def _reduce(api, loss, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"For '{api}', 'reduction' must be one of {list(_REDUCTIONS)}, but got {reduction!r}."
        )
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    r"""Cosine similarity along ``dim``: :math:`x_1 \cdot x_2 / \max(\|x_1\| \|x_2\|, eps)`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cosine_similarity(ms.Tensor([[1., 0.]]), ms.Tensor([[1., 1.]])))
        [0.70710677]
    """
    api = "cosine_similarity"
    a, b = to_float(array(x1, api, "x1")), to_float(array(x2, api, "x2"))
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
    x = to_float(array(input, api))
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


def approximate_equal(x, y, tolerance=1e-05):
    """``|x - y| < tolerance`` elementwise (a Bool Tensor).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.approximate_equal(ms.Tensor([1., 2.]), ms.Tensor([1., 2.5]), 0.1))
        [ True False]
    """
    a, b = array(x, "approximate_equal", "x"), array(y, "approximate_equal", "y")
    return wrap(jnp.abs(a - b) < tolerance)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    r"""Gaussian negative log likelihood:
    :math:`\frac12(\log \max(var, eps) + (x - target)^2 / \max(var, eps))` (plus
    :math:`\frac12 \log 2\pi` when ``full``).

    Examples:
        >>> import cellax as ms
        >>> x, t = ms.Tensor([[1., 2.]]), ms.Tensor([[1., 3.]])
        >>> print(ms.ops.gaussian_nll_loss(x, t, ms.ops.ones((1, 2))))
        0.25
    """
    api = "gaussian_nll_loss"
    mean, y, v = (
        to_float(array(a, api, n)) for a, n in ((x, "x"), (target, "target"), (var, "var"))
    )
    if v.ndim == mean.ndim - 1 or (v.shape != mean.shape and v.shape[-1:] == (1,)):
        v = v.reshape(v.shape + (1,)) if v.ndim == mean.ndim - 1 else v
    v = jnp.maximum(v, eps)
    loss = 0.5 * (jnp.log(v) + (mean - y) ** 2 / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return wrap(_reduce(api, loss, reduction))


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``x`` where the target is 1, ``max(0, margin - x)`` where it is -1.

    Examples:
        >>> import cellax as ms
        >>> x, y = ms.Tensor([0.3, 0.8]), ms.Tensor([1., -1.])
        >>> print(ms.ops.hinge_embedding_loss(x, y, reduction='none'))
        [0.3 0.2]
    """
    api = "hinge_embedding_loss"
    x, y = to_float(array(inputs, api, "inputs")), array(targets, api, "targets")
    y = y.astype(x.dtype)
    loss = jnp.where(y == 1, x, 0) + jnp.where(y == -1, jnp.maximum(0, margin - x), 0)
    return wrap(_reduce(api, loss, reduction))


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
    x, y = to_float(array(input, api)), array(target, api, "target")
    y = y.astype(x.dtype)
    loss = -(y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x))
    if weight is not None:
        loss = loss * array(weight, api, "weight")
    return wrap(_reduce(api, jnp.mean(loss, axis=-1), reduction))


def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank=0,
    reduction="mean",
    zero_infinity=False,
):
    """Connectionist temporal classification loss of ``log_probs`` ``(T, N, C)``.

    Args:
        log_probs (Tensor): Log-probabilities, shape ``(T, N, C)``.
        targets (Tensor): Padded label sequences, shape ``(N, S)``.
        input_lengths (Union[tuple, Tensor]): The valid length of each input, ``(N,)``.
        target_lengths (Union[tuple, Tensor]): The length of each label sequence, ``(N,)``.
        blank (int): The blank label. Default: ``0``.
        reduction (str): ``'mean'`` (each loss divided by its target length, then averaged),
            ``'sum'`` or ``'none'``. Default: ``'mean'``.
        zero_infinity (bool): Replace infinite losses (impossible alignments) by 0.
            Default: ``False``.

    Returns:
        Tuple ``(loss, log_alpha)``; cellax returns the per-sample negative log likelihood as
        ``log_alpha`` (MindSpore returns its alpha table).

    Examples:
        >>> import cellax as ms
        >>> lp = ms.ops.log_softmax(ms.ops.zeros((3, 1, 2)), -1)
        >>> loss, _ = ms.ops.ctc_loss(lp, ms.Tensor([[1]]), (3,), (1,))
        >>> print(round(float(loss), 4))
        0.2877
    """
    import optax

    api = "ctc_loss"
    lp = to_float(array(log_probs, api, "log_probs"))
    labels = array(targets, api, "targets").astype(jnp.int32)
    in_len = jnp.asarray(array(input_lengths, api, "input_lengths")).reshape(-1)
    tgt_len = jnp.asarray(array(target_lengths, api, "target_lengths")).reshape(-1)
    if lp.ndim != 3 or labels.ndim != 2 or labels.shape[0] != lp.shape[1]:
        raise ValueError(
            f"For '{api}', 'log_probs' must be (T, N, C) and 'targets' (N, S), but got shapes "
            f"{tuple(lp.shape)} and {tuple(labels.shape)}."
        )
    for name, length in (("input_lengths", in_len), ("target_lengths", tgt_len)):
        if length.shape != (lp.shape[1],):
            raise ValueError(
                f"For '{api}', '{name}' must hold one length per sample ({lp.shape[1]}), but "
                f"got {length.shape[0]}."
            )
    logits = jnp.transpose(lp, (1, 0, 2))
    steps = logits.shape[1]
    logit_pad = (jnp.arange(steps)[None, :] >= in_len[:, None]).astype(lp.dtype)
    label_pad = (jnp.arange(labels.shape[1])[None, :] >= tgt_len[:, None]).astype(lp.dtype)
    nll = optax.ctc_loss(logits, logit_pad, labels, label_pad, blank_id=blank)
    if zero_infinity:
        nll = jnp.where(jnp.isinf(nll) | (nll > 1e29), 0.0, nll)
    if reduction == "mean":
        loss = jnp.mean(nll / jnp.maximum(tgt_len, 1).astype(lp.dtype))
    else:
        loss = _reduce(api, nll, reduction)
    return wrap(loss.astype(lp.dtype)), wrap(nll.astype(lp.dtype))


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
    x = to_float(array(input, api, "input"))
    y = array(target, api, "target")
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
    return wrap(_reduce(api, loss, reduction).astype(x.dtype))


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
    a, pos, neg = (to_float(array(v, api, n)) for v, n in
                   ((anchor, "anchor"), (positive, "positive"), (negative, "negative")))  # fmt: skip

    def dist(x, y):
        return jnp.sum(jnp.abs(x - y + eps) ** p, axis=-1) ** (1.0 / p)

    d_pos, d_neg = dist(a, pos), dist(a, neg)
    if swap:
        d_neg = jnp.minimum(d_neg, dist(pos, neg))
    loss = jnp.maximum(d_pos - d_neg + margin, 0)
    return wrap(_reduce(api, loss, reduction).astype(a.dtype))
