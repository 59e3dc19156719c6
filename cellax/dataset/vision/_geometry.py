"""Geometric and erasing transforms of ``cellax.dataset.vision``: RandomAffine, RandomRotation,
GaussianBlur, RandomCropDecodeResize, RandomErasing.

Warps follow MindSpore's (OpenCV's) pixel grid: pixel centres at integer coordinates, the
default centre at ``((w - 1) / 2, (h - 1) / 2)``; they are resampled with Pillow."""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import config
from ._transforms import Decode, RandomResizedCrop, _back, _hwc, _is_pil
from ._utils import Inter

__all__ = [
    "RandomAffine",
    "RandomRotation",
    "GaussianBlur",
    "RandomCropDecodeResize",
    "RandomErasing",
]

_RESAMPLE = {Inter.NEAREST: 0, Inter.LINEAR: 2, Inter.CUBIC: 3}  # PIL's NEAREST/BILINEAR/BICUBIC


def _resample(api: str, resample) -> int:
    resample = Inter(resample)
    if resample not in _RESAMPLE:
        raise ValueError(
            f"For '{api}', 'resample' must be Inter.NEAREST, Inter.BILINEAR or Inter.BICUBIC, "
            f"but got {resample}."
        )
    return _RESAMPLE[resample]


def _fill(api: str, fill_value):
    if isinstance(fill_value, numbers.Integral) and 0 <= fill_value <= 255:
        return (int(fill_value),) * 3
    if isinstance(fill_value, (list, tuple)) and len(fill_value) == 3:
        return tuple(int(v) for v in fill_value)
    raise TypeError(
        f"For '{api}', 'fill_value' must be an int in [0, 255] or a 3-tuple, got {fill_value!r}."
    )


def _warp(img, inverse, size, resample: int, fill):
    """Resample ``img`` (HW or HWC) on a ``size`` = (width, height) grid: output pixel (x, y)
    reads input point ``inverse @ (x, y, 1)`` (OpenCV pixel coordinates)."""
    from PIL import Image

    (a, b, c), (d, e, f) = inverse
    # Pillow's pixel centres sit at +0.5.
    data = (a, b, c + 0.5 - 0.5 * (a + b), d, e, f + 0.5 - 0.5 * (d + e))
    channels = 1 if img.ndim == 2 else img.shape[2]
    if img.dtype == np.uint8 and (img.ndim == 2 or channels in (3, 4)):
        colour = fill[0] if img.ndim == 2 else (fill + (0,))[:channels]
        out = Image.fromarray(img).transform(size, Image.AFFINE, data, resample, fillcolor=colour)
        return np.asarray(out)
    planes = img[..., None] if img.ndim == 2 else img
    out = [
        np.asarray(
            Image.fromarray(planes[..., k].astype(np.float32), mode="F").transform(
                size, Image.AFFINE, data, resample, fillcolor=float(fill[min(k, 2)])
            )
        )
        for k in range(channels)
    ]
    out = np.stack(out, axis=-1).astype(img.dtype)
    return out[..., 0] if img.ndim == 2 else out


def _degrees(api: str, degrees):
    if isinstance(degrees, numbers.Number):
        if degrees < 0:
            raise ValueError(f"For '{api}', 'degrees' must be non-negative, but got {degrees}.")
        return -float(degrees), float(degrees)
    if isinstance(degrees, (list, tuple)) and len(degrees) == 2 and degrees[0] <= degrees[1]:
        return float(degrees[0]), float(degrees[1])
    raise TypeError(f"For '{api}', 'degrees' must be a number or a (min, max) pair.")


class RandomRotation:
    """Rotate an image counter-clockwise by a random angle from ``degrees``.

    Args:
        degrees (Union[float, Sequence[float]]): ``(min, max)``, or ``d`` for ``(-d, d)``.
        resample (Inter): ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
            Default: ``Inter.NEAREST``.
        expand (bool): Grow the output to hold the whole rotated image. Default: ``False``.
        center (tuple, optional): ``(x, y)`` centre of rotation, origin at the top-left pixel.
            Default: the image centre.
        fill_value (Union[int, tuple]): Value of the area outside the image. Default: ``0``.
            As in MindSpore 2.10, an RGB ``(r, g, b)`` fill is written as ``(b, g, r)``.

    Differences from MindSpore: ``Inter.NEAREST`` gives MindSpore's pixels (but for rare
    rounding ties); ``Inter.BILINEAR``/``BICUBIC`` resample with Pillow, which differs from
    OpenCV by a few levels inside the image and does not blend the fill into edge pixels.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> img = np.arange(6, dtype=np.uint8).reshape(2, 3)
        >>> vision.RandomRotation((180, 180))(img).tolist()
        [[5, 4, 3], [2, 1, 0]]
    """

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _degrees("RandomRotation", degrees)
        self.resample = _resample("RandomRotation", resample)
        self.expand, self.center = bool(expand), center
        # MindSpore 2.10 fills rotations in reversed channel order (an OpenCV BGR scalar).
        self.fill_value = _fill("RandomRotation", fill_value)[::-1]

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("RandomRotation", img)
        h, w = img.shape[:2]
        angle = math.radians(config.op_rng().uniform(*self.degrees))
        cx, cy = ((w - 1) / 2, (h - 1) / 2) if self.center is None else map(float, self.center)
        cos, sin = math.cos(angle), math.sin(angle)
        forward = np.array(
            [[cos, sin, (1 - cos) * cx - sin * cy], [-sin, cos, sin * cx + (1 - cos) * cy]]
        )
        size = (w, h)
        if self.expand:  # the rotated image's bounding box, centred
            box_w = h * abs(sin) + w * abs(cos)
            box_h = h * abs(cos) + w * abs(sin)
            forward[0, 2] += box_w / 2 - w / 2
            forward[1, 2] += box_h / 2 - h / 2
            size = (int(box_w), int(box_h))
        inverse = np.linalg.inv(np.vstack([forward, [0, 0, 1]]))[:2]
        return _back(_warp(img, inverse, size, self.resample, self.fill_value), pil)


def _uniform_pair(api, name, value, count):
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise TypeError(f"For '{api}', '{name}' must be a sequence of {count}, got {value!r}.")
    return tuple(float(v) for v in value)


class RandomAffine:
    """Apply a random affine transformation (rotation, translation, scale, shear) around the
    image centre.

    Args:
        degrees (Union[float, Sequence[float]]): Rotation range ``(min, max)``, or ``d`` for
            ``(-d, d)``.
        translate (Sequence[float], optional): ``(tx_min, tx_max)`` or ``(tx_min, tx_max,
            ty_min, ty_max)``, fractions of the width/height in ``[-1, 1]``. Default: ``None``.
        scale (Sequence[float], optional): ``(min, max)`` scale. Default: ``None`` (1).
        shear (Union[float, Sequence[float]], optional): ``s`` for an x shear in ``(-s, s)``,
            ``(x_min, x_max)``, or ``(x_min, x_max, y_min, y_max)``, in degrees.
            Default: ``None``.
        resample (Inter): As :class:`RandomRotation`. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple]): Value of the area outside the image. Default: ``0``.

    Differences from MindSpore: as :class:`RandomRotation` (``Inter.NEAREST`` matches).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> img = np.arange(4, dtype=np.uint8).reshape(1, 4)
        >>> vision.RandomAffine(0, translate=(0.25, 0.25))(img).tolist()
        [[0, 0, 1, 2]]
    """

    def __init__(
        self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0
    ):
        api = "RandomAffine"
        self.degrees = _degrees(api, degrees)
        self.translate = (0.0,) * 4
        if translate is not None:
            count = 4 if isinstance(translate, (list, tuple)) and len(translate) == 4 else 2
            translate = _uniform_pair(api, "translate", translate, count)
            if any(abs(t) > 1 for t in translate):
                raise ValueError(f"For '{api}', 'translate' must lie in [-1, 1], got {translate}.")
            self.translate = (translate + (0.0, 0.0))[:4]
        self.scale = (1.0, 1.0) if scale is None else _uniform_pair(api, "scale", scale, 2)
        if isinstance(shear, numbers.Number):
            shear = (-abs(float(shear)), abs(float(shear)))
        shear = (0.0, 0.0) if shear is None else tuple(float(s) for s in shear)
        if len(shear) not in (2, 4):
            raise TypeError(f"For '{api}', 'shear' must be a number or 2 or 4 numbers.")
        self.shear = (shear + (0.0, 0.0))[:4]
        self.resample = _resample(api, resample)
        self.fill_value = _fill(api, fill_value)

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("RandomAffine", img)
        h, w = img.shape[:2]
        rng = config.op_rng()
        angle = math.radians(rng.uniform(*self.degrees))
        tx = rng.uniform(*self.translate[:2]) * w
        ty = rng.uniform(*self.translate[2:]) * h
        scale = rng.uniform(*self.scale)
        sx, sy = (math.radians(rng.uniform(*self.shear[k : k + 2])) for k in (0, 2))
        # inverse of: translate . centre . rotate-scale-shear . centre^-1
        a = math.cos(angle - sy) / math.cos(sy)
        b = -math.cos(angle - sy) * math.tan(sx) / math.cos(sy) - math.sin(angle)
        c = math.sin(angle - sy) / math.cos(sy)
        d = -math.sin(angle - sy) * math.tan(sx) / math.cos(sy) + math.cos(angle)
        linear = np.array([[d, -b], [-c, a]]) / scale
        centre = np.array([(w - 1) / 2, (h - 1) / 2])
        offset = centre - linear @ (centre + np.array([tx, ty]))
        inverse = np.hstack([linear, offset[:, None]])
        return _back(_warp(img, inverse, (w, h), self.resample, self.fill_value), pil)


def _gaussian_kernel(size: int, sigma: float) -> np.ndarray:
    """OpenCV's 8-bit Gaussian kernel: weights in 1/256 steps summing to exactly 256."""
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    x = np.arange(size) - (size - 1) / 2
    weights = np.exp(-x * x / (2 * sigma * sigma))
    fixed = np.round(weights / weights.sum() * 256).astype(np.int64)
    fixed[size // 2] += 256 - fixed.sum()
    return fixed


def _filter_axis(values, kernel, axis):
    radius = len(kernel) // 2
    pad = [(0, 0)] * values.ndim
    pad[axis] = (radius, radius)
    padded = np.pad(values, pad, mode="reflect")  # OpenCV's BORDER_REFLECT_101
    n = values.shape[axis]
    return sum(int(k) * np.take(padded, range(i, i + n), axis=axis) for i, k in enumerate(kernel))


class GaussianBlur:
    """Blur an image with a Gaussian kernel.

    Args:
        kernel_size (Union[int, Sequence[int]]): Odd positive size, or ``(width, height)``.
        sigma (Union[float, Sequence[float]], optional): Standard deviation, or
            ``(sigma_x, sigma_y)``; ``None`` or 0 derives it from the size as OpenCV does.
            Default: ``None``.

    uint8 images use OpenCV's bit-exact 8-bit arithmetic (MindSpore's values); other dtypes
    are filtered in float64.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> img = np.zeros((5, 5), np.uint8)
        >>> img[2, 2] = 255
        >>> vision.GaussianBlur(3, 1.0)(img)[1:4, 1:4].tolist()
        [[19, 32, 19], [32, 52, 32], [19, 32, 19]]
    """

    def __init__(self, kernel_size, sigma=None):
        api = "GaussianBlur"
        sizes = [kernel_size] * 2 if isinstance(kernel_size, int) else list(kernel_size)
        if len(sizes) != 2 or any(not isinstance(k, int) or k <= 0 or k % 2 == 0 for k in sizes):
            raise ValueError(
                f"For '{api}', 'kernel_size' must be odd positive ints, but got {kernel_size}."
            )
        sigmas = [0.0, 0.0] if sigma is None else sigma
        sigmas = [float(sigmas)] * 2 if isinstance(sigmas, numbers.Number) else list(sigmas)
        if len(sigmas) != 2 or any(s < 0 for s in sigmas):
            raise ValueError(f"For '{api}', 'sigma' must be non-negative, but got {sigma}.")
        self.kernel_size, self.sigma = tuple(sizes), tuple(sigmas)

    def __call__(self, img):
        pil = _is_pil(img)
        img = _hwc("GaussianBlur", img)
        kx = _gaussian_kernel(self.kernel_size[0], self.sigma[0])
        ky = _gaussian_kernel(self.kernel_size[1], self.sigma[1] or self.sigma[0])
        if img.dtype == np.uint8:
            acc = _filter_axis(_filter_axis(img.astype(np.int64), kx, 1), ky, 0)
            out = np.clip((acc + (1 << 15)) >> 16, 0, 255).astype(np.uint8)
        else:
            acc = _filter_axis(_filter_axis(img.astype(np.float64), kx, 1), ky, 0)
            out = (acc / 65536.0).astype(img.dtype)
        return _back(out, pil)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image, crop a random region and resize it: :class:`Decode` followed
    by :class:`RandomResizedCrop` (same arguments).

    Examples:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellax.dataset import vision
        >>> buffer = io.BytesIO()
        >>> Image.new("RGB", (30, 20)).save(buffer, "JPEG")
        >>> vision.RandomCropDecodeResize(8)(np.frombuffer(buffer.getvalue(), np.uint8)).shape
        (8, 8, 3)
    """

    def __call__(self, img):
        return super().__call__(Decode()(img))


class RandomErasing:
    """Erase a random rectangle of a CHW image array (use after :class:`HWC2CHW`/``ToTensor``).

    Args:
        prob (float): Probability of erasing. Default: ``0.5``.
        scale (Sequence[float]): Erased area fraction range. Default: ``(0.02, 0.33)``.
        ratio (Sequence[float]): Aspect ratio range. Default: ``(0.3, 3.3)``.
        value (Union[float, Sequence[float], str]): Fill value, one per channel, or
            ``'random'`` for standard normal noise. Default: ``0``.
        inplace (bool): Erase in the input array. Default: ``False``.
        max_attempts (int): Tries to find a fitting rectangle. Default: ``10``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import vision
        >>> out = vision.RandomErasing(prob=1.0, scale=(0.25, 0.25), ratio=(1, 1))(
        ...     np.ones((3, 4, 4), np.float32))
        >>> int((out == 0).sum())
        12
    """

    def __init__(
        self,
        prob=0.5,
        scale=(0.02, 0.33),
        ratio=(0.3, 3.3),
        value=0,
        inplace=False,
        max_attempts=10,
    ):
        api = "RandomErasing"
        if not 0 <= prob <= 1:
            raise ValueError(f"For '{api}', 'prob' must be in [0, 1], but got {prob}.")
        if isinstance(value, str) and value != "random":
            raise ValueError(f"For '{api}', 'value' must be a number, a sequence or 'random'.")
        self.prob, self.value, self.inplace = float(prob), value, bool(inplace)
        self.scale = _uniform_pair(api, "scale", scale, 2)
        self.ratio = _uniform_pair(api, "ratio", ratio, 2)
        self.max_attempts = int(max_attempts)

    def __call__(self, img):
        img = np.asarray(img)
        if img.ndim != 3:
            raise RuntimeError(
                f"For 'RandomErasing', the input must be a CHW image, but got shape {img.shape}."
            )
        rng = config.op_rng()
        if rng.random() >= self.prob:
            return img
        channels, h, w = img.shape
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            area = h * w * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(*log_ratio))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if 0 < eh < h and 0 < ew < w:
                top, left = int(rng.integers(h - eh + 1)), int(rng.integers(w - ew + 1))
                if isinstance(self.value, str):
                    fill = rng.standard_normal((channels, eh, ew))
                else:
                    fill = np.reshape(np.asarray(self.value, np.float64), (-1, 1, 1))
                out = img if self.inplace else img.copy()
                out[:, top : top + eh, left : left + ew] = fill
                return out
        return img
