"""Colour transforms of ``cellax.dataset.vision`` (Pillow's ImageEnhance and HSV)."""

from __future__ import annotations

import numbers

import numpy as np

from .. import config
from ._transforms import _back, _hwc, _is_pil

__all__ = [
    "Grayscale",
    "RandomColorAdjust",
    "AutoContrast",
    "Invert",
    "Equalize",
    "RandomSolarize",
    "RandomPosterize",
    "RandomColor",
    "RandomSharpness",
    "ToType",
]


class Grayscale:
    """Convert an RGB image to grayscale (``num_output_channels`` 1 or 3).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Grayscale()(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 1)
    """

    def __init__(self, num_output_channels=1):
        self.num_output_channels = int(num_output_channels)

    def __call__(self, img):
        from PIL import Image

        pil = _is_pil(img)
        gray = np.asarray(Image.fromarray(_hwc("Grayscale", img)).convert("L"))[..., None]
        out = np.repeat(gray, self.num_output_channels, axis=-1)
        return _back(out[..., 0] if pil and self.num_output_channels == 1 else out, pil)


def _factor_range(api, name, value, center=1.0, bound=None):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"For '{api}', '{name}' must be non-negative, but got {value}.")
        low, high = max(0.0, center - value), center + value
        if bound is not None:
            low, high = max(-bound, -value), min(bound, value)
        return low, high
    return float(value[0]), float(value[1])


class RandomColorAdjust:
    """Randomly change brightness, contrast, saturation and hue (Pillow's ImageEnhance).

    Args:
        brightness (Union[float, Sequence[float]]): Factor range, or ``b`` for
            ``[max(0, 1 - b), 1 + b]``. Default: ``(1, 1)``.
        contrast (Union[float, Sequence[float]]): As brightness. Default: ``(1, 1)``.
        saturation (Union[float, Sequence[float]]): As brightness. Default: ``(1, 1)``.
        hue (Union[float, Sequence[float]]): Shift range in ``[-0.5, 0.5]``, or ``h`` for
            ``[-h, h]``. Default: ``(0, 0)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> op = vision.RandomColorAdjust(brightness=0.4, contrast=0.4, saturation=0.4)
        >>> op(np.full((4, 4, 3), 100, np.uint8)).shape
        (4, 4, 3)
    """

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        api = "RandomColorAdjust"
        self.brightness = _factor_range(api, "brightness", brightness)
        self.contrast = _factor_range(api, "contrast", contrast)
        self.saturation = _factor_range(api, "saturation", saturation)
        self.hue = _factor_range(api, "hue", hue, 0.0, 0.5)

    def __call__(self, img):
        from PIL import Image, ImageEnhance

        pil = _is_pil(img)
        image = img if pil else Image.fromarray(_hwc("RandomColorAdjust", img))
        rng = config.op_rng()
        steps = [
            (ImageEnhance.Brightness, self.brightness),
            (ImageEnhance.Contrast, self.contrast),
            (ImageEnhance.Color, self.saturation),
        ]
        for index in rng.permutation(4):
            if index < 3:
                enhancer, (low, high) = steps[index]
                if (low, high) != (1.0, 1.0):
                    image = enhancer(image).enhance(rng.uniform(low, high))
            elif self.hue != (0.0, 0.0) and image.mode == "RGB":
                shift = int(round(rng.uniform(*self.hue) * 255))
                h, s, v = image.convert("HSV").split()
                h = h.point(lambda x: (x + shift) % 256)
                image = Image.merge("HSV", (h, s, v)).convert("RGB")
        return image if pil else np.asarray(image)


def _uint8(api: str, img):
    """An HWC (or HW) uint8 array of ``img``, and whether it came as a PIL image."""
    pil = _is_pil(img)
    img = _hwc(api, img)
    if img.dtype != np.uint8:
        raise RuntimeError(f"For '{api}', the image must be uint8, but got {img.dtype}.")
    return img, pil


def _per_channel(img, fn):
    if img.ndim == 2:
        return fn(img)
    return np.stack([fn(img[..., c]) for c in range(img.shape[2])], axis=-1)


def _range(api: str, name: str, value, low=None, high=None):
    if isinstance(value, numbers.Number):
        value = (value, value)
    if not isinstance(value, (list, tuple)) or len(value) != 2 or value[0] > value[1]:
        raise TypeError(f"For '{api}', '{name}' must be a (min, max) pair, but got {value!r}.")
    if (low is not None and value[0] < low) or (high is not None and value[1] > high):
        raise ValueError(f"For '{api}', '{name}' must lie in [{low}, {high}], but got {value}.")
    return tuple(value)


class AutoContrast:
    """Stretch each channel's histogram to the full ``[0, 255]`` range, after cutting
    ``cutoff`` percent of the darkest and of the lightest pixels; ``ignore`` pixel values are
    left out of the histogram.

    Args:
        cutoff (float): Percent cut from each end of the histogram, in ``[0, 50)``.
            Default: ``0.0``.
        ignore (Union[int, Sequence[int]], optional): Values left out. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.AutoContrast()(np.array([[50, 100], [150, 150]], np.uint8)).tolist()
        [[0, 127], [255, 255]]
    """

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError(f"For 'AutoContrast', 'cutoff' must be in [0, 50), but got {cutoff}.")
        self.cutoff = float(cutoff)
        self.ignore = [] if ignore is None else [ignore] if np.isscalar(ignore) else list(ignore)

    def _channel(self, ch):
        hist = np.bincount(ch.ravel(), minlength=256).astype(np.int64)
        hist[self.ignore] = 0
        total = int(hist.sum())
        cut = int(total * self.cutoff / 100)
        low_cum, high_cum = np.cumsum(hist), np.cumsum(hist[::-1])
        lo = int(np.searchsorted(low_cum, cut, side="right"))
        hi = 255 - int(np.searchsorted(high_cum, cut, side="right"))
        if total == 0 or hi <= lo:
            return ch
        scale = np.float32(255.0 / (hi - lo))  # float32 arithmetic, truncated
        offset = np.float32(-lo) * scale
        lut = np.clip(np.floor(np.arange(256, dtype=np.float32) * scale + offset), 0, 255)
        return lut.astype(np.uint8)[ch]

    def __call__(self, img):
        img, pil = _uint8("AutoContrast", img)
        return _back(_per_channel(img, self._channel), pil)


class Invert:
    """Invert an uint8 image: ``255 - pixel``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Invert()(np.array([[0, 200]], np.uint8)).tolist()
        [[255, 55]]
    """

    def __call__(self, img):
        img, pil = _uint8("Invert", img)
        return _back(255 - img, pil)


def _equalize_channel(ch):
    hist = np.bincount(ch.ravel(), minlength=256)
    first = int(np.flatnonzero(hist)[0])
    if hist[first] == ch.size:
        return ch
    scale = 255.0 / (ch.size - hist[first])
    lut = np.clip(np.rint((np.cumsum(hist) - hist[first]) * scale), 0, 255).astype(np.uint8)
    lut[: first + 1] = 0
    return lut[ch]


class Equalize:
    """Equalize each channel's histogram (OpenCV's ``equalizeHist`` mapping).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Equalize()(np.array([[10, 20], [20, 30]], np.uint8)).tolist()
        [[0, 170], [170, 255]]
    """

    def __call__(self, img):
        img, pil = _uint8("Equalize", img)
        return _back(_per_channel(img, _equalize_channel), pil)


class RandomSolarize:
    """Invert the pixels inside a random threshold range: two integers are drawn from
    ``threshold``; when they are equal, ``t``, the pixels ``>= t`` are inverted, else those
    between the two (both included).

    Args:
        threshold (tuple): ``(min, max)`` in ``[0, 255]``. Default: ``(0, 255)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomSolarize((128, 128))(np.array([[100, 200]], np.uint8)).tolist()
        [[100, 55]]
    """

    def __init__(self, threshold=(0, 255)):
        self.threshold = _range("RandomSolarize", "threshold", threshold, 0, 255)

    def __call__(self, img):
        img, pil = _uint8("RandomSolarize", img)
        rng = config.op_rng()
        lo, hi = sorted(int(rng.integers(self.threshold[0], self.threshold[1] + 1)) for _ in "ab")
        inside = img >= lo if lo == hi else (img >= lo) & (img <= hi)
        return _back(np.where(inside, 255 - img, img).astype(np.uint8), pil)


class RandomPosterize:
    """Keep a random number of high bits (an integer drawn from ``bits``) of every pixel.

    Args:
        bits (Union[int, Sequence[int]]): ``(min, max)`` bits kept, in ``[1, 8]``.
            Default: ``(8, 8)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomPosterize((2, 2))(np.array([[255, 100]], np.uint8)).tolist()
        [[192, 64]]
    """

    def __init__(self, bits=(8, 8)):
        self.bits = _range("RandomPosterize", "bits", bits, 1, 8)

    def __call__(self, img):
        img, pil = _uint8("RandomPosterize", img)
        bits = int(config.op_rng().integers(self.bits[0], self.bits[1] + 1))
        return _back(img & np.uint8((0xFF << (8 - bits)) & 0xFF), pil)


def _blend(img, other, factor):
    """``img * factor + other * (1 - factor)`` in float32, rounded and saturated to uint8."""
    factor = np.float32(factor)
    mixed = img.astype(np.float32) * factor + other.astype(np.float32) * (np.float32(1) - factor)
    return np.clip(np.rint(mixed), 0, 255).astype(np.uint8)


class RandomColor:
    """Blend an RGB image with its grayscale version by a random factor from ``degrees``
    (0 gives gray, 1 the image, above 1 more saturated).

    Args:
        degrees (Sequence[float]): ``(min, max)`` factor range. Default: ``(0.1, 1.9)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomColor((0.0, 0.0))(np.array([[[255, 0, 0]]], np.uint8)).tolist()
        [[[76, 76, 76]]]
    """

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range("RandomColor", "degrees", degrees, 0)

    def __call__(self, img):
        img, pil = _uint8("RandomColor", img)
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"For 'RandomColor', the image must be RGB, got shape {img.shape}.")
        x = img.astype(np.int64)  # OpenCV's fixed-point RGB -> gray
        gray = (x[..., 0] * 4899 + x[..., 1] * 9617 + x[..., 2] * 1868 + (1 << 13)) >> 14
        factor = config.op_rng().uniform(*self.degrees)
        return _back(_blend(img, gray[..., None], factor), pil)


class RandomSharpness:
    """Blend an image with a smoothed copy (3x3 kernel, centre weight 5, borders kept) by a
    random factor from ``degrees`` (0 gives the smoothed image, above 1 sharpens).

    Args:
        degrees (Sequence[float]): ``(min, max)`` factor range. Default: ``(0.1, 1.9)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> img = np.zeros((3, 3), np.uint8)
        >>> img[1, 1] = 130
        >>> vision.RandomSharpness((0.0, 0.0))(img)[1, 1]
        np.uint8(50)
    """

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range("RandomSharpness", "degrees", degrees, 0)

    def __call__(self, img):
        img, pil = _uint8("RandomSharpness", img)
        factor = config.op_rng().uniform(*self.degrees)
        smooth = img.copy()
        if img.shape[0] > 2 and img.shape[1] > 2:
            x = img.astype(np.float32)
            h, w = img.shape[:2]
            acc = sum(x[i : i + h - 2, j : j + w - 2] for i in range(3) for j in range(3))
            acc = (acc + 4 * x[1:-1, 1:-1]) / np.float32(13)
            smooth[1:-1, 1:-1] = np.clip(np.rint(acc), 0, 255).astype(np.uint8)
        return _back(_blend(img, smooth, factor), pil)


class ToType:
    """Convert an image (NumPy array or PIL image) to a NumPy array of ``data_type``.

    Args:
        data_type (Union[cellax.dtype, numpy.dtype]): The target type.

    Raises:
        TypeError: If `data_type` is not a cellax or NumPy dtype.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.dataset import vision
        >>> vision.ToType(ms.int32)(np.array([[1.7, -2.2]], np.float32)).tolist()
        [[1, -2]]
    """

    def __init__(self, data_type):
        from ..transforms._transforms import np_dtype

        self.data_type = np_dtype("ToType", data_type)

    def __call__(self, image):
        return np.asarray(image).astype(self.data_type)
