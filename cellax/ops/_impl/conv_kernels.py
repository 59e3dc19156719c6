"""The convolution kernel: XLA's convolution, or on CPU, where that is slow, a sum of taps.

XLA's CPU convolution is slow when each output channel reads one input channel: a 1-channel
input such as LeNet's first layer (~6x slower than the sum below) and, far more, depthwise
convolutions (~100x). There a convolution is a sum of one multiply per kernel tap, which XLA
fuses into one loop, and whose derivatives are fused loops too. Other backends and other
convolutions keep ``lax.conv_general_dilated`` (:func:`convolve` chooses).
Exporters trace under :class:`portable_convolutions`, so an exported program holds the
convolution primitive (ONNX's Conv; a MINDIR program may run on another backend).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = ["convolve", "portable_convolutions"]

_MAX_TAPS = 64  # kernels with more taps keep the convolution primitive
_TAPS = {"enabled": True}  # off while an exporter traces (portable_convolutions)


class portable_convolutions:
    """Within this context convolutions trace as ``lax.conv_general_dilated`` whatever the
    backend (an exporter maps that primitive onto its own Conv operator)."""

    def __enter__(self):
        self._before, _TAPS["enabled"] = _TAPS["enabled"], False

    def __exit__(self, *exc_info):
        _TAPS["enabled"] = self._before


def convolve(x, w, stride, pads, dilation, groups):
    """The N-d convolution of channel-first ``x`` by ``w`` (out, in / groups, k...), both of
    one dtype, with explicit ``pads`` ((lo, hi) per spatial dimension)."""
    if by_taps(x, w, groups):
        return conv_taps(x, w, stride, pads, dilation)
    spatial = "DHW"[3 - (x.ndim - 2) :]
    return lax.conv_general_dilated(
        x,
        w,
        stride,
        pads,
        dimension_numbers=("NC" + spatial, "OI" + spatial, "NC" + spatial),
        rhs_dilation=dilation,
        feature_group_count=groups,
    )


def by_taps(x, w, groups) -> bool:
    channels, out_channels = x.shape[1], w.shape[0]
    return (
        _TAPS["enabled"]
        and w.shape[1] == 1
        and (groups == 1 or (groups == channels and out_channels % channels == 0))
        and x.dtype in (jnp.float32, jnp.float64)
        and int(np.prod(w.shape[2:])) <= _MAX_TAPS
        and jax.default_backend() == "cpu"
    )


def conv_taps(x, w, stride, pads, dilation):
    """The convolution of ``x`` by ``w`` of shape (out, 1, k...) (1 input channel, or one per
    output channel group): ``sum over taps t of w[:, 0, t] * x shifted by t``."""
    n, out_channels = x.ndim - 2, w.shape[0]
    if x.shape[1] not in (1, out_channels):  # a depthwise channel multiplier
        x = jnp.repeat(x, out_channels // x.shape[1], axis=1)
    x = lax.pad(
        x, jnp.zeros((), x.dtype), ((0, 0, 0), (0, 0, 0)) + tuple((lo, hi, 0) for lo, hi in pads)
    )
    kernel = w.shape[2:]
    size = [(x.shape[2 + d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1 for d in range(n)]
    out = None
    for tap in np.ndindex(*kernel):
        start = [dilation[d] * tap[d] for d in range(n)]
        part = lax.slice(
            x,
            (0, 0, *start),
            (x.shape[0], x.shape[1], *(start[d] + stride[d] * (size[d] - 1) + 1 for d in range(n))),
            (1, 1, *stride),
        )
        term = w[(slice(None), 0) + tap].reshape((1, out_channels) + (1,) * n) * part
        out = term if out is None else out + term
    return out
