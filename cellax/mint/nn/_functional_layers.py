"""mint.nn.functional for layers and losses: conv, pool, norm, dropout, pad, losses.

Adapters over :mod:`cellax.ops` with PyTorch's argument names and defaults.
"""

from __future__ import annotations

from ... import _dtype, ops
from ...ops._impl import pooling
from ...ops._impl.dtype_rules import check_same_kind
from ...ops._impl.utils import arr

_SAME = [
    "adaptive_avg_pool3d", "broadcast_to",
    "clamp", "cosine_embedding_loss", "cross_entropy", "embedding", "fold", "group_norm",
    "interpolate", "l1_loss", "layer_norm", "pixel_shuffle", "soft_margin_loss",
    "unfold",
]  # fmt: skip
globals().update({name: getattr(ops, name) for name in _SAME})

__all__ = _SAME + [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d",
    "conv2d", "conv3d", "conv_transpose2d", "dropout", "dropout2d", "flatten", "kl_div",
    "linear", "max_pool2d", "mse_loss", "nll_loss", "normalize", "one_hot", "pad", "smooth_l1_loss",
    "upsample",
]  # fmt: skip


def _conv(fn, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        return fn(input, weight, bias, stride, padding, 0, dilation, groups)
    return fn(input, weight, bias, stride, "pad", padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution of ``(N, C_in, L)`` with ``(C_out, C_in / groups, K)`` weights;
    ``padding`` is an int, a tuple, ``'same'`` or ``'valid'``.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> F.conv1d(mint.ones((1, 2, 5)), mint.ones((3, 2, 3)), padding=1).shape
        (1, 3, 5)
    """
    return _conv(ops.conv1d, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution of ``(N, C_in, H, W)`` with ``(C_out, C_in / groups, kH, kW)`` weights.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> F.conv2d(mint.ones((1, 2, 5, 5)), mint.ones((3, 2, 3, 3))).shape
        (1, 3, 3, 3)
    """
    x = arr(input, "conv2d", "input", tensor=True)
    if x.ndim not in (3, 4):  # MindSpore's Conv2DExt: a RuntimeError
        raise RuntimeError(
            f"For 'conv2d', 'input' must be a 3-D (unbatched) or 4-D (batched) Tensor, but got "
            f"shape {tuple(x.shape)}."
        )
    if x.ndim == 3:
        batched = ops.unsqueeze(input, 0)
        out = _conv(ops.conv2d, batched, weight, bias, stride, padding, dilation, groups)
        return ops.squeeze(out, 0)
    return _conv(ops.conv2d, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution of ``(N, C_in, D, H, W)`` inputs.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> F.conv3d(mint.ones((1, 1, 3, 3, 3)), mint.ones((2, 1, 3, 3, 3))).shape
        (1, 2, 1, 1, 1)
    """
    return _conv(ops.conv3d, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """Transposed 2-D convolution; ``weight`` is ``(C_in, C_out / groups, kH, kW)``.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> F.conv_transpose2d(mint.ones((1, 2, 3, 3)), mint.ones((2, 4, 3, 3))).shape
        (1, 4, 5, 5)
    """
    return ops.conv_transpose2d(
        input, weight, bias, stride, padding, output_padding, groups, dilation
    )


def _stride(kernel_size, stride):
    return kernel_size if stride is None else stride


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):  # fmt: skip
    """1-D average pooling (``stride`` defaults to ``kernel_size``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.avg_pool1d(mint.Tensor([[[1., 3., 5., 7.]]]), 2))
        [[[2. 6.]]]
    """
    return ops.avg_pool1d(
        input, kernel_size, _stride(kernel_size, stride), padding, ceil_mode, count_include_pad
    )


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):  # fmt: skip
    """2-D average pooling (``stride`` defaults to ``kernel_size``).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.avg_pool2d(mint.ones((1, 1, 4, 4)), 2).shape
        (1, 1, 2, 2)
    """
    # MindSpore's avg_pool2d_ext takes an unbatched (C, H, W) input; ops.avg_pool2d does not
    return pooling.avg_pool(
        "avg_pool2d", 2, input, kernel_size, _stride(kernel_size, stride), padding, ceil_mode,
        count_include_pad, divisor_override or 0, window_error=ValueError,
    )  # fmt: skip


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):  # fmt: skip
    """3-D average pooling (``stride`` defaults to ``kernel_size``).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.avg_pool3d(mint.ones((1, 1, 4, 4, 4)), 2).shape
        (1, 1, 2, 2, 2)
    """
    return ops.avg_pool3d(
        input, kernel_size, _stride(kernel_size, stride), padding, ceil_mode,
        count_include_pad, divisor_override or 0,
    )  # fmt: skip


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):  # fmt: skip
    """2-D max pooling (``stride`` defaults to ``kernel_size``); with ``return_indices`` also
    the Int64 flat indices of the maxima within each plane.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.max_pool2d(mint.Tensor([[[[1., 2.], [3., 4.]]]]), 2))
        [[[[4.]]]]
    """
    out = pooling.max_pool(  # mint, as torch, takes an unbatched CHW input too
        "max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
        arg_error=ValueError,  # MindSpore's FuncMaxPool2D: "the value of 'stride' is invalid"
    )  # fmt: skip
    if return_indices:
        return out[0], ops.cast(out[1], _dtype.int64)
    return out


def adaptive_avg_pool2d(input, output_size):
    """2-D adaptive average pooling of ``(N, C, H, W)`` or ``(C, H, W)`` to ``output_size``
    (an int or (h, w); None keeps that dimension). An ``output_size`` that is not an int or a
    tuple of 2 is a ValueError, as MindSpore's AdaptiveAvgPool2DExt.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.adaptive_avg_pool2d(mint.ones((1, 3, 7, 5)), (2, None)).shape
        (1, 3, 2, 5)
    """
    return pooling._adaptive_avg_pool2d(input, output_size, ValueError)


def adaptive_avg_pool1d(input, output_size):
    """1-D adaptive average pooling of ``(N, C, L)`` or ``(C, L)`` to ``output_size``; ``L``
    need not be a multiple of ``output_size`` (unlike :func:`cellax.ops.adaptive_avg_pool1d`).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.adaptive_avg_pool1d(mint.Tensor([[[1., 2., 3.]]]), 2))
        [[[1.5 2.5]]]
    """
    out = ops.adaptive_avg_pool2d(ops.unsqueeze(input, -2), (1, output_size))
    return ops.squeeze(out, -2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """1-D adaptive max pooling to ``output_size`` (with the Int64 indices on request).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.adaptive_max_pool1d(mint.Tensor([[[1., 3., 2., 4.]]]), 2))
        [[[3. 4.]]]
    """
    if not return_indices:
        out = ops.adaptive_max_pool2d(ops.unsqueeze(input, -2), (1, output_size))
        return ops.squeeze(out, -2)
    values, indices = ops.adaptive_max_pool2d(ops.unsqueeze(input, -2), (1, output_size), True)
    return ops.squeeze(values, -2), ops.cast(ops.squeeze(indices, -2), _dtype.int64)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """2-D adaptive max pooling to ``output_size`` (with the Int64 indices on request).

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.adaptive_max_pool2d(mint.ones((1, 4, 4)), 2).shape
        (1, 2, 2)
    """
    out = ops.adaptive_max_pool2d(input, output_size, return_indices)
    if return_indices:
        return out[0], ops.cast(out[1], _dtype.int64)
    return out


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):  # fmt: skip
    """Batch normalisation over dim 1; in training the running statistics (Parameters) are
    updated in place with ``momentum``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> m, v = ms.Parameter(mint.zeros(1)), ms.Parameter(mint.ones(1))
        >>> print(mint.nn.functional.batch_norm(mint.Tensor([[1.], [3.]]), m, v, training=True,
        ...                                     eps=0.))
        [[-1.]
         [ 1.]]
    """
    return ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability ``p`` and scale the rest by ``1/(1-p)`` in training.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.dropout(mint.ones(3), p=0.0))
        [1. 1. 1.]
    """
    out = ops.dropout(input, p, training)
    if inplace:
        input.assign_value(out)
        return input
    return out


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of an ``(N, C, H, W)`` input with probability ``p`` in training.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.dropout2d(mint.ones((1, 2, 2, 2)), training=False).shape
        (1, 2, 2, 2)
    """
    out = ops.dropout2d(input, p, training)
    if inplace:
        input.assign_value(out)
        return input
    return out


def flatten(input, start_dim=0, end_dim=-1):
    """Flatten dimensions ``start_dim`` .. ``end_dim``.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.flatten(mint.ones((2, 3, 4))).shape
        (24,)
    """
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.linear(mint.Tensor([[1., 2.]]), mint.Tensor([[1., 1.]])))
        [[3.]]
    """
    x, w = arr(input, "linear", "input", tensor=True), arr(weight, "linear", "weight", tensor=True)
    check_same_kind("linear", input=x, weight=w)  # MindSpore's Dense: one dtype
    return ops.dense(input, weight, bias)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.normalize(mint.Tensor([[3., 4.]])))
        [[0.6 0.8]]
    """
    norm = ops.vector_norm(input, p, dim, True)
    return ops.div(input, ops.clamp(norm, min=eps))


def one_hot(tensor, num_classes=-1):
    """Int64 one-hot encoding with ``num_classes`` classes (``max + 1`` when -1, eager only).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.one_hot(mint.Tensor([0, 2])))
        [[1 0 0]
         [0 0 1]]
    """
    arr(tensor, "one_hot", "tensor", tensor=True)  # a Tensor: MindSpore refuses a number
    if num_classes == -1:
        num_classes = int(ops.amax(tensor).item()) + 1
    return ops.one_hot(tensor, num_classes, 1, 0).astype(_dtype.int64)


def pad(input, pad, mode="constant", value=None):
    """Pad the last dimensions; ``pad`` lists (before, after) pairs from the last dim back.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.pad(mint.Tensor([[1., 2.]]), (1, 1), value=9.))
        [[9. 1. 2. 9.]]
    """
    return ops.pad(input, pad, mode, value)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Alias of :func:`interpolate`.

    Examples:
        >>> from cellax import mint
        >>> mint.nn.functional.upsample(mint.ones((1, 1, 2, 2)), scale_factor=2.0).shape
        (1, 1, 4, 4)
    """
    return ops.interpolate(input, size, scale_factor, mode, align_corners)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """Binary cross entropy between probabilities ``input`` and ``target``.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> print(F.binary_cross_entropy(mint.Tensor([0.5]), mint.Tensor([1.])))
        0.6931472
    """
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None):  # fmt: skip
    """Binary cross entropy on logits ``input`` (sigmoid applied inside).

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> print(F.binary_cross_entropy_with_logits(mint.Tensor([0.]), mint.Tensor([1.])))
        0.6931472
    """
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input, target, reduction="mean", log_target=False):
    """Kullback-Leibler divergence of the log-probabilities ``input`` from ``target``
    (itself log-probabilities when ``log_target``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.kl_div(mint.Tensor([0.]), mint.Tensor([1.]), 'sum'))
        0.0
    """
    if log_target:
        target = ops.exp(target)
    return ops.kl_div(input, target, reduction)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of the log-probabilities ``input`` at the class ``target``.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> print(F.nll_loss(mint.Tensor([[-1., -2.]]), mint.Tensor([1])))
        2.0
    """
    x, y = arr(input, "nll_loss", "input", tensor=True), arr(target, "nll_loss", "target")
    if getattr(y, "ndim", 0) and x.ndim > 1 and x.shape[0] != y.shape[0]:
        raise ValueError(  # MindSpore checks the batch sizes before the target's dtype
            f"For 'nll_loss', the batch size of 'input' and 'target' must be equal, but got "
            f"{x.shape[0]} and {y.shape[0]}."
        )
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def mse_loss(input, target, reduction="mean"):
    """Mean squared error; ``input`` and ``target`` of one dtype (MindSpore's MSELossExt
    refuses an Int or Bool Tensor against a floating one).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.mse_loss(mint.Tensor([1., 2.]), mint.Tensor([1., 4.])))
        2.0
    """
    x = arr(input, "mse_loss", "input", tensor=True)
    check_same_kind("mse_loss", input=x, target=arr(target, "mse_loss", "target", tensor=True))
    return ops.mse_loss(input, target, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """Smooth L1 (Huber-like) loss with threshold ``beta``.

    Examples:
        >>> from cellax import mint
        >>> F = mint.nn.functional
        >>> print(F.smooth_l1_loss(mint.Tensor([0., 3.]), mint.Tensor([0.5, 0.])))
        1.3125
    """
    return ops.smooth_l1_loss(input, target, beta, reduction)
