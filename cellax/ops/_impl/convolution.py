"""Convolution (channel-first layouts), its argument checks and the ``Conv2D`` family of
primitive classes.

The nn layers call these functions, so each computation has one implementation. The checkers
``ntuple``/``explicit_pads`` are public-internal (used by ``nn/``, outside ``__all__``).
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from .cpu_kernels import convolve, dimension_numbers
from ..._transforms import staged
from .eager import fused
from .primitive import Primitive
from .dtype_rules import check_same_kind
from .utils import arr, check_window_fits, wrap

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "Conv2D",
    "Conv2DTranspose",
    "Conv2DBackpropInput",
    "conv3d_transpose",
]

_PAD_MODES = ("same", "valid", "pad")


# -- argument checks ----------------------------------------------------------------------------
def ntuple(api: str, name: str, value, n: int, minimum: int = 1, error=TypeError) -> tuple:
    """An int or a sequence of n ints -> a tuple of n ints, each >= minimum (else ``error``)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value),) * n
    elif isinstance(value, (tuple, list)) and len(value) == 1 and n > 1:
        value = tuple(value) * n
    if (
        not isinstance(value, (tuple, list))
        or len(value) != n
        or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in value)
    ):
        raise error(
            f"For '{api}', '{name}' must be an int or a tuple of {n} ints, but got {value!r}."
        )
    if any(v < minimum for v in value):
        raise ValueError(
            f"For '{api}', every value of '{name}' must be >= {minimum}, but got {value!r}."
        )
    return tuple(int(v) for v in value)


def check_pad_mode(api: str, pad_mode) -> str:
    if not isinstance(pad_mode, str) or pad_mode.lower() not in _PAD_MODES:
        raise ValueError(
            f"For '{api}', 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
            f"{pad_mode!r}."
        )
    return pad_mode.lower()


def explicit_pads(api: str, padding, n: int, error=TypeError) -> list:
    """MindSpore padding (int, n ints, or 2n ints as before/after per dim) -> [(lo, hi)] * n."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        pads = [(int(padding), int(padding))] * n
    elif isinstance(padding, (tuple, list)) and len(padding) == n:
        pads = [(int(p), int(p)) for p in padding]
    elif isinstance(padding, (tuple, list)) and len(padding) == 2 * n:
        pads = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(n)]
    else:
        raise error(
            f"For '{api}', 'padding' must be an int or a tuple of {n} or {2 * n} ints, but got "
            f"{padding!r}."
        )
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise ValueError(f"For '{api}', 'padding' must be non-negative, but got {padding!r}.")
    return pads


def _same_pads(sizes, kernel, stride, dilation) -> list:
    """TensorFlow-style 'same': output = ceil(input / stride); the odd pixel goes at the end."""
    pads = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _check_rank(api: str, x, ranks: tuple, name: str = "input"):
    if not hasattr(x, "ndim"):
        raise TypeError(
            f"For '{api}', '{name}' must be a {' or '.join(f'{r}-D' for r in ranks)} Tensor, "
            f"but got {type(x).__name__}: {x!r}."
        )
    if x.ndim not in ranks:
        raise ValueError(
            f"For '{api}', '{name}' must be a {' or '.join(f'{r}-D' for r in ranks)} Tensor, "
            f"but got shape {tuple(x.shape)}."
        )


def _check_channels(api: str, x, weight_channels: int, groups: int) -> None:
    if x.shape[1] != weight_channels * groups:
        raise ValueError(
            f"For '{api}', the channel dimension of 'input' (dim 1) must be "
            f"{weight_channels * groups} (weight in_channels {weight_channels} x groups {groups}), "
            f"but got input shape {tuple(x.shape)}."
        )


# -- convolution ------------------------------------------------------------------------------
def _conv(api, n, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    x, w = arr(input), arr(weight)
    _check_rank(api, w, (n + 2,), "weight")  # MindSpore's order: the weight's rank (conv1d:
    _check_rank(api, x, (n + 2,) if api == "conv1d" else (x.ndim,))  # and the input's),
    _check_rank(api, check_same_kind(api, input=x, weight=w)[0], (n + 2,))  # dtypes, rank
    if isinstance(padding, str):
        pad_mode, padding = padding, 0
    pad_mode = check_pad_mode(api, pad_mode)
    kind = ValueError if api == "conv1d" else TypeError  # MindSpore's conv1d: "stride must be"
    stride = ntuple(api, "stride", stride, n, error=kind)
    dilation = ntuple(api, "dilation", dilation, n, error=kind)
    _check_channels(api, x, w.shape[1], groups)
    if pad_mode == "same":
        pads = _same_pads(x.shape[2:], w.shape[2:], stride, dilation)
    elif pad_mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = explicit_pads(api, padding, n)
    check_window_fits(api, x.shape[2:], pads, w.shape[2:], dilation)
    pads = tuple(tuple(int(p) for p in pair) for pair in pads)
    bias, alone = None if bias is None else arr(bias), not staged(x)  # alone: its own kernel
    return wrap(_conv_value(x, w, bias, tuple(stride), pads, tuple(dilation), groups, alone))


@fused(static_argnums=(3, 4, 5, 6, 7))
def _conv_value(x, w, bias, stride, pads, dilation, groups, alone):  # one kernel on the tape
    n, out = x.ndim - 2, convolve(x, w.astype(x.dtype), stride, pads, dilation, groups, alone)
    return out if bias is None else out + bias.reshape((1, -1) + (1,) * n)


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    r"""1-D convolution over an input of shape :math:`(N, C_{in}, L)`.

    Args:
        input (Tensor): Input of shape :math:`(N, C_{in}, L_{in})`.
        weight (Tensor): Kernel of shape :math:`(C_{out}, C_{in} / groups, K)`.
        bias (Tensor): Shape :math:`(C_{out},)`. Default: ``None``.
        stride (Union[int, tuple[int]]): Default: ``1``.
        pad_mode (str): ``'same'``, ``'valid'`` or ``'pad'``. Default: ``'valid'``.
        padding (Union[int, tuple[int]]): Padding for ``'pad'``: one int, or (left, right).
            Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        groups (int): Default: ``1``.

    Returns:
        Tensor of shape :math:`(N, C_{out}, L_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown or the channels do not match ``weight``.

    Examples:
        >>> import cellax as ms
        >>> out = ms.ops.conv1d(ms.ops.ones((1, 2, 5)), ms.ops.ones((3, 2, 3)), pad_mode='same')
        >>> print(out.shape, out[0, 0].asnumpy())
        (1, 3, 5) [4. 6. 6. 6. 4.]
    """
    return _conv("conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    r"""2-D convolution over an NCHW input.

    Args:
        input (Tensor): Shape :math:`(N, C_{in}, H, W)`.
        weight (Tensor): Shape :math:`(C_{out}, C_{in} / groups, K_h, K_w)`.
        bias (Tensor): Shape :math:`(C_{out},)`. Default: ``None``.
        stride (Union[int, tuple[int]]): Default: ``1``.
        pad_mode (str): ``'same'`` (output ``ceil(in / stride)``, extra padding at the end),
            ``'valid'`` or ``'pad'``. Default: ``'valid'``.
        padding (Union[int, tuple[int]]): For ``'pad'``: an int or (h, w), padding both sides.
            Must be 0 for the other modes. Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        groups (int): Default: ``1``.

    Returns:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown, the channels do not match ``weight``, ``padding``
            is a tuple of other than 2 ints (MindSpore's functional ``conv2d``; ``nn.Conv2d``
            takes 4), or ``padding`` is not 0 when ``pad_mode`` is not ``'pad'``.

    Examples:
        >>> import cellax as ms
        >>> x, w = ms.ops.ones((1, 2, 4, 4)), ms.ops.ones((3, 2, 3, 3))
        >>> ms.ops.conv2d(x, w, pad_mode='pad', padding=1, stride=2).shape
        (1, 3, 2, 2)
    """
    if isinstance(padding, (tuple, list)) and len(padding) != 2:
        raise ValueError(
            f"For 'conv2d', 'padding' must be a tuple or list of 2 integers, but got {padding}."
        )
    if pad_mode != "pad" and padding not in (0, (0, 0), [0, 0]):
        raise ValueError(
            f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
            f"{padding} and 'pad_mode': {pad_mode}."
        )
    return _conv("conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv2d_any_padding(
    input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1
):
    """:func:`conv2d` that also takes (top, bottom, left, right) padding (``nn.Conv2d``'s)."""
    return _conv("conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    r"""3-D convolution over an NCDHW input; arguments as :func:`conv2d` with three dims.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.conv3d(ms.ops.ones((1, 2, 4, 4, 4)), ms.ops.ones((3, 2, 2, 2, 2))).shape
        (1, 3, 3, 3, 3)
    """
    return _conv("conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def _transpose_pads(api, pad_mode, padding, sizes, kernel, stride, dilation, output_padding):
    """Padding (lo, hi) applied to the stride-dilated input of the equivalent direct conv."""
    n = len(sizes)
    if pad_mode == "same":
        pads = []
        for size, k, s, d in zip(sizes, kernel, stride, dilation):
            full = (size - 1) * s + (k - 1) * d + 1
            crop = max(full - size * s, 0)
            pads.append((crop // 2, crop - crop // 2))
    elif pad_mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = explicit_pads(api, padding, n)
    result = []
    for (lo, hi), k, d, extra in zip(pads, kernel, dilation, output_padding):
        span = (k - 1) * d
        result.append((span - lo, span - hi + extra))
    return result


def _conv_transpose(
    api, n, input, weight, bias, stride, pad_mode, padding, output_padding, groups, dilation
):
    x, w = arr(input), arr(weight)
    _check_rank(api, w, (n + 2,), "weight")  # MindSpore's order: the weight's rank (conv1d:
    _check_rank(api, x, (n + 2,) if api == "conv1d" else (x.ndim,))  # and the input's),
    _check_rank(api, check_same_kind(api, input=x, weight=w)[0], (n + 2,))  # dtypes, rank
    pad_mode = check_pad_mode(api, pad_mode)
    stride = ntuple(api, "stride", stride, n)
    dilation = ntuple(api, "dilation", dilation, n)
    output_padding = ntuple(api, "output_padding", output_padding, n, minimum=0)
    if x.shape[1] != w.shape[0]:
        raise ValueError(
            f"For '{api}', the channel dimension of 'input' (dim 1) must equal weight.shape[0]="
            f"{w.shape[0]}, but got input shape {tuple(x.shape)}."
        )
    if w.shape[0] % groups:
        raise ValueError(
            f"For '{api}', in_channels {w.shape[0]} must be divisible by groups {groups}."
        )
    in_ch, out_per_group = w.shape[0], w.shape[1]
    kernel = w.shape[2:]
    # (in, out/g, k...) -> (out, in/g, k...) with the spatial dims flipped: the direct conv whose
    # gradient the transposed conv is.
    w = w.reshape((groups, in_ch // groups, out_per_group) + kernel)
    w = jnp.swapaxes(w, 1, 2).reshape((groups * out_per_group, in_ch // groups) + kernel)
    w = jnp.flip(w, axis=tuple(range(2, n + 2)))
    pads = _transpose_pads(
        api, pad_mode, padding, x.shape[2:], kernel, stride, dilation, output_padding
    )
    out = lax.conv_general_dilated(
        x,
        w.astype(x.dtype),
        (1,) * n,
        pads,
        lhs_dilation=stride,
        rhs_dilation=dilation,
        dimension_numbers=dimension_numbers(n),
        feature_group_count=groups,
    )
    if bias is not None:
        out = out + arr(bias).reshape((1, -1) + (1,) * n)
    return wrap(out)


def conv_transpose1d(
    input,
    weight,
    bias=None,
    stride=1,
    padding=0,
    output_padding=0,
    groups=1,
    dilation=1,
    pad_mode="pad",
):
    r"""1-D transposed convolution (the gradient of :func:`conv1d` w.r.t. its input).

    ``weight`` has shape :math:`(C_{in}, C_{out} / groups, K)`. With ``pad_mode='pad'`` the
    output length is :math:`(L-1) s - 2p + d (K-1) + 1 + output\_padding`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.conv_transpose1d(ms.ops.ones((1, 2, 4)), ms.ops.ones((2, 3, 3)), stride=2).shape
        (1, 3, 9)
    """
    return _conv_transpose(
        "conv_transpose1d",
        1,
        input,
        weight,
        bias,
        stride,
        pad_mode,
        padding,
        output_padding,
        groups,
        dilation,
    )


def conv_transpose2d(
    input,
    weight,
    bias=None,
    stride=1,
    padding=0,
    output_padding=0,
    groups=1,
    dilation=1,
    pad_mode="pad",
):
    r"""2-D transposed convolution; ``weight`` is :math:`(C_{in}, C_{out} / groups, K_h, K_w)`.

    Args:
        input (Tensor): Shape :math:`(N, C_{in}, H, W)`.
        weight (Tensor): Shape :math:`(C_{in}, C_{out} / groups, K_h, K_w)`.
        bias (Tensor): Default: ``None``.
        stride, padding, output_padding, dilation (Union[int, tuple[int]]): As PyTorch/MindSpore.
        groups (int): Default: ``1``.
        pad_mode (str): cellax extension: ``'pad'`` (default), ``'same'`` (output
            ``in * stride``) or ``'valid'``.

    Returns:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Examples:
        >>> import cellax as ms
        >>> x, w = ms.ops.ones((1, 2, 3, 3)), ms.ops.ones((2, 4, 3, 3))
        >>> ms.ops.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1).shape
        (1, 4, 6, 6)
    """
    return _conv_transpose(
        "conv_transpose2d",
        2,
        input,
        weight,
        bias,
        stride,
        pad_mode,
        padding,
        output_padding,
        groups,
        dilation,
    )


def conv_transpose3d(
    input,
    weight,
    bias=None,
    stride=1,
    padding=0,
    output_padding=0,
    groups=1,
    dilation=1,
    pad_mode="pad",
):
    r"""3-D transposed convolution; arguments as :func:`conv_transpose2d` with three dims.

    Examples:
        >>> import cellax as ms
        >>> x, w = ms.ops.ones((1, 2, 2, 2, 2)), ms.ops.ones((2, 1, 2, 2, 2))
        >>> ms.ops.conv_transpose3d(x, w, stride=2).shape
        (1, 1, 4, 4, 4)
    """
    return _conv_transpose(
        "conv_transpose3d",
        3,
        input,
        weight,
        bias,
        stride,
        pad_mode,
        padding,
        output_padding,
        groups,
        dilation,
    )


def _pair(api: str, name: str, value) -> tuple:
    """An int, a pair, or MindSpore's 4-tuple (N, C, H, W) form -> (h, w)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, (tuple, list)) and len(value) in (2, 4):
        return tuple(int(v) for v in value[-2:])
    raise TypeError(
        f"For '{api}', '{name}' must be an int or a tuple of 2 or 4 ints, but got {value!r}."
    )


class _Conv2DBase(Primitive):
    def _setup(self, name, out_channel, kernel_size, pad_mode, pad, stride, dilation, group, fmt):
        Primitive.__init__(self, name)
        self.pad_mode = check_pad_mode(name, pad_mode)
        if self.pad_mode != "pad" and pad not in (0, (0, 0, 0, 0)):
            raise ValueError(
                f"For '{name}', 'pad' must be zero when 'pad_mode' is not 'pad', but got {pad!r}."
            )
        if fmt not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', 'data_format' must be 'NCHW' or 'NHWC', got {fmt!r}.")
        self.kernel_size = _pair(name, "kernel_size", kernel_size)
        self.stride = _pair(name, "stride", stride)
        self.dilation = _pair(name, "dilation", dilation)
        self._pads = tuple(explicit_pads(name, pad, 2))
        self.group, self.format = int(group), fmt
        for key, value in (
            ("out_channel", out_channel),
            ("kernel_size", self.kernel_size),
            ("pad_mode", self.pad_mode),
            ("pad", pad),
            ("stride", self.stride),
            ("dilation", self.dilation),
            ("group", self.group),
            ("data_format", fmt),
        ):
            self.add_prim_attr(key, value)

    def _nchw(self, x, w):
        x, w = arr(x), arr(w)
        if self.format == "NHWC":  # weights are (out, kh, kw, in / group) there
            x, w = jnp.transpose(x, (0, 3, 1, 2)), jnp.transpose(w, (0, 3, 1, 2))
        return x, w

    def _out(self, y):
        y = arr(y)
        return wrap(jnp.transpose(y, (0, 2, 3, 1)) if self.format == "NHWC" else y)


class Conv2D(_Conv2DBase):
    """2-D convolution primitive (``mindspore.ops.Conv2D``): ``Conv2D(...)(x, weight)``.

    Args:
        out_channel (int): The number of output channels.
        kernel_size (Union[int, tuple[int]]): The kernel's (height, width).
        mode (int): Accepted for compatibility (1 is the only mode). Default: ``1``.
        pad_mode (str): ``"valid"``, ``"same"`` or ``"pad"``. Default: ``"valid"``.
        pad (Union[int, tuple[int]]): With ``"pad"``: one int or (top, bottom, left, right).
            Default: ``0``.
        stride (Union[int, tuple[int]]): An int, (h, w) or (1, 1, h, w). Default: ``1``.
        dilation (Union[int, tuple[int]]): Like ``stride``. Default: ``1``.
        group (int): Channel groups. Default: ``1``.
        data_format (str): ``"NCHW"`` or ``"NHWC"``. Default: ``"NCHW"``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, H, W)`.
        - **weight** (Tensor) - :math:`(C_{out}, C_{in} / group, K_h, K_w)`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown, or ``pad`` is non-zero without ``"pad"``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.ones((1, 2, 4, 4), np.float32))
        >>> w = ms.Tensor(np.ones((3, 2, 3, 3), np.float32))
        >>> ms.ops.Conv2D(3, 3, pad_mode="same")(x, w).shape
        (1, 3, 4, 4)
    """

    def __init__(
        self,
        out_channel,
        kernel_size,
        mode=1,
        pad_mode="valid",
        pad=0,
        stride=1,
        dilation=1,
        group=1,
        data_format="NCHW",
    ):
        self._setup(
            "Conv2D", out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format
        )
        self.add_prim_attr("mode", mode)

    def __call__(self, x, weight):
        x, w = self._nchw(x, weight)
        # The primitive takes (top, bottom, left, right); functional ops.conv2d only takes 2.
        padding = tuple(p for pair in self._pads for p in pair)
        y = conv2d_any_padding(
            x, w, None, self.stride, self.pad_mode, padding, self.dilation, self.group
        )
        return self._out(y)


class Conv2DBackpropInput(_Conv2DBase):
    """The gradient of ``Conv2D`` with respect to its input, i.e. the transposed convolution
    (``mindspore.ops.Conv2DBackpropInput``; ``ops.Conv2DTranspose`` is the same primitive).

    ``prim(dout, weight, input_size)`` returns the Tensor of shape ``input_size`` whose
    ``Conv2D`` (with these settings and ``weight``) has the shape of ``dout``.

    Args:
        out_channel (int): The channels of the result (``input_size[1]``).
        kernel_size (Union[int, tuple[int]]): The kernel's (height, width).
        pad_mode (str): ``"valid"``, ``"same"`` or ``"pad"``. Default: ``"valid"``.
        pad (Union[int, tuple[int]]): With ``"pad"``: (top, bottom, left, right) or one int.
            Default: ``0``.
        pad_list (tuple[int]): Explicit (top, bottom, left, right); overrides ``pad``.
            Default: ``None``.
        mode (int): Accepted for compatibility. Default: ``1``.
        stride (Union[int, tuple[int]]): Default: ``1``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        group (int): Channel groups. Default: ``1``.
        data_format (str): ``"NCHW"`` or ``"NHWC"``. Default: ``"NCHW"``.

    Inputs:
        - **dout** (Tensor) - :math:`(N, C_{out}, H, W)`, the forward convolution's output.
        - **weight** (Tensor) - :math:`(C_{out}, C_{in} / group, K_h, K_w)`.
        - **input_size** (tuple[int]) - The forward input's shape :math:`(N, C_{in}, H_x, W_x)`.

    Outputs:
        Tensor of shape ``input_size``.

    Raises:
        ValueError: If ``input_size`` cannot be produced from ``dout`` with these settings.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> dout = ms.Tensor(np.ones((1, 3, 2, 2), np.float32))
        >>> w = ms.Tensor(np.ones((3, 2, 3, 3), np.float32))
        >>> ms.ops.Conv2DTranspose(2, 3, stride=2)(dout, w, (1, 2, 5, 5)).shape
        (1, 2, 5, 5)
    """

    _name = "Conv2DBackpropInput"

    def __init__(
        self,
        out_channel,
        kernel_size,
        pad_mode="valid",
        pad=0,
        pad_list=None,
        mode=1,
        stride=1,
        dilation=1,
        group=1,
        data_format="NCHW",
    ):
        self._setup(
            self._name, out_channel, kernel_size, pad_mode, pad, stride, dilation, group,
            data_format,
        )  # fmt: skip
        self._pad_list = None if pad_list is None else tuple(explicit_pads(self.name, pad_list, 2))
        self.add_prim_attr("pad_list", pad_list)
        self.add_prim_attr("mode", mode)

    def __call__(self, dout, weight, input_size):
        dout, w = self._nchw(dout, weight)
        size = tuple(int(s) for s in input_size)
        if self.format == "NHWC":
            size = (size[0], size[3], size[1], size[2])
        pads, extra = [], []
        for i in range(2):
            k = (self.kernel_size[i] - 1) * self.dilation[i] + 1
            full = (dout.shape[2 + i] - 1) * self.stride[i] + k
            if self._pad_list is not None:
                lo, hi = self._pad_list[i]
            elif self.pad_mode == "pad":
                lo, hi = self._pads[i]
            elif self.pad_mode == "same":
                need = max(full - size[2 + i], 0)
                lo, hi = need // 2, need - need // 2
            else:
                lo = hi = 0
            more = size[2 + i] - (full - lo - hi)
            if not 0 <= more < max(self.stride[i], self.dilation[i]):
                raise ValueError(
                    f"For '{self.name}', 'input_size' {tuple(input_size)} can not come from "
                    f"'dout' of shape {tuple(dout.shape)} with these settings."
                )
            pads += [lo, hi]
            extra.append(more)
        y = conv_transpose2d(
            dout, w, None, self.stride, tuple(pads), tuple(extra), self.group, self.dilation
        )
        return self._out(y)


class Conv2DTranspose(Conv2DBackpropInput):
    __doc__ = Conv2DBackpropInput.__doc__
    _name = "Conv2DTranspose"


def conv3d_transpose(
    inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0
):
    """The 3-D transposed convolution in MindSpore's older argument order; see
    :func:`conv_transpose3d` (``pad_mode`` must be ``'pad'`` for a non-zero ``padding``).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.conv3d_transpose(ms.ops.ones((1, 2, 3, 3, 3)), ms.ops.ones((2, 4, 2, 2, 2))).shape
        (1, 4, 4, 4, 4)
    """
    if pad_mode not in ("valid", "pad", "same"):
        raise ValueError(f"For 'conv3d_transpose', unknown 'pad_mode' {pad_mode!r}.")
    if pad_mode != "pad" and padding not in (0, (0,) * 3, (0,) * 6):
        raise ValueError("For 'conv3d_transpose', 'padding' must be 0 unless pad_mode is 'pad'.")
    return conv_transpose3d(inputs, weight, None, stride, padding, output_padding, group, dilation)
