"""Kernels cellax picks on CPU where XLA's own are slow: convolutions as sums of taps, and the
gradient of a max pool whose windows tile the input.

XLA's CPU convolution is slow when each output channel reads one input channel: depthwise
convolutions (~100x slower than the sum below) and a 1-channel input compiled on its own, as
LeNet's first layer is in PyNative (~6x; inside a whole compiled training step XLA's
convolution and its gradient win, W7). There a convolution is a sum of one multiply per
kernel tap, which XLA fuses into one loop, and whose derivatives are fused loops too. Other
backends and other convolutions keep ``lax.conv_general_dilated`` (:func:`by_taps`).
Exporters trace under :class:`portable_convolutions`, so an exported program holds the
convolution primitive (ONNX's Conv; a MINDIR program may run on another backend).

XLA's CPU gradient of a window max (select-and-scatter) is ~10x slower than a one-hot of
each window's first maximum, where the windows tile the input (:func:`tiles`); the one-hot is
the same selection, ties included (:func:`tiled_max`, called by ``pooling``).
"""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = ["convolve", "dimension_numbers", "portable_convolutions", "tiled_max", "tiles"]

_MAX_TAPS = 64  # kernels with more taps keep the convolution primitive
_TAPS = {"enabled": True}  # off while an exporter traces (portable_convolutions)


class portable_convolutions:
    """Within this context convolutions trace as ``lax.conv_general_dilated`` whatever the
    backend (an exporter maps that primitive onto its own Conv operator)."""

    def __enter__(self):
        self._before, _TAPS["enabled"] = _TAPS["enabled"], False

    def __exit__(self, *exc_info):
        _TAPS["enabled"] = self._before


def dimension_numbers(n: int) -> tuple:
    """MindSpore's channel-first layouts of an ``n``-d convolution, in ``lax``'s terms."""
    spatial = "DHW"[3 - n :]
    return ("NC" + spatial, "OI" + spatial, "NC" + spatial)


def convolve(x, w, stride, pads, dilation, groups, alone=True):
    """The N-d convolution of channel-first ``x`` by ``w`` (out, in / groups, k...), both of
    one dtype, with explicit ``pads`` ((lo, hi) per spatial dimension). ``alone``: the
    convolution is a program of its own (an eager op or a tape kernel), not part of a larger
    compiled one."""
    if by_taps(x, w, groups, alone):
        return conv_taps(x, w, stride, pads, dilation)
    return lax.conv_general_dilated(
        x,
        w,
        stride,
        pads,
        dimension_numbers=dimension_numbers(x.ndim - 2),
        rhs_dilation=dilation,
        feature_group_count=groups,
    )


def by_taps(x, w, groups, alone=True) -> bool:
    """Depthwise convolutions always; 1-channel inputs only as programs of their own (inside
    a compiled training step XLA's convolution and its gradient win there: W7)."""
    channels, out_channels = x.shape[1], w.shape[0]
    return (
        _TAPS["enabled"]
        and w.shape[1] == 1
        and (
            (groups == 1 and alone)
            or (groups == channels and out_channels % channels == 0 and channels > 1)
        )
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


def tiles(kernel, stride, dilation, pads) -> bool:
    """Windows that tile the input (stride = kernel, no dilation or padding) on CPU, where
    the gradient of XLA's window max (select-and-scatter) is ~10x slower than a one-hot."""
    return (
        stride == kernel
        and all(d == 1 for d in dilation)
        and all(p == (0, 0) for p in pads)
        and jax.default_backend() == "cpu"
    )


def _tile_view(x, kernel):
    """(N, C, *spatial) -> (N, C, *out, window): each window's elements last, row-major."""
    n, out = len(kernel), [size // k for size, k in zip(x.shape[2:], kernel)]
    x = x[(slice(None), slice(None)) + tuple(slice(0, o * k) for o, k in zip(out, kernel))]
    x = x.reshape(x.shape[:2] + tuple(v for o, k in zip(out, kernel) for v in (o, k)))
    order = (0, 1) + tuple(2 + 2 * i for i in range(n)) + tuple(3 + 2 * i for i in range(n))
    return x.transpose(order).reshape(x.shape[:2] + tuple(out) + (int(np.prod(kernel)),))


@ft.partial(jax.custom_jvp, nondiff_argnums=(1,))
def tiled_max(x, kernel):
    return jnp.max(_tile_view(x, kernel), axis=-1)


@tiled_max.defjvp
def tiled_max_jvp(kernel, primals, tangents):
    # the tangent at each window's first maximum, as XLA's select-and-scatter picks it; a
    # one-hot product, so the transpose (the gradient) is one fused multiply
    (x,), (t,) = primals, tangents
    windows = _tile_view(x, kernel)
    first = jnp.argmax(windows, axis=-1)[..., None] == jnp.arange(windows.shape[-1])
    picked = jnp.sum(jnp.where(first, _tile_view(t, kernel), 0), axis=-1)
    return jnp.max(windows, axis=-1), picked
