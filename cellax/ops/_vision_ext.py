"""Vision ops added for MindSpore 2.10 coverage: affine_grid, channel_shuffle,
lp_pool1d/lp_pool2d, lrn and combinations."""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np

from ._conv import ntuple
from ._utils import array, to_float, wrap

__all__ = [
    "affine_grid",
    "channel_shuffle",
    "lp_pool1d",
    "lp_pool2d",
    "lrn",
    "combinations",
]


def _linspace(n, align_corners):
    if n == 1:
        return np.zeros(1)
    base = np.linspace(-1.0, 1.0, n)
    return base if align_corners else base * (n - 1) / n


def affine_grid(theta, size, align_corners=False):
    """The sampling grid of a batch of affine maps ``theta`` (``(N, 2, 3)`` or ``(N, 3, 4)``)
    for an output of ``size`` (``(N, C, H, W)`` or ``(N, C, D, H, W)``), in [-1, 1] coordinates.

    Examples:
        >>> import cellax as ms
        >>> theta = ms.Tensor([[[1., 0., 0.], [0., 1., 0.]]])
        >>> ms.ops.affine_grid(theta, (1, 1, 2, 3)).shape
        (1, 2, 3, 2)
    """
    api = "affine_grid"
    t = to_float(array(theta, api, "theta"))
    size = tuple(int(s) for s in size)
    if len(size) == 4 and t.shape[-2:] == (2, 3):
        _, _, h, w = size
        ys, xs = np.meshgrid(
            _linspace(h, align_corners), _linspace(w, align_corners), indexing="ij"
        )
        base = np.stack([xs, ys, np.ones_like(xs)], -1)  # (H, W, 3)
    elif len(size) == 5 and t.shape[-2:] == (3, 4):
        _, _, d, h, w = size
        zs, ys, xs = np.meshgrid(
            _linspace(d, align_corners),
            _linspace(h, align_corners),
            _linspace(w, align_corners),
            indexing="ij",
        )
        base = np.stack([xs, ys, zs, np.ones_like(xs)], -1)
    else:
        raise ValueError(
            f"For '{api}', 'theta' must be (N, 2, 3) with a 4-D 'size' or (N, 3, 4) with a 5-D "
            f"'size', but got theta shape {tuple(t.shape)} and size {size}."
        )
    grid = jnp.einsum("...k,nck->n...c", jnp.asarray(base, t.dtype), t)
    return wrap(grid)


def channel_shuffle(x, groups):
    """Shuffle the channels (dim 1) of ``x`` in ``groups``: ``(N, g, C/g, ...)`` transposed to
    ``(N, C/g, g, ...)``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.arange(4).reshape(1, 4, 1)
        >>> print(ms.ops.channel_shuffle(x, 2).asnumpy().ravel())
        [0 2 1 3]
    """
    api = "channel_shuffle"
    value = array(x, api, "x")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError(f"For '{api}', 'groups' must be a positive int, but got {groups!r}.")
    if value.ndim < 3 or value.shape[1] % groups:
        raise ValueError(
            f"For '{api}', 'x' must be at least 3-D with channels divisible by groups {groups}, "
            f"but got shape {tuple(value.shape)}."
        )
    n, c = value.shape[:2]
    rest = value.shape[2:]
    out = value.reshape((n, groups, c // groups) + rest).swapaxes(1, 2).reshape(value.shape)
    return wrap(out)


def _lp_pool(api, nd, x, norm_type, kernel_size, stride, ceil_mode):
    value = to_float(array(x, api, "x"))
    kernel = ntuple(api, "kernel_size", kernel_size, nd)
    strides = kernel if stride is None else ntuple(api, "stride", stride, nd)
    spatial = value.shape[-nd:]
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


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    r"""Local response normalisation across channels of NCHW ``x``:
    :math:`x / (bias + alpha \sum_{|c' - c| \le r} x_{c'}^2)^{beta}`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lrn(ms.ops.ones((1, 2, 1, 1)), 1, 1.0, 1.0, 0.5).asnumpy().ravel())
        [0.57735026 0.57735026]
    """
    api = "lrn"
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(
            f"For '{api}', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}."
        )
    value = to_float(array(x, api, "x"))
    if value.ndim != 4:
        raise ValueError(f"For '{api}', 'x' must be 4-D (NCHW), but got shape {value.shape}.")
    r = int(depth_radius)
    squares = jnp.pad(value**2, ((0, 0), (r, r), (0, 0), (0, 0)))
    c = value.shape[1]
    total = sum(squares[:, i : i + c] for i in range(2 * r + 1))
    return wrap(value / (bias + alpha * total) ** beta)


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the 1-D ``input``, one per row (``itertools`` order).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.combinations(ms.Tensor([1, 2, 3])))
        [[1 2]
         [1 3]
         [2 3]]
    """
    api = "combinations"
    x = array(input, api)
    if x.ndim != 1:
        raise ValueError(f"For '{api}', 'input' must be 1-D, but got shape {x.shape}.")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(make(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if index.size == 0:
        return wrap(jnp.zeros((0,) if r != 1 else (0, 1), x.dtype))
    return wrap(x[jnp.asarray(index)])
