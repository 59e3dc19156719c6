"""Image transforms on NumPy (HWC) arrays and PIL images, with Pillow for decoding/resizing.

Every transform is a callable object applied by ``Dataset.map`` (or called directly, eagerly).
Random transforms draw from ``cellax.dataset.config``'s generator (seeded by the dataset seed).
"""

from __future__ import annotations

import io
import math
import numbers

import numpy as np

from .. import config
from ._resize import resize_linear, resize_nearest
from ._utils import Border, Inter

__all__ = [
    "Decode",
    "Resize",
    "CenterCrop",
    "Crop",
    "RandomCrop",
    "RandomResizedCrop",
    "RandomHorizontalFlip",
    "RandomVerticalFlip",
    "HorizontalFlip",
    "VerticalFlip",
    "Normalize",
    "Rescale",
    "HWC2CHW",
    "ToTensor",
    "ToPIL",
    "Pad",
]

_PIL_FILTERS = {
    Inter.NEAREST: 0,  # Image.NEAREST
    Inter.LINEAR: 2,  # Image.BILINEAR
    Inter.CUBIC: 3,  # Image.BICUBIC
    Inter.PILCUBIC: 3,
    Inter.AREA: 4,  # Image.BOX
    Inter.ANTIALIAS: 1,  # Image.LANCZOS
}


def decode_image(raw) -> np.ndarray:
    """Decode encoded image bytes (a uint8 array) into RGB HWC uint8."""
    from PIL import Image

    data = np.asarray(raw, np.uint8).tobytes() if not isinstance(raw, bytes) else raw
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


def _is_pil(img) -> bool:
    from PIL import Image

    return isinstance(img, Image.Image)


def _hwc(api: str, img) -> np.ndarray:
    if _is_pil(img):
        return np.asarray(img)
    img = np.asarray(img)
    if img.ndim not in (2, 3):
        raise RuntimeError(
            f"For '{api}', the input must be an image of shape <H, W> or <H, W, C>, but got "
            f"shape {img.shape}."
        )
    return img


def _pair(api: str, size):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if size <= 0:
            raise ValueError(f"For '{api}', 'size' must be positive, but got {size}.")
        return int(size), int(size)
    if isinstance(size, (list, tuple)) and len(size) == 2 and all(int(s) > 0 for s in size):
        return int(size[0]), int(size[1])
    raise TypeError(f"For '{api}', 'size' must be a positive int or a (height, width) pair.")


def _resize_array(img: np.ndarray, height: int, width: int, interpolation) -> np.ndarray:
    from PIL import Image

    interpolation = Inter(interpolation)
    if interpolation == Inter.LINEAR:
        return resize_linear(img, height, width)
    if interpolation == Inter.NEAREST:
        return resize_nearest(img, height, width)
    resample = _PIL_FILTERS[interpolation]
    if img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4)):
        squeeze = img.ndim == 3 and img.shape[2] == 1
        pil = Image.fromarray(img[..., 0] if squeeze else img)
        out = np.asarray(pil.resize((width, height), resample))
        return out[..., None] if squeeze else out
    planes = img[..., None] if img.ndim == 2 else img
    out = np.stack(
        [
            np.asarray(
                Image.fromarray(planes[..., c].astype(np.float32), mode="F").resize(
                    (width, height), resample
                )
            )
            for c in range(planes.shape[2])
        ],
        axis=-1,
    ).astype(img.dtype)
    return out[..., 0] if img.ndim == 2 else out


class Decode:
    """Decode an encoded image (JPEG, PNG, BMP, ...) into RGB HWC uint8 (Pillow).

    Args:
        to_pil (bool): Return a PIL image. Default: ``False``.

    Raises:
        RuntimeError: If the data is not a decodable image.

    Examples:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellax.dataset import vision
        >>> buffer = io.BytesIO()
        >>> Image.new("RGB", (5, 2)).save(buffer, "PNG")
        >>> vision.Decode()(np.frombuffer(buffer.getvalue(), np.uint8)).shape
        (2, 5, 3)
    """

    def __init__(self, to_pil=False):
        self.to_pil = bool(to_pil)

    @property
    def _makes_pil(self) -> bool:  # read by transforms.Compose
        return self.to_pil

    def __call__(self, img):
        try:
            out = decode_image(img)
        except Exception as error:
            raise RuntimeError(
                f"For 'Decode', the image could not be decoded (the image is broken or not an "
                f"image): {error}"
            ) from error
        if self.to_pil:
            from PIL import Image

            return Image.fromarray(out)
        return out


class Resize:
    """Resize an image: an int ``size`` scales the shorter side to it (keeping the aspect
    ratio); a pair is ``(height, width)``.

    Args:
        size (Union[int, Sequence[int]]): The size.
        interpolation (Inter): Interpolation. Default: ``Inter.LINEAR``.

    ``Inter.LINEAR`` and ``Inter.NEAREST`` reproduce MindSpore's (OpenCV's) arithmetic,
    fixed-point weights of 8-bit images included.

    Differences from MindSpore: ``Inter.CUBIC``, ``Inter.AREA``, ``Inter.PILCUBIC`` and
    ``Inter.ANTIALIAS`` resample with Pillow, whose values differ from OpenCV's by a few levels.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Resize((4, 6))(np.zeros((8, 8, 3), np.uint8)).shape
        (4, 6, 3)
        >>> vision.Resize(4)(np.zeros((8, 16, 3), np.uint8)).shape
        (4, 8, 3)
    """

    def __init__(self, size, interpolation=Inter.LINEAR):
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            _pair("Resize", size)
            self.size = int(size)
        else:
            self.size = _pair("Resize", size)
        self.interpolation = Inter(interpolation)

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("Resize", img)
        h, w = img.shape[:2]
        if isinstance(self.size, int):
            if h <= w:
                height, width = self.size, int(w * self.size / h)
            else:
                height, width = int(h * self.size / w), self.size
        else:
            height, width = self.size
        out = _resize_array(img, height, width, self.interpolation)
        return _back(out, pil)


def _back(out, pil):
    if pil:
        from PIL import Image

        return Image.fromarray(out)
    return out


def _crop(img, top, left, height, width):
    return img[top : top + height, left : left + width]


class Crop:
    """Crop the region of ``size`` whose top-left corner is ``coordinates`` ``(top, left)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Crop((1, 2), (2, 3))(np.zeros((5, 5, 3))).shape
        (2, 3, 3)
    """

    def __init__(self, coordinates, size):
        self.top, self.left = int(coordinates[0]), int(coordinates[1])
        self.size = _pair("Crop", size)

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("Crop", img)
        h, w = img.shape[:2]
        if self.top + self.size[0] > h or self.left + self.size[1] > w:
            raise RuntimeError(
                f"For 'Crop', the crop {self.size} at ({self.top}, {self.left}) exceeds the "
                f"image size {(h, w)}."
            )
        return _back(_crop(img, self.top, self.left, *self.size), pil)


class CenterCrop:
    """Crop the center of an image (zero-padding first when the image is smaller).

    Args:
        size (Union[int, Sequence[int]]): Output ``(height, width)``, or an int for a square.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.CenterCrop(2)(np.arange(16).reshape(4, 4)).tolist()
        [[5, 6], [9, 10]]
    """

    def __init__(self, size):
        self.size = _pair("CenterCrop", size)

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("CenterCrop", img)
        height, width = self.size
        h, w = img.shape[:2]
        if h < height or w < width:
            pads = [(max(0, (height - h + 1) // 2),) * 2, (max(0, (width - w + 1) // 2),) * 2]
            img = np.pad(img, pads + [(0, 0)] * (img.ndim - 2))
            h, w = img.shape[:2]
        top, left = int(round((h - height) / 2.0)), int(round((w - width) / 2.0))
        return _back(_crop(img, top, left, height, width), pil)


def _pad_widths(padding):
    if isinstance(padding, numbers.Integral):
        return (padding,) * 4
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    return tuple(padding)  # left, top, right, bottom


def _pad(img, padding, fill_value, padding_mode):
    left, top, right, bottom = _pad_widths(padding)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    mode = Border(padding_mode).value
    if mode == "constant":
        if isinstance(fill_value, (tuple, list)) and img.ndim == 3:
            planes = [
                np.pad(img[..., c], widths[:2], constant_values=fill_value[c])
                for c in range(img.shape[2])
            ]
            return np.stack(planes, -1)
        return np.pad(img, widths, constant_values=fill_value)
    return np.pad(img, widths, mode=mode)


class Pad:
    """Pad the borders of an image.

    Args:
        padding (Union[int, Sequence[int]]): One width, ``(left/right, top/bottom)``, or
            ``(left, top, right, bottom)``.
        fill_value (Union[int, tuple[int]]): Constant fill. Default: ``0``.
        padding_mode (Border): Mode. Default: ``Border.CONSTANT``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Pad(1)(np.ones((2, 2, 3), np.uint8)).shape
        (4, 4, 3)
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding, self.fill_value, self.padding_mode = padding, fill_value, padding_mode

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("Pad", img)
        return _back(_pad(img, self.padding, self.fill_value, self.padding_mode), pil)


class RandomCrop:
    """Crop a random region of ``size`` (after optional padding).

    Args:
        size (Union[int, Sequence[int]]): Output ``(height, width)``.
        padding (Union[int, Sequence[int]]): Padding first. Default: ``None``.
        pad_if_needed (bool): Pad when the image is smaller than ``size``. Default: ``False``.
        fill_value (Union[int, tuple[int]]): Constant fill. Default: ``0``.
        padding_mode (Border): Mode. Default: ``Border.CONSTANT``.

    Raises:
        RuntimeError: If the (padded) image is smaller than ``size``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomCrop(28, padding=4)(np.zeros((28, 28, 3), np.uint8)).shape
        (28, 28, 3)
    """

    def __init__(
        self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT
    ):
        self.size = _pair("RandomCrop", size)
        self.padding, self.pad_if_needed = padding, bool(pad_if_needed)
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("RandomCrop", img)
        if self.padding is not None:
            img = _pad(img, self.padding, self.fill_value, self.padding_mode)
        height, width = self.size
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < height or w < width):
            extra_w, extra_h = max(0, width - w), max(0, height - h)
            img = _pad(img, (extra_w, extra_h), self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < height or w < width:
            raise RuntimeError(
                f"For 'RandomCrop', the crop size {self.size} is larger than the image size "
                f"{(h, w)}. Set 'padding' or 'pad_if_needed'."
            )
        rng = config.op_rng()
        top, left = int(rng.integers(h - height + 1)), int(rng.integers(w - width + 1))
        return _back(_crop(img, top, left, height, width), pil)


class RandomResizedCrop:
    """Crop a random region (area fraction in ``scale``, aspect ratio in ``ratio``) and resize
    it to ``size``.

    Args:
        size (Union[int, Sequence[int]]): Output ``(height, width)``.
        scale (tuple): Area fraction range. Default: ``(0.08, 1.0)``.
        ratio (tuple): Aspect ratio range. Default: ``(3/4, 4/3)``.
        interpolation (Inter): Interpolation. Default: ``Inter.BILINEAR``.
        max_attempts (int): Tries before falling back to a center crop. Default: ``10``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomResizedCrop(8)(np.zeros((20, 30, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(
        self,
        size,
        scale=(0.08, 1.0),
        ratio=(3.0 / 4.0, 4.0 / 3.0),
        interpolation=Inter.BILINEAR,
        max_attempts=10,
    ):
        self.size = _pair("RandomResizedCrop", size)
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        self.interpolation, self.max_attempts = Inter(interpolation), int(max_attempts)

    def _region(self, h, w, rng):
        area = h * w
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(*log_ratio))
            cw = int(round(math.sqrt(target * aspect)))
            ch = int(round(math.sqrt(target / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                return int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1)), ch, cw
        in_ratio = w / h
        if in_ratio < min(self.ratio):
            cw, ch = w, int(round(w / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            ch, cw = h, int(round(h * max(self.ratio)))
        else:
            cw, ch = w, h
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("RandomResizedCrop", img)
        top, left, ch, cw = self._region(*img.shape[:2], config.op_rng())
        out = _resize_array(_crop(img, top, left, ch, cw), *self.size, self.interpolation)
        return _back(out, pil)


class HorizontalFlip:
    """Flip an image left to right.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.HorizontalFlip()(np.array([[1, 2]])).tolist()
        [[2, 1]]
    """

    def __call__(self, img):
        pil = _is_pil(img)
        return _back(np.ascontiguousarray(_hwc("HorizontalFlip", img)[:, ::-1]), pil)


class VerticalFlip:
    """Flip an image upside down.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.VerticalFlip()(np.array([[1], [2]])).tolist()
        [[2], [1]]
    """

    def __call__(self, img):
        pil = _is_pil(img)
        return _back(np.ascontiguousarray(_hwc("VerticalFlip", img)[::-1]), pil)


class RandomHorizontalFlip:
    """Flip an image left to right with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomHorizontalFlip(1.0)(np.array([[1, 2]])).tolist()
        [[2, 1]]
    """

    def __init__(self, prob=0.5):
        if not 0 <= prob <= 1:
            raise ValueError(f"For 'RandomHorizontalFlip', 'prob' must be in [0, 1], got {prob}.")
        self.prob = float(prob)

    def __call__(self, img):
        if config.op_rng().random() < self.prob:
            return HorizontalFlip()(img)
        return img


class RandomVerticalFlip(RandomHorizontalFlip):
    """Flip an image upside down with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.RandomVerticalFlip(1.0)(np.array([[1], [2]])).tolist()
        [[2], [1]]
    """

    def __call__(self, img):
        if config.op_rng().random() < self.prob:
            return VerticalFlip()(img)
        return img


class Normalize:
    """``(image - mean) / std`` per channel, as float32.

    Args:
        mean (Sequence[float]): Per-channel means.
        std (Sequence[float]): Per-channel standard deviations.
        is_hwc (bool): Channels last (else first). Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> out = vision.Normalize([1.0], [2.0])(np.full((1, 1, 1), 5, np.uint8))
        >>> out.dtype, out.ravel().tolist()
        (dtype('float32'), [2.0])
    """

    def __init__(self, mean, std, is_hwc=True):
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        if np.any(self.std <= 0):
            raise ValueError(f"For 'Normalize', 'std' must be positive, but got {list(std)}.")
        self.is_hwc = bool(is_hwc)

    def __call__(self, img):
        img = _hwc("Normalize", img).astype(np.float32)
        shape = (-1,) if self.is_hwc else (-1, 1, 1)
        if img.ndim == 2:
            return (img - self.mean.reshape(-1)[0]) / self.std.reshape(-1)[0]
        return (img - self.mean.reshape(shape)) / self.std.reshape(shape)


class Rescale:
    """``image * rescale + shift``, as float32.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.Rescale(1.0 / 255.0, 0.0)(np.array([255], np.uint8)).tolist()
        [1.0]
    """

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def __call__(self, img):
        return np.asarray(img, np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class HWC2CHW:
    """Move the channel axis first: ``(H, W, C) -> (C, H, W)`` (``(H, W) -> (1, H, W)``).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.HWC2CHW()(np.zeros((28, 28, 1))).shape
        (1, 28, 28)
    """

    def __call__(self, img):
        img = _hwc("HWC2CHW", img)
        if img.ndim == 2:
            img = img[..., None]
        return np.ascontiguousarray(img.transpose(2, 0, 1))


class ToTensor:
    """HWC image (or PIL image) -> CHW array of ``output_type``, uint8 scaled by 1/255.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> out = vision.ToTensor()(np.full((2, 2, 3), 255, np.uint8))
        >>> out.shape, out.dtype, float(out.max())
        ((3, 2, 2), dtype('float32'), 1.0)
    """

    def __init__(self, output_type=np.float32):
        from ..transforms._transforms import np_dtype

        self.output_type = np_dtype("ToTensor", output_type)

    def __call__(self, img):
        img = _hwc("ToTensor", img)
        scaled = img / 255.0 if img.dtype == np.uint8 else img
        return HWC2CHW()(np.asarray(scaled, self.output_type))


class ToPIL:
    """Convert an HWC uint8 array into a PIL image.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> vision.ToPIL()(np.zeros((2, 3, 3), np.uint8)).size
        (3, 2)
    """

    _makes_pil = True  # read by transforms.Compose

    def __call__(self, img):
        from PIL import Image

        return img if _is_pil(img) else Image.fromarray(np.asarray(img))
