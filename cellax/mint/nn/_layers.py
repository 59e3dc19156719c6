"""mint.nn layers with Parameters: Linear, Conv*, BatchNorm*, LayerNorm, GroupNorm, Embedding,
PReLU, Dropout*.

PyTorch-style constructors (``bias=True``, ``(out, in)`` weights, Kaiming-uniform defaults,
``weight``/``bias``/``running_mean`` Parameter names) over ordinary :class:`cellax.nn.Cell`
machinery; ``construct`` calls ``cellax.ops`` through ``mint.nn.functional``.
"""

from __future__ import annotations

import math

from ... import _dtype, ops
from ..._initializer import HeUniform, Normal, Uniform, initializer
from ..._parameter import Parameter
from ...nn import Cell
from . import functional as F

__all__ = [
    "Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "BatchNorm1d", "BatchNorm2d",
    "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "Embedding", "PReLU", "Dropout",
    "Dropout2d",
]  # fmt: skip


def _dt(dtype):
    return _dtype.float32 if dtype is None else dtype


def _tuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class Linear(Cell):
    r"""``y = x @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``.

    Args:
        in_features (int): Size of the last input dimension.
        out_features (int): Size of the last output dimension.
        bias (bool): Whether to learn a bias. Default: ``True``.
        weight_init (Union[Tensor, str, Initializer]): Default: ``None`` (Kaiming uniform,
            ``a=sqrt(5)``: uniform in ``±1/sqrt(in_features)``).
        bias_init (Union[Tensor, str, Initializer]): Default: ``None`` (uniform in
            ``±1/sqrt(in_features)``).
        dtype (cellax.dtype): Parameter dtype. Default: ``None`` (Float32).

    Inputs:
        - **input** (Tensor) - shape :math:`(*, in\_features)`.

    Outputs:
        Tensor of shape :math:`(*, out\_features)`.

    Examples:
        >>> from cellax import mint
        >>> net = mint.nn.Linear(3, 4)
        >>> net(mint.ones((2, 3))).shape
        (2, 4)
        >>> net
        Linear(input_features=3, output_features=4, has_bias=True)
    """

    def __init__(self, in_features, out_features, bias=True, weight_init=None,
                 bias_init=None, dtype=None) -> None:  # fmt: skip
        super().__init__()
        self.in_features, self.out_features, self.has_bias = in_features, out_features, bias
        dtype = _dt(dtype)
        shape = (out_features, in_features)
        self.weight = Parameter(initializer(weight_init or HeUniform(math.sqrt(5)), shape, dtype),
                                name="weight")  # fmt: skip
        self.bias = None
        if bias:
            init = bias_init or Uniform(1 / math.sqrt(in_features) if in_features else 0)
            self.bias = Parameter(initializer(init, (out_features,), dtype), name="bias")

    def construct(self, input):
        return F.linear(input, self.weight, self.bias)

    def extend_repr(self) -> str:
        return (f"input_features={self.in_features}, output_features={self.out_features}, "
                f"has_bias={self.has_bias}")  # fmt: skip


class _ConvNd(Cell):
    _n = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None,
                 output_padding=0) -> None:  # fmt: skip
        super().__init__()
        api = type(self).__name__
        n = self._n
        if in_channels % groups or out_channels % groups:
            raise ValueError(
                f"For '{api}', 'in_channels' and 'out_channels' must be divisible by 'groups', "
                f"but got in_channels={in_channels}, out_channels={out_channels}, "
                f"groups={groups}."
            )
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(
                f"For '{api}', 'padding_mode' must be one of 'zeros', 'reflect', 'replicate', "
                f"'circular', but got {padding_mode!r}."
            )
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple(kernel_size, n)
        self.stride, self.dilation = _tuple(stride, n), _tuple(dilation, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.output_padding = _tuple(output_padding, n)
        self.padding_mode = padding_mode
        if self._transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
        dtype = _dt(dtype)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            fan_in = shape[1] * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in else 0
            self.bias = Parameter(initializer(Uniform(bound), (out_channels,), dtype), name="bias")

    def _padded(self, input):
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return input, self.padding
        pairs = []
        for p in reversed(self.padding):
            pairs += [p, p]
        return ops.pad(input, tuple(pairs), self.padding_mode), 0

    def extend_repr(self) -> str:
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}"
        )


_CONV_DOC = """{n}-D convolution layer with PyTorch-style arguments.

    Args:
        in_channels (int): Input channels.
        out_channels (int): Output channels.
        kernel_size (Union[int, tuple[int]]): Kernel size.
        stride (Union[int, tuple[int]]): Default: ``1``.
        padding (Union[int, tuple[int], str]): Zero padding per side, or ``'same'`` /
            ``'valid'``. Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        groups (int): Default: ``1``.
        bias (bool): Default: ``True``.
        padding_mode (str): ``'zeros'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
            Default: ``'zeros'``.
        dtype (cellax.dtype): Default: ``None`` (Float32).

    Inputs:
        - **input** (Tensor) - shape :math:`(N, C_{{in}}, *)`.

    Raises:
        ValueError: If the channels are not divisible by ``groups`` or ``padding_mode`` is
            unknown.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.Conv{n}d(2, 4, 3, padding=1)(mint.ones((1, 2) + (5,) * {n})).shape
        (1, 4{shape})
"""


class Conv1d(_ConvNd):
    __doc__ = _CONV_DOC.format(n=1, shape=", 5")
    _n = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None) -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)  # fmt: skip

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv1d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)  # fmt: skip


class Conv2d(_ConvNd):
    __doc__ = _CONV_DOC.format(n=2, shape=", 5, 5")
    _n = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None) -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)  # fmt: skip

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv2d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)  # fmt: skip


class Conv3d(_ConvNd):
    __doc__ = _CONV_DOC.format(n=3, shape=", 5, 5, 5")
    _n = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None) -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)  # fmt: skip

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv3d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)  # fmt: skip


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution; ``weight`` has shape ``(in, out / groups, kH, kW)``.

    The arguments ``in_channels, out_channels, kernel_size, stride, padding, output_padding,
    groups, bias, dilation, padding_mode, dtype`` are those of PyTorch's ``ConvTranspose2d``
    (only ``padding_mode='zeros'`` is supported, as in MindSpore).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.ConvTranspose2d(2, 3, 3)(mint.ones((1, 2, 4, 4))).shape
        (1, 3, 6, 6)
    """

    _n = 2
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None) -> None:  # fmt: skip
        if padding_mode != "zeros":
            raise ValueError(
                f"For 'ConvTranspose2d', 'padding_mode' must be 'zeros', but got {padding_mode!r}."
            )
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype, output_padding)  # fmt: skip

    def construct(self, input, output_size=None):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)  # fmt: skip


class _BatchNorm(Cell):
    _ranks = (2, 3)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None) -> None:  # fmt: skip
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dtype = _dt(dtype)
        self.weight = self.bias = None
        if affine:
            self.weight = Parameter(initializer("ones", (num_features,), dtype), name="weight")
            self.bias = Parameter(initializer("zeros", (num_features,), dtype), name="bias")
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", (num_features,), dtype),
                                          name="running_mean", requires_grad=False)  # fmt: skip
            self.running_var = Parameter(initializer("ones", (num_features,), dtype),
                                         name="running_var", requires_grad=False)  # fmt: skip
            self.num_batches_tracked = Parameter(ops.zeros((), _dtype.int64),
                                                 name="num_batches_tracked",
                                                 requires_grad=False)  # fmt: skip

    def reset_running_stats(self) -> None:
        """Reset the running statistics to zeros/ones and the batch counter to 0."""
        if self.track_running_stats:
            self.running_mean.set_data(ops.zeros_like(self.running_mean))
            self.running_var.set_data(ops.ones_like(self.running_var))
            self.num_batches_tracked.set_data(ops.zeros((), _dtype.int64))

    def construct(self, input):
        api = type(self).__name__
        if input.ndim not in self._ranks:
            ranks = " or ".join(f"{r}-D" for r in self._ranks)
            raise ValueError(f"For '{api}', 'input' must be {ranks}, but got {input.ndim}-D.")
        batch_stats = self.training or not self.track_running_stats
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            ops.assign_add(self.num_batches_tracked, 1)
            if self.momentum is None:
                momentum = 1.0 / self.num_batches_tracked
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            batch_stats, momentum, self.eps)  # fmt: skip

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")  # fmt: skip


_BN_DOC = """Batch normalisation over {what} input (PyTorch-style; ``momentum`` weighs the
    new batch: ``running = (1 - momentum) * running + momentum * batch``; ``None`` keeps a
    cumulative average).

    Args:
        num_features (int): Channels ``C``.
        eps (float): Default: ``1e-5``.
        momentum (float): Default: ``0.1``.
        affine (bool): Learn ``weight``/``bias``. Default: ``True``.
        track_running_stats (bool): Keep ``running_mean``/``running_var``. Default: ``True``.
        dtype (cellax.dtype): Default: ``None`` (Float32).

    Raises:
        ValueError: If the input rank is wrong.

    Examples:
        >>> from cellax import mint
        >>> bn = mint.nn.{name}(3)
        >>> bn.set_train()
        {name}(num_features=3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
        >>> bn(mint.ones({shape})).shape
        {shape}
"""


class BatchNorm1d(_BatchNorm):
    __doc__ = _BN_DOC.format(what="(N, C) or (N, C, L)", name="BatchNorm1d", shape="(2, 3)")
    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    __doc__ = _BN_DOC.format(what="(N, C, H, W)", name="BatchNorm2d", shape="(2, 3, 2, 2)")
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    __doc__ = _BN_DOC.format(what="(N, C, D, H, W)", name="BatchNorm3d", shape="(2, 3, 1, 2, 2)")
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics would be synchronised across devices.

    Differences from MindSpore: cellax runs one process, so the statistics are the local
    batch's (``process_group`` is accepted and ignored); any rank from 2-D to 5-D is accepted.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.SyncBatchNorm(3)(mint.ones((2, 3, 2, 2))).shape
        (2, 3, 2, 2)
    """

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None) -> None:  # fmt: skip
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class LayerNorm(Cell):
    """Layer normalisation over the trailing ``normalized_shape`` dims.

    Args:
        normalized_shape (Union[int, tuple[int]]): The trailing shape.
        eps (float): Default: ``1e-5``.
        elementwise_affine (bool): Learn ``weight`` (ones). Default: ``True``.
        bias (bool): Learn ``bias`` (zeros) too. Default: ``True``.
        dtype (cellax.dtype): Default: ``None`` (Float32).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.LayerNorm(4)(mint.ones((2, 4))).shape
        (2, 4)
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None) -> None:  # fmt: skip
        super().__init__()
        self.normalized_shape = _tuple(normalized_shape, 1)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        dtype = _dt(dtype)
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(
                initializer("ones", self.normalized_shape, dtype), name="weight"
            )
            if bias:
                self.bias = Parameter(initializer("zeros", self.normalized_shape, dtype),
                                      name="bias")  # fmt: skip

    def construct(self, input):
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")  # fmt: skip


class GroupNorm(Cell):
    """Group normalisation of ``(N, C, *)`` input over ``num_groups`` channel groups.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.GroupNorm(2, 4)(mint.ones((1, 4, 3))).shape
        (1, 4, 3)
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(
                f"For 'GroupNorm', 'num_channels' must be divisible by 'num_groups', but got "
                f"num_channels={num_channels}, num_groups={num_groups}."
            )
        self.num_groups, self.num_channels, self.eps, self.affine = (
            num_groups, num_channels, eps, affine,
        )  # fmt: skip
        dtype = _dt(dtype)
        self.weight = self.bias = None
        if affine:
            self.weight = Parameter(initializer("ones", (num_channels,), dtype), name="weight")
            self.bias = Parameter(initializer("zeros", (num_channels,), dtype), name="bias")

    def construct(self, input):
        return ops.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")  # fmt: skip


class Embedding(Cell):
    """A lookup table of ``num_embeddings`` vectors of size ``embedding_dim`` (N(0, 1) init;
    the ``padding_idx`` row is zero and gets no gradient).

    Differences from MindSpore: ``sparse`` is accepted and ignored (gradients are dense).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.Embedding(10, 4)(mint.Tensor([[1, 2]])).shape
        (1, 2, 4)
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None) -> None:  # fmt: skip
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            weight = initializer(Normal(1.0), (num_embeddings, embedding_dim), _dt(dtype))
            if padding_idx is not None:
                weight = ops.index_fill(weight, 0, ops.arange(padding_idx, padding_idx + 1), 0)
        else:
            weight = _weight
        self.weight = Parameter(weight, name="weight", requires_grad=not _freeze)

    def construct(self, input):
        return ops.embedding(input, self.weight, self.padding_idx, self.max_norm,
                             self.norm_type, self.scale_grad_by_freq)  # fmt: skip

    def extend_repr(self) -> str:
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}")  # fmt: skip


class PReLU(Cell):
    """``max(0, x) + weight * min(0, x)`` with ``num_parameters`` learnt slopes.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.PReLU()(mint.Tensor([-4., 2.])))
        [-1.  2.]
    """

    def __init__(self, num_parameters=1, init=0.25, dtype=None) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Parameter(ops.full((num_parameters,), init, dtype=_dt(dtype)),
                                name="weight")  # fmt: skip

    def construct(self, input):
        return ops.prelu(input, self.weight)


class Dropout(Cell):
    """Zero elements with probability ``p`` in training (scaling the rest by ``1/(1-p)``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.Dropout(0.5)(mint.ones(3)))
        [1. 1. 1.]
    """

    def __init__(self, p=0.5, inplace=False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"For 'Dropout', 'p' must be in [0, 1], but got {p}.")
        self.p, self.inplace = p, inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return F.dropout(input, self.p, True, self.inplace)

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout2d(Dropout):
    """Zero whole channels with probability ``p`` in training.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.Dropout2d()(mint.ones((1, 2, 3, 3))).shape
        (1, 2, 3, 3)
    """

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return F.dropout2d(input, self.p, True, self.inplace)
