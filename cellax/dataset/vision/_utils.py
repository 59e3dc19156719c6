"""Enums of ``cellax.dataset.vision``."""

from __future__ import annotations

from enum import Enum

__all__ = ["Inter", "Border", "ImageBatchFormat"]


class Inter(str, Enum):
    """Interpolation modes of the resizing transforms.

    Examples:
        >>> from cellax.dataset.vision import Inter
        >>> Inter.BILINEAR is Inter.LINEAR
        True
    """

    NEAREST = "nearest"
    ANTIALIAS = "antialias"
    LINEAR = "linear"
    BILINEAR = "linear"
    CUBIC = "cubic"
    BICUBIC = "cubic"
    AREA = "area"
    PILCUBIC = "pilcubic"


class Border(str, Enum):
    """Padding modes.

    Examples:
        >>> from cellax.dataset.vision import Border
        >>> Border.CONSTANT.value
        'constant'
    """

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(str, Enum):
    """Layouts of image batches.

    Examples:
        >>> from cellax.dataset.vision import ImageBatchFormat
        >>> ImageBatchFormat.NHWC.value
        'nhwc'
    """

    NHWC = "nhwc"
    NCHW = "nchw"
