"""Convolution layers: Conv1d/2d/3d and their transposed forms (channel-first layouts)."""

from __future__ import annotations

import math

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import HeUniform, Uniform, initializer
from .._parameter import Parameter
from ..ops._impl import convolution
from ..ops._impl.dtype_rules import check_same_kind
from ..ops._impl.utils import arr
from ._cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose"]

_FORMATS = {2: ("NCHW",), 3: ("NCDHW",)}


def _init_repr(init) -> str:
    return init if isinstance(init, str) else repr(init)


class _Conv(Cell):
    """Shared constructor: argument checks, weight/bias creation and the printed form."""

    _nd = 2
    _transposed = False

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        pad_mode,
        padding,
        dilation,
        group,
        has_bias,
        weight_init,
        bias_init,
        data_format,
        dtype,
        output_padding=0,
    ):
        super().__init__()
        api = type(self).__name__
        n = self._nd
        self.in_channels = check_positive_int(api, "in_channels", in_channels)
        self.out_channels = check_positive_int(api, "out_channels", out_channels)
        self.group = check_positive_int(api, "group", group)
        if in_channels % group or out_channels % group:
            raise ValueError(
                f"For '{api}', 'in_channels' {in_channels} and 'out_channels' {out_channels} "
                f"must both be divisible by 'group', but got group={group}."
            )
        self.kernel_size = convolution.ntuple(api, "kernel_size", kernel_size, n)
        self.stride = convolution.ntuple(api, "stride", stride, n)
        self.dilation = convolution.ntuple(api, "dilation", dilation, n)
        self.pad_mode = convolution.check_pad_mode(api, pad_mode)
        convolution.explicit_pads(api, padding, n)
        if self.pad_mode != "pad" and padding not in (0, (0,) * n, (0,) * (2 * n)):
            raise ValueError(
                f"For '{api}', 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                f"pad_mode={pad_mode!r}, padding={padding!r}."
            )
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.output_padding = output_padding
        self.has_bias = check_bool(api, "has_bias", has_bias)
        if data_format not in _FORMATS.get(n, ("NCHW",)):
            raise ValueError(
                f"For '{api}', 'data_format' must be {_FORMATS.get(n, ('NCHW',))[0]!r} (cellax "
                f"supports channel-first layouts only), but got {data_format!r}."
            )
        self.data_format = data_format
        self.format = data_format
        self.weight_init = weight_init
        self.bias_init = bias_init
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        if self._transposed:
            shape = (in_channels, out_channels // group) + self.kernel_size
        else:
            shape = (out_channels, in_channels // group) + self.kernel_size
        if n == 1:  # MindSpore stores 1-D kernels as (out, in, 1, k)
            shape = shape[:2] + (1,) + shape[2:]
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        if has_bias:
            if bias_init is None:
                fan_in = (in_channels // group) * math.prod(self.kernel_size)
                if self._transposed:
                    fan_in = (out_channels // group) * math.prod(self.kernel_size)
                bias_init = Uniform(1 / math.sqrt(fan_in))
                self.bias_init = bias_init
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        else:
            self.bias = None

    def _check_input(self, x):
        api = type(self).__name__
        check_same_kind(api, x=x, weight=self.weight._value)  # before the shape, as MindSpore
        if x.ndim != self._nd + 2 or x.shape[1] != self.in_channels:
            raise ValueError(
                f"For '{api}', 'x' must have shape (N, {self.in_channels}, ...) with "
                f"{self._nd} spatial dims (in_channels={self.in_channels}), but got x.shape="
                f"{tuple(x.shape)}."
            )

    def _kernel(self):
        weight = self.weight
        if self._nd == 1:
            return weight._value[:, :, 0]
        return weight

    def extend_repr(self) -> str:
        n = self._nd
        if n == 1:
            kernel, stride = (1,) + self.kernel_size, (1,) + self.stride
            dilation = (1,) + self.dilation
            pads = convolution.explicit_pads(type(self).__name__, self.padding, 1)
            padding = (0, 0) + pads[0]
        else:
            kernel, stride, padding = self.kernel_size, self.stride, self.padding
            dilation = self.dilation
        bias_init = None if not self.has_bias else _init_repr(self.bias_init)
        weight_init = self.weight_init
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        weight_init = _init_repr(weight_init)
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
            f"kernel_size={kernel}, stride={stride}, pad_mode={self.pad_mode}, "
            f"padding={padding}, dilation={dilation}, group={self.group}, "
            f"has_bias={self.has_bias}, weight_init={weight_init}, "
            f"bias_init={bias_init}, format={self.format}"
        )


class _ConvForward(_Conv):
    def construct(self, x):
        self._check_input(arr(x, tensor=True))
        conv = (convolution.conv1d, convolution.conv2d_any_padding, convolution.conv3d)[
            self._nd - 1
        ]
        return conv(
            x,
            self._kernel(),
            self.bias,
            self.stride,
            self.pad_mode,
            self.padding,
            self.dilation,
            self.group,
        )


class Conv1d(_ConvForward):
    r"""1-D convolution layer over :math:`(N, C_{in}, L)`.

    Args:
        in_channels (int): Input channels :math:`C_{in}`.
        out_channels (int): Output channels :math:`C_{out}`.
        kernel_size (int): Kernel length.
        stride (int): Default: ``1``.
        pad_mode (str): ``'same'`` (output ``ceil(L / stride)``, the extra padding at the end),
            ``'valid'`` (no padding) or ``'pad'`` (``padding``). Default: ``'same'``.
        padding (Union[int, tuple[int]]): For ``'pad'``: an int or (left, right). Default: ``0``.
        dilation (int): Default: ``1``.
        group (int): Groups splitting the channels. Default: ``1``.
        has_bias (bool): Default: ``False``.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``
            (``HeUniform(math.sqrt(5))``).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``
            (uniform in :math:`\pm 1/\sqrt{fan\_in}`).
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, L_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, L_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown or ``x`` does not have ``in_channels`` channels.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv1d(120, 240, 4, has_bias=False, weight_init='normal')
        >>> net(ms.ops.ones((1, 120, 64))).shape
        (1, 240, 64)
        >>> net.weight.shape
        (240, 120, 1, 4)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv1d.html
    """

    _nd = 1

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        dilation=1,
        group=1,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            "NCHW",
            dtype,
        )


class Conv2d(_ConvForward):
    r"""2-D convolution layer over NCHW input.

    Args:
        in_channels (int): Input channels.
        out_channels (int): Output channels.
        kernel_size (Union[int, tuple[int]]): Kernel height and width.
        stride (Union[int, tuple[int]]): Default: ``1``.
        pad_mode (str): ``'same'``, ``'valid'`` or ``'pad'``. Default: ``'same'``.
        padding (Union[int, tuple[int]]): For ``'pad'``: an int or (top, bottom, left, right).
            Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        group (int): Default: ``1``.
        has_bias (bool): Default: ``False``.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``
            (``HeUniform(math.sqrt(5))``).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``.
        data_format (str): Only ``'NCHW'``. Default: ``'NCHW'``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, H_{in}, W_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown or ``x`` does not have ``in_channels`` channels.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
        >>> net(ms.ops.ones((1, 120, 16, 10))).shape
        (1, 240, 16, 10)
        >>> net
        Conv2d(input_channels=120, output_channels=240, kernel_size=(4, 4), stride=(1, 1), pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=normal, bias_init=None, format=NCHW)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv2d.html
    """

    _nd = 2

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        dilation=1,
        group=1,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        data_format="NCHW",
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            data_format,
            dtype,
        )


class Conv3d(_ConvForward):
    r"""3-D convolution layer over NCDHW input; arguments as :class:`Conv2d` with three dims
    (``padding`` may be (head, tail, top, bottom, left, right)).

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv3d(3, 4, 3, stride=2)
        >>> net(ms.ops.ones((1, 3, 5, 6, 7))).shape
        (1, 4, 3, 3, 4)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv3d.html
    """

    _nd = 3

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        dilation=1,
        group=1,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        data_format="NCDHW",
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            data_format,
            dtype,
        )


class _ConvTranspose(_Conv):
    _transposed = True

    def construct(self, x):
        self._check_input(arr(x, tensor=True))
        conv = (
            convolution.conv_transpose1d,
            convolution.conv_transpose2d,
            convolution.conv_transpose3d,
        )[self._nd - 1]
        return conv(
            x,
            self._kernel(),
            self.bias,
            self.stride,
            self.padding,
            self.output_padding,
            self.group,
            self.dilation,
            pad_mode=self.pad_mode,
        )


class Conv1dTranspose(_ConvTranspose):
    r"""1-D transposed convolution over :math:`(N, C_{in}, L)`; the weight has shape
    :math:`(C_{in}, C_{out} / group, 1, K)`. ``'same'`` gives length ``L * stride``, ``'valid'``
    :math:`(L - 1) s + d (K - 1) + 1`, ``'pad'`` that minus ``2 * padding``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv1dTranspose(3, 64, 4, has_bias=False, weight_init='normal', pad_mode='pad')
        >>> net(ms.ops.ones((4, 3, 50))).shape
        (4, 64, 53)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv1dTranspose.html
    """

    _nd = 1

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        dilation=1,
        group=1,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            "NCHW",
            dtype,
        )


class Conv2dTranspose(_ConvTranspose):
    r"""2-D transposed convolution over NCHW; the weight has shape
    :math:`(C_{in}, C_{out} / group, K_h, K_w)`. Output size per dim: ``'same'``
    ``in * stride``; ``'valid'`` :math:`(in - 1) s + d (K - 1) + 1`; ``'pad'`` that minus the
    padding plus ``output_padding``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv2dTranspose(3, 64, 4, has_bias=False, weight_init='normal', pad_mode='pad')
        >>> net(ms.ops.ones((1, 3, 16, 50))).shape
        (1, 64, 19, 53)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv2dTranspose.html
    """

    _nd = 2

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        output_padding=0,
        dilation=1,
        group=1,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            "NCHW",
            dtype,
            output_padding,
        )


class Conv3dTranspose(_ConvTranspose):
    r"""3-D transposed convolution over NCDHW; arguments as :class:`Conv2dTranspose`.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Conv3dTranspose(4, 2, 2, stride=2, pad_mode='valid')
        >>> net(ms.ops.ones((1, 4, 2, 3, 3))).shape
        (1, 2, 4, 6, 6)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Conv3dTranspose.html
    """

    _nd = 3

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        pad_mode="same",
        padding=0,
        dilation=1,
        group=1,
        output_padding=0,
        has_bias=False,
        weight_init=None,
        bias_init=None,
        data_format="NCDHW",
        dtype=_dtype.float32,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            pad_mode,
            padding,
            dilation,
            group,
            has_bias,
            weight_init,
            bias_init,
            data_format,
            dtype,
            output_padding,
        )
