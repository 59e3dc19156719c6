"""Normalisation layers as functions: batch, layer, group, instance, RMS and local
response normalisation, with the fused ``add_*_norm`` forms."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._errors import check_int_arg
from ..._parameter import StateTensor
from .convolution import _check_rank
from .dtype_rules import check_accepts
from .primitive import Primitive, primitive
from .eager import fused
from .utils import arr, check_ints, to_float, wrap

__all__ = [
    "LayerNorm",
    "batch_norm",
    "layer_norm",
    "group_norm",
    "instance_norm",
    "lrn",
    "rms_norm",
    "RmsNorm",
    "add_rms_norm",
    "add_layer_norm",
]


class LayerNorm(Primitive):
    """Layer normalisation returning its statistics (``mindspore.ops.LayerNorm``).

    Args:
        begin_norm_axis (int): The first normalised dimension. Default: ``1``.
        begin_params_axis (int): The first dimension ``gamma`` and ``beta`` cover.
            Default: ``1``.
        epsilon (float): Added to the variance. Default: ``1e-7``.

    Inputs:
        - **input_x** (Tensor) - A float Tensor.
        - **gamma** (Tensor) - The scale, shape ``input_x.shape[begin_params_axis:]``.
        - **beta** (Tensor) - The shift, the shape of ``gamma``.

    Outputs:
        Tuple ``(output, mean, variance)``: ``output`` of the input's shape; ``mean`` and
        ``variance`` with the normalised dimensions kept as size 1.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1.0, 3.0]])
        >>> y, mean, var = ms.ops.LayerNorm(epsilon=0.0)(x, ms.ops.ones(2), ms.ops.zeros(2))
        >>> print(y, mean, var)
        [[-1.  1.]] [[2.]] [[1.]]
    """

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        Primitive.__init__(self, "LayerNorm")
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = float(epsilon)
        for key in ("begin_norm_axis", "begin_params_axis", "epsilon"):
            self.add_prim_attr(key, getattr(self, key))

    def __call__(self, input_x, gamma, beta):
        x = arr(input_x)
        axis = self.begin_norm_axis % x.ndim
        out, mean, var = normalize(x, tuple(range(axis, x.ndim)), self.epsilon)
        out = out * arr(gamma) + arr(beta)
        return wrap(out.astype(x.dtype)), wrap(mean.astype(x.dtype)), wrap(var.astype(x.dtype))


# -- normalisation ----------------------------------------------------------------------------
def _write_stats(api: str, targets, values) -> None:
    """Write the new running statistics into their Parameters: every target is checked before
    any is written, so a bad one leaves all unchanged."""
    for target in targets:
        if not isinstance(target, StateTensor):
            raise TypeError(
                f"For '{api}', running statistics updated in training must be Parameters, but "
                f"got {type(target).__name__}."
            )
    for target, value in zip(targets, values):
        target._value = value.astype(target._value.dtype)


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
    weight = None if weight is None else arr(weight)
    bias = None if bias is None else arr(bias)
    args = (x, mean, var, weight, bias, bool(training), momentum, eps)
    if isinstance(momentum, (int, float)) and isinstance(eps, (int, float)):
        out, new_mean, new_var = _batch_norm_value(*args)
    else:  # Tensor-valued options: not static, so not compiled per value
        out, new_mean, new_var = _batch_norm_value.__wrapped__(*args)
    if training:
        _write_stats(api, (running_mean, running_var), (new_mean, new_var))
    return wrap(out)


@fused(static_argnums=(5, 6, 7))
def _batch_norm_value(x, mean, var, weight, bias, training, momentum, eps):
    """``(normalized x, new running mean, new running var)``: one compiled call eagerly, one
    kernel on the gradient tape (the running statistics are written by the caller)."""
    channels = x.shape[1]
    shape = (1, channels) + (1,) * (x.ndim - 2)
    if training:
        axes = (0,) + tuple(range(2, x.ndim))
        compute = x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x
        batch_mean = jnp.mean(compute, axes)
        batch_var = jnp.var(compute, axes)
        count = x.size // channels
        unbiased = batch_var * (count / max(count - 1, 1))
        mean = (1 - momentum) * mean + momentum * lax.stop_gradient(batch_mean)
        var = (1 - momentum) * var + momentum * lax.stop_gradient(unbiased)
        use_mean, use_var = batch_mean, batch_var
    else:
        compute, use_mean, use_var = x, mean, var
    out = (compute - use_mean.reshape(shape)) * lax.rsqrt(use_var.reshape(shape) + eps)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out.astype(x.dtype), mean, var


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
    x = arr(input, tensor=True)
    normalized_shape = check_ints("layer_norm", "normalized_shape", normalized_shape)
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
    if n == 0 or n > x.ndim or tuple(x.shape[-n:]) != normalized_shape:
        raise ValueError(
            f"For 'layer_norm', the trailing dimensions of 'input' must be {normalized_shape}, "
            f"but got input shape {tuple(x.shape)}."
        )
    weight = None if weight is None else arr(weight)
    bias = None if bias is None else arr(bias)
    return wrap(layer_norm_value(x, weight, bias, tuple(range(x.ndim - n, x.ndim)), float(eps)))


@fused(static_argnums=(3, 4))
def layer_norm_value(x, weight, bias, axes, eps):
    """``normalize(x, axes, eps)`` scaled by ``weight`` and shifted by ``bias`` (each optional),
    in ``x``'s dtype: one compiled call eagerly, one kernel on the gradient tape."""
    out, _, _ = normalize(x, axes, eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out.astype(x.dtype)


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
    check_accepts("group_norm", x)  # floating Tensors only, checked first as in MindSpore
    _check_rank("group_norm", x, (2, 3, 4, 5))
    n, c = x.shape[:2]
    num_groups = check_int_arg("group_norm", "num_groups", num_groups)
    if num_groups <= 0 or c % num_groups:
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
            _write_stats("instance_norm", (running_mean, running_var), (new_mean, new_var))
    else:
        mean, var = arr(running_mean).reshape(shape), arr(running_var).reshape(shape)
        out = (x - mean) * lax.rsqrt(var + eps)
    if weight is not None:
        out = out * arr(weight).reshape(shape)
    if bias is not None:
        out = out + arr(bias).reshape(shape)
    return wrap(out.astype(x.dtype))


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    r"""Local response normalisation across channels of NCHW ``x``:
    :math:`x / (bias + alpha \sum_{|c' - c| \le r} x_{c'}^2)^{beta}`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lrn(ms.ops.ones((1, 2, 1, 1)), 1, 1.0, 1.0, 0.5).asnumpy().ravel())
        [0.57735026 0.57735026]
    """
    api = "lrn"
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(
            f"For '{api}', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}."
        )
    value = to_float(arr(x, api, "x", keep_scalars=False))
    if value.ndim != 4:
        raise ValueError(f"For '{api}', 'x' must be 4-D (NCHW), but got shape {value.shape}.")
    r = int(depth_radius)
    squares = jnp.pad(value**2, ((0, 0), (r, r), (0, 0), (0, 0)))
    c = value.shape[1]
    total = sum(squares[:, i : i + c] for i in range(2 * r + 1))
    return wrap(value / (bias + alpha * total) ** beta)


def _rms(api, x, gamma, epsilon):
    """``(x * rstd * gamma, rstd)`` over the trailing ``gamma.ndim`` axes of ``x``."""
    if gamma.ndim > x.ndim or x.shape[x.ndim - gamma.ndim :] != gamma.shape:
        raise ValueError(
            f"For '{api}', the shape of 'gamma' must equal the trailing dimensions of 'x', but "
            f"got gamma {gamma.shape} and x {x.shape}."
        )
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim)) or (-1,)
    work = x.astype(jnp.promote_types(x.dtype, jnp.float32))
    rstd = jax.lax.rsqrt(jnp.mean(jnp.square(work), axes, keepdims=True) + epsilon)
    return (work * rstd * gamma).astype(x.dtype), rstd


def rms_norm(x, gamma, epsilon=1e-06):
    """Root-mean-square normalization over the trailing ``gamma.ndim`` axes of ``x``:
    ``(x * rstd * gamma, rstd)`` with ``rstd = 1 / sqrt(mean(x ** 2) + epsilon)`` (float32 or
    wider, with the normalised axes kept as size 1).

    Raises:
        ValueError: If the shape of ``gamma`` is not the trailing shape of ``x``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> y, rstd = ms.ops.rms_norm(ms.Tensor(np.array([[3.0, 4.0]], np.float32)), ms.ops.ones(2))
        >>> print(y.asnumpy().round(4))
        [[0.8485 1.1314]]
    """
    api = "rms_norm"
    y, rstd = _rms(api, arr(x, api, "x"), arr(gamma, api, "gamma"), epsilon)
    return wrap(y), wrap(rstd)


class RmsNorm(Primitive):
    """Root-mean-square normalization (``mindspore.ops.RmsNorm``): ``RmsNorm(epsilon)(x,
    gamma)`` is :func:`rms_norm` ``(x, gamma, epsilon)``, returning ``(y, rstd)``.

    Args:
        epsilon (float): Added to the mean square. Default: ``1e-6``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> y, rstd = ms.ops.RmsNorm(1e-6)(ms.Tensor(np.array([[3.0, 4.0]], np.float32)),
        ...                                ms.ops.ones(2))
        >>> print(rstd.asnumpy().round(4))
        [[0.2828]]
    """

    def __init__(self, epsilon: float = 1e-6) -> None:
        super().__init__("RmsNorm")
        self.add_prim_attr("epsilon", epsilon)

    def __call__(self, x, gamma):
        return rms_norm(x, gamma, self.attrs["epsilon"])


def add_rms_norm(x1, x2, gamma, epsilon=1e-06):
    """:func:`rms_norm` of ``x1 + x2``: returns ``(y, rstd, x1 + x2)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
        >>> print(ms.ops.add_rms_norm(x, x, ms.ops.ones(2))[2])
        [[2. 4.]]
    """
    api = "add_rms_norm"
    total = arr(x1, api, "x1") + arr(x2, api, "x2")
    y, rstd = _rms(api, total, arr(gamma, api, "gamma"), epsilon)
    return wrap(y), wrap(rstd), wrap(total)


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-05, additional_output=False):
    """Layer normalization over the last axis of ``x = x1 + x2``: returns
    ``(y, mean, rstd, x)`` (``mean``/``rstd`` with a kept last axis).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 3.0]], np.float32))
        >>> y = ms.ops.add_layer_norm(x, x, ms.ops.ones(2), ms.ops.zeros(2))[0]
        >>> print(y.asnumpy().round(3))
        [[-1.  1.]]
    """
    api = "add_layer_norm"
    x = arr(x1, api, "x1") + arr(x2, api, "x2")
    mean = jnp.mean(x, -1, keepdims=True)
    rstd = jax.lax.rsqrt(jnp.var(x, -1, keepdims=True) + epsilon)
    y = (x - mean) * rstd * arr(gamma, api, "gamma") + arr(beta, api, "beta")
    return wrap(y.astype(x.dtype)), wrap(mean), wrap(rstd), wrap(x)


def add_layernorm_v2(x1, x2, gamma, beta, epsilon=1e-5, additionalOut=False):  # noqa: N803
    """Ascend's AddLayerNormV2: :func:`add_layer_norm` of ``x1 + x2``, returning
    ``(y, mean, rstd, x1 + x2)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import add_layernorm_v2
        >>> x = ms.Tensor(np.array([[1.0, 3.0]], np.float32))
        >>> y, mean, rstd, total = add_layernorm_v2(x, x, ms.ops.ones(2), ms.ops.zeros(2))
        >>> print(y.asnumpy().round(3), mean.asnumpy(), total.asnumpy())
        [[-1.  1.]] [[4.]] [[2. 6.]]
    """
    return add_layer_norm(x1, x2, gamma, beta, epsilon, additionalOut)


AddLayerNormV2 = primitive(
    "AddLayerNormV2",
    None,
    None,
    lambda self, x1, x2, gamma, beta, epsilon=1e-5, additionalOut=False: add_layernorm_v2(
        x1, x2, gamma, beta, epsilon, additionalOut
    ),
    "Primitive form of :func:`add_layernorm_v2`: ``AddLayerNormV2()(x1, x2, gamma, beta, "
    "epsilon, additionalOut)``.",
    module="cellax.ops.auto_generate",
)
