"""Pooling layers: max/average pooling (1-3 D) and adaptive pooling."""

from __future__ import annotations

import numpy as np

from .._errors import check_bool
from ..ops._impl import convolution, pooling
from ..ops._impl.utils import arr
from ._cell import Cell

__all__ = [
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
]


class _Pool(Cell):
    _nd = 2
    _max = True

    def __init__(
        self,
        kernel_size,
        stride,
        pad_mode,
        padding,
        ceil_mode,
        dilation=1,
        return_indices=False,
        count_include_pad=True,
        divisor_override=None,
        data_format="NCHW",
    ):
        super().__init__()
        api = type(self).__name__
        n = self._nd
        self.pad_mode = convolution.check_pad_mode(api, pad_mode)
        convolution.ntuple(api, "kernel_size", kernel_size, n)
        convolution.ntuple(api, "stride", stride, n)
        convolution.ntuple(api, "dilation", dilation, n)
        convolution.explicit_pads(api, padding, n)
        if self.pad_mode != "pad" and padding not in (0, (0,) * n, (0,) * (2 * n)):
            raise ValueError(
                f"For '{api}', 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                f"pad_mode={pad_mode!r}, padding={padding!r}."
            )
        if data_format != "NCHW":
            raise ValueError(
                f"For '{api}', 'data_format' must be 'NCHW' (cellax supports channel-first "
                f"layouts only), but got {data_format!r}."
            )

        def listless(value):
            return tuple(value) if isinstance(value, list) else value

        self.kernel_size, self.stride = listless(kernel_size), listless(stride)
        self.padding = listless(padding)
        self.dilation = dilation
        self.ceil_mode = check_bool(api, "ceil_mode", ceil_mode)
        self.return_indices = check_bool(api, "return_indices", return_indices)
        self.count_include_pad = check_bool(api, "count_include_pad", count_include_pad)
        self.divisor_override = divisor_override

    def construct(self, x):
        api = type(self).__name__
        value = arr(x, api, "x", tensor=True)
        if value.ndim not in (self._nd + 1, self._nd + 2):  # the rank first, as MindSpore
            raise ValueError(
                f"For '{api}', 'x' must be {self._nd + 1}-D or {self._nd + 2}-D, but got shape "
                f"{tuple(value.shape)}."
            )
        if getattr(value, "dtype", None) == np.bool_:  # MindSpore pooling kernels take numbers
            raise TypeError(f"For '{api}', 'x' must be a numeric Tensor, but got dtype Bool.")
        if self._max:
            return pooling.max_pool(
                api,
                self._nd,
                x,
                self.kernel_size,
                self.stride,
                self.padding,
                self.dilation,
                self.ceil_mode,
                self.return_indices,
                self.pad_mode,
            )
        return pooling.avg_pool(
            api,
            self._nd,
            x,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
            self.pad_mode,
        )

    def extend_repr(self) -> str:
        kernel, stride = self.kernel_size, self.stride
        if self._nd == 1 and self.pad_mode != "pad":
            kernel, stride = (1, kernel), (1, stride)
        elif self._nd == 1 and self._max:
            kernel, stride = (1, 1, kernel), (1, 1, stride)
        return f"kernel_size={kernel}, stride={stride}, pad_mode={self.pad_mode.upper()}"


class MaxPool1d(_Pool):
    r"""1-D max pooling over :math:`(N, C, L)` or :math:`(C, L)`.

    Args:
        kernel_size (Union[int, tuple[int]]): Window size. Default: ``1``.
        stride (Union[int, tuple[int]]): Window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (no padding), ``'same'`` (output ``ceil(in / stride)``,
            TensorFlow-style padding that is never counted in averages) or ``'pad'``
            (explicit ``padding``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): Padding for ``'pad'``. Default: ``0``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        return_indices (bool): Also return the argmax indices. Default: ``False``.

    Raises:
        ValueError: If ``pad_mode`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> pool = ms.nn.MaxPool1d(kernel_size=3, stride=1)
        >>> pool(ms.ops.ones((1, 2, 4))).shape
        (1, 2, 2)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.MaxPool1d.html
    """

    _nd = 1

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        dilation=1,
        return_indices=False,
        ceil_mode=False,
    ):
        super().__init__(
            kernel_size, stride, pad_mode, padding, ceil_mode, dilation, return_indices
        )


class MaxPool2d(_Pool):
    r"""2-D max pooling over NCHW or CHW.

    Args:
        kernel_size (Union[int, tuple[int]]): Window size. Default: ``1``.
        stride (Union[int, tuple[int]]): Window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (no padding), ``'same'`` (output ``ceil(in / stride)``,
            TensorFlow-style padding that is never counted in averages) or ``'pad'``
            (explicit ``padding``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): Padding for ``'pad'``. Default: ``0``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        return_indices (bool): Also return the argmax indices (flat over H*W). Default:
            ``False``.
        data_format (str): Only ``'NCHW'``. Default: ``'NCHW'``.

    Examples:
        >>> import cellax as ms
        >>> pool = ms.nn.MaxPool2d(kernel_size=3, stride=1)
        >>> pool(ms.ops.ones((1, 2, 4, 4))).shape
        (1, 2, 2, 2)
        >>> pool
        MaxPool2d(kernel_size=3, stride=1, pad_mode=VALID)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.MaxPool2d.html
    """

    _nd = 2

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        dilation=1,
        return_indices=False,
        ceil_mode=False,
        data_format="NCHW",
    ):
        super().__init__(
            kernel_size,
            stride,
            pad_mode,
            padding,
            ceil_mode,
            dilation,
            return_indices,
            data_format=data_format,
        )


class MaxPool3d(_Pool):
    r"""3-D max pooling over NCDHW or CDHW; arguments as :class:`MaxPool2d`.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.MaxPool3d(2, 2)(ms.ops.ones((1, 2, 4, 4, 4))).shape
        (1, 2, 2, 2, 2)
    """

    _nd = 3

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        dilation=1,
        return_indices=False,
        ceil_mode=False,
    ):
        super().__init__(
            kernel_size, stride, pad_mode, padding, ceil_mode, dilation, return_indices
        )


class AvgPool1d(_Pool):
    r"""1-D average pooling over :math:`(N, C, L)` or :math:`(C, L)`.

    Args:
        kernel_size (Union[int, tuple[int]]): Window size. Default: ``1``.
        stride (Union[int, tuple[int]]): Window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (no padding), ``'same'`` (output ``ceil(in / stride)``,
            TensorFlow-style padding that is never counted in averages) or ``'pad'``
            (explicit ``padding``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): Padding for ``'pad'``. Default: ``0``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        count_include_pad (bool): Count the explicit zero padding in the divisor. Default:
            ``True``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.AvgPool1d(2, 2)(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]])))
        [[[1.5 3.5]]]
    """

    _nd = 1
    _max = False

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
    ):
        super().__init__(
            kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad=count_include_pad
        )


class AvgPool2d(_Pool):
    r"""2-D average pooling over NCHW or CHW.

    Args:
        kernel_size (Union[int, tuple[int]]): Window size. Default: ``1``.
        stride (Union[int, tuple[int]]): Window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (no padding), ``'same'`` (output ``ceil(in / stride)``,
            TensorFlow-style padding that is never counted in averages) or ``'pad'``
            (explicit ``padding``). Default: ``'valid'``.
        padding (Union[int, tuple[int]]): Padding for ``'pad'``. Default: ``0``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        count_include_pad (bool): Count the explicit zero padding in the divisor. Default:
            ``True``.
        divisor_override (int): Divide by this instead. Default: ``None``.
        data_format (str): Only ``'NCHW'``. Default: ``'NCHW'``.

    Examples:
        >>> import cellax as ms
        >>> pool = ms.nn.AvgPool2d(kernel_size=3, stride=1)
        >>> pool(ms.ops.ones((1, 2, 4, 4))).shape
        (1, 2, 2, 2)
    """

    _nd = 2
    _max = False

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
        data_format="NCHW",
    ):
        super().__init__(
            kernel_size,
            stride,
            pad_mode,
            padding,
            ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
            data_format=data_format,
        )


class AvgPool3d(_Pool):
    r"""3-D average pooling over NCDHW or CDHW; arguments as :class:`AvgPool2d`.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AvgPool3d(2, 2)(ms.ops.ones((1, 2, 4, 4, 4))).shape
        (1, 2, 2, 2, 2)
    """

    _nd = 3
    _max = False

    def __init__(
        self,
        kernel_size=1,
        stride=1,
        pad_mode="valid",
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        super().__init__(
            kernel_size,
            stride,
            pad_mode,
            padding,
            ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
        )


class _Adaptive(Cell):
    _fn = None

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return type(self)._fn(input, self.output_size)


class _Adaptive1d(_Adaptive):
    """MindSpore's 1-D adaptive pool cells need ``L`` to be a multiple of ``output_size``."""

    def construct(self, input):
        api = type(self).__name__
        value = arr(input, api, "input", tensor=True)
        if getattr(value, "ndim", 0) != 3:
            raise ValueError(
                f"For '{api}', 'input' must be a 3-d Tensor (N, C, L), but got shape "
                f"{tuple(getattr(value, 'shape', ()))}."
            )
        length = value.shape[-1]
        size = self.output_size
        if isinstance(size, int) and size > 0 and length % size:
            raise ValueError(
                f"For '{api}', the input's last dimension must be divisible by "
                f"output size {size}, but got {length}."
            )
        return type(self)._fn(input, size)


class AdaptiveAvgPool1d(_Adaptive1d):
    r"""Adaptive average pooling of :math:`(N, C, L)` to length ``output_size``.

    Raises:
        ValueError: If ``L`` is not a multiple of ``output_size`` (as in MindSpore 2.10).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AdaptiveAvgPool1d(3)(ms.ops.ones((1, 2, 9))).shape
        (1, 2, 3)
    """

    _fn = staticmethod(pooling.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_Adaptive):
    r"""Adaptive average pooling of NCHW/CHW to ``output_size`` (int or (h, w); None keeps).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AdaptiveAvgPool2d((2, 3))(ms.ops.ones((1, 2, 7, 5))).shape
        (1, 2, 2, 3)
    """

    _fn = staticmethod(pooling.adaptive_avg_pool2d)


class AdaptiveAvgPool3d(_Adaptive):
    r"""Adaptive average pooling of NCDHW/CDHW to ``output_size``.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AdaptiveAvgPool3d(2)(ms.ops.ones((1, 2, 5, 4, 3))).shape
        (1, 2, 2, 2, 2)
    """

    _fn = staticmethod(pooling.adaptive_avg_pool3d)


class AdaptiveMaxPool1d(_Adaptive1d):
    r"""Adaptive max pooling of :math:`(N, C, L)` to length ``output_size``.

    Raises:
        ValueError: If ``L`` is not a multiple of ``output_size`` (as in MindSpore 2.10).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AdaptiveMaxPool1d(3)(ms.ops.ones((1, 2, 9))).shape
        (1, 2, 3)
    """

    _fn = staticmethod(pooling.adaptive_max_pool1d)


class AdaptiveMaxPool2d(Cell):
    r"""Adaptive max pooling of NCHW/CHW; with ``return_indices`` also the flat argmax indices.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.AdaptiveMaxPool2d((2, 2))(ms.ops.ones((1, 2, 7, 5))).shape
        (1, 2, 2, 2)
    """

    def __init__(self, output_size, return_indices=False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = check_bool("AdaptiveMaxPool2d", "return_indices", return_indices)

    def construct(self, input):
        return pooling.adaptive_max_pool2d(input, self.output_size, self.return_indices)
