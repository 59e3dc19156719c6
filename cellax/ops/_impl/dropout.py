"""Dropout: ``dropout`` and its channel-wise forms, with their primitive classes."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._errors import check_probability
from ..._random import next_key
from .dtype_rules import check_accepts
from .primitive import primitive
from .utils import arr, name_op, wrap

__all__ = [
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "Dropout",
    "Dropout2D",
    "Dropout3D",
]


def _check_p(api: str, p) -> float:
    # MindSpore's exact types: ops.dropout raises RuntimeError, dropout2d/3d ValueError.
    return check_probability(api, p, RuntimeError if api == "dropout" else ValueError)


def _drop(x, p, mask_shape, seed=None):
    if p == 1:
        return jnp.zeros_like(x), jnp.zeros(x.shape, jnp.bool_)
    keep = jax.random.bernoulli(next_key(seed), 1 - p, mask_shape)
    keep = jnp.broadcast_to(keep, x.shape)
    return jnp.where(keep, x / (1 - p), 0).astype(x.dtype), keep


def dropout(input, p=0.5, training=True, seed=None):
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` in training.

    Args:
        input (Tensor): The input.
        p (float): The drop probability in [0, 1]. Default: ``0.5``.
        training (bool): Apply dropout; when False return ``input``. Default: ``True``.
        seed (int): A per-call seed; None draws from the global key. Default: ``None``.

    Raises:
        RuntimeError: If ``p`` is outside [0, 1] (the error is also a ValueError).

    Examples:
        >>> import cellax as ms
        >>> y = ms.ops.dropout(ms.ops.ones((2, 4)), p=0.5)
        >>> sorted(set(y.asnumpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
        True
    """
    _check_p("dropout", p)
    x = arr(input, "dropout", tensor=True)
    check_accepts("dropout", x)  # floating Tensors only, as MindSpore's Dropout
    if not training or p == 0:
        return wrap(x)
    return wrap(_drop(x, p, x.shape, seed)[0])


def _channel_dropout(api, rank):
    def op(input, p=0.5, training=True):
        _check_p(api, p)
        x = arr(input, api, keep_scalars=False)
        if x.ndim not in (rank, rank + 1):
            raise ValueError(
                f"For '{api}', 'input' must be {rank}-D or {rank + 1}-D, but got shape {x.shape}."
            )
        if not training or p == 0:
            return wrap(x)
        mask_shape = x.shape[: x.ndim - rank + 1] + (1,) * (rank - 1)
        return wrap(_drop(x, p, mask_shape)[0])

    return name_op(
        op,
        api,
        f"Zero whole channels of a {rank + 1}-D (batched) input with "
        f"probability ``p`` in training.",
    )


dropout1d = _channel_dropout("dropout1d", 2)


dropout2d = _channel_dropout("dropout2d", 3)


dropout3d = _channel_dropout("dropout3d", 4)


def _keep_prob(api, keep_prob):
    if not 0 < keep_prob <= 1:
        raise ValueError(f"For '{api}', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    return keep_prob


def _dropout_call(self, x):
    keep_prob = _keep_prob("Dropout", self.attrs["keep_prob"])
    value = arr(x, "Dropout", keep_scalars=False)
    seed = self.attrs["Seed0"] or self.attrs["Seed1"] or None
    out, keep = _drop(value, 1 - keep_prob, value.shape, seed)
    return wrap(out), wrap(keep.astype(value.dtype))


def _channel_dropout_call(name, rank):
    def call(self, x):
        keep_prob = _keep_prob(name, self.attrs["keep_prob"])
        value = arr(x, name, keep_scalars=False)
        mask_shape = value.shape[:2] + (1,) * (value.ndim - 2)
        out, keep = _drop(value, 1 - keep_prob, mask_shape)
        return wrap(out), wrap(keep)

    return call


Dropout = primitive("Dropout", dropout, dict(keep_prob=0.5, Seed0=0, Seed1=0), _dropout_call)


Dropout2D = primitive(
    "Dropout2D", dropout2d, dict(keep_prob=0.5), _channel_dropout_call("Dropout2D", 3)
)


Dropout3D = primitive(
    "Dropout3D", dropout3d, dict(keep_prob=0.5), _channel_dropout_call("Dropout3D", 4)
)
