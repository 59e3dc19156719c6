"""Sampling an input at arbitrary normalized coordinates: grid_sample."""

from __future__ import annotations

import functools
import itertools

import jax
import jax.numpy as jnp

from ._utils import array, wrap

__all__ = ["grid_sample"]

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")


def _unnormalize(g, size, align_corners):
    if align_corners:
        return (g + 1) / 2 * (size - 1)
    return ((g + 1) * size - 1) / 2


def _reflect(x, twice_low, twice_high):
    if twice_low == twice_high:
        return jnp.zeros_like(x)
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    x = jnp.abs(x - low)
    extra = jnp.fmod(x, span)
    flips = jnp.floor(x / span)
    return jnp.where(jnp.fmod(flips, 2) == 0, extra + low, span - extra + low)


def _pad_coord(x, size, padding_mode, align_corners):
    """Source coordinate after the border/reflection rule (zeros: unchanged)."""
    if padding_mode == "border":
        return jnp.clip(x, 0, size - 1)
    if padding_mode == "reflection":
        if align_corners:
            x = _reflect(x, 0, 2 * (size - 1))
        else:
            x = _reflect(x, -1, 2 * size - 1)
        return jnp.clip(x, 0, size - 1)
    return x


def _gather(flat, spatial, coords):
    """Values of ``flat`` (N, C, P) at integer ``coords`` (one (N, *out) array per spatial
    axis, outermost first); out-of-range taps read 0. Returns (N, C, *out)."""
    valid = jnp.ones(coords[0].shape, bool)
    index = jnp.zeros(coords[0].shape, jnp.int32)
    for c, size in zip(coords, spatial):
        valid = valid & (c >= 0) & (c <= size - 1)
        index = index * size + jnp.clip(c, 0, size - 1).astype(jnp.int32)
    n = index.shape[0]
    values = jnp.take_along_axis(flat, index.reshape(n, 1, -1), axis=2)
    values = jnp.where(valid.reshape(n, 1, -1), values, 0)
    return values.reshape(flat.shape[:2] + coords[0].shape[1:])


def _check(input, grid, mode, padding_mode):
    api = "grid_sample"
    if input.ndim not in (4, 5):
        raise ValueError(
            f"For '{api}', 'input' must be 4-D or 5-D, but got {input.ndim}-D. Use (N, C, H, W) "
            f"or (N, C, D, H, W)."
        )
    spatial = input.ndim - 2
    want = (input.shape[0],) + grid.shape[1:-1] + (spatial,)
    if grid.ndim != input.ndim or grid.shape[0] != input.shape[0] or grid.shape[-1] != spatial:
        raise ValueError(
            f"For '{api}', 'grid' must have shape (N, *out, {spatial}) matching 'input' "
            f"{tuple(input.shape)}, but got {tuple(grid.shape)} (expected like {want})."
        )
    if mode not in _MODES:
        raise ValueError(
            f"For '{api}', 'mode' must be one of {list(_MODES)} (as MindSpore 2.10, no "
            f"'bicubic'), but got '{mode}'."
        )
    if padding_mode not in _PADDINGS:
        raise ValueError(
            f"For '{api}', 'padding_mode' must be one of {list(_PADDINGS)}, but got "
            f"'{padding_mode}'."
        )


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """Sample ``input`` at the normalized coordinates ``grid`` (PyTorch's ``grid_sample``).

    ``grid[..., 0]`` is the x (width) coordinate, ``grid[..., 1]`` y (height) and, for 5-D
    input, ``grid[..., 2]`` z (depth); ``-1`` and ``1`` are the centres of the first and last
    pixels when ``align_corners`` is True, else their outer edges.

    Args:
        input (Tensor): :math:`(N, C, H_{in}, W_{in})` or :math:`(N, C, D_{in}, H_{in}, W_{in})`.
        grid (Tensor): :math:`(N, H_{out}, W_{out}, 2)` or :math:`(N, D_{out}, H_{out}, W_{out},
            3)`.
        mode (str): ``'bilinear'`` or ``'nearest'`` (halves round away from zero). MindSpore
            2.10 rejects PyTorch's ``'bicubic'``, and so does cellax. Default: ``'bilinear'``.
        padding_mode (str): Values read outside the input: ``'zeros'``, ``'border'`` (the
            nearest edge value) or ``'reflection'``. Default: ``'zeros'``.
        align_corners (bool): See above. Default: ``False``.

    Returns:
        Tensor of shape :math:`(N, C, *out)`, ``input``'s dtype.

    Raises:
        ValueError: If the ranks or shapes do not match, or ``mode``/``padding_mode`` is
            unknown.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
        >>> grid = ms.Tensor([[[[-1.0, -1.0], [0.5, 0.2]], [[1.0, 1.0], [0.0, 0.0]]]])
        >>> print(ms.ops.grid_sample(x, grid))
        [[[[ 0.   10.1 ]
           [ 3.75  7.5 ]]]]
    """
    x, g = array(input, "grid_sample"), array(grid, "grid_sample", "grid")
    _check(x, g, mode, padding_mode)
    return wrap(_sample(x, g, mode, padding_mode, bool(align_corners)))


@functools.partial(jax.jit, static_argnums=(2, 3, 4))
def _sample(x, g, mode, padding_mode, align_corners):
    """The sampling on arrays, one compiled program per configuration (eager calls reuse it)."""
    spatial = x.shape[2:]
    flat = x.reshape(x.shape[:2] + (-1,))
    # grid's last axis is (x, y[, z]): reverse it to the input's (.., H, W) axis order
    coords = [
        _unnormalize(g[..., len(spatial) - 1 - axis].astype(jnp.float32), size, align_corners)
        for axis, size in enumerate(spatial)
    ]
    coords = [_pad_coord(c, s, padding_mode, align_corners) for c, s in zip(coords, spatial)]
    if mode == "nearest":
        # halves round away from zero, as MindSpore's kernels
        nearest = [jnp.sign(c) * jnp.floor(jnp.abs(c) + 0.5) for c in coords]
        return _gather(flat, spatial, nearest).astype(x.dtype)
    base = [jnp.floor(c) for c in coords]
    frac = [c - b for c, b in zip(coords, base)]
    out = 0.0
    for corner in itertools.product((0, 1), repeat=len(spatial)):
        w = 1.0
        for f, bit in zip(frac, corner):
            w = w * (f if bit else 1 - f)
        idx = [b + bit for b, bit in zip(base, corner)]
        out = out + _gather(flat, spatial, idx) * w[:, None].astype(flat.dtype)
    return out.astype(x.dtype)
