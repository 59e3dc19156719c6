"""Neural-network functionals: activations, softmax, losses, dropout."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._random import next_key
from ._primitive import primitive
from ._utils import arr, check_axis, to_float, wrap

__all__ = [
    "relu", "sigmoid", "softmax", "log_softmax", "binary_cross_entropy_with_logits", "dropout",
    "dropout2d", "ReLU", "Sigmoid", "Softmax", "LogSoftmax", "Dropout2D",
]  # fmt: skip


def relu(input):
    """max(input, 0)."""
    return wrap(jax.nn.relu(arr(input)))


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return wrap(jax.nn.sigmoid(to_float(arr(input))))


def softmax(input, axis=-1, *, dtype=None):
    """Softmax along ``axis``."""
    x = to_float(arr(input))
    check_axis("softmax", axis, x.ndim)
    return wrap(jax.nn.softmax(x, axis=axis))


def log_softmax(logits, axis=-1):
    """Log of softmax along ``axis``."""
    x = to_float(arr(logits))
    check_axis("log_softmax", axis, x.ndim)
    return wrap(jax.nn.log_softmax(x, axis=axis))


def _reduce(api: str, loss, reduction: str):
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(
        f"For '{api}', 'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}."
    )


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):  # fmt: skip
    """Sigmoid + binary cross entropy, computed stably from logits.

    loss = -w * (pos_weight * y * log(sigmoid(x)) + (1 - y) * log(1 - sigmoid(x)))
    """
    x, y = to_float(arr(input)), arr(target)
    if x.shape != jnp.shape(y):
        raise ValueError(
            f"For 'binary_cross_entropy_with_logits', 'input' and 'target' must have the same "
            f"shape, but got {x.shape} and {jnp.shape(y)}."
        )
    log_p = jax.nn.log_sigmoid(x)
    log_not_p = jax.nn.log_sigmoid(-x)
    if pos_weight is not None:
        loss = -(arr(pos_weight) * y * log_p + (1 - y) * log_not_p)
    else:
        loss = -(y * log_p + (1 - y) * log_not_p)
    if weight is not None:
        loss = loss * arr(weight)
    return wrap(_reduce("binary_cross_entropy_with_logits", loss, reduction))


def _check_p(api: str, p) -> float:
    if not 0 <= p <= 1:
        raise ValueError(f"For '{api}', the drop probability 'p' must be in [0, 1], but got {p}.")
    return p


def dropout(input, p=0.5, training=True, seed=None):
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p) in training."""
    _check_p("dropout", p)
    x = arr(input)
    if not training or p == 0:
        return wrap(x)
    if p == 1:
        return wrap(jnp.zeros_like(x))
    keep = jax.random.bernoulli(next_key(seed), 1 - p, x.shape)
    return wrap(jnp.where(keep, x / (1 - p), 0).astype(x.dtype))


def dropout2d(input, p=0.5, training=True):
    """Zero whole channels (dim 1 of NCHW) with probability ``p`` in training."""
    _check_p("dropout2d", p)
    x = arr(input)
    if not training or p == 0:
        return wrap(x)
    keep = jax.random.bernoulli(next_key(), 1 - p, x.shape[:2] + (1,) * (x.ndim - 2))
    return wrap(jnp.where(keep, x / (1 - p), 0).astype(x.dtype))


def _dropout2d_call(self, x):
    keep_prob = self.attrs["keep_prob"]
    if not 0 < keep_prob <= 1:
        raise ValueError(f"For 'Dropout2D', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    value = arr(x)
    mask = jax.random.bernoulli(next_key(), keep_prob, value.shape[:2] + (1,) * (value.ndim - 2))
    mask = jnp.broadcast_to(mask, value.shape)
    return wrap(jnp.where(mask, value / keep_prob, 0).astype(value.dtype)), wrap(mask)


ReLU = primitive("ReLU", relu)
Sigmoid = primitive("Sigmoid", sigmoid)
Softmax = primitive("Softmax", softmax, dict(axis=-1))
LogSoftmax = primitive("LogSoftmax", log_softmax, dict(axis=-1))
Dropout2D = primitive("Dropout2D", dropout2d, dict(keep_prob=0.5), _dropout2d_call)
