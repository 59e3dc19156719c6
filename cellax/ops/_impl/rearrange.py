"""Data movement: ``mirror_pad``, ``reverse_sequence``, ``batch_to_space_nd``/
``space_to_batch_nd``, ``unfold``/``fold``, ``col2im``, ``channel_shuffle``, ``padding``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._tensor import Tensor
from .convolution import _check_rank, ntuple
from .dtype_rules import check_accepts
from .utils import arr, check_window_fits, wrap

__all__ = [
    "mirror_pad",
    "reverse_sequence",
    "batch_to_space_nd",
    "space_to_batch_nd",
    "col2im",
    "padding",
    "unfold",
    "fold",
    "channel_shuffle",
]


def _ints(api, name, value):
    if isinstance(value, Tensor):
        value = value.asnumpy()
    try:
        if value is None or isinstance(value, (str, bytes, dict)):
            raise TypeError
        return np.asarray(value, np.int64)
    except (TypeError, ValueError):
        raise TypeError(f"For '{api}', '{name}' must hold ints, but got {value!r}.") from None


def mirror_pad(input_x, paddings, mode):
    """Pad by mirroring the edges: ``'REFLECT'`` leaves the edge out of the copy,
    ``'SYMMETRIC'`` repeats it.

    Args:
        input_x (Tensor): The input.
        paddings (Tensor): Int Tensor of shape ``(rank, 2)``: (before, after) per dim, at most the
            dim's size (less than it for ``'REFLECT'``).
        mode (str): ``'REFLECT'`` or ``'SYMMETRIC'``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
        >>> pads = ms.Tensor(np.array([[0, 0], [2, 1]], np.int32))
        >>> print(ms.ops.mirror_pad(x, pads, 'REFLECT'))
        [[3. 2. 1. 2. 3. 2.]]
    """
    api = "mirror_pad"
    data = arr(input_x, api, "input_x")
    if not isinstance(mode, str) or mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For '{api}', 'mode' must be 'REFLECT' or 'SYMMETRIC', got {mode!r}.")
    pads = _ints(api, "paddings", paddings)
    if pads.shape != (data.ndim, 2) or (pads < 0).any():
        raise ValueError(
            f"For '{api}', 'paddings' must be non-negative of shape ({data.ndim}, 2), but got "
            f"{pads.tolist()}."
        )
    limit = np.array(data.shape)[:, None] - (mode == "REFLECT")
    if (pads > limit).any():
        raise ValueError(
            f"For '{api}', 'paddings' {pads.tolist()} exceed what mode {mode!r} can mirror from "
            f"shape {tuple(data.shape)}."
        )
    return wrap(jnp.pad(data, [tuple(p) for p in pads.tolist()], mode.lower()))


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first ``seq_lengths[b]`` entries along ``seq_dim`` of each batch entry ``b``
    (along ``batch_dim``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        >>> print(ms.ops.reverse_sequence(x, ms.Tensor(np.array([2, 3], np.int32)), 1))
        [[1. 0. 2.]
         [5. 4. 3.]]
    """
    api = "reverse_sequence"
    data = arr(x, api, "x")
    if not isinstance(seq_lengths, Tensor) or seq_lengths.ndim != 1:
        raise TypeError(f"For '{api}', 'seq_lengths' must be a 1-D int Tensor.")
    lengths = seq_lengths._value
    seq_dim, batch_dim = seq_dim % data.ndim, batch_dim % data.ndim
    if seq_dim == batch_dim or lengths.shape[0] != data.shape[batch_dim]:
        raise ValueError(
            f"For '{api}', 'seq_dim' and 'batch_dim' must differ and 'seq_lengths' must have "
            f"{data.shape[batch_dim]} entries, but got {seq_dim}, {batch_dim}, "
            f"{lengths.shape[0]}."
        )
    steps = jnp.arange(data.shape[seq_dim])
    shape = [1] * data.ndim
    shape[batch_dim], shape[seq_dim] = -1, data.shape[seq_dim]
    n = lengths.reshape([-1 if i == batch_dim else 1 for i in range(data.ndim)])
    source = jnp.where(steps.reshape(shape) < n, n - 1 - steps.reshape(shape), steps.reshape(shape))
    source = jnp.broadcast_to(source, data.shape)
    return wrap(jnp.take_along_axis(data, source.astype(np.int32), axis=seq_dim))


def _blocks(api, block, m=None):
    values = _ints(api, "block_shape", block).reshape(-1)
    if m is not None and values.size == 1:
        values = np.repeat(values, m)
    if (values < 1).any():
        raise ValueError(f"For '{api}', the block sizes must be >= 1, but got {values.tolist()}.")
    return [int(v) for v in values]


def batch_to_space_nd(input_x, block_shape, crops):
    """Move blocks of the batch dimension into the spatial dims (the last ``len(block_shape)``
    dims) and crop: the inverse of :func:`space_to_batch_nd`.

    Args:
        input_x (Tensor): Shape :math:`(B, C, ...)`, ``B`` divisible by ``prod(block_shape)``.
        block_shape (Union[int, tuple[int]]): The block per spatial dim.
        crops (Union[tuple, list]): (start, end) crops per spatial dim.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(4, 1, 1, 1))
        >>> print(ms.ops.batch_to_space_nd(x, (2, 2), ((0, 0), (0, 0))))
        [[[[0. 1.]
           [2. 3.]]]]
    """
    api = "batch_to_space_nd"
    data = arr(input_x, api, "input_x")
    crop = _ints(api, "crops", crops).reshape(-1, 2)
    blocks = _blocks(api, block_shape, crop.shape[0])
    m = len(blocks)
    total = int(np.prod(blocks))
    if crop.shape[0] != m or data.ndim < m + 1 or data.shape[0] % total:
        raise ValueError(
            f"For '{api}', the input's batch {data.shape[0]} must divide by {total} and 'crops' "
            f"must give one (start, end) pair for each of the {m} spatial dims."
        )
    batch, rest, spatial = data.shape[0] // total, data.shape[1:-m], data.shape[-m:]
    y = data.reshape(blocks + [batch, *rest, *spatial])
    k = len(rest)
    # (b_1..b_m, N, rest, s_1..s_m) -> (N, rest, s_1, b_1, ..., s_m, b_m)
    order = [m] + [m + 1 + i for i in range(k)]
    for i in range(m):
        order += [m + 1 + k + i, i]
    y = jnp.transpose(y, order).reshape([batch, *rest] + [s * b for s, b in zip(spatial, blocks)])
    index = [slice(None)] * (1 + k)
    for (start, end), size in zip(crop.tolist(), y.shape[1 + k :]):
        if start < 0 or end < 0 or start + end > size:
            raise ValueError(f"For '{api}', 'crops' {crop.tolist()} do not fit size {size}.")
        index.append(slice(start, size - end))
    return wrap(y[tuple(index)])


def space_to_batch_nd(input_x, block_size, paddings):
    """Zero-pad the spatial dims (the last ``len(block_size)``) and move their blocks into the
    batch dimension.

    Args:
        input_x (Tensor): Shape :math:`(B, C, ...)`.
        block_size (Union[int, tuple[int]]): The block per spatial dim (an int for all).
        paddings (Union[tuple, list]): (before, after) per spatial dim; padded sizes must divide
            by the blocks.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
        >>> ms.ops.space_to_batch_nd(x, 2, ((0, 0), (0, 0))).shape
        (4, 1, 1, 1)
    """
    api = "space_to_batch_nd"
    data = arr(input_x, api, "input_x")
    pads = _ints(api, "paddings", paddings).reshape(-1, 2)
    blocks = _blocks(api, block_size, pads.shape[0])
    m = len(blocks)
    if pads.shape[0] != m or data.ndim < m + 1 or (pads < 0).any():
        raise ValueError(
            f"For '{api}', 'paddings' must give one non-negative (before, after) pair for each "
            f"of the {m} spatial dims, but got {pads.tolist()}."
        )
    lead = data.ndim - m
    x = jnp.pad(data, [(0, 0)] * lead + [tuple(p) for p in pads.tolist()])
    spatial = x.shape[lead:]
    if any(s % b for s, b in zip(spatial, blocks)):
        raise ValueError(
            f"For '{api}', the padded spatial shape {tuple(spatial)} must divide by the blocks "
            f"{tuple(blocks)}."
        )
    shape = list(x.shape[:lead])
    for s, b in zip(spatial, blocks):
        shape += [s // b, b]
    y = x.reshape(shape)
    # (N, rest, s_1, b_1, ..., s_m, b_m) -> (b_1..b_m, N, rest, s_1..s_m)
    order = [lead + 2 * i + 1 for i in range(m)] + list(range(lead))
    order += [lead + 2 * i for i in range(m)]
    y = jnp.transpose(y, order)
    return wrap(y.reshape([-1, *x.shape[1:lead]] + [s // b for s, b in zip(spatial, blocks)]))


def _pair(api, name, value):
    values = _ints(api, name, value).reshape(-1)
    if values.size == 1:
        values = np.repeat(values, 2)
    if values.size != 2:
        raise ValueError(f"For '{api}', '{name}' must be an int or 2 ints, but got {value!r}.")
    return [int(v) for v in values]


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """Sum sliding blocks back into images (the inverse layout of an im2col/unfold).

    Args:
        input_x (Tensor): Shape :math:`(N, C, K_h K_w, L)`, ``L`` the number of blocks.
        output_size (Tensor): The image's (H, W), an int Tensor.
        kernel_size, dilation, padding_value, stride (Union[int, tuple[int]]): Per (h, w).

    Returns:
        Tensor of shape :math:`(N, C, H, W)`.

    Raises:
        ValueError: If ``L`` is not the number of blocks these settings give.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
        >>> print(ms.ops.col2im(x, ms.Tensor(np.array([3, 3], np.int32)), 2, 1, 0, 1))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
    """
    api = "col2im"
    data = arr(input_x, api, "input_x")
    height, width = _pair(api, "output_size", output_size)
    (kh, kw), (dh, dw) = _pair(api, "kernel_size", kernel_size), _pair(api, "dilation", dilation)
    (ph, pw), (sh, sw) = _pair(api, "padding_value", padding_value), _pair(api, "stride", stride)
    bh = (height + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    bw = (width + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if data.ndim != 4 or data.shape[2] != kh * kw or data.shape[3] != bh * bw:
        raise ValueError(
            f"For '{api}', 'input_x' must have shape (N, C, {kh * kw}, {bh * bw}) for these "
            f"settings, but got {tuple(data.shape)}."
        )
    ki, kj, bi, bj = np.meshgrid(np.arange(kh), np.arange(kw), np.arange(bh), np.arange(bw),
                                 indexing="ij")  # fmt: skip
    rows = (bi * sh + ki * dh).reshape(-1)
    cols = (bj * sw + kj * dw).reshape(-1)
    out = jnp.zeros(data.shape[:2] + (height + 2 * ph, width + 2 * pw), data.dtype)
    values = data.reshape(data.shape[:2] + (-1,))
    out = out.at[..., rows, cols].add(values)
    return wrap(out[..., ph : ph + height, pw : pw + width])


def padding(x, pad_dim_size=8):
    """Extend the last dimension (of size 1) to ``pad_dim_size``, zeros after the value.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.padding(ms.Tensor(np.array([[1.0], [2.0]], np.float32)), 3))
        [[1. 0. 0.]
         [2. 0. 0.]]
    """
    api = "padding"
    data = arr(x, api, "x")
    if data.ndim < 1 or data.shape[-1] != 1:
        raise ValueError(
            f"For '{api}', the last dimension of 'x' must be 1, but got shape {tuple(data.shape)}."
        )
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, int) or pad_dim_size < 1:
        raise ValueError(f"For '{api}', 'pad_dim_size' must be an int >= 1, got {pad_dim_size}.")
    return wrap(jnp.pad(data, [(0, 0)] * (data.ndim - 1) + [(0, pad_dim_size - 1)]))


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
    x = arr(input, tensor=True)
    check_accepts(api, x)  # before the rank, as MindSpore's Im2Col
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
    kernel, dilations, pads, _ = args
    check_window_fits(api, x.shape[2:], [(p, p) for p in pads], kernel, dilations)
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
    value = arr(x, api, "x", keep_scalars=False)
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
