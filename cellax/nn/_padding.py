"""Padding, upsampling and pixel-shuffle layers."""

from __future__ import annotations

from ..ops._impl import resample
from ..ops._impl.utils import arr
from ._cell import Cell

__all__ = [
    "ZeroPad2d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "Upsample",
    "PixelShuffle",
    "PixelUnshuffle",
]


class _Pad(Cell):
    _nd = 2
    _mode = "constant"

    def __init__(self, padding, value=0.0) -> None:
        super().__init__()
        api, n = type(self).__name__, self._nd
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * n)
        if (
            not isinstance(padding, (tuple, list))
            or len(padding) != 2 * n
            or any(isinstance(p, bool) or not isinstance(p, int) for p in padding)
        ):
            raise TypeError(
                f"For '{api}', 'padding' must be an int or a tuple of {2 * n} ints, but got "
                f"{padding!r}."
            )
        self.padding, self.value = tuple(padding), value

    def construct(self, x):
        value = arr(x, tensor=True)
        if value.ndim < self._nd + 1:
            raise ValueError(
                f"For '{type(self).__name__}', 'x' must have at least {self._nd + 1} dims, but "
                f"got shape {tuple(value.shape)}."
            )
        return resample.pad(
            x, self.padding, self._mode, self.value if self._mode == "constant" else None
        )


class ZeroPad2d(_Pad):
    """Zero-pad the last two dims; ``padding`` is an int or (left, right, top, bottom).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ZeroPad2d((1, 1, 2, 0))(ms.ops.ones((1, 2, 3))).shape
        (1, 4, 5)
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)


class ConstantPad1d(_Pad):
    """Pad the last dim with ``value``; ``padding`` is an int or (left, right).

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ConstantPad1d((1, 0), 9.0)(ms.Tensor([[1.0]])))
        [[9. 1.]]
    """

    _nd = 1

    def __init__(self, padding, value) -> None:
        super().__init__(padding, value)


class ConstantPad2d(_Pad):
    """Pad the last two dims with ``value``; ``padding`` is an int or 4 ints.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ConstantPad2d(1, 0.5)(ms.ops.ones((1, 2, 3))).shape
        (1, 4, 5)
    """

    def __init__(self, padding, value) -> None:
        super().__init__(padding, value)


class ConstantPad3d(_Pad):
    """Pad the last three dims with ``value``; ``padding`` is an int or 6 ints.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ConstantPad3d(1, 0.5)(ms.ops.ones((1, 1, 2, 3))).shape
        (1, 3, 4, 5)
    """

    _nd = 3

    def __init__(self, padding, value) -> None:
        super().__init__(padding, value)


class ReflectionPad1d(_Pad):
    """Reflect-pad the last dim (the edge value is not repeated).

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ReflectionPad1d(2)(ms.Tensor([[1.0, 2.0, 3.0]])))
        [[3. 2. 1. 2. 3. 2. 1.]]
    """

    _nd, _mode = 1, "reflect"

    def __init__(self, padding) -> None:
        super().__init__(padding)


class ReflectionPad2d(_Pad):
    """Reflect-pad the last two dims.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ReflectionPad2d(1)(ms.ops.ones((1, 2, 3))).shape
        (1, 4, 5)
    """

    _mode = "reflect"

    def __init__(self, padding) -> None:
        super().__init__(padding)


class ReplicationPad1d(_Pad):
    """Pad the last dim by repeating the edge values.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ReplicationPad1d((1, 2))(ms.Tensor([[1.0, 2.0]])))
        [[1. 1. 2. 2. 2.]]
    """

    _nd, _mode = 1, "replicate"

    def __init__(self, padding) -> None:
        super().__init__(padding)


class ReplicationPad2d(_Pad):
    """Pad the last two dims by repeating the edge values.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ReplicationPad2d(1)(ms.ops.ones((1, 2, 3))).shape
        (1, 4, 5)
    """

    _mode = "replicate"

    def __init__(self, padding) -> None:
        super().__init__(padding)


class ReplicationPad3d(_Pad):
    """Pad the last three dims by repeating the edge values.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.ReplicationPad3d(1)(ms.ops.ones((1, 1, 2, 3))).shape
        (1, 3, 4, 5)
    """

    _nd, _mode = 3, "replicate"

    def __init__(self, padding) -> None:
        super().__init__(padding)


class Upsample(Cell):
    r"""Resize the spatial dims (see :func:`cellax.ops.interpolate`).

    Args:
        size (Union[int, tuple[int]]): Output spatial size. Default: ``None``.
        scale_factor (Union[float, tuple[float]]): Spatial multiplier. Default: ``None``.
        mode (str): ``'nearest'``, ``'linear'``, ``'bilinear'``, ``'bicubic'``,
            ``'trilinear'``, ``'area'``, ``'nearest-exact'``. Default: ``'nearest'``.
        align_corners (bool): Default: ``None``.
        recompute_scale_factor (bool): Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.Upsample(size=(4, 6), mode='bilinear')(ms.ops.ones((1, 1, 2, 3))).shape
        (1, 1, 4, 6)

    Differences from MindSpore: ``scale_factor`` works with every mode and rank.
    """

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode="nearest",
        align_corners=None,
        recompute_scale_factor=None,
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return resample.interpolate(
            x,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            self.recompute_scale_factor,
        )


class PixelShuffle(Cell):
    r"""Rearrange :math:`(*, C r^2, H, W)` to :math:`(*, C, H r, W r)`.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.PixelShuffle(3)(ms.ops.ones((1, 9, 4, 4))).shape
        (1, 1, 12, 12)
    """

    def __init__(self, upscale_factor) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):
        return resample.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    r"""Rearrange :math:`(*, C, H r, W r)` to :math:`(*, C r^2, H, W)`.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.PixelUnshuffle(3)(ms.ops.ones((1, 1, 12, 12))).shape
        (1, 9, 4, 4)
    """

    def __init__(self, downscale_factor) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):
        return resample.pixel_unshuffle(input, self.downscale_factor)
