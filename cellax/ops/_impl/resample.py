"""Resampling and lookup: interpolation, padding, embedding lookup, pixel (un)shuffle,
``grid_sample``, ``affine_grid`` and ``ResizeNearestNeighbor``."""

from __future__ import annotations

import functools
import itertools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ... import _dtype
from ..._limits import check_alloc
from .convolution import _check_rank, ntuple
from .pooling import _adaptive_bounds
from .primitive import Primitive
from .utils import arr, check_index_range, check_int_arg, check_ints, check_rank, to_float, wrap

__all__ = [
    "interpolate",
    "pad",
    "embedding",
    "pixel_shuffle",
    "pixel_unshuffle",
    "grid_sample",
    "ResizeNearestNeighbor",
    "affine_grid",
]


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
        # MindSpore (TensorFlow's kernel) reads the cubic weights from a 1024-entry table: the
        # fractional offset is rounded to a multiple of 1/1024.
        t = np.round((src - base) * 1024) / 1024
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

    Differences from MindSpore: ``scale_factor`` without ``recompute_scale_factor=True``
    computes a result in cellax, where MindSpore 2.10 (CPU) raises ``ValueError`` ("'scale_factor'
    option cannot currently be set with the mode = ...") for the nearest (3-D and 4-D), linear,
    bilinear and bicubic modes; its area mode and 5-D inputs accept it. This superset is kept on
    purpose (code written for PyTorch-style ``interpolate`` runs unchanged); for code that must
    also run on MindSpore, pass ``size`` or ``recompute_scale_factor=True``, with which the
    results agree. cellax likewise accepts ``align_corners`` for the nearest and area modes,
    which MindSpore refuses.

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
        if isinstance(size, (tuple, list)) and len(size) != n:
            raise ValueError(  # a wrong length is a ValueError in MindSpore, a wrong kind a TypeError
                f"For '{api}', 'size' must have one value per spatial dimension of 'input' "
                f"({n} for input shape {tuple(x.shape)}), but got {size!r}."
            )
        sizes = ntuple(api, "size", size, n)
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
    check_alloc(api, "size" if size is not None else "scale_factor", x.shape[:2] + tuple(sizes), 4)
    kind = {"bicubic": "cubic", "bilinear": "linear", "trilinear": "linear"}.get(mode, mode)
    out = x if _dtype.is_floating(x.dtype) or kind == "nearest" else x.astype(jnp.float32)
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
        >>> print(ms.ops.pad(ms.Tensor([[1., 2.]]), (1, 1), value=9.))
        [[9. 1. 2. 9.]]
    """
    api = "pad"
    x = arr(input_x, tensor=True)
    padding = check_ints(api, "padding", padding, tensor=True)
    if isinstance(padding, int):
        padding = (padding,) * 2
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
    for size, (lo, hi) in zip(x.shape, widths):
        if min(lo, hi) < -size or size + lo + hi < 0:
            raise ValueError(
                f"For '{api}', 'padding' must crop no more than a dimension holds, but got "
                f"({lo}, {hi}) for a dimension of size {size}."
            )
    check_alloc(api, "padding", [s + lo + hi for s, (lo, hi) in zip(x.shape, widths)], 4)
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

    Out-of-range indices raise RuntimeError eagerly, as on MindSpore CPU. Under ``jit`` they are
    clamped, unless the function is compiled with ``jit(..., check_indices=True)``: then the
    error is raised after the run and no state update of the run is committed.

    Raises:
        TypeError: If ``input`` is not an integer Tensor.

    Examples:
        >>> import cellax as ms
        >>> table = ms.Tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> print(ms.ops.embedding(ms.Tensor([2, 1]), table))
        [[3. 4.]
         [1. 2.]]
    """
    ids, table = arr(input, tensor=True), arr(weight, tensor=True)
    check_rank("embedding", table, 2, "weight")
    if table.shape[0] == 0:  # MindSpore's Embedding checks the table before the indices
        raise ValueError(
            f"For 'embedding', the first dimension of 'weight' must be positive, but got shape "
            f"{tuple(table.shape)}."
        )
    if not _dtype.is_integer(jnp.asarray(ids).dtype):
        raise TypeError(
            f"For 'embedding', 'input' must be an integer Tensor, but got dtype "
            f"{jnp.asarray(ids).dtype}."
        )
    check_index_range("embedding", "input", ids, table.shape[0])
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
    x, r = arr(input, tensor=True), check_int_arg("pixel_shuffle", "upscale_factor", upscale_factor)
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
    x = arr(input, tensor=True)
    r = check_int_arg("pixel_unshuffle", "downscale_factor", downscale_factor)
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
    x, g = (
        arr(input, "grid_sample", keep_scalars=False),
        arr(grid, "grid_sample", "grid", keep_scalars=False),
    )
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
    t = to_float(arr(theta, api, "theta", keep_scalars=False))
    size = check_ints(api, "size", size, scalar=False)
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


# MindSpore's nn_func helpers of the mint API (not public ops names; model code imports them)
_pad = pad  # pad_ext's argument named ``pad`` shadows the function


def pad_ext(input, pad, mode="constant", value=None):
    """``mint.nn.functional.pad``: pad the last dimensions, ``pad`` listing (before, after)
    pairs from the last dimension back."""
    return _pad(input, pad, mode, value)


def _interploate_ext_make_tuple(input, value):
    """``value`` as one entry per spatial dimension of ``input`` (a list or tuple unchanged)."""
    if isinstance(value, (list, tuple)):
        return value
    return tuple(value for _ in range(input.ndim - 2))


def _interpolate_ext_scale_factor_convert_size(input, scale_factor):
    """The spatial output size ``floor(size * scale)`` for each scale factor."""
    shape = input.shape
    count = min(len(shape) - 2, len(scale_factor))
    return tuple(math.floor(shape[i + 2] * scale_factor[i]) for i in range(count))
