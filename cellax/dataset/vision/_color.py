"""Colour transforms of ``cellax.dataset.vision`` (Pillow's ImageEnhance and HSV)."""

from __future__ import annotations

import numbers

import numpy as np

from .. import config
from ._transforms import _back, _hwc, _is_pil

__all__ = ["Grayscale", "RandomColorAdjust"]


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
