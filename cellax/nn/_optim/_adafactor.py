"""AdaFactor (Shazeer and Stern, 2018): Adam-like steps whose second moment of a matrix is
kept as a row and a column average (memory sublinear in the parameter size)."""

from __future__ import annotations

import numbers

import jax.numpy as jnp

from ..._errors import check_bool, check_number
from ..._parameter import Parameter, ParameterTuple
from ._optimizer import Optimizer

__all__ = ["AdaFactor"]


def _rms(value):
    return jnp.sqrt(jnp.mean(jnp.square(value)))


def _check_float(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For 'AdaFactor', '{name}' must be a float, but got {value!r}.")
    return check_number("AdaFactor", name, value)


class AdaFactor(Optimizer):
    """The AdaFactor optimizer (``mindspore.nn.AdaFactor``).

    Per step ``t``: ``beta2_t = 1 - t^-decay_rate``; the second moment ``v`` of
    ``g^2 + eps[0]`` is a full average for a vector and, for a matrix (the last two
    dimensions), a row and a column average combined as ``row (x) col / mean(row)``. The
    update ``u = g / sqrt(v)`` is divided by ``max(1, RMS(u) / clip_threshold)`` and scaled by
    the step size (times ``max(eps[1], RMS(param))`` with ``scale_parameter``); with ``beta1``
    it is averaged (the first moment). With ``relative_step`` the step size is
    ``min(1e-2, 1/sqrt(t))`` (``min(1e-6 t, 1/sqrt(t))`` with ``warmup_init``).

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule, None]): The
            step size; ``None`` with ``relative_step``. Default: ``None``.
        eps (tuple[float, float]): Added to ``g^2``; the least parameter scale.
            Default: ``(1e-30, 1e-3)``.
        clip_threshold (float): Update RMS threshold. Default: ``1.0``.
        decay_rate (float): In (0, 1). Default: ``0.8``.
        beta1 (float): First-moment decay; ``0`` (or ``None``) keeps none. Default: ``0.9``.
        weight_decay (float): In [0, 1): ``param -= weight_decay * step size * param``.
            Default: ``0.0``.
        scale_parameter (bool): Scale the step by the parameter's RMS. Default: ``True``.
        relative_step (bool): Step size from the step number. Default: ``True``.
        warmup_init (bool): Warm the relative step up linearly. Default: ``False``.
        compression (bool): Keep the first moment in float16 (accepted; kept in the
            parameter's dtype). Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        ValueError: If ``learning_rate`` is given with ``relative_step``, neither is given,
            or ``warmup_init`` is set without ``relative_step``; or a value is out of range.
        TypeError: If an argument has the wrong type.

    Differences from MindSpore: as MindSpore, a learning-rate schedule or Tensor turns off
    ``scale_parameter`` and ``relative_step``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), name="w")
        >>> opt = nn.AdaFactor([w])
        >>> _ = opt((ms.Tensor([[0.5, -0.5], [1.0, 2.0]]),))
        >>> print(w.asnumpy().round(4))
        [[0.9963 2.002 ]
         [2.9976 3.9974]]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.AdaFactor.html
    """

    _decay_in_gradient = False

    def __init__(
        self,
        params,
        learning_rate=None,
        eps=(1e-30, 1e-3),
        clip_threshold=1.0,
        decay_rate=0.8,
        beta1=0.9,
        weight_decay=0.0,
        scale_parameter=True,
        relative_step=True,
        warmup_init=False,
        compression=False,
        loss_scale=1.0,
    ) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError(
                "For 'AdaFactor', 'learning_rate' can not be given with relative_step=True; "
                "pass relative_step=False to use it."
            )
        if warmup_init and not relative_step:
            raise ValueError("For 'AdaFactor', warmup_init=True requires relative_step=True.")
        if learning_rate is None and not relative_step:
            raise ValueError("For 'AdaFactor', give 'learning_rate' when relative_step=False.")
        constant_lr = learning_rate is None or isinstance(learning_rate, numbers.Real)
        super().__init__(0.0 if learning_rate is None else learning_rate, params, 0.0, loss_scale)
        if not isinstance(eps, (tuple, list)) or len(eps) != 2:
            raise ValueError(f"For 'AdaFactor', 'eps' must be two floats, but got {eps!r}.")
        self.eps = tuple(_check_float(f"eps{i}", value) for i, value in enumerate(eps))
        self.clip_threshold = _check_float("clip_threshold", clip_threshold)
        self.decay_rate = _check_float("decay_rate", decay_rate)
        if not 0.0 < self.decay_rate < 1.0:
            raise ValueError(
                f"For 'AdaFactor', 'decay_rate' must be in (0, 1), but got {decay_rate}."
            )
        self.beta1 = check_number("AdaFactor", "beta1", 0.0 if beta1 is None else beta1)
        self.decay = check_number("AdaFactor", "weight_decay", weight_decay)
        if self.decay >= 1.0:
            raise ValueError(
                f"For 'AdaFactor', 'weight_decay' must be in [0, 1), but got {weight_decay}."
            )
        for name, value in (
            ("scale_parameter", scale_parameter),
            ("relative_step", relative_step),
            ("warmup_init", warmup_init),
            ("compression", compression),
        ):
            check_bool("AdaFactor", name, value)
        self.scale_parameter = scale_parameter and constant_lr
        self.relative_step = relative_step and constant_lr
        self.warmup_init, self.compression = warmup_init, compression
        self.exp_avg = self._slots("exp_avg", lambda s: s if self.beta1 > 0 else ())
        self.exp_avg_sq_row = self._slots(
            "exp_avg_sq_row", lambda s: s[:-1] if len(s) > 1 else (1,)
        )
        self.exp_avg_sq_col = self._slots(
            "exp_avg_sq_col", lambda s: s[:-2] + s[-1:] if len(s) > 1 else (1,)
        )
        self.exp_avg_sq = self._slots("exp_avg_sq", lambda s: (1,) if len(s) > 1 else s)

    def _slots(self, prefix: str, shape_of) -> ParameterTuple:
        """One zero slot per parameter, of the shape ``shape_of(param.shape)``."""
        slots = ParameterTuple(
            Parameter(
                jnp.zeros(shape_of(tuple(p.shape)), p._data.dtype),
                name=f"{prefix}.{p.name}",
                requires_grad=False,
            )
            for p in self._parameters
        )
        for slot in slots:
            self._own(slot)
        self._state_tuples.append(slots)
        return slots

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        exp_avg, row, col, full = state
        compute = jnp.promote_types(param.dtype, jnp.float32)
        value, grad = param.astype(compute), grad.astype(compute)
        step = (count + 1).astype(compute)
        if self.relative_step:
            least = 1e-6 * step if self.warmup_init else 1e-2
            lr = jnp.minimum(least, 1.0 / jnp.sqrt(step))
        if self.scale_parameter:
            lr = lr * jnp.maximum(self.eps[1], _rms(value))
        beta2 = 1.0 - step ** (-self.decay_rate)
        square = jnp.square(grad) + self.eps[0]
        if grad.ndim > 1:
            row = beta2 * row + (1.0 - beta2) * square.mean(axis=-1)
            col = beta2 * col + (1.0 - beta2) * square.mean(axis=-2)
            row_factor = 1.0 / jnp.sqrt(row / row.mean(axis=-1, keepdims=True))
            update = row_factor[..., None] / jnp.sqrt(col[..., None, :]) * grad
        else:
            full = beta2 * full + (1.0 - beta2) * square
            update = grad / jnp.sqrt(full)
        update = update / jnp.maximum(_rms(update) / self.clip_threshold, 1.0) * lr
        if self.beta1 > 0:
            exp_avg = self.beta1 * exp_avg + (1.0 - self.beta1) * update
            update = exp_avg
        if self.decay:
            value = value - self.decay * lr * value
        return value - update, (exp_avg, row, col, full)
