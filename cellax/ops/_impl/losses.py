"""Loss functionals (regression, classification, likelihood; CTC in ``ctc``); the nn loss
Cells call these (one implementation each)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from ... import _dtype
from .dtype_rules import check_accepts, check_same_dtype
from .eager import fused
from .primitive import Primitive
from .utils import (
    arr,
    check_broadcast_to,
    check_index_range,
    check_min_rank,
    check_real,
    to_float,
    wrap,
)

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
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "KLDivLoss",
    "mse_loss_ext",
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
    x, y = to_float(arr(input, tensor=True)), arr(target, tensor=True)
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
    if not check_real("smooth_l1_loss", "beta", beta) > 0:
        raise ValueError(f"For 'smooth_l1_loss', 'beta' must be positive, but got {beta}.")

    def fn(x, y):
        d = jnp.abs(x - y)
        return jnp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)

    # MindSpore's SmoothL1Loss takes equal shapes only (no broadcasting)
    _same_shape("smooth_l1_loss", arr(input, tensor=True), arr(target, tensor=True))

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
    y = jnp.asarray(arr(target, tensor=True))
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


def _weighted_nll(
    api, logp, target, weight, ignore_index, reduction, label_smoothing, from_logits=False
):
    """NLL of log-probabilities ``logp`` (N, C, *) with class-index targets (``from_logits``:
    ``logp`` holds logits, taken through ``log_softmax`` over the classes first)."""
    y = _class_targets(api, logp, target)
    classes = logp.shape[1] if logp.ndim > 1 else logp.shape[0]
    check_index_range(api, "target", y, classes, skip=ignore_index)
    if weight is None:
        w = None
    else:
        w = to_float(arr(weight)).astype(logp.dtype)
        if w.shape != (classes,):
            raise ValueError(
                f"For '{api}', 'weight' must have shape ({classes},), but got {tuple(w.shape)}."
            )
    return _nll(logp, y, w, ignore_index, reduction, float(label_smoothing), from_logits)


@fused(static_argnums=(3, 4, 5, 6))
def _nll(logp, y, w, ignore_index, reduction, label_smoothing, from_logits):
    if logp.ndim == 1:
        logp, y = logp[None], y[None]
    if from_logits:
        logp = jax.nn.log_softmax(logp, axis=1)
    classes = logp.shape[1]
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
    x = arr(input, "cross_entropy", "input", tensor=True)
    check_accepts(api, x)
    x = check_min_rank("cross_entropy", to_float(x))
    y = jnp.asarray(arr(target, "cross_entropy", "target", tensor=True))
    indices = (x.shape[0],) + x.shape[2:] if x.ndim > 1 else ()
    if _dtype.is_floating(y.dtype) and y.shape not in (x.shape, indices):
        raise ValueError(  # neither probabilities nor (wrongly typed) class indices
            f"For '{api}', a floating 'target' holds class probabilities and must have the shape "
            f"of 'input' {tuple(x.shape)}, but got {tuple(y.shape)}. Pass integer class indices "
            f"of shape (N, *) otherwise."
        )
    if not (_dtype.is_floating(y.dtype) and y.shape == x.shape):
        return wrap(
            _weighted_nll(api, x, y, weight, ignore_index, reduction, label_smoothing, True)
        )
    logp = jax.nn.log_softmax(x, axis=1 if x.ndim > 1 else 0)
    classes = x.shape[1] if x.ndim > 1 else x.shape[0]
    probs = y.astype(logp.dtype)
    if label_smoothing > 0:
        probs = probs * (1 - label_smoothing) + label_smoothing / classes
    if weight is not None:
        shape = (1, classes) + (1,) * (x.ndim - 2) if x.ndim > 1 else (classes,)
        probs = probs * to_float(arr(weight)).reshape(shape)
    loss = -jnp.sum(logp * probs, axis=1 if x.ndim > 1 else 0)
    return wrap(reduce(loss, reduction))


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
    logp = to_float(arr(inputs, "nll_loss", "inputs", tensor=True))
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
    p, y = arr(logits, tensor=True), arr(labels, tensor=True)
    check_accepts(api, p, y)
    p, y = to_float(p), jnp.asarray(y)
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
    x, y = arr(logits, tensor=True), jnp.asarray(arr(labels, tensor=True))
    check_accepts(api, x)  # MindSpore's KLDivLoss: float Tensors of one dtype
    check_same_dtype(api, logits=x, labels=y)
    _same_shape(api, x, y, ("logits", "labels"))
    loss = jax.scipy.special.xlogy(y, y) - y * x
    if reduction == "batchmean":
        return wrap(jnp.sum(loss) / (x.shape[0] if x.ndim else 1))
    return wrap(reduce(loss, reduction))


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
        to_float(arr(a, api, n, keep_scalars=False))
        for a, n in ((x, "x"), (target, "target"), (var, "var"))
    )
    if v.ndim == mean.ndim - 1 or (v.shape != mean.shape and v.shape[-1:] == (1,)):
        v = v.reshape(v.shape + (1,)) if v.ndim == mean.ndim - 1 else v
    v = jnp.maximum(v, eps)
    loss = 0.5 * (jnp.log(v) + (mean - y) ** 2 / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return wrap(reduce(loss, check_reduction(api, reduction)))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """Sigmoid + binary cross entropy, computed stably from logits."""
    api = "binary_cross_entropy_with_logits"
    x, y = arr(input, tensor=True), arr(target, tensor=True)
    weight, pos_weight = (
        None if value is None else arr(value, api, name, tensor=True)
        for value, name in ((weight, "weight"), (pos_weight, "pos_weight"))
    )
    check_accepts(api, x, y, weight, pos_weight)  # the dtypes first, as MindSpore
    x = to_float(x)
    if x.shape != jnp.shape(y):
        raise ValueError(
            f"For 'binary_cross_entropy_with_logits', 'input' and 'target' must have the same "
            f"shape, but got {x.shape} and {jnp.shape(y)}."
        )
    log_p = jax.nn.log_sigmoid(x)
    log_not_p = jax.nn.log_sigmoid(-x)
    if pos_weight is not None:
        pos_weight = check_broadcast_to(
            api, "pos_weight", arr(pos_weight, api, "pos_weight"), x.shape
        )
        loss = -(pos_weight * y * log_p + (1 - y) * log_not_p)
    else:
        loss = -(y * log_p + (1 - y) * log_not_p)
    if weight is not None:
        loss = loss * check_broadcast_to(api, "weight", arr(weight, api, "weight"), x.shape)
    return wrap(reduce(loss, check_reduction(api, reduction)))


class KLDivLoss(Primitive):
    """Kullback-Leibler divergence of ``labels`` from log-probabilities ``logits``
    (``mindspore.ops.KLDivLoss``), the primitive form of ``ops.kl_div``.

    Args:
        reduction (str): ``"none"``, ``"mean"``, ``"batchmean"`` or ``"sum"``.
            Default: ``"mean"``.

    Inputs:
        - **logits** (Tensor) - Log-probabilities.
        - **labels** (Tensor) - Probabilities, the shape of ``logits``.

    Outputs:
        Tensor: the loss (the input's shape with ``"none"``, else a scalar).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> logits = ms.Tensor(np.log(np.array([[0.5, 0.5]], np.float32)))
        >>> labels = ms.Tensor(np.array([[0.5, 0.5]], np.float32))
        >>> print(ms.ops.KLDivLoss("sum")(logits, labels))
        0.0
    """

    def __init__(self, reduction="mean"):
        Primitive.__init__(self, "KLDivLoss")
        self.reduction = reduction
        self.add_prim_attr("reduction", reduction)

    def __call__(self, logits, labels):
        return kl_div(logits, labels, self.reduction)


def mse_loss_ext(input, target, reduction="mean"):
    """:func:`mse_loss`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.mse_loss_ext(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 4.0])))
        2.5
    """
    return mse_loss(input, target, reduction)
