"""Batch, layer, group and instance normalisation."""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from .._parameter import StateTensor
from ._conv import _check_rank
from ._utils import arr, check_ints, wrap

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm"]


# -- normalisation ----------------------------------------------------------------------------
def _write(api: str, target, value) -> None:
    if isinstance(target, StateTensor):
        target._value = value.astype(target._value.dtype)
    else:
        raise TypeError(
            f"For '{api}', running statistics updated in training must be Parameters, but got "
            f"{type(target).__name__}."
        )


def batch_norm(
    input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5
):
    r"""Batch normalisation over dim 1 (channels) of an :math:`(N, C, *)` input.

    In training the batch statistics normalise the input and the running statistics (which must
    then be Parameters) are updated in place:
    ``running = (1 - momentum) * running + momentum * batch`` (the variance unbiased). In
    inference the running statistics are used.

    Args:
        input_x (Tensor): Shape :math:`(N, C, *)`.
        running_mean (Union[Tensor, Parameter]): Shape :math:`(C,)`.
        running_var (Union[Tensor, Parameter]): Shape :math:`(C,)`.
        weight (Tensor): Scale :math:`(C,)` or ``None``.
        bias (Tensor): Shift :math:`(C,)` or ``None``.
        training (bool): Default: ``False``.
        momentum (float): Default: ``0.1``.
        eps (float): Default: ``1e-5``.

    Returns:
        Tensor of the shape of ``input_x``.

    Raises:
        ValueError: If the statistics do not have ``C`` elements.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1.0], [3.0]])
        >>> mean, var = ms.Parameter(ms.ops.zeros(1)), ms.Parameter(ms.ops.ones(1))
        >>> print(ms.ops.batch_norm(x, mean, var, None, None, training=True, eps=0.0))
        [[-1.]
         [ 1.]]
        >>> print(mean.asnumpy(), var.asnumpy())
        [0.2] [1.1]
    """
    api = "batch_norm"
    x = arr(input_x)
    _check_rank(api, x, (2, 3, 4, 5))
    channels = x.shape[1]
    mean, var = arr(running_mean), arr(running_var)
    for name, value in (("running_mean", mean), ("running_var", var)):
        if value.shape != (channels,):
            raise ValueError(
                f"For '{api}', '{name}' must have shape ({channels},) to match the channel "
                f"dimension of 'input_x' {tuple(x.shape)}, but got {tuple(value.shape)}."
            )
    shape = (1, channels) + (1,) * (x.ndim - 2)
    if training:
        axes = (0,) + tuple(range(2, x.ndim))
        compute = x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x
        batch_mean = jnp.mean(compute, axes)
        batch_var = jnp.var(compute, axes)
        count = x.size // channels
        unbiased = batch_var * (count / max(count - 1, 1))
        stat_mean = lax.stop_gradient(batch_mean)
        _write(api, running_mean, (1 - momentum) * mean + momentum * stat_mean)
        _write(api, running_var, (1 - momentum) * var + momentum * lax.stop_gradient(unbiased))
        use_mean, use_var = batch_mean, batch_var
    else:
        compute, use_mean, use_var = x, mean, var
    out = (compute - use_mean.reshape(shape)) * lax.rsqrt(use_var.reshape(shape) + eps)
    if weight is not None:
        out = out * arr(weight).reshape(shape)
    if bias is not None:
        out = out + arr(bias).reshape(shape)
    return wrap(out.astype(x.dtype))


def normalize(x, axes, eps):
    compute = x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x
    mean = jnp.mean(compute, axes, keepdims=True)
    var = jnp.mean(jnp.square(compute - mean), axes, keepdims=True)
    return (compute - mean) * lax.rsqrt(var + eps), mean, var


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    r"""Normalise over the trailing ``normalized_shape`` dims, then scale and shift.

    Args:
        input (Tensor): Shape :math:`(*, normalized\_shape)`.
        normalized_shape (Union[int, tuple[int]]): The trailing shape to normalise over.
        weight (Tensor): Scale of shape ``normalized_shape``. Default: ``None``.
        bias (Tensor): Shift of shape ``normalized_shape``. Default: ``None``.
        eps (float): Default: ``1e-5``.

    Raises:
        ValueError: If the trailing shape of ``input`` is not ``normalized_shape``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.layer_norm(ms.Tensor([[1.0, 3.0]]), (2,), eps=0.0))
        [[-1.  1.]]
    """
    x = arr(input)
    normalized_shape = check_ints("layer_norm", "normalized_shape", normalized_shape)
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
    if n == 0 or n > x.ndim or tuple(x.shape[-n:]) != normalized_shape:
        raise ValueError(
            f"For 'layer_norm', the trailing dimensions of 'input' must be {normalized_shape}, "
            f"but got input shape {tuple(x.shape)}."
        )
    out, _, _ = normalize(x, tuple(range(x.ndim - n, x.ndim)), eps)
    if weight is not None:
        out = out * arr(weight)
    if bias is not None:
        out = out + arr(bias)
    return wrap(out.astype(x.dtype))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    r"""Group normalisation: the channels of :math:`(N, C, *)` split into ``num_groups`` groups,
    each normalised over its channels and spatial positions.

    Raises:
        ValueError: If ``C`` is not divisible by ``num_groups``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.group_norm(ms.Tensor([[1.0, 3.0, 5.0, 7.0]]), 2, eps=0.0))
        [[-1.  1. -1.  1.]]
    """
    x = arr(input)
    _check_rank("group_norm", x, (2, 3, 4, 5))
    n, c = x.shape[:2]
    valid = isinstance(num_groups, int) and not isinstance(num_groups, bool) and num_groups > 0
    if not valid or c % num_groups:
        raise ValueError(
            f"For 'group_norm', the channel number {c} of 'input' must be divisible by "
            f"'num_groups', but got num_groups={num_groups!r}."
        )
    grouped = x.reshape((n, num_groups, math.prod(x.shape[2:]) * (c // num_groups)))
    out, _, _ = normalize(grouped, (2,), eps)
    out = out.reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if weight is not None:
        out = out * arr(weight).reshape(shape)
    if bias is not None:
        out = out + arr(bias).reshape(shape)
    return wrap(out.astype(x.dtype))


def instance_norm(
    input,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats=True,
    momentum=0.1,
    eps=1e-5,
):
    r"""Instance normalisation: each sample's channels normalised over the spatial dims.

    With ``use_input_stats=False`` the running statistics are used instead; with it (the
    default) and running statistics given as Parameters they are updated with ``momentum``
    from the per-instance statistics averaged over the batch.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.instance_norm(ms.Tensor([[[1.0, 3.0]]]), eps=0.0))
        [[[-1.  1.]]]
    """
    x = arr(input)
    _check_rank("instance_norm", x, (3, 4, 5))
    c = x.shape[1]
    shape = (1, c) + (1,) * (x.ndim - 2)
    if use_input_stats:
        axes = tuple(range(2, x.ndim))
        out, mean, var = normalize(x, axes, eps)
        if running_mean is not None and running_var is not None:
            count = int(np.prod(x.shape[2:]))
            batch_mean = lax.stop_gradient(jnp.mean(mean.reshape(x.shape[:2]), 0))
            batch_var = lax.stop_gradient(jnp.mean(var.reshape(x.shape[:2]), 0))
            batch_var = batch_var * (count / max(count - 1, 1))
            new_mean = (1 - momentum) * arr(running_mean) + momentum * batch_mean
            new_var = (1 - momentum) * arr(running_var) + momentum * batch_var
            _write("instance_norm", running_mean, new_mean)
            _write("instance_norm", running_var, new_var)
    else:
        mean, var = arr(running_mean).reshape(shape), arr(running_var).reshape(shape)
        out = (x - mean) * lax.rsqrt(var + eps)
    if weight is not None:
        out = out * arr(weight).reshape(shape)
    if bias is not None:
        out = out + arr(bias).reshape(shape)
    return wrap(out.astype(x.dtype))
