"""Functional layers: convolution, pooling, normalisation, resampling, padding, embedding.

The nn layers (``nn.Conv2d``, ``nn.MaxPool2d``, ``nn.BatchNorm2d`` ...) call these functions,
so each computation has one implementation. Layouts are channel-first (NCW/NCHW/NCDHW).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._parameter import Buffer, Parameter
from ._utils import arr, wrap

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "batch_norm",
    "layer_norm",
    "group_norm",
    "instance_norm",
    "interpolate",
    "pad",
    "embedding",
    "pixel_shuffle",
    "pixel_unshuffle",
    "unfold",
    "fold",
    "dense",
]

_PAD_MODES = ("same", "valid", "pad")


# -- argument checks ----------------------------------------------------------------------------
def _ntuple(api: str, name: str, value, n: int, minimum: int = 1) -> tuple:
    """An int or a sequence of n ints -> a tuple of n ints, each >= minimum."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value),) * n
    elif isinstance(value, (tuple, list)) and len(value) == 1 and n > 1:
        value = tuple(value) * n
    if (
        not isinstance(value, (tuple, list))
        or len(value) != n
        or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in value)
    ):
        raise TypeError(
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


def _explicit_pads(api: str, padding, n: int) -> list:
    """MindSpore padding (int, n ints, or 2n ints as before/after per dim) -> [(lo, hi)] * n."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        pads = [(int(padding), int(padding))] * n
    elif isinstance(padding, (tuple, list)) and len(padding) == n:
        pads = [(int(p), int(p)) for p in padding]
    elif isinstance(padding, (tuple, list)) and len(padding) == 2 * n:
        pads = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(n)]
    else:
        raise TypeError(
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


_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _dimension_numbers(n: int):
    s = _SPATIAL[n]
    return ("NC" + s, "OI" + s, "NC" + s)


# -- convolution ------------------------------------------------------------------------------
def _conv(api, n, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    x, w = arr(input), arr(weight)
    _check_rank(api, x, (n + 2,))
    _check_rank(api, w, (n + 2,), "weight")
    if isinstance(padding, str):
        pad_mode, padding = padding, 0
    pad_mode = check_pad_mode(api, pad_mode)
    stride = _ntuple(api, "stride", stride, n)
    dilation = _ntuple(api, "dilation", dilation, n)
    _check_channels(api, x, w.shape[1], groups)
    if pad_mode == "same":
        pads = _same_pads(x.shape[2:], w.shape[2:], stride, dilation)
    elif pad_mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = _explicit_pads(api, padding, n)
    out = lax.conv_general_dilated(
        x,
        w.astype(x.dtype),
        stride,
        pads,
        rhs_dilation=dilation,
        dimension_numbers=_dimension_numbers(n),
        feature_group_count=groups,
    )
    if bias is not None:
        out = out + arr(bias).reshape((1, -1) + (1,) * n)
    return wrap(out)


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
        padding (Union[int, tuple[int]]): For ``'pad'``: an int, (h, w) or
            (top, bottom, left, right). Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        groups (int): Default: ``1``.

    Returns:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        ValueError: If ``pad_mode`` is unknown or the channels do not match ``weight``.

    Examples:
        >>> import cellax as ms
        >>> x, w = ms.ops.ones((1, 2, 4, 4)), ms.ops.ones((3, 2, 3, 3))
        >>> ms.ops.conv2d(x, w, pad_mode='pad', padding=1, stride=2).shape
        (1, 3, 2, 2)
    """
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
        pads = _explicit_pads(api, padding, n)
    result = []
    for (lo, hi), k, d, extra in zip(pads, kernel, dilation, output_padding):
        span = (k - 1) * d
        result.append((span - lo, span - hi + extra))
    return result


def _conv_transpose(
    api, n, input, weight, bias, stride, pad_mode, padding, output_padding, groups, dilation
):
    x, w = arr(input), arr(weight)
    _check_rank(api, x, (n + 2,))
    _check_rank(api, w, (n + 2,), "weight")
    pad_mode = check_pad_mode(api, pad_mode)
    stride = _ntuple(api, "stride", stride, n)
    dilation = _ntuple(api, "dilation", dilation, n)
    output_padding = _ntuple(api, "output_padding", output_padding, n, minimum=0)
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
        dimension_numbers=_dimension_numbers(n),
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


# -- pooling ----------------------------------------------------------------------------------
def _pool_geometry(api, n, shape, kernel_size, stride, pad_mode, padding, dilation, ceil_mode):
    """Kernel, stride, dilation and the (explicit pads, extra ceil-mode pads) per spatial dim."""
    kernel = _ntuple(api, "kernel_size", kernel_size, n)
    stride = kernel if stride is None or stride == () else _ntuple(api, "stride", stride, n)
    dilation = _ntuple(api, "dilation", dilation, n)
    sizes = shape[2:]
    if pad_mode == "same":
        return kernel, stride, dilation, _same_pads(sizes, kernel, stride, dilation), [0] * n
    pads = [(0, 0)] * n if pad_mode == "valid" else _explicit_pads(api, padding, n)
    for (lo, hi), k in zip(pads, kernel):
        if max(lo, hi) * 2 > k:
            raise ValueError(
                f"For '{api}', 'padding' must be at most half of 'kernel_size' {kernel}, but got "
                f"{padding!r}."
            )
    extra = []
    for size, k, s, d, (lo, hi) in zip(sizes, kernel, stride, dilation, pads):
        span = size + lo + hi - (k - 1) * d - 1
        if span < 0:
            raise ValueError(
                f"For '{api}', the padded input is smaller than the kernel: input shape "
                f"{tuple(shape)}, kernel_size {kernel}, dilation {dilation}."
            )
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= size + lo:
            out -= 1
        extra.append(max((out - 1) * s + (k - 1) * d + 1 - (size + lo + hi), 0))
    return kernel, stride, dilation, pads, extra


def _window(x, init, op, kernel, stride, dilation, pads):
    return lax.reduce_window(
        x,
        init,
        op,
        (1, 1) + kernel,
        (1, 1) + stride,
        [(0, 0), (0, 0)] + list(pads),
        window_dilation=(1, 1) + dilation,
    )


def _max_pool(
    api, n, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, pad_mode="pad"
):
    value = arr(x)
    _check_rank(api, value, (n + 1, n + 2))
    unbatched = value.ndim == n + 1
    if unbatched:
        value = value[None]
    pad_mode = check_pad_mode(api, pad_mode)
    kernel, stride, dilation, pads, extra = _pool_geometry(
        api, n, value.shape, kernel_size, stride, pad_mode, padding, dilation, ceil_mode
    )
    full = [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]
    low = -jnp.inf if jnp.issubdtype(value.dtype, jnp.floating) else jnp.iinfo(value.dtype).min
    # A NumPy (concrete) init lets JAX pick its differentiable max-window rule under jit.
    out = _window(value, np.array(low, value.dtype), lax.max, kernel, stride, dilation, full)
    if not return_indices:
        return wrap(out[0] if unbatched else out)
    sizes = value.shape[2:]
    index = jnp.arange(int(np.prod(sizes)), dtype=jnp.int32).reshape(sizes)
    index = jnp.broadcast_to(index, value.shape)

    def pick(a, b):
        (va, ia), (vb, ib) = a, b
        take_a = (va > vb) | ((va == vb) & (ia < ib) & (ia >= 0)) | (ib < 0)
        return jnp.where(take_a, va, vb), jnp.where(take_a, ia, ib)

    _, indices = lax.reduce_window(
        (value, index),
        (jnp.array(low, value.dtype), jnp.array(-1, jnp.int32)),
        pick,
        (1, 1) + kernel,
        (1, 1) + stride,
        [(0, 0), (0, 0)] + full,
        window_dilation=(1, 1) + dilation,
    )
    indices = indices.astype(jnp.int64 if jax.config.jax_enable_x64 else jnp.int32)
    if unbatched:
        out, indices = out[0], indices[0]
    return wrap(out), wrap(indices)


def max_pool1d(
    x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    r"""1-D max pooling over :math:`(N, C, L)` (or unbatched :math:`(C, L)`).

    Args:
        x (Tensor): The input.
        kernel_size (Union[int, tuple[int]]): Window size.
        stride (Union[int, tuple[int]]): Default: ``None`` (``kernel_size``).
        padding (Union[int, tuple[int]]): Implicit -inf padding on both sides. Default: ``0``.
        dilation (Union[int, tuple[int]]): Default: ``1``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        return_indices (bool): Also return the flat argmax indices. Default: ``False``.

    Returns:
        Tensor, or (Tensor, indices) with ``return_indices``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]])
        >>> print(ms.ops.max_pool1d(x, 2, ceil_mode=True))
        [[[3. 5. 4.]]]
    """
    return _max_pool(
        "max_pool1d", 1, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )


def max_pool2d(
    x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
):
    r"""2-D max pooling over NCHW (or CHW); arguments as :func:`max_pool1d`.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.arange(16.0).reshape(1, 1, 4, 4)
        >>> out, idx = ms.ops.max_pool2d(x, 2, return_indices=True)
        >>> print(out.asnumpy().ravel(), idx.asnumpy().ravel())
        [ 5.  7. 13. 15.] [ 5  7 13 15]
    """
    return _max_pool(
        "max_pool2d", 2, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )


def max_pool3d(
    x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    r"""3-D max pooling over NCDHW (or CDHW); arguments as :func:`max_pool1d`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.max_pool3d(ms.ops.ones((1, 1, 4, 4, 4)), 2).shape
        (1, 1, 2, 2, 2)
    """
    return _max_pool(
        "max_pool3d", 3, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )


def _avg_pool(
    api,
    n,
    input_x,
    kernel_size,
    stride,
    padding,
    ceil_mode,
    count_include_pad,
    divisor_override,
    pad_mode="pad",
):
    value = arr(input_x)
    _check_rank(api, value, (n + 1, n + 2))
    unbatched = value.ndim == n + 1
    if unbatched:
        value = value[None]
    pad_mode = check_pad_mode(api, pad_mode)
    kernel, stride, dilation, pads, extra = _pool_geometry(
        api, n, value.shape, kernel_size, stride, pad_mode, padding, 1, ceil_mode
    )
    full = [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]
    zero = jnp.array(0, value.dtype)
    total = _window(value, zero, lax.add, kernel, stride, dilation, full)
    if divisor_override:
        out = total / divisor_override
    else:
        # The divisor counts the input cells, plus the explicit padding with count_include_pad;
        # 'same' padding and the extra ceil-mode cells never count.
        ones = jnp.ones((1, 1) + value.shape[2:], value.dtype)
        # MindSpore's 3-D pooling counts its 'same' padding too; 1-D/2-D do not.
        if count_include_pad and (pad_mode == "pad" or (pad_mode == "same" and n == 3)):
            ones = jnp.pad(ones, [(0, 0), (0, 0)] + list(pads), constant_values=1)
            count_pads = [(0, e) for e in extra]
        else:
            count_pads = full
        counts = _window(ones, zero, lax.add, kernel, stride, dilation, count_pads)
        out = total / counts
    return wrap(out[0] if unbatched else out)


def avg_pool1d(
    input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True
):
    r"""1-D average pooling over :math:`(N, C, L)`.

    Args:
        input_x (Tensor): The input.
        kernel_size (Union[int, tuple[int]]): Window size. Default: ``1``.
        stride (Union[int, tuple[int]]): Default: ``1``.
        padding (Union[int, tuple[int]]): Zero padding on both sides. Default: ``0``.
        ceil_mode (bool): Round the output size up. Default: ``False``.
        count_include_pad (bool): Count the zero padding in the divisor. Default: ``True``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.avg_pool1d(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2, 2))
        [[[1.5 3.5]]]
    """
    return _avg_pool(
        "avg_pool1d", 1, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad, None
    )


def avg_pool2d(
    input_x,
    kernel_size=1,
    stride=1,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=0,
):
    r"""2-D average pooling over NCHW; ``divisor_override`` (non-zero) replaces the divisor.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.avg_pool2d(ms.ops.ones((1, 1, 5, 5)), 2, 2, ceil_mode=True).shape
        (1, 1, 3, 3)
    """
    return _avg_pool(
        "avg_pool2d",
        2,
        input_x,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def avg_pool3d(
    input_x,
    kernel_size=1,
    stride=1,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=0,
):
    r"""3-D average pooling over NCDHW; arguments as :func:`avg_pool2d`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.avg_pool3d(ms.ops.ones((1, 1, 4, 4, 4)), 2, 2).shape
        (1, 1, 2, 2, 2)
    """
    return _avg_pool(
        "avg_pool3d",
        3,
        input_x,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def _adaptive_bounds(size: int, out: int):
    starts = [(i * size) // out for i in range(out)]
    ends = [-(-((i + 1) * size) // out) for i in range(out)]
    return starts, ends


def _adaptive_sizes(api, n, shape, output_size) -> tuple:
    if isinstance(output_size, (int, np.integer)) or output_size is None:
        output_size = (output_size,) * n
    if not isinstance(output_size, (tuple, list)) or len(output_size) != n:
        raise TypeError(
            f"For '{api}', 'output_size' must be an int or a tuple of {n} ints, but got "
            f"{output_size!r}."
        )
    sizes = tuple(shape[-n:][i] if o is None else int(o) for i, o in enumerate(output_size))
    if any(o <= 0 for o in sizes):
        raise ValueError(f"For '{api}', 'output_size' must be positive, but got {output_size!r}.")
    return sizes


def _adaptive(api, n, input, output_size, reducer):
    x = arr(input)
    _check_rank(api, x, (n + 1, n + 2))
    sizes = _adaptive_sizes(api, n, x.shape, output_size)
    for axis, out in zip(range(x.ndim - n, x.ndim), sizes):
        starts, ends = _adaptive_bounds(x.shape[axis], out)
        idx = np.arange(x.shape[axis])
        mask = (idx[None] >= np.array(starts)[:, None]) & (idx[None] < np.array(ends)[:, None])
        moved = jnp.moveaxis(x, axis, -1)[..., None, :]
        x = jnp.moveaxis(reducer(moved, jnp.asarray(mask)), -1, axis)
    return x


def _mean_masked(x, mask):
    return jnp.sum(jnp.where(mask, x, 0), -1) / jnp.sum(mask, -1).astype(x.dtype)


def _max_masked(x, mask):
    return jnp.max(jnp.where(mask, x, -jnp.inf), -1).astype(x.dtype)


def adaptive_avg_pool1d(input, output_size):
    r"""Average pooling of :math:`(N, C, L)` to length ``output_size``: window ``i`` covers
    ``[floor(i L / out), ceil((i+1) L / out))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.adaptive_avg_pool1d(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2))
        [[[1.5 3.5]]]
    """
    return wrap(_adaptive("adaptive_avg_pool1d", 1, input, output_size, _mean_masked))


def adaptive_avg_pool2d(input, output_size):
    r"""Adaptive average pooling of NCHW (or CHW) to ``output_size`` (int or (h, w); None keeps
    that dimension).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.adaptive_avg_pool2d(ms.ops.ones((1, 3, 7, 5)), (2, None)).shape
        (1, 3, 2, 5)
    """
    return wrap(_adaptive("adaptive_avg_pool2d", 2, input, output_size, _mean_masked))


def adaptive_avg_pool3d(input, output_size):
    r"""Adaptive average pooling of NCDHW (or CDHW) to ``output_size``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.adaptive_avg_pool3d(ms.ops.ones((1, 3, 4, 4, 4)), 2).shape
        (1, 3, 2, 2, 2)
    """
    return wrap(_adaptive("adaptive_avg_pool3d", 3, input, output_size, _mean_masked))


def adaptive_max_pool1d(input, output_size):
    r"""Adaptive max pooling of :math:`(N, C, L)` to length ``output_size``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.adaptive_max_pool1d(ms.Tensor([[[1.0, 2.0, 4.0, 3.0]]]), 2))
        [[[2. 4.]]]
    """
    return wrap(_adaptive("adaptive_max_pool1d", 1, input, output_size, _max_masked))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    r"""Adaptive max pooling of NCHW (or CHW); with ``return_indices`` also the flat indices
    (over H*W) of the maxima.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.arange(16.0).reshape(1, 1, 4, 4)
        >>> out, idx = ms.ops.adaptive_max_pool2d(x, 2, return_indices=True)
        >>> print(idx.asnumpy().ravel())
        [ 5  7 13 15]
    """
    api = "adaptive_max_pool2d"
    out = _adaptive(api, 2, input, output_size, _max_masked)
    if not return_indices:
        return wrap(out)
    x = arr(input)
    (h, w), (oh, ow) = x.shape[-2:], out.shape[-2:]
    masks = []
    for size, o in ((h, oh), (w, ow)):
        starts, ends = _adaptive_bounds(size, o)
        idx = np.arange(size)
        inside = (idx[None] >= np.array(starts)[:, None]) & (idx[None] < np.array(ends)[:, None])
        masks.append(inside)
    window = (masks[0][:, None, :, None] & masks[1][None, :, None, :]).reshape(oh, ow, h * w)
    flat = x.reshape(x.shape[:-2] + (1, 1, h * w))
    indices = jnp.argmax(jnp.where(jnp.asarray(window), flat, -jnp.inf), axis=-1)
    return wrap(out), wrap(indices.astype(jnp.int32))


# -- normalisation ----------------------------------------------------------------------------
def _write(api: str, target, value) -> None:
    if isinstance(target, (Parameter, Buffer)):
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


def _normalize(x, axes, eps):
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
    if isinstance(normalized_shape, (int, np.integer)):
        normalized_shape = (int(normalized_shape),)
    normalized_shape = tuple(normalized_shape)
    n = len(normalized_shape)
    if n == 0 or n > x.ndim or tuple(x.shape[-n:]) != normalized_shape:
        raise ValueError(
            f"For 'layer_norm', the trailing dimensions of 'input' must be {normalized_shape}, "
            f"but got input shape {tuple(x.shape)}."
        )
    out, _, _ = _normalize(x, tuple(range(x.ndim - n, x.ndim)), eps)
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
    grouped = x.reshape((n, num_groups, -1))
    out, _, _ = _normalize(grouped, (2,), eps)
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
        out, mean, var = _normalize(x, axes, eps)
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


# -- resampling -------------------------------------------------------------------------------
def _source_coords(in_size, out_size, align_corners, scale):
    dst = np.arange(out_size, dtype=np.float64)
    if align_corners:
        if out_size == 1:
            return np.zeros(out_size)
        return dst * (in_size - 1) / (out_size - 1)
    ratio = in_size / out_size if scale is None else 1.0 / scale
    return (dst + 0.5) * ratio - 0.5


def _cubic_weights(t, a=-0.75):
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _resample_axis(x, axis, out_size, mode, align_corners, scale):
    """Resample one axis by gathering neighbours with NumPy-precomputed indices and weights."""
    in_size = x.shape[axis]
    if mode in ("nearest", "nearest-exact"):
        ratio = in_size / out_size if scale is None else 1.0 / scale
        dst = np.arange(out_size)
        offset = 0.5 if mode == "nearest-exact" else 0.0
        src = np.minimum(np.floor((dst + offset) * ratio).astype(np.int64), in_size - 1)
        return jnp.take(x, jnp.asarray(src), axis=axis)
    if mode == "area":
        starts, ends = _adaptive_bounds(in_size, out_size)
        idx = np.arange(in_size)
        mask = (idx[None] >= np.array(starts)[:, None]) & (idx[None] < np.array(ends)[:, None])
        matrix = mask / mask.sum(1, keepdims=True)
        out = jnp.tensordot(x, jnp.asarray(matrix, x.dtype), ((axis,), (1,)))
        return jnp.moveaxis(out, -1, axis)
    src = _source_coords(in_size, out_size, align_corners, scale)
    if mode == "cubic":
        base = np.floor(src)
        t = src - base
        taps = [np.clip(base + k, 0, in_size - 1).astype(np.int64) for k in (-1, 0, 1, 2)]
        if align_corners:
            weights = _cubic_weights(t)
        else:
            # MindSpore's half-pixel bicubic (TensorFlow's kernel): a = -0.5, and taps that fall
            # outside the input get no weight, the rest renormalised.
            weights = _cubic_weights(t, -0.5)
            inside = [(base + k >= 0) & (base + k <= in_size - 1) for k in (-1, 0, 1, 2)]
            weights = [np.where(m, w, 0.0) for m, w in zip(inside, weights)]
            total = sum(weights)
            weights = [w / total for w in weights]
    else:
        src = np.maximum(src, 0) if not align_corners else src
        lo = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
        hi = np.minimum(lo + 1, in_size - 1)
        frac = src - lo
        taps, weights = [lo, hi], [1 - frac, frac]
    shape = [1] * x.ndim
    shape[axis] = out_size
    out = 0
    for index, weight in zip(taps, weights):
        out = out + jnp.take(x, jnp.asarray(index), axis=axis) * jnp.asarray(
            weight.reshape(shape), x.dtype
        )
    return out


_INTERP_MODES = {
    "nearest": (1, 2, 3),
    "nearest-exact": (1, 2, 3),
    "area": (1, 2, 3),
    "linear": (1,),
    "bilinear": (2,),
    "trilinear": (3,),
    "bicubic": (2,),
}


def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode="nearest",
    align_corners=None,
    recompute_scale_factor=None,
):
    r"""Resize the spatial dims of an :math:`(N, C, *)` input.

    Args:
        input (Tensor): 3-D, 4-D or 5-D.
        size (Union[int, tuple[int]]): The output spatial size. Default: ``None``.
        scale_factor (Union[float, tuple[float]]): Multiplier for the spatial size (when
            ``size`` is ``None``). Default: ``None``.
        mode (str): ``'nearest'``, ``'nearest-exact'``, ``'linear'`` (3-D), ``'bilinear'``,
            ``'bicubic'`` (4-D), ``'trilinear'`` (5-D) or ``'area'``. Default: ``'nearest'``.
        align_corners (bool): Map corner pixel centres onto each other (linear modes).
            Default: ``None`` (``False``).
        recompute_scale_factor (bool): Compute the coordinate map from the output size rather
            than from ``scale_factor``. Default: ``None``.

    Raises:
        ValueError: If both or neither of ``size``/``scale_factor`` are given, or ``mode`` does
            not fit the input rank.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[[1.0, 2.0]]])
        >>> print(ms.ops.interpolate(x, size=3, mode='linear', align_corners=True))
        [[[1.  1.5 2. ]]]
    """
    api = "interpolate"
    x = arr(input)
    _check_rank(api, x, (3, 4, 5))
    n = x.ndim - 2
    if mode not in _INTERP_MODES:
        raise ValueError(
            f"For '{api}', 'mode' must be one of {sorted(_INTERP_MODES)}, but got {mode!r}."
        )
    if n not in _INTERP_MODES[mode]:
        raise ValueError(
            f"For '{api}', mode {mode!r} needs a {_INTERP_MODES[mode][0] + 2}-D input, but got "
            f"input shape {tuple(x.shape)}."
        )
    if align_corners and mode not in ("linear", "bilinear", "trilinear", "bicubic"):
        raise ValueError(
            f"For '{api}', 'align_corners' is only valid for the linear and cubic modes, but "
            f"got mode {mode!r}."
        )
    if (size is None) == (scale_factor is None):
        raise ValueError(
            f"For '{api}', exactly one of 'size' and 'scale_factor' must be given, but got "
            f"size={size!r}, scale_factor={scale_factor!r}."
        )
    if size is not None:
        sizes = _ntuple(api, "size", size, n)
        scales = [None] * n
    else:
        if isinstance(scale_factor, (int, float)):
            factors = (scale_factor,) * n
        else:
            factors = tuple(scale_factor)
        if len(factors) != n or any(f <= 0 for f in factors):
            raise ValueError(
                f"For '{api}', 'scale_factor' must be positive with {n} value(s), but got "
                f"{scale_factor!r}."
            )
        sizes = tuple(int(math.floor(s * f)) for s, f in zip(x.shape[2:], factors))
        scales = [None] * n if recompute_scale_factor else list(factors)
    kind = {"bicubic": "cubic", "bilinear": "linear", "trilinear": "linear"}.get(mode, mode)
    out = x if jnp.issubdtype(x.dtype, jnp.floating) or kind == "nearest" else x.astype(jnp.float32)
    for i in range(n):
        out = _resample_axis(out, 2 + i, sizes[i], kind, bool(align_corners), scales[i])
    return wrap(out.astype(x.dtype))


# -- padding, embedding, rearrangement ----------------------------------------------------------
def pad(input_x, padding, mode="constant", value=None):
    r"""Pad the last ``len(padding) // 2`` dims; ``padding`` lists (before, after) pairs from
    the last dim backwards, like PyTorch. Negative values crop.

    Args:
        input_x (Tensor): The input.
        padding (Union[tuple[int], list[int]]): An even number of ints.
        mode (str): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
            Default: ``'constant'``.
        value (number): The fill for ``'constant'``. Default: ``None`` (0).

    Raises:
        ValueError: If ``padding`` has an odd length or too many pairs, or ``mode`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.pad(ms.Tensor([[1.0, 2.0, 3.0]]), (2, 1), mode='reflect'))
        [[3. 2. 1. 2. 3. 2.]]
    """
    api = "pad"
    x = arr(input_x)
    if isinstance(padding, (int, np.integer)):
        padding = (int(padding),) * 2
    padding = tuple(int(p) for p in padding)
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(
            f"For '{api}', 'padding' must hold (before, after) pairs for at most {x.ndim} dims, "
            f"but got {padding}."
        )
    modes = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}
    if mode not in modes:
        raise ValueError(f"For '{api}', 'mode' must be one of {sorted(modes)}, but got {mode!r}.")
    widths = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        widths[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    crop = tuple(slice(max(-lo, 0), x.shape[d] - max(-hi, 0)) for d, (lo, hi) in enumerate(widths))
    x = x[crop]
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if mode == "constant":
        return wrap(jnp.pad(x, widths, constant_values=0 if value is None else value))
    if mode == "reflect":
        for d, (lo, hi) in enumerate(widths):
            if max(lo, hi) >= x.shape[d] and (lo or hi):
                raise ValueError(
                    f"For '{api}', reflect padding must be smaller than the dimension it pads, "
                    f"but got padding ({lo}, {hi}) for a dimension of size {x.shape[d]}."
                )
    return wrap(jnp.pad(x, widths, mode=modes[mode]))


def embedding(
    input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False
):
    r"""Look up rows of ``weight`` by the integer indices ``input``.

    The row ``padding_idx`` gets no gradient. ``max_norm`` renormalises the looked-up rows to
    at most that ``norm_type``-norm (the table itself is not modified).

    Raises:
        TypeError: If ``input`` is not an integer Tensor.

    Examples:
        >>> import cellax as ms
        >>> table = ms.Tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> print(ms.ops.embedding(ms.Tensor([2, 1]), table))
        [[3. 4.]
         [1. 2.]]
    """
    ids, table = arr(input), arr(weight)
    if not jnp.issubdtype(jnp.asarray(ids).dtype, jnp.integer):
        raise TypeError(
            f"For 'embedding', 'input' must be an integer Tensor, but got dtype "
            f"{jnp.asarray(ids).dtype}."
        )
    if padding_idx is not None:
        rows = jnp.arange(table.shape[0])[:, None]
        table = jnp.where(rows == padding_idx % table.shape[0], lax.stop_gradient(table), table)
    out = jnp.take(table, ids, axis=0)
    if max_norm is not None:
        norm = jnp.linalg.norm(out, ord=norm_type, axis=-1, keepdims=True)
        out = out * jnp.minimum(1.0, max_norm / (norm + 1e-7))
    return wrap(out)


def pixel_shuffle(input, upscale_factor):
    r"""Rearrange :math:`(*, C r^2, H, W)` into :math:`(*, C, H r, W r)`.

    Raises:
        ValueError: If the channel count is not divisible by ``upscale_factor ** 2``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.pixel_shuffle(ms.ops.ones((1, 8, 2, 3)), 2).shape
        (1, 2, 4, 6)
    """
    x, r = arr(input), int(upscale_factor)
    if x.ndim < 3 or r <= 0 or x.shape[-3] % (r * r):
        raise ValueError(
            f"For 'pixel_shuffle', 'input' must be at least 3-D with channels divisible by "
            f"upscale_factor**2={r * r}, but got shape {tuple(x.shape)}."
        )
    *lead, c, h, w = x.shape
    out = x.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    k = len(lead)
    out = out.transpose(tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2))
    return wrap(out.reshape(tuple(lead) + (c // (r * r), h * r, w * r)))


def pixel_unshuffle(input, downscale_factor):
    r"""The inverse of :func:`pixel_shuffle`: :math:`(*, C, H r, W r) \to (*, C r^2, H, W)`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.pixel_unshuffle(ms.ops.ones((1, 2, 4, 6)), 2).shape
        (1, 8, 2, 3)
    """
    x, r = arr(input), int(downscale_factor)
    if x.ndim < 3 or r <= 0 or x.shape[-1] % r or x.shape[-2] % r:
        raise ValueError(
            f"For 'pixel_unshuffle', the last two dims of 'input' must be divisible by "
            f"downscale_factor={r}, but got shape {tuple(x.shape)}."
        )
    *lead, c, h, w = x.shape
    k = len(lead)
    out = x.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    out = out.transpose(tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3))
    return wrap(out.reshape(tuple(lead) + (c * r * r, h // r, w // r)))


def _unfold_array(x, kernel, dilation, padding, stride):
    patches = lax.conv_general_dilated_patches(
        x,
        kernel,
        stride,
        [(p, p) for p in padding],
        rhs_dilation=dilation,
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
    )
    return patches.reshape(patches.shape[:2] + (-1,))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    r"""im2col: sliding :math:`k_h \times k_w` blocks of an NCHW input as columns
    :math:`(N, C k_h k_w, L)`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.unfold(ms.ops.ones((1, 2, 4, 4)), kernel_size=2, stride=2).shape
        (1, 8, 4)
    """
    api = "unfold"
    x = arr(input)
    _check_rank(api, x, (4,))
    args = [
        _ntuple(api, n, v, 2, m)
        for n, v, m in (
            ("kernel_size", kernel_size, 1),
            ("dilation", dilation, 1),
            ("padding", padding, 0),
            ("stride", stride, 1),
        )
    ]
    return wrap(_unfold_array(x, *args))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    r"""col2im, the adjoint of :func:`unfold`: sum the columns :math:`(N, C k_h k_w, L)` back
    into an :math:`(N, C, H, W)` image (overlapping blocks add up).

    Examples:
        >>> import cellax as ms
        >>> cols = ms.ops.ones((1, 4, 4))
        >>> print(ms.ops.fold(cols, (3, 3), kernel_size=2)[0, 0])
        [[1. 2. 1.]
         [2. 4. 2.]
         [1. 2. 1.]]
    """
    api = "fold"
    cols = arr(input)
    _check_rank(api, cols, (3,))
    if not isinstance(output_size, (tuple, list, int)):
        output_size = tuple(int(v) for v in np.asarray(arr(output_size)).reshape(-1))
    size = _ntuple(api, "output_size", output_size, 2)
    args = [
        _ntuple(api, n, v, 2, m)
        for n, v, m in (
            ("kernel_size", kernel_size, 1),
            ("dilation", dilation, 1),
            ("padding", padding, 0),
            ("stride", stride, 1),
        )
    ]
    k = args[0][0] * args[0][1]
    if cols.shape[1] % k:
        raise ValueError(
            f"For '{api}', dim 1 of 'input' must be divisible by the kernel size {k}, but got "
            f"shape {tuple(cols.shape)}."
        )
    image = jax.ShapeDtypeStruct((cols.shape[0], cols.shape[1] // k) + size, cols.dtype)
    expected = jax.eval_shape(lambda im: _unfold_array(im, *args), image).shape
    if expected != cols.shape:
        raise ValueError(
            f"For '{api}', 'input' must have shape {expected} for output_size {size}, but got "
            f"{tuple(cols.shape)}."
        )
    transpose = jax.linear_transpose(lambda im: _unfold_array(im, *args), image)
    return wrap(transpose(cols)[0])


def dense(input, weight, bias=None):
    r"""``input @ weight.T + bias``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0]]), ms.Tensor([0.5])))
        [[3.5]]
    """
    x, w = arr(input), arr(weight)
    if x.shape[-1] != w.shape[-1]:
        raise ValueError(
            f"For 'dense', the last dimension of 'input' must equal weight.shape[-1]="
            f"{w.shape[-1]}, but got input shape {tuple(x.shape)}."
        )
    out = jnp.matmul(x, w.T) if w.ndim == 2 else jnp.matmul(x, w)
    if bias is not None:
        out = out + arr(bias)
    return wrap(out)
