"""Convolution, its argument checks, unfold/fold and dense (channel-first layouts).

The nn layers call these functions, so each computation has one implementation. The checkers
``ntuple``/``explicit_pads`` are public-internal (used by ``nn/``, outside ``__all__``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ._utils import arr, wrap

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "unfold",
    "fold",
    "dense",
]


_PAD_MODES = ("same", "valid", "pad")


# -- argument checks ----------------------------------------------------------------------------
def ntuple(api: str, name: str, value, n: int, minimum: int = 1) -> tuple:
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


def explicit_pads(api: str, padding, n: int) -> list:
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
    stride = ntuple(api, "stride", stride, n)
    dilation = ntuple(api, "dilation", dilation, n)
    _check_channels(api, x, w.shape[1], groups)
    if pad_mode == "same":
        pads = _same_pads(x.shape[2:], w.shape[2:], stride, dilation)
    elif pad_mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = explicit_pads(api, padding, n)
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
    _check_rank(api, x, (n + 2,))
    _check_rank(api, w, (n + 2,), "weight")
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
        ntuple(api, n, v, 2, m)
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
    size = ntuple(api, "output_size", output_size, 2)
    args = [
        ntuple(api, n, v, 2, m)
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
