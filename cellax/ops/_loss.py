"""Loss functionals; the nn loss Cells call these (one implementation each)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import _dtype
from ._nn import binary_cross_entropy_with_logits
from ._utils import arr, check_index_range, check_min_rank, to_float, wrap

__all__ = [
    "cross_entropy",
    "nll_loss",
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "kl_div",
    "margin_ranking_loss",
    "cosine_embedding_loss",
    "soft_margin_loss",
    "multi_margin_loss",
    "poisson_nll_loss",
]

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(api: str, reduction) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"For '{api}', 'reduction' must be one of ['mean', 'sum', 'none'], but got "
            f"{reduction!r}."
        )
    return reduction


def reduce(loss, reduction: str):
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def _same_shape(api: str, a, b, names=("input", "target")) -> None:
    if a.shape != b.shape:
        raise ValueError(
            f"For '{api}', '{names[0]}' and '{names[1]}' must have the same shape, but got "
            f"{tuple(a.shape)} and {tuple(b.shape)}."
        )


def _pointwise(api, input, target, reduction, fn):
    check_reduction(api, reduction)
    x, y = to_float(arr(input)), arr(target)
    x, y = jnp.asarray(x), jnp.asarray(y)
    if x.shape != y.shape:
        try:
            x, y = jnp.broadcast_arrays(x, y)
        except ValueError:
            _same_shape(api, x, y)
    return wrap(reduce(fn(x, y.astype(x.dtype)), reduction))


def mse_loss(input, target, reduction="mean"):
    r"""Mean squared error :math:`(x - y)^2`, reduced by ``reduction``.

    Args:
        input (Tensor): Predictions.
        target (Tensor): Targets, broadcastable to ``input``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Raises:
        ValueError: If ``reduction`` is unknown or the shapes do not broadcast.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.mse_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 4.0])))
        2.0
    """
    return _pointwise("mse_loss", input, target, reduction, lambda x, y: jnp.square(x - y))


def l1_loss(input, target, reduction="mean"):
    r"""Mean absolute error :math:`|x - y|`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.l1_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 4.0])))
        1.0
    """
    return _pointwise("l1_loss", input, target, reduction, lambda x, y: jnp.abs(x - y))


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    r"""Smooth L1: :math:`0.5 d^2 / \beta` where :math:`|d| < \beta`, else :math:`|d| - 0.5\beta`.

    Raises:
        ValueError: If ``beta`` is not positive.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.smooth_l1_loss(ms.Tensor([0.0, 3.0]), ms.Tensor([0.5, 0.0])))
        [0.125 2.5  ]
    """
    if not beta > 0:
        raise ValueError(f"For 'smooth_l1_loss', 'beta' must be positive, but got {beta}.")

    def fn(x, y):
        d = jnp.abs(x - y)
        return jnp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)

    return _pointwise("smooth_l1_loss", input, target, reduction, fn)


def huber_loss(input, target, reduction="mean", delta=1.0):
    r"""Huber: :math:`0.5 d^2` where :math:`|d| < \delta`, else :math:`\delta (|d| - 0.5\delta)`.

    Raises:
        ValueError: If ``delta`` is not positive.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.huber_loss(ms.Tensor([0.0, 3.0]), ms.Tensor([0.5, 0.0]), 'none'))
        [0.125 2.5  ]
    """
    if not delta > 0:
        raise ValueError(f"For 'huber_loss', 'delta' must be positive, but got {delta}.")

    def fn(x, y):
        d = jnp.abs(x - y)
        return jnp.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))

    return _pointwise("huber_loss", input, target, reduction, fn)


def _class_targets(api, x, target):
    """Validate (N, C, *) logits against integer (N, *) class indices."""
    y = jnp.asarray(arr(target))
    if not _dtype.is_integer(y.dtype):
        raise TypeError(
            f"For '{api}', class-index 'target' must be an integer Tensor, but got dtype "
            f"{y.dtype}. Pass int32 class indices, or class probabilities of the same shape as "
            f"'input'."
        )
    expected = (x.shape[0],) + x.shape[2:] if x.ndim > 1 else ()
    if y.shape != expected:
        raise ValueError(
            f"For '{api}', 'target' of class indices must have shape {expected} for 'input' of "
            f"shape {tuple(x.shape)}, but got {tuple(y.shape)}."
        )
    return y


def _weighted_nll(api, logp, target, weight, ignore_index, reduction, label_smoothing):
    """NLL of log-probabilities ``logp`` (N, C, *) with class-index targets."""
    y = _class_targets(api, logp, target)
    classes = logp.shape[1] if logp.ndim > 1 else logp.shape[0]
    check_index_range(api, "target", y, classes, skip=ignore_index)
    if logp.ndim == 1:
        logp, y = logp[None], y[None]
    if weight is None:
        w = None
    else:
        w = to_float(arr(weight)).astype(logp.dtype)
        if w.shape != (classes,):
            raise ValueError(
                f"For '{api}', 'weight' must have shape ({classes},), but got {tuple(w.shape)}."
            )
    valid = y != ignore_index
    safe = jnp.where(valid, y, 0)
    picked = jnp.take_along_axis(logp, jnp.expand_dims(safe, 1), axis=1).squeeze(1)
    # unweighted: the kept targets weigh 1 (no gather from a table of ones in the program)
    w_y = valid.astype(logp.dtype) if w is None else jnp.where(valid, w[safe], 0)
    loss = -w_y * picked
    if label_smoothing > 0:
        shape = (1, classes) + (1,) * (logp.ndim - 2)
        weighted = logp if w is None else logp * w.reshape(shape)
        smooth = -jnp.sum(weighted, axis=1) / classes
        smooth = jnp.where(valid, smooth, 0)
        loss = (1 - label_smoothing) * loss + label_smoothing * smooth
    if reduction == "mean":
        return jnp.sum(loss) / jnp.sum(w_y)
    return reduce(loss, reduction)


def _check_smoothing(api, label_smoothing):
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(
            f"For '{api}', 'label_smoothing' must be in [0, 1], but got {label_smoothing}."
        )


def cross_entropy(
    input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0
):
    r"""Cross entropy between logits ``input`` (classes on dim 1) and ``target``.

    ``target`` is either integer class indices of shape :math:`(N, *)` (entries equal to
    ``ignore_index`` are skipped; ``'mean'`` divides by the summed weights of the kept targets)
    or class probabilities with the shape of ``input`` (``'mean'`` divides by the number of
    samples). ``label_smoothing`` mixes the targets with the uniform distribution.

    Args:
        input (Tensor): Logits :math:`(N, C)`, :math:`(N, C, d_1, ...)` or :math:`(C,)`.
        target (Tensor): Class indices or probabilities.
        weight (Tensor): Per-class rescaling weights :math:`(C,)`. Default: ``None``.
        ignore_index (int): Target value to ignore (indices only). Default: ``-100``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        label_smoothing (float): In [0, 1]. Default: ``0.0``.

    Raises:
        TypeError: If index targets are not integers.
        ValueError: If the shapes do not match or an option is out of range.

    Examples:
        >>> import cellax as ms
        >>> logits = ms.Tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> print(ms.ops.cross_entropy(logits, ms.Tensor([0, 0], ms.int32)).asnumpy().round(4))
        1.1269
    """
    api = "cross_entropy"
    check_reduction(api, reduction)
    _check_smoothing(api, label_smoothing)
    x = check_min_rank("cross_entropy", to_float(arr(input, "cross_entropy", "input")))
    logp = jax.nn.log_softmax(x, axis=1 if x.ndim > 1 else 0)
    y = jnp.asarray(arr(target, "cross_entropy", "target"))
    if _dtype.is_floating(y.dtype) and y.shape == x.shape:
        classes = x.shape[1] if x.ndim > 1 else x.shape[0]
        probs = y.astype(logp.dtype)
        if label_smoothing > 0:
            probs = probs * (1 - label_smoothing) + label_smoothing / classes
        if weight is not None:
            shape = (1, classes) + (1,) * (x.ndim - 2) if x.ndim > 1 else (classes,)
            probs = probs * to_float(arr(weight)).reshape(shape)
        loss = -jnp.sum(logp * probs, axis=1 if x.ndim > 1 else 0)
        return wrap(reduce(loss, reduction))
    return wrap(_weighted_nll(api, logp, y, weight, ignore_index, reduction, label_smoothing))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    r"""Negative log-likelihood of log-probabilities ``inputs`` (classes on dim 1) at the
    integer class indices ``target``; options as :func:`cross_entropy`.

    Examples:
        >>> import cellax as ms
        >>> logp = ms.Tensor([[-0.1, -2.0], [-3.0, -0.5]])
        >>> print(ms.ops.nll_loss(logp, ms.Tensor([0, 1], ms.int32)))
        0.3
    """
    api = "nll_loss"
    check_reduction(api, reduction)
    _check_smoothing(api, label_smoothing)
    logp = to_float(arr(inputs))
    return wrap(_weighted_nll(api, logp, target, weight, ignore_index, reduction, label_smoothing))


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    r"""Binary cross entropy of probabilities ``logits`` against ``labels`` in [0, 1]; the
    probabilities are clamped at 1e-12 inside the logarithms, as in MindSpore (a loss of at most
    ``-log(1e-12) = 27.631021`` per element).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.binary_cross_entropy(ms.Tensor([0.5, 1.0]), ms.Tensor([1.0, 1.0])))
        0.3465736
    """
    api = "binary_cross_entropy"
    check_reduction(api, reduction)
    p, y = to_float(arr(logits)), jnp.asarray(arr(labels))
    _same_shape(api, p, y, ("logits", "labels"))
    y = y.astype(p.dtype)
    eps = jnp.asarray(1e-12, p.dtype)
    loss = -(y * jnp.log(jnp.maximum(p, eps)) + (1 - y) * jnp.log(jnp.maximum(1 - p, eps)))
    if weight is not None:
        loss = loss * arr(weight)
    return wrap(reduce(loss, reduction))


def kl_div(logits, labels, reduction="mean"):
    r"""KL divergence with log-probabilities ``logits`` and probabilities ``labels``:
    :math:`y (\log y - x)` (0 where :math:`y = 0`). ``reduction`` may also be ``'batchmean'``
    (the sum divided by the batch size).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.log(ms.Tensor([0.5, 0.5]))
        >>> print(ms.ops.kl_div(x, ms.Tensor([0.5, 0.5]), 'sum'))
        0.0
    """
    api = "kl_div"
    if reduction not in _REDUCTIONS + ("batchmean",):
        raise ValueError(
            f"For '{api}', 'reduction' must be one of ['mean', 'sum', 'none', 'batchmean'], but "
            f"got {reduction!r}."
        )
    x, y = to_float(arr(logits)), jnp.asarray(arr(labels))
    _same_shape(api, x, y, ("logits", "labels"))
    y = y.astype(x.dtype)
    loss = jax.scipy.special.xlogy(y, y) - y * x
    if reduction == "batchmean":
        return wrap(jnp.sum(loss) / (x.shape[0] if x.ndim else 1))
    return wrap(reduce(loss, reduction))


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
    a, b, y = to_float(arr(input1)), to_float(arr(input2)), to_float(jnp.asarray(arr(target)))
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
    a, b, y = to_float(arr(input1)), to_float(arr(input2)), jnp.asarray(arr(target))
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
    x = to_float(arr(input, api, "input"))
    if x.ndim == 1:
        x = x[None]
    target = jnp.asarray(arr(target, api, "target"))
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


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction="mean"):
    r"""Poisson negative log-likelihood: :math:`e^x - y x` with ``log_input``, else
    :math:`x - y \log(x + eps)`; ``full`` adds the Stirling term for :math:`y > 1`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.poisson_nll_loss(ms.Tensor([0.0]), ms.Tensor([1.0])))
        1.0
    """

    def fn(x, y):
        loss = jnp.exp(x) - y * x if log_input else x - y * jnp.log(x + eps)
        if full:
            stirling = y * jnp.log(y) - y + 0.5 * jnp.log(2 * jnp.pi * y)
            loss = loss + jnp.where(y > 1, stirling, 0)
        return loss

    return _pointwise("poisson_nll_loss", input, target, reduction, fn)
