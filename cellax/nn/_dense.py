"""Dense, Flatten, Identity."""

from __future__ import annotations

import math

import jax.numpy as jnp

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import HeUniform, Uniform, initializer
from .._parameter import Parameter
from .._tensor import wrap
from ..ops._impl.eager import fused
from ..ops._impl.dtype_rules import check_same_kind
from ..ops._impl.utils import arr, check_min_rank
from ._activation import get_activation
from ._cell import Cell

__all__ = ["Dense", "Flatten", "Identity"]


@fused
def _affine(x, weight, bias):
    """``x @ weight.T + bias``: one compiled call eagerly, one kernel on the gradient tape."""
    out = jnp.matmul(x, weight.T)
    return out if bias is None else out + bias


class Dense(Cell):
    r"""Fully connected layer: ``y = activation(x @ weight.T + bias)``.

    Args:
        in_channels (int): Size of the last input dimension.
        out_channels (int): Size of the last output dimension.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Weight initializer.
            Default: ``None`` (``HeUniform(math.sqrt(5))``, as MindSpore 2.x).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Bias initializer.
            Default: ``None`` (uniform in ``±1/sqrt(in_channels)``).
        has_bias (bool): Whether to add a bias. Default: ``True``.
        activation (Union[str, Cell, None]): Activation applied to the output. Default: ``None``.
        dtype (cellax.dtype): Parameter dtype. Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - shape :math:`(*, in\_channels)`.

    Outputs:
        Tensor of shape :math:`(*, out\_channels)`.

    Raises:
        TypeError: If ``x`` is not a Tensor, or an Int or Bool Tensor against the floating
            weight.
        ValueError: If the last dimension of ``x`` is not ``in_channels``.

    Differences from MindSpore: an input and a weight of two floating dtypes (a Float16 input,
    a Float32 weight) compute in the wider one, here as in ``nn.Conv1d``/``nn.Conv2d``,
    ``ops.conv1d``/``conv2d``/``conv3d``, ``mint.nn.functional.linear`` and
    ``ops.margin_ranking_loss``; MindSpore 2.10 requires one dtype. An Int or Bool Tensor
    against a floating one is a TypeError in both.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(3, 4)
        >>> net(ms.ops.ones((2, 3))).shape
        (2, 4)
        >>> net
        Dense(input_channels=3, output_channels=4, has_bias=True)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Dense.html
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        weight_init=None,
        bias_init=None,
        has_bias=True,
        activation=None,
        dtype=_dtype.float32,
    ) -> None:
        super().__init__()
        self.in_channels = check_positive_int("Dense", "in_channels", in_channels)
        self.out_channels = check_positive_int("Dense", "out_channels", out_channels)
        self.has_bias = check_bool("Dense", "has_bias", has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(
            initializer(weight_init, (out_channels, in_channels), dtype), name="weight"
        )
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        else:
            self.bias = None
        if isinstance(activation, str):
            activation = get_activation(activation)
        elif activation is not None and not isinstance(activation, Cell):
            raise TypeError(
                f"For 'Dense', 'activation' must be a str, a Cell or None, but got "
                f"{type(activation).__name__}."
            )
        self.activation = activation
        self.activation_flag = activation is not None

    def construct(self, x):
        value = arr(x, "Dense", "x", tensor=True)
        check_same_kind("Dense", x=value, weight=self.weight._value)
        value = check_min_rank("Dense", value, name="x", error=IndexError)
        if value.shape[-1] != self.in_channels:
            raise ValueError(
                f"For 'Dense', the last dimension of 'x' must equal in_channels="
                f"{self.in_channels}, but got x.shape={tuple(value.shape)}."
            )
        out = wrap(_affine(value, self.weight._value, self.bias._value if self.has_bias else None))
        if self.activation is not None:
            out = self.activation(out)
        return out

    def extend_repr(self) -> str:
        text = (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
            f"has_bias={self.has_bias}"
        )
        if self.activation_flag:
            text += f", activation={self.activation!r}"
        return text


class Flatten(Cell):
    """Flatten dimensions ``start_dim`` .. ``end_dim`` (default: all but the first).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.Flatten()(ms.ops.ones((3, 28, 28))).shape
        (3, 784)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        value = arr(x, "Flatten", "x", tensor=True)
        ndim = value.ndim
        if not all(-ndim <= dim < ndim for dim in (self.start_dim, self.end_dim)):
            raise ValueError(
                f"For 'Flatten', 'start_dim' ({self.start_dim}) and 'end_dim' ({self.end_dim}) "
                f"must be dimensions of the input, but got a {ndim}-D input of shape "
                f"{tuple(value.shape)}."
            )
        start, end = self.start_dim % ndim, self.end_dim % ndim
        merged = math.prod(value.shape[start : end + 1])
        return wrap(value.reshape(value.shape[:start] + (merged,) + value.shape[end + 1 :]))


class Identity(Cell):
    """Return the input unchanged."""

    def construct(self, x):
        return x
