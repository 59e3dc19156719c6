"""mint's batch-norm statistics helpers (the pieces of a synchronized BatchNorm) and conv_tbc.

Thin compositions of :mod:`cellax.ops` reductions and convolution: ``batch_norm_stats``
gives one device's per-channel mean and inverse standard deviation,
``batch_norm_gather_stats_with_counts`` merges several devices' statistics (and updates the
running statistics in place), ``batch_norm_elemt`` normalizes with given statistics.
"""

from __future__ import annotations

from .. import _dtype, ops
from .._parameter import Parameter

__all__ = [
    "batch_norm_stats",
    "batch_norm_gather_stats_with_counts",
    "batch_norm_elemt",
    "conv_tbc",
]


def _channel_view(t, ndim):
    """A per-channel (C,) Tensor shaped to broadcast against an (N, C, ...) input."""
    return ops.reshape(t, (1, -1) + (1,) * (ndim - 2))


def batch_norm_stats(input, eps):
    """Per-channel mean and ``1 / sqrt(biased variance + eps)`` of ``input`` (N, C, ...).

    Returns:
        tuple(Tensor, Tensor): ``(mean, invstd)``, each of shape (C,), Float32.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([[[1.0, 3.0]], [[5.0, 7.0]]])
        >>> mean, invstd = mint.batch_norm_stats(x, 0.0)
        >>> print(mean, invstd)
        [4.] [0.4472136]
    """
    x = input if input.dtype == _dtype.float32 else ops.cast(input, _dtype.float32)
    axes = tuple(i for i in range(x.ndim) if i != 1)
    mean = ops.mean(x, axes)
    var = ops.mean(ops.square(x - _channel_view(mean, x.ndim)), axes)
    return mean, ops.rsqrt(var + eps)


def batch_norm_gather_stats_with_counts(
    input, mean, invstd, running_mean=None, running_var=None, momentum=0.1, eps=1e-5, counts=None
):
    """Merge per-device statistics: ``mean``/``invstd`` of shape (D, C) computed over
    ``counts`` (D,) elements each. Updates ``running_mean``/``running_var`` in place
    (``(1 - momentum) * running + momentum * batch``, the variance unbiased).

    Returns:
        tuple(Tensor, Tensor): the global ``(mean, invstd)``, each (C,).

    Examples:
        >>> from cellax import mint
        >>> mean = mint.Tensor([[1.0], [3.0]])
        >>> invstd = mint.Tensor([[1.0], [1.0]])
        >>> m, s = mint.batch_norm_gather_stats_with_counts(
        ...     None, mean, invstd, eps=0.0, counts=mint.Tensor([2.0, 2.0]))
        >>> print(m, s)
        [2.] [0.70710677]
    """
    counts = ops.reshape(ops.cast(counts, mean.dtype), (-1, 1))
    total = ops.sum(counts)
    global_mean = ops.sum(mean * counts, 0) / total
    var_each = 1.0 / ops.square(invstd) - eps
    var = ops.sum(counts * (var_each + ops.square(mean - global_mean)), 0) / total
    for running, batch in ((running_mean, global_mean), (running_var, var * total / (total - 1))):
        if running is not None:
            new = running * (1 - momentum) + ops.cast(batch, running.dtype) * momentum
            if isinstance(running, Parameter):
                ops.assign(running, new)
            else:
                running.assign_value(new)
    return global_mean, ops.rsqrt(var + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-5):
    """``(input - mean) * invstd * weight + bias`` per channel (dimension 1) of ``input``.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([[[1.0, 3.0]], [[5.0, 7.0]]])
        >>> out = mint.batch_norm_elemt(x, mint.Tensor([2.0]), mint.Tensor([1.0]),
        ...                             mint.Tensor([4.0]), mint.Tensor([0.5]))
        >>> print(out.reshape(-1))
        [-2.  0.  2.  4.]
    """
    out = (input - _channel_view(mean, input.ndim)) * _channel_view(invstd, input.ndim)
    if weight is not None:
        out = out * _channel_view(weight, input.ndim)
    if bias is not None:
        out = out + _channel_view(bias, input.ndim)
    return out


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution in time-batch-channel layout: ``input`` (T, B, C_in), ``weight``
    (K, C_in, C_out), ``bias`` (C_out,); the output is (T + 2 * pad - K + 1, B, C_out).

    Examples:
        >>> from cellax import mint
        >>> out = mint.conv_tbc(mint.ones((5, 2, 3)), mint.ones((3, 3, 4)), mint.zeros(4), 1)
        >>> out.shape, float(out[0, 0, 0]), float(out[2, 0, 0])
        ((5, 2, 4), 6.0, 9.0)
    """
    x = ops.transpose(input, (1, 2, 0))  # (B, C_in, T)
    w = ops.transpose(weight, (2, 1, 0))  # (C_out, C_in, K)
    out = ops.conv1d(x, w, bias, pad_mode="pad" if pad else "valid", padding=pad)
    return ops.transpose(out, (2, 0, 1))
