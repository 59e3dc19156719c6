"""The CTC forward algorithm behind ``ops.ctc_loss`` / ``nn.CTCLoss``.

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
