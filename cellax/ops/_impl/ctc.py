"""CTC: ``ops.ctc_loss`` (what ``nn.CTCLoss`` calls), the ``ops.CTCLoss`` primitive and the
forward algorithm behind them.

``log_probs`` are used as given (MindSpore does not log-softmax them), impossible alignments
give ``inf`` and the alpha table (``-inf`` where a state is unreachable or past a sample's
lengths) is returned as MindSpore's ``log_alpha``. The gradient is MindSpore's CTC bprop rule on
every backend: ``exp(log_probs) - posterior`` over each sample's valid frames (the gradient with
respect to the scores *before* a log-softmax, which is what a network that feeds
``log_softmax`` output gets through that softmax's backward either way), ``nan`` over the frames
of a sample whose loss is infinite, or zero there with ``zero_infinity``.
"""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp

from .eager import fused
from .losses import check_reduction, reduce
from .primitive import Primitive
from .utils import arr, to_float, wrap

__all__ = ["ctc_loss", "CTCLoss"]


def _logsumexp(*terms):
    """Elementwise log(sum(exp(terms))) that is ``-inf`` (with zero gradient) when every term
    is ``-inf``."""
    top = terms[0]
    for term in terms[1:]:
        top = jnp.maximum(top, term)
    finite = jnp.isfinite(top)
    shift = jnp.where(finite, top, 0.0)
    total = sum(jnp.exp(term - shift) for term in terms)
    return jnp.where(finite, shift + jnp.log(jnp.where(finite, total, 1.0)), -jnp.inf)


def _forward(log_probs, labels, input_lengths, target_lengths, blank):
    """Per-sample negative log likelihood ``(N,)`` and the alpha table ``(N, T, 2S+1)``."""
    steps, batch, _ = log_probs.shape
    states = 2 * labels.shape[1] + 1
    extended = jnp.full((batch, states), blank, labels.dtype).at[:, 1::2].set(labels)
    position = jnp.arange(states)
    live = position[None, :] < (2 * target_lengths + 1)[:, None]
    two_back = jnp.concatenate([jnp.full((batch, 2), -1, labels.dtype), extended[:, :-2]], 1)
    can_skip = (extended != blank) & (extended != two_back) & (position[None, :] >= 2)
    emit = jnp.take_along_axis(
        log_probs, jnp.broadcast_to(extended[None], (steps, batch, states)), axis=2
    )
    never = jnp.full((batch, 2), -jnp.inf, log_probs.dtype)
    first = jnp.where((position[None, :] < 2) & live, emit[0], -jnp.inf)

    def step(alpha, inputs):
        emitted, t = inputs
        one_back = jnp.concatenate([never[:, :1], alpha[:, :-1]], 1)
        skip = jnp.where(can_skip, jnp.concatenate([never, alpha[:, :-2]], 1), -jnp.inf)
        new = _logsumexp(alpha, one_back, skip) + emitted
        new = jnp.where(live & (t < input_lengths)[:, None], new, -jnp.inf)
        return new, new

    _, rest = jax.lax.scan(step, first, (emit[1:], jnp.arange(1, steps)))
    alpha = jnp.concatenate([first[None], rest], 0)
    last_frame = jnp.maximum(input_lengths - 1, 0)[None, :, None]
    last = jnp.take_along_axis(alpha, last_frame, 0)[0]
    end = 2 * target_lengths
    at_end = jnp.take_along_axis(last, end[:, None], 1)[:, 0]
    before_end = jnp.take_along_axis(last, jnp.maximum(end - 1, 0)[:, None], 1)[:, 0]
    before_end = jnp.where(target_lengths > 0, before_end, -jnp.inf)
    nll = -_logsumexp(at_end, before_end)
    return nll, jnp.transpose(alpha, (1, 0, 2))


@ft.partial(jax.custom_vjp, nondiff_argnums=(4, 5))
def ctc_nll(log_probs, labels, input_lengths, target_lengths, blank, zero_infinity):
    """``(nll, log_alpha)``; see the module docstring for the gradient."""
    return _forward(log_probs, labels, input_lengths, target_lengths, blank)


def _fwd(log_probs, labels, input_lengths, target_lengths, blank, zero_infinity):
    out, pull = jax.vjp(
        lambda lp: _forward(lp, labels, input_lengths, target_lengths, blank), log_probs
    )
    return out, (log_probs, input_lengths, out[0], pull)


def _bwd(blank, zero_infinity, residuals, cotangents):
    log_probs, input_lengths, nll, pull = residuals
    d_nll = cotangents[0]
    infinite = ~jnp.isfinite(nll)
    d_nll = jnp.where(infinite, 0.0, d_nll)
    # the log_alpha output carries no gradient, as in MindSpore
    (minus_posterior,) = pull((d_nll, jnp.zeros_like(cotangents[1])))
    frames = jnp.arange(log_probs.shape[0])[:, None] < input_lengths[None, :]
    grad = minus_posterior + jnp.exp(log_probs) * (d_nll * frames)[..., None]
    if not zero_infinity:
        grad = jnp.where((infinite[None, :] & frames)[..., None], jnp.nan, grad)
    return grad, None, None, None


ctc_nll.defvjp(_fwd, _bwd)


_ctc = fused(ctc_nll, static_argnums=(4, 5))


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

    ``log_probs`` are used as given, as in MindSpore (they are not log-softmaxed again), and
    the gradient is MindSpore's CTC rule: ``exp(log_probs) - posterior`` over each sample's
    frames, the gradient with respect to the scores before a log-softmax.

    Differences from MindSpore: with ``zero_infinity=True`` an infinite loss (an alignment
    that cannot fit in the input length) reads 0, as MindSpore documents; MindSpore 2.10's CPU
    kernel still returns ``inf`` for it in the loss (its gradient is zero in both).

    Returns:
        Tuple ``(loss, log_alpha)``: the loss reduced by ``reduction`` (``(N,)`` with
        ``'none'``) and the alpha table ``(N, T, 2 * S + 1)`` in log space, ``-inf`` where a
        state cannot be reached.

    Examples:
        >>> import cellax as ms
        >>> lp = ms.ops.log_softmax(ms.ops.zeros((3, 1, 2)), -1)
        >>> loss, _ = ms.ops.ctc_loss(lp, ms.Tensor([[1]]), (3,), (1,))
        >>> print(round(float(loss), 4))
        0.2877
    """
    api = "ctc_loss"
    lp = to_float(arr(log_probs, api, "log_probs", keep_scalars=False))
    labels = arr(targets, api, "targets", keep_scalars=False).astype(jnp.int32)
    in_len = jnp.asarray(arr(input_lengths, api, "input_lengths", keep_scalars=False)).reshape(-1)
    tgt_len = jnp.asarray(arr(target_lengths, api, "target_lengths", keep_scalars=False)).reshape(
        -1
    )
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
    reduction = check_reduction(api, reduction)
    blank = int(blank)
    if not 0 <= blank < lp.shape[2]:
        raise ValueError(f"For '{api}', 'blank' must be in [0, {lp.shape[2]}), but got {blank}.")
    nll, log_alpha = _ctc(
        lp, labels, in_len.astype(jnp.int32), tgt_len.astype(jnp.int32), blank, bool(zero_infinity)
    )
    if zero_infinity:
        nll = jnp.where(jnp.isinf(nll), 0.0, nll)
    if reduction == "mean":
        loss = jnp.mean(nll / jnp.maximum(tgt_len, 1).astype(lp.dtype))
    else:
        loss = reduce(nll, reduction)
    return wrap(loss.astype(lp.dtype)), wrap(log_alpha.astype(lp.dtype))


def _dense_labels(indices, values, batch: int, blank: int, collapse: bool):
    """Sparse ``(indices (K, 2), values (K,))`` labels as padded rows ``(batch, K)`` and their
    lengths, with blank labels dropped (MindSpore's CPU kernel skips them) and, with
    ``collapse``, runs of a repeated label merged into one."""
    width = max(int(values.shape[0]), 1)
    dense = jnp.full((batch, width), blank, jnp.int32)
    dense = dense.at[indices[:, 0], indices[:, 1]].set(values.astype(jnp.int32), mode="drop")

    def compact(rows, keep):
        order = jnp.argsort(~keep, axis=1, stable=True)
        rows = jnp.take_along_axis(jnp.where(keep, rows, blank), order, 1)
        return rows, keep.sum(1).astype(jnp.int32)

    dense, lengths = compact(dense, dense != blank)
    if collapse:
        previous = jnp.concatenate([jnp.full((batch, 1), -1, jnp.int32), dense[:, :-1]], 1)
        dense, lengths = compact(dense, (dense != previous) & (dense != blank))
    return dense, lengths


@ft.partial(fused, static_argnums=(4,))
def _primitive_loss(scores, labels, lengths, label_lengths, blank):
    """CTCLoss's (loss, gradient): per-sample losses of the softmaxed scores (infinite losses
    zeroed), and their gradient with respect to the scores, held constant."""

    def per_sample(scores):
        log_probs = jax.nn.log_softmax(scores, axis=-1)
        nll, _ = ctc_nll(log_probs, labels, lengths, label_lengths, blank, True)
        return nll

    loss, pull = jax.vjp(per_sample, scores)
    (gradient,) = pull(jnp.ones_like(loss))
    return loss.astype(scores.dtype), jax.lax.stop_gradient(gradient)


class CTCLoss(Primitive):
    """Connectionist temporal classification loss of unnormalised scores against sparse labels
    (``mindspore.ops.CTCLoss``): the scores are log-softmaxed over the classes and the blank is
    the last class.

    Args:
        preprocess_collapse_repeated (bool): Merge runs of a repeated label before the loss.
            Default: ``False``.
        ctc_merge_repeated (bool): Repeated outputs of a path merge into one label (only
            ``True`` is supported). Default: ``True``.
        ignore_longer_outputs_than_inputs (bool): A label longer than its sequence gives an
            infinite loss instead of an error. Default: ``False``.

    Inputs:
        - **x** (Tensor) - Scores ``(max_time, batch_size, num_classes)``, float.
        - **labels_indices** (Tensor) - ``(K, 2)`` int64: ``[batch, position]`` of each label.
        - **labels_values** (Tensor) - ``(K,)`` int32 labels in ``[0, num_classes - 1]``; the
          blank ``num_classes - 1`` is skipped.
        - **sequence_length** (Tensor) - ``(batch_size,)`` int32 valid frames of each sample.

    Outputs:
        Tuple ``(loss, gradient)``: the per-sample loss ``(batch_size,)`` and its gradient with
        respect to ``x`` (zero past each sample's frames). The loss backpropagates to ``x``.

    Differences from MindSpore: ``ctc_merge_repeated=False`` raises ``ValueError``; past a
    sample's ``sequence_length`` the ``gradient`` output is 0, where MindSpore 2.10's CPU
    kernel leaves other values there (its loss ignores those frames in both).

    See https://www.mindspore.cn/docs/en/r2.7.0/api_python/ops/mindspore.ops.CTCLoss.html

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.zeros((3, 1, 3), np.float32))
        >>> indices = ms.Tensor(np.array([[0, 0]]), ms.int64)
        >>> values = ms.Tensor(np.array([1]), ms.int32)
        >>> loss, grad = ms.ops.CTCLoss()(x, indices, values, ms.Tensor([3], ms.int32))
        >>> print(np.round(loss.asnumpy(), 4), grad.shape)
        [1.5041] (3, 1, 3)
    """

    def __init__(
        self,
        preprocess_collapse_repeated=False,
        ctc_merge_repeated=True,
        ignore_longer_outputs_than_inputs=False,
    ):
        Primitive.__init__(self, "CTCLoss")
        if not ctc_merge_repeated:
            raise ValueError(
                "For 'CTCLoss', cellax supports only 'ctc_merge_repeated=True', but got "
                f"{ctc_merge_repeated!r}. Use the default."
            )
        self.preprocess_collapse_repeated = bool(preprocess_collapse_repeated)
        self.ctc_merge_repeated = bool(ctc_merge_repeated)
        self.ignore_longer_outputs_than_inputs = bool(ignore_longer_outputs_than_inputs)
        for name in (
            "preprocess_collapse_repeated",
            "ctc_merge_repeated",
            "ignore_longer_outputs_than_inputs",
        ):
            self.add_prim_attr(name, getattr(self, name))

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        api = "CTCLoss"
        scores = to_float(arr(x, api, "x", keep_scalars=False))
        indices = jnp.asarray(arr(labels_indices, api, "labels_indices")).astype(jnp.int32)
        values = jnp.asarray(arr(labels_values, api, "labels_values")).reshape(-1)
        lengths = jnp.asarray(arr(sequence_length, api, "sequence_length")).reshape(-1)
        if scores.ndim != 3 or indices.ndim != 2 or indices.shape[-1] != 2:
            raise ValueError(
                f"For '{api}', 'x' must be (max_time, batch_size, num_classes) and "
                f"'labels_indices' (K, 2), but got shapes {tuple(scores.shape)} and "
                f"{tuple(indices.shape)}."
            )
        if lengths.shape != (scores.shape[1],) or values.shape[0] != indices.shape[0]:
            raise ValueError(
                f"For '{api}', 'sequence_length' must hold one length per sample "
                f"({scores.shape[1]}) and 'labels_values' one label per index "
                f"({indices.shape[0]}), but got {lengths.shape[0]} and {values.shape[0]}."
            )
        blank = scores.shape[2] - 1
        labels, label_lengths = _dense_labels(
            indices, values, scores.shape[1], blank, self.preprocess_collapse_repeated
        )
        lengths = lengths.astype(jnp.int32)
        if not self.ignore_longer_outputs_than_inputs and not isinstance(
            label_lengths, jax.core.Tracer
        ):
            if bool(jnp.any(label_lengths > lengths)):
                raise RuntimeError(
                    f"For '{api}', each sequence length must be at least its label length, "
                    f"but got sequence lengths {lengths.tolist()} and label lengths "
                    f"{label_lengths.tolist()}. Pass longer inputs or set "
                    "'ignore_longer_outputs_than_inputs=True'."
                )
        loss, gradient = _primitive_loss(scores, labels, lengths, label_lengths, blank)
        return wrap(loss), wrap(gradient)
