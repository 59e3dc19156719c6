"""mint.nn.functional sampling adapters: grid_sample and max_unpool2d (over cellax.ops)."""

from __future__ import annotations

from ... import ops

__all__ = ["grid_sample", "max_unpool2d"]


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` at the normalized ``grid`` coordinates; see
    :func:`cellax.ops.grid_sample` (``align_corners=None`` means False).

    Examples:
        >>> from cellax import mint
        >>> x = mint.arange(4, dtype=mint.Tensor(1.0).dtype).reshape(1, 1, 2, 2)
        >>> grid = mint.zeros((1, 1, 1, 2))
        >>> print(mint.nn.functional.grid_sample(x, grid, align_corners=True))
        [[[[1.5]]]]
    """
    return ops.grid_sample(input, grid, mode, padding_mode, bool(align_corners))


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Scatter ``input`` back to the positions ``indices`` of a ``max_pool2d``; see
    :func:`cellax.ops.max_unpool2d`.

    Examples:
        >>> from cellax import mint
        >>> out = mint.nn.functional.max_unpool2d(
        ...     mint.Tensor([[[[4.0]]]]), mint.Tensor([[[[3]]]]), 2)
        >>> print(out)
        [[[[0. 0.]
           [0. 4.]]]]
    """
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)
