"""Inverse of max pooling: max_unpool1d/2d/3d scatter pooled values back to their indices."""

from __future__ import annotations

import math

import jax.numpy as jnp

from .convolution import ntuple
from .utils import arr, wrap

__all__ = [
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]


def _output_size(api, dims, in_spatial, kernel, stride, padding, output_size, full_shape):
    default = tuple(
        (size - 1) * s - 2 * p + k for size, k, s, p in zip(in_spatial, kernel, stride, padding)
    )
    if output_size is None:
        return default
    size = tuple(int(v) for v in output_size)
    if len(size) == len(full_shape):
        size = size[-dims:]
    if len(size) != dims:
        raise ValueError(
            f"For '{api}', 'output_size' must have {dims} (or {len(full_shape)}) elements, but "
            f"got {tuple(output_size)}."
        )
    for got, base, s in zip(size, default, stride):
        if not base - s < got < base + s:
            raise ValueError(
                f"For '{api}', 'output_size' must be within one stride of the default "
                f"{default}, but got {size}."
            )
    return size


def _unpool(api, dims, x, indices, kernel_size, stride, padding, output_size):
    x = arr(x, api, "x", keep_scalars=False)
    idx = arr(indices, api, "indices", keep_scalars=False)
    if x.ndim not in (dims + 1, dims + 2):
        raise ValueError(
            f"For '{api}', 'x' must be {dims + 1}-D or {dims + 2}-D, but got {x.ndim}-D."
        )
    if idx.shape != x.shape:
        raise ValueError(
            f"For '{api}', 'indices' must have the shape of 'x' {tuple(x.shape)}, but got "
            f"{tuple(idx.shape)}."
        )
    kernel = ntuple(api, "kernel_size", kernel_size, dims)
    stride = kernel if stride is None or stride == 0 else ntuple(api, "stride", stride, dims)
    padding = ntuple(api, "padding", padding, dims, minimum=0)
    spatial = x.shape[-dims:]
    out_spatial = _output_size(api, dims, spatial, kernel, stride, padding, output_size, x.shape)
    lead = x.shape[:-dims]
    planes, size = math.prod(lead), math.prod(out_spatial)
    values = x.reshape(planes, -1)
    flat_idx = idx.reshape(planes, -1).astype(jnp.int32)
    rows = jnp.arange(planes)[:, None]
    out = jnp.zeros((planes, size), x.dtype).at[rows, flat_idx].set(values, mode="drop")
    return wrap(out.reshape(lead + tuple(out_spatial)))


def _doc(dims, shape_in, shape_out):
    return f"""Scatter the values of a max pooling back to the positions its indices name; every
    other output element is 0 (the partial inverse of ``max_pool{dims}d(..., return_indices=True)``).

    Args:
        x (Tensor): The pooled values, :math:`{shape_in}` (the batch dimension may be absent).
        indices (Tensor): The flat positions (within each output plane) of ``x``'s values, as
            the pooling returned them; ``x``'s shape.
        kernel_size (Union[int, tuple[int]]): The pooling window.
        stride (Union[int, tuple[int]]): The pooling stride. Default: ``None`` (``kernel_size``).
        padding (Union[int, tuple[int]]): The pooling padding. Default: ``0``.
        output_size (tuple[int]): The output's spatial size (or full shape); default
            ``(in - 1) * stride - 2 * padding + kernel_size`` per dimension.

    Returns:
        Tensor :math:`{shape_out}`, ``x``'s dtype.

    Raises:
        ValueError: If the ranks or shapes do not match or ``output_size`` is out of range.
"""


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)


max_unpool1d.__doc__ = (
    _doc(1, "(N, C, L_{in})", "(N, C, L_{out})")
    + """
    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[[2.0, 5.0]]])
        >>> print(ms.ops.max_unpool1d(x, ms.Tensor([[[1, 2]]]), 2))
        [[[0. 2. 5. 0.]]]
"""
)


max_unpool2d.__doc__ = (
    _doc(2, "(N, C, H_{in}, W_{in})", "(N, C, H_{out}, W_{out})")
    + """
    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
        >>> out, idx = ms.ops.max_pool2d(x, 2, return_indices=True)
        >>> print(ms.ops.max_unpool2d(out, idx, 2)[0, 0])
        [[ 0.  0.  0.  0.]
         [ 0.  5.  0.  7.]
         [ 0.  0.  0.  0.]
         [ 0. 13.  0. 15.]]
"""
)


max_unpool3d.__doc__ = (
    _doc(3, "(N, C, D_{in}, H_{in}, W_{in})", "(N, C, D_{out}, H_{out}, W_{out})")
    + """
    Examples:
        >>> import cellax as ms
        >>> out = ms.ops.max_unpool3d(ms.ops.ones((1, 1, 1, 1, 1)), ms.Tensor([[[[[7]]]]]), 2)
        >>> out.shape, float(out.sum()), float(out[0, 0, 1, 1, 1])
        ((1, 1, 2, 2, 2), 1.0, 1.0)
"""
)
