"""Learning-rate schedules: list-returning functions and LearningRateSchedule Cells.

The functions (``exponential_decay_lr`` ...) return one Python float per step, to give an
optimizer as ``learning_rate``. The Cells map the optimizer's ``global_step`` Tensor to the
current rate inside the (traceable) optimizer step.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from .._errors import BOOL_VALUE_TYPE, check_bool
from .._errors import check_float_arg
from .._errors import check_positive_int_arg
from .._tensor import wrap
from ..ops._impl.utils import arr
from ._cell import Cell

__all__ = [
    "piecewise_constant_lr",
    "exponential_decay_lr",
    "natural_exp_decay_lr",
    "inverse_decay_lr",
    "cosine_decay_lr",
    "polynomial_decay_lr",
    "warmup_lr",
    "LearningRateSchedule",
    "ExponentialDecayLR",
    "NaturalExpDecayLR",
    "InverseDecayLR",
    "CosineDecayLR",
    "PolynomialDecayLR",
    "WarmUpLR",
]


# --------------------------------------------------------------------------------------------
# argument checkers


def _check_decay_args(
    api, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair
):
    check_positive_int_arg(api, "total_step", total_step)
    check_positive_int_arg(api, "step_per_epoch", step_per_epoch)
    check_positive_int_arg(api, "decay_epoch", decay_epoch)
    check_float_arg(api, "learning_rate", learning_rate, positive=True)
    check_float_arg(api, "decay_rate", decay_rate, positive=True)
    check_bool(api, "is_stair", is_stair, BOOL_VALUE_TYPE)


def _check_min_max(api: str, min_lr, max_lr) -> None:
    check_float_arg(api, "min_lr", min_lr)
    check_float_arg(api, "max_lr", max_lr, positive=True)
    if min_lr >= max_lr:
        raise ValueError(
            f"For '{api}', 'max_lr' must be greater than 'min_lr', but got max_lr={max_lr}, "
            f"min_lr={min_lr}."
        )


# --------------------------------------------------------------------------------------------
# list-returning functions (one rate per step; an epoch is ``step_per_epoch`` steps)


def piecewise_constant_lr(milestone, learning_rates) -> list:
    """Rates that stay at ``learning_rates[i]`` until step ``milestone[i]``.

    Args:
        milestone (Union[list[int], tuple[int]]): Increasing step counts; the last one is the
            total number of steps.
        learning_rates (Union[list[float], tuple[float]]): One rate per milestone.

    Returns:
        list[float], ``milestone[-1]`` rates.

    Raises:
        TypeError: If an argument is not a list/tuple, or holds the wrong types.
        ValueError: If the lengths differ or ``milestone`` decreases.

    Examples:
        >>> from cellax import nn
        >>> nn.piecewise_constant_lr([2, 5], [0.1, 0.05])
        [0.1, 0.1, 0.05, 0.05, 0.05]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.piecewise_constant_lr.html
    """
    api = "piecewise_constant_lr"
    for name, value in (("milestone", milestone), ("learning_rates", learning_rates)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(
                f"For '{api}', '{name}' must be a list or tuple, but got {type(value).__name__}."
            )
    if len(milestone) != len(learning_rates):
        raise ValueError(
            f"For '{api}', 'milestone' and 'learning_rates' must have the same length, but got "
            f"{len(milestone)} and {len(learning_rates)}."
        )
    rates: list = []
    previous = 0
    for index, (step, rate) in enumerate(zip(milestone, learning_rates)):
        check_positive_int_arg(api, f"milestone[{index}]", step)
        check_float_arg(api, f"learning_rates[{index}]", rate)
        if step < previous:
            raise ValueError(
                f"For '{api}', 'milestone' must be increasing, but got milestone[{index}]={step} "
                f"after {previous}."
            )
        rates.extend([rate] * (step - previous))
        previous = step
    return rates


def exponential_decay_lr(
    learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False
) -> list:
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` per step.

    Args:
        learning_rate (float): The initial rate.
        decay_rate (float): The decay factor.
        total_step (int): Number of steps (length of the result).
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Epochs per decay period.
        is_stair (bool): Floor ``epoch / decay_epoch``. Default: ``False``.

    Returns:
        list[float].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a count is not positive or a rate not positive.

    Examples:
        >>> from cellax import nn
        >>> [round(x, 4) for x in nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1)]
        [0.1, 0.1, 0.09, 0.09, 0.081, 0.081]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.exponential_decay_lr.html
    """
    _check_decay_args(
        "exponential_decay_lr",
        learning_rate,
        decay_rate,
        total_step,
        step_per_epoch,
        decay_epoch,
        is_stair,
    )
    rates = []
    for step in range(total_step):
        exponent = math.floor(step / step_per_epoch) / decay_epoch
        if is_stair:
            exponent = math.floor(exponent)
        rates.append(learning_rate * decay_rate**exponent)
    return rates


def natural_exp_decay_lr(
    learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False
) -> list:
    """``learning_rate * e ** (-decay_rate * epoch)`` per step.

    With ``is_stair`` the epoch is rounded down to a multiple of ``decay_epoch``. Arguments as
    in :func:`exponential_decay_lr`.

    Examples:
        >>> from cellax import nn
        >>> [round(x, 4) for x in nn.natural_exp_decay_lr(0.1, 0.9, 4, 2, 2)]
        [0.1, 0.1, 0.0407, 0.0407]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.natural_exp_decay_lr.html
    """
    _check_decay_args(
        "natural_exp_decay_lr",
        learning_rate,
        decay_rate,
        total_step,
        step_per_epoch,
        decay_epoch,
        is_stair,
    )
    rates = []
    for step in range(total_step):
        epoch = math.floor(step / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        rates.append(learning_rate * math.e ** (-decay_rate * epoch))
    return rates


def inverse_decay_lr(
    learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False
) -> list:
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` per step.

    Arguments as in :func:`exponential_decay_lr`.

    Examples:
        >>> from cellax import nn
        >>> nn.inverse_decay_lr(0.1, 0.5, 4, 2, 2)
        [0.1, 0.1, 0.08, 0.08]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.inverse_decay_lr.html
    """
    _check_decay_args(
        "inverse_decay_lr",
        learning_rate,
        decay_rate,
        total_step,
        step_per_epoch,
        decay_epoch,
        is_stair,
    )
    rates = []
    for step in range(total_step):
        epoch = math.floor(step / step_per_epoch)
        if is_stair:
            rates.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            rates.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return rates


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch) -> list:
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_epoch`` epochs, then flat.

    Args:
        min_lr (float): The final rate.
        max_lr (float): The initial rate; must exceed ``min_lr``.
        total_step (int): Number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Epochs of decay.

    Returns:
        list[float].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``min_lr >= max_lr`` or a count is not positive.

    Examples:
        >>> from cellax import nn
        >>> [round(x, 4) for x in nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2)]
        [0.1, 0.1, 0.055, 0.055, 0.01, 0.01]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.cosine_decay_lr.html
    """
    api = "cosine_decay_lr"
    _check_min_max(api, min_lr, max_lr)
    check_positive_int_arg(api, "total_step", total_step)
    check_positive_int_arg(api, "step_per_epoch", step_per_epoch)
    check_positive_int_arg(api, "decay_epoch", decay_epoch)
    half_range = 0.5 * (max_lr - min_lr)
    rates = []
    for step in range(total_step):
        epoch = min(math.floor(step / step_per_epoch), decay_epoch)
        rates.append(min_lr + half_range * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return rates


def polynomial_decay_lr(
    learning_rate,
    end_learning_rate,
    total_step,
    step_per_epoch,
    decay_epoch,
    power,
    update_decay_epoch=False,
) -> list:
    """Polynomial decay ``(lr - end) * (1 - epoch / decay_epoch) ** power + end`` per step.

    Args:
        learning_rate (float): The initial rate.
        end_learning_rate (float): The final rate.
        total_step (int): Number of steps.
        step_per_epoch (int): Steps per epoch.
        decay_epoch (int): Epochs of decay.
        power (float): The exponent.
        update_decay_epoch (bool): Past ``decay_epoch``, stretch the period to the next
            multiple of ``decay_epoch`` instead of staying at ``end_learning_rate``.
            Default: ``False``.

    Returns:
        list[float].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a count or rate is out of range.

    Examples:
        >>> from cellax import nn
        >>> [round(x, 4) for x in nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5)]
        [0.1, 0.1, 0.0736, 0.0736, 0.01, 0.01]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.polynomial_decay_lr.html
    """
    api = "polynomial_decay_lr"
    check_float_arg(api, "learning_rate", learning_rate, positive=True)
    check_float_arg(api, "end_learning_rate", end_learning_rate)
    check_float_arg(api, "power", power, positive=True)
    check_positive_int_arg(api, "total_step", total_step)
    check_positive_int_arg(api, "step_per_epoch", step_per_epoch)
    check_positive_int_arg(api, "decay_epoch", decay_epoch)
    check_bool(api, "update_decay_epoch", update_decay_epoch, BOOL_VALUE_TYPE)
    delta = learning_rate - end_learning_rate
    rates = []
    for step in range(total_step):
        epoch = math.floor(step / step_per_epoch)
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            period, epoch = decay_epoch, min(epoch, decay_epoch)
        rates.append(delta * (1 - epoch / period) ** power + end_learning_rate)
    return rates


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch) -> list:
    """Linear warm-up ``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` per step.

    Args:
        learning_rate (float): The rate reached after warm-up.
        total_step (int): Number of steps.
        step_per_epoch (int): Steps per epoch.
        warmup_epoch (int): Epochs of warm-up.

    Returns:
        list[float].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a count is not positive or the rate negative.

    Examples:
        >>> from cellax import nn
        >>> nn.warmup_lr(0.1, 6, 2, 2)
        [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.warmup_lr.html
    """
    api = "warmup_lr"
    check_float_arg(api, "learning_rate", learning_rate)
    check_positive_int_arg(api, "warmup_epoch", warmup_epoch)
    check_positive_int_arg(api, "total_step", total_step)
    check_positive_int_arg(api, "step_per_epoch", step_per_epoch)
    return [
        learning_rate * min(math.floor(step / step_per_epoch), warmup_epoch) / warmup_epoch
        for step in range(total_step)
    ]


# --------------------------------------------------------------------------------------------
# schedule Cells


def _step_f32(global_step, api: str = "LearningRateSchedule"):
    """The global step as a float32 array (a Tensor, array or number)."""
    return arr(global_step, api, "global_step", keep_scalars=False).astype(jnp.float32)


def _f32(value: float):
    return np.float32(value)


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns the rate.

    Give an instance to an optimizer as ``learning_rate``; it is called with the optimizer's
    ``global_step`` each step, eagerly or under ``jit``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> class Halving(nn.LearningRateSchedule):
        ...     def construct(self, global_step):
        ...         return 0.1 * 0.5 ** global_step.astype(ms.float32)
        >>> print(Halving()(ms.Tensor(2, ms.int32)))
        0.025

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.LearningRateSchedule.html
    """

    def construct(self, global_step):
        raise NotImplementedError(f"'{type(self).__name__}' must define 'construct'.")


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False) -> None:
        super().__init__()
        api = type(self).__name__
        check_positive_int_arg(api, "decay_steps", decay_steps)
        check_float_arg(api, "learning_rate", learning_rate, positive=True)
        check_float_arg(api, "decay_rate", decay_rate, positive=True)
        check_bool(api, "is_stair", is_stair, BOOL_VALUE_TYPE)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** (global_step / decay_steps)``.

    Args:
        learning_rate (float): The initial rate.
        decay_rate (float): The decay factor.
        decay_steps (int): Steps per decay period.
        is_stair (bool): Floor ``global_step / decay_steps``. Default: ``False``.

    Inputs:
        - **global_step** (Tensor) - The current step (int).

    Outputs:
        Tensor, float32, of the shape of ``global_step``.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``decay_steps`` or a rate is not positive.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.ExponentialDecayLR(0.1, 0.9, 4)(ms.Tensor(2, ms.int32)))
        0.094868325

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.ExponentialDecayLR.html
    """

    def construct(self, global_step):
        exponent = _step_f32(global_step, type(self).__name__) / _f32(self.decay_steps)
        if self.is_stair:
            exponent = jnp.floor(exponent)
        return wrap(_f32(self.learning_rate) * jnp.power(_f32(self.decay_rate), exponent))


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * e ** (-decay_rate * global_step)``.

    With ``is_stair`` the step is rounded down to a multiple of ``decay_steps``. Arguments,
    inputs and outputs as in :class:`ExponentialDecayLR`.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair=True)(ms.Tensor(5, ms.int32)))
        0.0027323728

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.NaturalExpDecayLR.html
    """

    def construct(self, global_step):
        step = _step_f32(global_step, type(self).__name__)
        if self.is_stair:
            step = jnp.floor(step / _f32(self.decay_steps)) * _f32(self.decay_steps)
        return wrap(
            _f32(self.learning_rate) * jnp.power(_f32(math.e), _f32(-self.decay_rate) * step)
        )


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)``.

    Arguments, inputs and outputs as in :class:`ExponentialDecayLR`.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.InverseDecayLR(0.1, 0.5, 4)(ms.Tensor(4, ms.int32)))
        0.06666667

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.InverseDecayLR.html
    """

    def construct(self, global_step):
        ratio = _step_f32(global_step, type(self).__name__) / _f32(self.decay_steps)
        if self.is_stair:
            ratio = jnp.floor(ratio)
        return wrap(_f32(self.learning_rate) / (1 + _f32(self.decay_rate) * ratio))


class CosineDecayLR(LearningRateSchedule):
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_steps``, then flat.

    Args:
        min_lr (float): The final rate.
        max_lr (float): The initial rate; must exceed ``min_lr``.
        decay_steps (int): Steps of decay.

    Inputs:
        - **global_step** (Tensor) - The current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``min_lr >= max_lr`` or ``decay_steps`` is not positive.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.CosineDecayLR(0.01, 0.1, 4)(ms.Tensor(2, ms.int32)))
        0.055

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.CosineDecayLR.html
    """

    def __init__(self, min_lr, max_lr, decay_steps) -> None:
        super().__init__()
        _check_min_max("CosineDecayLR", min_lr, max_lr)
        check_positive_int_arg("CosineDecayLR", "decay_steps", decay_steps)
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps

    def construct(self, global_step):
        step = jnp.minimum(_step_f32(global_step, type(self).__name__), _f32(self.decay_steps))
        half_range = _f32(0.5 * (self.max_lr - self.min_lr))
        # sin(pi * (p + 1/2)) == cos(pi * p); computed like MindSpore to match its rounding.
        phase = _f32(math.pi) * (step / _f32(self.decay_steps) + _f32(0.5))
        return wrap(_f32(self.min_lr) + half_range * (_f32(1.0) + jnp.sin(phase)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end) * (1 - step / decay_steps) ** power + end``.

    Args:
        learning_rate (float): The initial rate.
        end_learning_rate (float): The final rate.
        decay_steps (int): Steps of decay.
        power (float): The exponent.
        update_decay_steps (bool): Past ``decay_steps``, stretch the period to the next
            multiple of ``decay_steps``. Default: ``False``.

    Inputs:
        - **global_step** (Tensor) - The current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a rate, ``power`` or ``decay_steps`` is out of range.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0)(ms.Tensor(2, ms.int32)))
        0.055

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.PolynomialDecayLR.html
    """

    def __init__(
        self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False
    ) -> None:
        super().__init__()
        api = "PolynomialDecayLR"
        check_float_arg(api, "learning_rate", learning_rate, positive=True)
        check_float_arg(api, "end_learning_rate", end_learning_rate)
        check_positive_int_arg(api, "decay_steps", decay_steps)
        check_bool(api, "update_decay_steps", update_decay_steps, BOOL_VALUE_TYPE)
        check_float_arg(api, "power", power, positive=True)
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.decay_steps = decay_steps
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _step_f32(global_step, type(self).__name__)
        period = _f32(self.decay_steps)
        if self.update_decay_steps:
            period = period * jnp.maximum(jnp.ceil(step / period), _f32(1.0))
        else:
            step = jnp.minimum(step, period)
        delta = _f32(self.start_learning_rate - self.end_learning_rate)
        decayed = delta * jnp.power(_f32(1.0) - step / period, _f32(self.power))
        return wrap(decayed + _f32(self.end_learning_rate))


class WarmUpLR(LearningRateSchedule):
    """Linear warm-up ``learning_rate * min(global_step, warmup_steps) / warmup_steps``.

    Args:
        learning_rate (float): The rate reached after warm-up.
        warmup_steps (int): Steps of warm-up.

    Inputs:
        - **global_step** (Tensor) - The current step (int).

    Outputs:
        Tensor, float32.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``warmup_steps`` is not positive or the rate negative.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> print(nn.WarmUpLR(0.1, 4)(ms.Tensor(2, ms.int32)))
        0.05

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.WarmUpLR.html
    """

    def __init__(self, learning_rate, warmup_steps) -> None:
        super().__init__()
        check_float_arg("WarmUpLR", "learning_rate", learning_rate)
        check_positive_int_arg("WarmUpLR", "warmup_steps", warmup_steps)
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step):
        step = jnp.minimum(_step_f32(global_step, type(self).__name__), _f32(self.warmup_steps))
        return wrap(_f32(self.learning_rate) * (step / _f32(self.warmup_steps)))
