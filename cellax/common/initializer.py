"""``mindspore.common.initializer``."""

from .._initializer import *  # noqa: F401,F403
from .._init_samplers import _gain

# Private MindSpore helpers that model code calls directly (kept out of the public docs).


def _calculate_fan_in_and_fan_out(shape):
    """``(fan_in, fan_out)`` of a weight shape (at least 2 dimensions)."""
    if len(shape) < 2:
        raise ValueError(
            "'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 "
            f"dimensions, but got dimensions {len(shape)}."
        )
    receptive = 1
    for dim in shape[2:]:
        receptive *= dim
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(shape, mode):
    """``fan_in`` or ``fan_out`` of a weight shape, as ``mode`` names."""
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    """The recommended gain of an activation (``relu`` -> sqrt(2), ``tanh`` -> 5/3...)."""
    return _gain(nonlinearity, param)


from .._tensor import Tensor as Tensor  # noqa: E402 - MindSpore's module imports it here
