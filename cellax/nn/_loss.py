"""Loss Cells; each calls its functional in ``cellax.ops`` (one implementation)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..ops._impl import ctc, losses, margin_losses
from ..ops._impl.losses import binary_cross_entropy_with_logits
from ..ops._impl.utils import arr, check_real, to_float, wrap
from ._cell import Cell

__all__ = [
    "LossBase",
    "L1Loss",
    "MSELoss",
    "SmoothL1Loss",
    "HuberLoss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "KLDivLoss",
    "SoftmaxCrossEntropyWithLogits",
    "MarginRankingLoss",
    "CosineEmbeddingLoss",
    "SoftMarginLoss",
    "MultiMarginLoss",
    "PoissonNLLLoss",
    "CTCLoss",
]


class LossBase(Cell):
    """Base class of losses: keeps ``reduction`` and offers :meth:`get_loss`.

    Args:
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.

    Raises:
        ValueError: If ``reduction`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> class Abs(ms.nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(ms.ops.abs(logits - labels))
        >>> print(Abs()(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0])))
        1.5
    """

    def __init__(self, reduction="mean") -> None:
        super().__init__()
        self.reduction = losses.check_reduction(type(self).__name__, reduction)
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """All axes of ``x`` as a tuple."""
        return tuple(range(arr(x).ndim))

    def get_loss(self, x, weights=1.0):
        """``x * weights`` reduced by ``reduction``."""
        value = to_float(arr(x)) * arr(weights)
        return wrap(losses.reduce(value, self.reduction))

    def construct(self, logits, labels):
        raise NotImplementedError(f"'{type(self).__name__}' must define 'construct'.")


class _Loss(LossBase):
    """MindSpore's older name of :class:`LossBase` (a subclass, as there)."""


class L1Loss(LossBase):
    r"""Mean absolute error :math:`|x - y|`, reduced by ``reduction`` (default ``'mean'``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.L1Loss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.33333334
    """

    def construct(self, logits, labels):
        return losses.l1_loss(logits, labels, self.reduction)


class MSELoss(LossBase):
    r"""Mean squared error :math:`(x - y)^2`, reduced by ``reduction`` (default ``'mean'``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.MSELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 1.0, 1.0])))
        1.6666667
    """

    def construct(self, logits, labels):
        return losses.mse_loss(logits, labels, self.reduction)


class SmoothL1Loss(LossBase):
    r"""Smooth L1 loss with threshold ``beta``; ``reduction`` defaults to ``'none'``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.SmoothL1Loss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        [0.  0.  0.5]
    """

    def __init__(self, beta=1.0, reduction="none") -> None:
        super().__init__(reduction)
        if not check_real("SmoothL1Loss", "beta", beta) > 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be positive, but got {beta}.")
        self.beta = beta

    def construct(self, logits, labels):
        return losses.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    r"""Huber loss with threshold ``delta``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.HuberLoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.16666667
    """

    def __init__(self, reduction="mean", delta=1.0) -> None:
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return losses.huber_loss(logits, labels, self.reduction, self.delta)


class CrossEntropyLoss(LossBase):
    r"""Cross entropy of logits (classes on dim 1) against class indices or probabilities.

    Args:
        weight (Tensor): Per-class weights :math:`(C,)`. Default: ``None``.
        ignore_index (int): Index target to skip. Default: ``-100``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        label_smoothing (float): In [0, 1]. Default: ``0.0``.

    Inputs:
        - **logits** (Tensor) - :math:`(N, C)`, :math:`(N, C, d_1, ...)` or :math:`(C,)`.
        - **labels** (Tensor) - Integer indices :math:`(N, d_1, ...)` or float probabilities
          of the shape of ``logits``.

    Raises:
        TypeError: If index labels are not integers.
        ValueError: If the shapes do not match.

    Examples:
        >>> import cellax as ms
        >>> loss = ms.nn.CrossEntropyLoss()
        >>> logits = ms.Tensor([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
        >>> print(loss(logits, ms.Tensor([0, 1], ms.int32)).asnumpy().round(4))
        0.2395

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.CrossEntropyLoss.html
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        losses._check_smoothing("CrossEntropyLoss", label_smoothing)
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        return losses.cross_entropy(
            logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing
        )


class NLLLoss(LossBase):
    r"""Negative log-likelihood of log-probabilities at integer class indices.

    Examples:
        >>> import cellax as ms
        >>> logp = ms.Tensor([[-0.1, -2.0], [-3.0, -0.5]])
        >>> print(ms.nn.NLLLoss()(logp, ms.Tensor([0, 1], ms.int32)))
        0.3
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean") -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits, labels):
        return losses.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    r"""Binary cross entropy of probabilities, optionally weighted elementwise.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.BCELoss()(ms.Tensor([0.5, 0.5]), ms.Tensor([1.0, 0.0])).asnumpy().round(4))
        0.6931
    """

    def __init__(self, weight=None, reduction="mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return losses.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    r"""Sigmoid + binary cross entropy from logits, with optional ``weight`` and
    ``pos_weight`` (the positive-class weight).

    Examples:
        >>> import cellax as ms
        >>> loss = ms.nn.BCEWithLogitsLoss()
        >>> print(loss(ms.Tensor([0.0, 0.0]), ms.Tensor([1.0, 0.0])).asnumpy().round(4))
        0.6931
    """

    def __init__(self, reduction="mean", weight=None, pos_weight=None) -> None:
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):
        return binary_cross_entropy_with_logits(
            input, target, self.weight, self.pos_weight, self.reduction
        )


class KLDivLoss(LossBase):
    r"""KL divergence of log-probabilities ``logits`` from probabilities ``labels``;
    ``reduction`` may also be ``'batchmean'``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.log(ms.Tensor([0.5, 0.5]))
        >>> print(ms.nn.KLDivLoss('sum')(x, ms.Tensor([0.5, 0.5])))
        0.0
    """

    def __init__(self, reduction="mean") -> None:
        if reduction == "batchmean":
            super().__init__("sum")
            self.reduction = reduction
        else:
            super().__init__(reduction)

    def construct(self, logits, labels):
        return losses.kl_div(logits, labels, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    r"""Softmax cross entropy per sample, with one-hot/probability labels or, with
    ``sparse=True``, integer class indices.

    Args:
        sparse (bool): Labels are class indices. Default: ``False``.
        reduction (str): Default: ``'none'``.

    Inputs:
        - **logits** (Tensor) - :math:`(N, C)`.
        - **labels** (Tensor) - :math:`(N,)` integers if ``sparse`` else :math:`(N, C)`.

    Raises:
        TypeError: If sparse labels are not integers.
        ValueError: If the label shape does not fit.

    Examples:
        >>> import cellax as ms
        >>> loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True)
        >>> print(loss(ms.Tensor([[0.0, 0.0]]), ms.Tensor([1], ms.int32)).asnumpy().round(4))
        [0.6931]
    """

    def __init__(self, sparse=False, reduction="none") -> None:
        super().__init__(reduction)
        self.sparse = sparse

    def construct(self, logits, labels):
        api = "SoftmaxCrossEntropyWithLogits"
        x = to_float(arr(logits))
        y = jnp.asarray(arr(labels))
        if self.sparse:
            y = losses._class_targets(api, x, y)
            y = jax.nn.one_hot(y, x.shape[-1], dtype=x.dtype)
        elif y.shape != x.shape:
            raise ValueError(
                f"For '{api}', 'labels' must have the shape of 'logits' {tuple(x.shape)} when "
                f"sparse=False, but got {tuple(y.shape)}."
            )
        loss = -jnp.sum(jax.nn.log_softmax(x, axis=-1) * y.astype(x.dtype), axis=-1)
        return wrap(losses.reduce(loss, self.reduction))


class MarginRankingLoss(LossBase):
    r"""``max(0, -target * (input1 - input2) + margin)``.

    Examples:
        >>> import cellax as ms
        >>> a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 1.0])
        >>> print(ms.nn.MarginRankingLoss(0.5)(a, b, ms.Tensor([1.0, 1.0])))
        0.75
    """

    def __init__(self, margin=0.0, reduction="mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return margin_losses.margin_ranking_loss(
            input1, input2, target, self.margin, self.reduction
        )


class CosineEmbeddingLoss(LossBase):
    r"""Cosine embedding loss of two :math:`(N, D)` inputs with targets in {1, -1}.

    Examples:
        >>> import cellax as ms
        >>> a = ms.Tensor([[1.0, 0.0]])
        >>> print(ms.nn.CosineEmbeddingLoss()(a, a, ms.Tensor([1.0])))
        0.0
    """

    def __init__(self, margin=0.0, reduction="mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        return margin_losses.cosine_embedding_loss(
            logits_x1, logits_x2, labels, self.margin, self.reduction
        )


class SoftMarginLoss(LossBase):
    r"""Two-class logistic loss ``log(1 + exp(-y x))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.SoftMarginLoss()(ms.Tensor([0.0]), ms.Tensor([1.0])).asnumpy().round(4))
        0.6931
    """

    def construct(self, logits, labels):
        return margin_losses.soft_margin_loss(logits, labels, self.reduction)


class MultiMarginLoss(LossBase):
    r"""Multi-class hinge loss (see :func:`cellax.ops.multi_margin_loss`).

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(ms.nn.MultiMarginLoss()(x, ms.Tensor([3], ms.int32)).asnumpy().round(4))
        0.325
    """

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None) -> None:
        super().__init__(reduction)
        self.p, self.margin, self.weight = p, margin, weight

    def construct(self, x, target, weight=None):
        weight = self.weight if weight is None else weight
        return margin_losses.multi_margin_loss(
            x, target, self.p, self.margin, weight, self.reduction
        )


class PoissonNLLLoss(LossBase):
    r"""Poisson negative log-likelihood (see :func:`cellax.ops.poisson_nll_loss`).

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.PoissonNLLLoss()(ms.Tensor([0.0]), ms.Tensor([1.0])))
        1.0
    """

    def __init__(self, log_input=True, full=False, eps=1e-8, reduction="mean") -> None:
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):
        return losses.poisson_nll_loss(
            input, target, self.log_input, self.full, self.eps, self.reduction
        )


class CTCLoss(LossBase):
    """Connectionist temporal classification loss (see :func:`cellax.ops.ctc_loss`); returns
    the loss only.

    Args:
        blank (int): The blank label. Default: ``0``.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``. Default: ``'mean'``.
        zero_infinity (bool): Replace infinite losses by 0. Default: ``False``.

    Inputs:
        - **log_probs** (Tensor) - ``(T, N, C)``.
        - **targets** (Tensor) - ``(N, S)``.
        - **input_lengths** (Union[tuple, Tensor]) - ``(N,)``.
        - **target_lengths** (Union[tuple, Tensor]) - ``(N,)``.

    Examples:
        >>> import cellax as ms
        >>> lp = ms.ops.log_softmax(ms.ops.zeros((3, 1, 2)), -1)
        >>> print(round(float(ms.nn.CTCLoss()(lp, ms.Tensor([[1]]), (3,), (1,))), 4))
        0.2877
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False) -> None:
        super().__init__(reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        loss, _ = ctc.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )
        return loss
