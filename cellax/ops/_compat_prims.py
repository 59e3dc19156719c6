"""Primitive classes real MindSpore code builds directly (mindcv's models and losses):
``Conv2D``, ``Conv2DTranspose``/``Conv2DBackpropInput``, ``LpNorm``, ``L2Normalize``,
``ResizeNearestNeighbor``, ``KLDivLoss`` and ``LayerNorm`` (what ``nn.LayerNorm`` keeps as its
``layer_norm`` attribute)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._conv import check_pad_mode, conv2d_any_padding, conv_transpose2d, explicit_pads
from ._loss import kl_div
from ._norm import normalize
from ._primitive import Primitive
from ._utils import arr, to_float, wrap

__all__ = [
    "Conv2D",
    "Conv2DTranspose",
    "Conv2DBackpropInput",
    "LpNorm",
    "L2Normalize",
    "ResizeNearestNeighbor",
    "KLDivLoss",
    "LayerNorm",
]


def _pair(api: str, name: str, value) -> tuple:
    """An int, a pair, or MindSpore's 4-tuple (N, C, H, W) form -> (h, w)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, (tuple, list)) and len(value) in (2, 4):
        return tuple(int(v) for v in value[-2:])
    raise TypeError(
        f"For '{api}', '{name}' must be an int or a tuple of 2 or 4 ints, but got {value!r}."
    )


def _axes(api: str, axis, ndim: int) -> tuple:
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        if isinstance(a, bool) or not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(f"For '{api}', 'axis' must be in [{-ndim}, {ndim}), but got {axis}.")
        out.append(a % ndim)
    return tuple(out)


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


class LpNorm(Primitive):
    """The p-norm over ``axis`` (``mindspore.ops.LpNorm``): ``max((sum |x|^p)^(1/p), epsilon)``.

    Args:
        axis (Union[int, list[int], tuple[int]]): The reduced dimensions.
        p (int): The order, >= 0 (0 counts non-zero elements). Default: ``2``.
        keep_dims (bool): Keep the reduced dimensions with size 1. Default: ``False``.
        epsilon (float): The lower bound of the result. Default: ``1e-12``.

    Inputs:
        - **input** (Tensor) - A float Tensor.

    Outputs:
        Tensor with ``axis`` reduced.

    Raises:
        ValueError: If ``p`` is negative or an axis is out of range.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.LpNorm(axis=1)(ms.Tensor([[3.0, 4.0], [0.0, 0.0]])))
        [5.0000000e+00 1.0000000e-12]
    """

    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        Primitive.__init__(self, "LpNorm")
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(f"For 'LpNorm', 'p' must be an int >= 0, but got {p!r}.")
        self.axis, self.p, self.keep_dims, self.epsilon = axis, p, bool(keep_dims), epsilon
        for key in ("axis", "p", "keep_dims", "epsilon"):
            self.add_prim_attr(key, getattr(self, key))

    def __call__(self, input):
        x = to_float(arr(input))
        axes = _axes("LpNorm", self.axis, x.ndim)
        if self.p == 0:
            norm = jnp.sum(x != 0, axis=axes, keepdims=self.keep_dims).astype(x.dtype)
        else:
            powered = jnp.sum(jnp.abs(x) ** self.p, axis=axes, keepdims=self.keep_dims)
            norm = powered ** (1.0 / self.p)
        return wrap(jnp.maximum(norm, jnp.asarray(self.epsilon, x.dtype)))


class L2Normalize(Primitive):
    """Divide by the L2 norm over ``axis`` (``mindspore.ops.L2Normalize``):
    ``x / sqrt(max(sum(x ** 2, axis), epsilon))``.

    Args:
        axis (Union[int, list[int], tuple[int]]): The normalised dimensions. Default: ``0``.
        epsilon (float): The lower bound of the squared norm. Default: ``1e-4``.

    Inputs:
        - **x** (Tensor) - A float Tensor.

    Outputs:
        Tensor of the input's shape and dtype.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.L2Normalize(axis=-1)(ms.Tensor([[3.0, 4.0]])))
        [[0.6 0.8]]
    """

    def __init__(self, axis=0, epsilon=1e-4):
        Primitive.__init__(self, "L2Normalize")
        self.axis, self.epsilon = axis, float(epsilon)
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("epsilon", self.epsilon)

    def __call__(self, x):
        x = to_float(arr(x))
        axes = _axes("L2Normalize", self.axis, x.ndim)
        squared = jnp.sum(x * x, axis=axes, keepdims=True)
        return wrap(x / jnp.sqrt(jnp.maximum(squared, jnp.asarray(self.epsilon, x.dtype))))


def _nearest_index(in_size: int, out_size: int, align_corners: bool, half_pixel: bool):
    dst = np.arange(out_size, dtype=np.float64)
    if align_corners and out_size > 1:
        src = np.floor(dst * (in_size - 1) / (out_size - 1) + 0.5)
    elif half_pixel:
        src = np.floor((dst + 0.5) * in_size / out_size)
    else:
        src = np.floor(dst * in_size / out_size)
    return np.clip(src, 0, in_size - 1).astype(np.int32)


class ResizeNearestNeighbor(Primitive):
    """Nearest-neighbour resize of the last two dimensions
    (``mindspore.ops.ResizeNearestNeighbor``).

    Args:
        size (Union[tuple[int], list[int]]): The output (height, width).
        align_corners (bool): Map the corner pixels onto each other (source index
            ``round(i * (in - 1) / (out - 1))``). Default: ``False`` (``floor(i * in / out)``).
        half_pixel_centers (bool): Sample at pixel centres. Default: ``False``.

    Inputs:
        - **input_x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, size[0], size[1])`.

    Raises:
        TypeError: If ``size`` is not a pair of ints.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(ms.ops.ResizeNearestNeighbor((2, 4))(x))
        [[[[1. 1. 2. 2.]
           [3. 3. 4. 4.]]]]
    """

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        Primitive.__init__(self, "ResizeNearestNeighbor")
        if not isinstance(size, (tuple, list)) or len(size) != 2:
            raise TypeError(
                f"For 'ResizeNearestNeighbor', 'size' must be a tuple of 2 ints, got {size!r}."
            )
        self.size = tuple(int(s) for s in size)
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers
        for key in ("size", "align_corners", "half_pixel_centers"):
            self.add_prim_attr(key, getattr(self, key))

    def __call__(self, input_x):
        x = arr(input_x)
        rows = _nearest_index(
            x.shape[-2], self.size[0], self.align_corners, self.half_pixel_centers
        )
        cols = _nearest_index(
            x.shape[-1], self.size[1], self.align_corners, self.half_pixel_centers
        )
        return wrap(jnp.take(jnp.take(x, rows, axis=-2), cols, axis=-1))


class KLDivLoss(Primitive):
    """Kullback-Leibler divergence of ``labels`` from log-probabilities ``logits``
    (``mindspore.ops.KLDivLoss``), the primitive form of ``ops.kl_div``.

    Args:
        reduction (str): ``"none"``, ``"mean"``, ``"batchmean"`` or ``"sum"``.
            Default: ``"mean"``.

    Inputs:
        - **logits** (Tensor) - Log-probabilities.
        - **labels** (Tensor) - Probabilities, the shape of ``logits``.

    Outputs:
        Tensor: the loss (the input's shape with ``"none"``, else a scalar).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> logits = ms.Tensor(np.log(np.array([[0.5, 0.5]], np.float32)))
        >>> labels = ms.Tensor(np.array([[0.5, 0.5]], np.float32))
        >>> print(ms.ops.KLDivLoss("sum")(logits, labels))
        0.0
    """

    def __init__(self, reduction="mean"):
        Primitive.__init__(self, "KLDivLoss")
        self.reduction = reduction
        self.add_prim_attr("reduction", reduction)

    def __call__(self, logits, labels):
        return kl_div(logits, labels, self.reduction)


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
