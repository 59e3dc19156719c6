"""Max, average and adaptive pooling (channel-first layouts)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ... import _dtype
from ..._limits import check_alloc
from .convolution import _check_rank, _same_pads, check_pad_mode, explicit_pads, ntuple
from .dtype_rules import check_accepts
from .cpu_kernels import tiled_max, tiles
from .eager import fused
from .utils import arr, check_real, check_window_fits, to_float, wrap

__all__ = [
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
    "lp_pool1d",
    "lp_pool2d",
    "adaptive_max_pool3d",
    "adaptive_avg_pool2d_ext",
]


# -- pooling ----------------------------------------------------------------------------------
def _pool_geometry(
    api,
    n,
    shape,
    kernel_size,
    stride,
    pad_mode,
    padding,
    dilation,
    ceil_mode,
    arg_error=TypeError,
    window_error=ValueError,
):
    """Kernel, stride, dilation and the (explicit pads, extra ceil-mode pads) per spatial dim.
    An argument of the wrong kind is ``arg_error``, a window larger than the padded input
    ``window_error`` (each MindSpore's type for the calling op)."""
    kernel = ntuple(api, "kernel_size", kernel_size, n, error=arg_error)
    if stride is None or stride == ():
        stride = kernel
    else:
        stride = ntuple(api, "stride", stride, n, error=arg_error)
    dilation = ntuple(api, "dilation", dilation, n, error=arg_error)
    sizes = shape[2:]
    if pad_mode == "same":
        return kernel, stride, dilation, _same_pads(sizes, kernel, stride, dilation), [0] * n
    if pad_mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = explicit_pads(api, padding, n, error=arg_error)
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
            raise window_error(
                f"For '{api}', the padded input is smaller than the kernel: input shape "
                f"{tuple(shape)}, kernel_size {kernel}, dilation {dilation}."
            )
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= size + lo:
            out -= 1
        extra.append(max((out - 1) * s + (k - 1) * d + 1 - (size + lo + hi), 0))
    return kernel, stride, dilation, pads, extra


def _check_numeric(api, x, name="input"):
    """MindSpore's pooling kernels refuse Bool (JAX has no window rule for it either)."""
    if x.dtype == jnp.bool_:
        raise TypeError(
            f"For '{api}', '{name}' must be a numeric Tensor, but got a Bool Tensor. Cast it "
            f"first, e.g. x.astype(ms.float32)."
        )
    return x


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


@fused(static_argnums=(1, 2, 3, 4, 5))
def _reduce_windows(x, op, kernel, stride, dilation, pads):
    """The max (``op`` 'max') or sum ('add') of each window, from NumPy init values, so that
    JAX picks its differentiable window rules eagerly, under jit and on the gradient tape."""
    if op == "max":
        floating = _dtype.is_floating(x.dtype)
        if floating and tiles(kernel, stride, dilation, pads):
            return tiled_max(x, kernel)
        low = np.array(-np.inf if floating else np.iinfo(x.dtype).min, x.dtype)
        return _window(x, low, lax.max, kernel, stride, dilation, pads)
    return _window(x, np.array(0, x.dtype), lax.add, kernel, stride, dilation, pads)


def max_pool(
    api,
    n,
    x,
    kernel_size,
    stride,
    padding,
    dilation,
    ceil_mode,
    return_indices,
    pad_mode="pad",
    unbatched=True,
    arg_error=TypeError,
):
    """``unbatched``: a (C, *spatial) input is taken too (the nn Cells); else only batched.
    ``arg_error``: the type of the error for a window argument of the wrong kind."""
    value = arr(x)
    _check_rank(api, value, (n + 1, n + 2) if unbatched else (n + 2,))
    _check_numeric(api, value)
    unbatched = value.ndim == n + 1
    if unbatched:
        value = value[None]
    pad_mode = check_pad_mode(api, pad_mode)
    kernel, stride, dilation, pads, extra = _pool_geometry(
        api, n, value.shape, kernel_size, stride, pad_mode, padding, dilation, ceil_mode, arg_error
    )
    full = tuple((lo, hi + e) for (lo, hi), e in zip(pads, extra))
    low = -jnp.inf if _dtype.is_floating(value.dtype) else jnp.iinfo(value.dtype).min
    out = _reduce_windows(value, "max", kernel, stride, dilation, full)
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
        [(0, 0), (0, 0)] + list(full),
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
    return max_pool(
        "max_pool1d", 1, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )


def max_pool2d(
    x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
):
    r"""2-D max pooling over NCHW; arguments as :func:`max_pool1d`. As in MindSpore, the input
    must be 4-D (``nn.MaxPool2d`` also takes an unbatched CHW input).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.arange(16.0).reshape(1, 1, 4, 4)
        >>> out, idx = ms.ops.max_pool2d(x, 2, return_indices=True)
        >>> print(out.asnumpy().ravel(), idx.asnumpy().ravel())
        [ 5.  7. 13. 15.] [ 5  7 13 15]
    """
    check_accepts("max_pool2d", arr(x))  # MindSpore checks the dtype before the rank
    return max_pool(
        "max_pool2d",
        2,
        x,
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
        return_indices,
        unbatched=False,
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
    return max_pool(
        "max_pool3d", 3, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )


def avg_pool(
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
    *,
    allow_unbatched=True,
    window_error=RuntimeError,
):
    """``window_error``: the type of the error for a window larger than the padded input
    (MindSpore's AvgPool and AvgPool3D raise RuntimeError, ``mint``'s avg_pool2d ValueError)."""
    value = arr(input_x)
    _check_rank(api, value, (n + 1, n + 2) if allow_unbatched else (n + 2,), "input_x")
    _check_numeric(api, value, "input_x")
    unbatched = value.ndim == n + 1
    if unbatched:
        value = value[None]
    pad_mode = check_pad_mode(api, pad_mode)
    kernel, stride, dilation, pads, extra = _pool_geometry(
        api,
        n,
        value.shape,
        kernel_size,
        stride,
        pad_mode,
        padding,
        1,
        ceil_mode,
        window_error=window_error,
    )
    full = tuple((lo, hi + e) for (lo, hi), e in zip(pads, extra))
    total = _reduce_windows(value, "add", kernel, stride, dilation, full)
    if divisor_override:
        out = total / divisor_override
    else:
        # The divisor counts the input cells, plus the explicit padding with count_include_pad;
        # 'same' padding and the extra ceil-mode cells never count.
        ones = jnp.ones((1, 1) + value.shape[2:], value.dtype)
        # MindSpore's 3-D pooling counts its 'same' padding too; 1-D/2-D do not.
        if count_include_pad and (pad_mode == "pad" or (pad_mode == "same" and n == 3)):
            ones = jnp.pad(ones, [(0, 0), (0, 0)] + list(pads), constant_values=1)
            count_pads = tuple((0, e) for e in extra)
        else:
            count_pads = full
        counts = _reduce_windows(ones, "add", kernel, stride, dilation, count_pads)
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
    check_accepts("avg_pool1d", arr(input_x))  # MindSpore checks the dtype before the rank
    return avg_pool(
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

    Raises:
        ValueError: If ``input_x`` is not 4-D (as in MindSpore 2.10;
            ``mint.nn.functional.avg_pool2d`` also takes an unbatched CHW input).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.avg_pool2d(ms.ops.ones((1, 1, 5, 5)), 2, 2, ceil_mode=True).shape
        (1, 1, 3, 3)
    """
    check_accepts("avg_pool2d", arr(input_x))  # MindSpore checks the dtype before the rank
    return avg_pool(
        "avg_pool2d",
        2,
        input_x,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override,
        allow_unbatched=False,
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
    return avg_pool(
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


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _adaptive_sizes(api, n, shape, output_size, error=TypeError) -> tuple:
    """The output size per spatial dimension; a value of another kind is ``error``."""
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        output_size = (output_size,) * n
    # ints only (None keeps that dimension): MindSpore refuses a float size, not truncates it
    if (
        not isinstance(output_size, (tuple, list))
        or len(output_size) != n
        or not all(o is None or _is_int(o) for o in output_size)
    ):
        raise error(
            f"For '{api}', 'output_size' must be an int or a tuple of {n} ints, but got "
            f"{output_size!r}."
        )
    sizes = tuple(shape[-n:][i] if o is None else int(o) for i, o in enumerate(output_size))
    if any(o <= 0 for o in sizes):
        raise ValueError(f"For '{api}', 'output_size' must be positive, but got {output_size!r}.")
    return sizes


def _adaptive(api, n, input, output_size, reducer, error=TypeError):
    x = arr(input)
    _check_rank(api, x, (n + 1, n + 2))
    sizes = _adaptive_sizes(api, n, x.shape, output_size, error)
    check_alloc(api, "output_size", x.shape[:-n] + sizes, x.dtype.itemsize)
    for axis, out in zip(range(x.ndim - n, x.ndim), sizes):
        check_alloc(api, "output_size", (out, x.shape[axis]))  # the window mask
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


def _check_divisible(api, input, output_size):
    """MindSpore's 1-D adaptive pools need the length to be a multiple of ``output_size``."""
    value = arr(input, api, tensor=True)
    _check_rank(api, value, (2, 3))
    length = value.shape[-1]
    if isinstance(output_size, int) and output_size > 0 and length % output_size:
        raise ValueError(
            f"For '{api}', input's last dimension must be divisible by output size {output_size}, "
            f"but got {length}."
        )


def adaptive_avg_pool1d(input, output_size):
    r"""Average pooling of :math:`(N, C, L)` to length ``output_size``: window ``i`` covers
    ``[floor(i L / out), ceil((i+1) L / out))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.adaptive_avg_pool1d(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2))
        [[[1.5 3.5]]]
    """
    _check_divisible("adaptive_avg_pool1d", input, output_size)
    return wrap(_adaptive("adaptive_avg_pool1d", 1, input, output_size, _mean_masked))


def adaptive_avg_pool2d(input, output_size):
    r"""Adaptive average pooling of NCHW (or CHW) to ``output_size`` (int or (h, w); None keeps
    that dimension).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.adaptive_avg_pool2d(ms.ops.ones((1, 3, 7, 5)), (2, None)).shape
        (1, 3, 2, 5)
    """
    return _adaptive_avg_pool2d(input, output_size)


def _adaptive_avg_pool2d(input, output_size, error=TypeError):
    """``adaptive_avg_pool2d``; an ``output_size`` of the wrong kind is ``error`` (ValueError
    for ``mint``'s, as MindSpore's AdaptiveAvgPool2DExt)."""
    check_accepts("adaptive_avg_pool2d", arr(input))  # the dtype before the rank, as MindSpore
    return wrap(_adaptive("adaptive_avg_pool2d", 2, input, output_size, _mean_masked, error))


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
    _check_divisible("adaptive_max_pool1d", input, output_size)
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
    return wrap(out), wrap(indices.astype(jnp.int64))  # Int64, as in MindSpore


def _lp_pool(api, nd, x, norm_type, kernel_size, stride, ceil_mode):
    value = to_float(arr(x, api, "x", tensor=True))
    norm_type = check_real(api, "norm_type", norm_type)
    _check_rank(api, value, (nd + 1, nd + 2), "x")
    kernel = ntuple(api, "kernel_size", kernel_size, nd)
    strides = kernel if stride is None else ntuple(api, "stride", stride, nd)
    spatial = value.shape[-nd:]
    check_window_fits(api, spatial, [(0, 0)] * nd, kernel, (1,) * nd, "x", RuntimeError)
    pads = []
    for size, k, s in zip(spatial, kernel, strides):
        out = -(-(size - k) // s) + 1 if ceil_mode else (size - k) // s + 1
        pads.append((0, max((out - 1) * s + k - size, 0)))
    lead = value.ndim - nd
    window = (1,) * lead + kernel
    step = (1,) * lead + strides
    padding = ((0, 0),) * lead + tuple(pads)
    total = jax.lax.reduce_window(value**norm_type, 0.0, jax.lax.add, window, step, padding)
    return wrap(total ** (1.0 / norm_type))


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    r"""Power-average pooling over the last dimension: :math:`(\sum x^p)^{1/p}` per window.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lp_pool1d(ms.Tensor([[[1., 2., 3., 4.]]]), 1, 2))
        [[[3. 7.]]]
    """
    return _lp_pool("lp_pool1d", 1, x, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    r"""Power-average pooling over the last two dimensions.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lp_pool2d(ms.ops.ones((1, 1, 2, 2)), 2, 2))
        [[[[2.]]]]
    """
    return _lp_pool("lp_pool2d", 2, x, norm_type, kernel_size, stride, ceil_mode)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Adaptive max pooling of NCDHW (or CDHW); with ``return_indices`` also the Int32 flat
    indices (over D*H*W) of the maxima.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
        >>> out, idx = ms.ops.adaptive_max_pool3d(x, 1, True)
        >>> print(out.asnumpy().ravel(), idx.asnumpy().ravel())
        [7.] [7]
    """
    api = "adaptive_max_pool3d"
    out = _adaptive(api, 3, input, output_size, _max_masked)
    if not return_indices:
        return wrap(out)
    x = arr(input)
    sizes, outs = x.shape[-3:], out.shape[-3:]
    masks = []
    for size, o in zip(sizes, outs):
        starts, ends = _adaptive_bounds(size, o)
        idx = np.arange(size)
        masks.append(
            (idx[None] >= np.array(starts)[:, None]) & (idx[None] < np.array(ends)[:, None])
        )
    window = (
        masks[0][:, None, None, :, None, None]
        & masks[1][None, :, None, None, :, None]
        & masks[2][None, None, :, None, None, :]
    ).reshape(outs + (-1,))
    flat = x.reshape(x.shape[:-3] + (1, 1, 1, -1))
    indices = jnp.argmax(jnp.where(jnp.asarray(window), flat, -jnp.inf), axis=-1)
    return wrap(out), wrap(indices.astype(np.int32))


def adaptive_avg_pool2d_ext(input, output_size):
    """:func:`adaptive_avg_pool2d` (MindSpore 2.10 runs the ``_ext`` form on Ascend only).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.adaptive_avg_pool2d_ext(ms.ops.ones((1, 2, 5, 5)), (2, 3)).shape
        (1, 2, 2, 3)
    """
    return adaptive_avg_pool2d(input, output_size)
