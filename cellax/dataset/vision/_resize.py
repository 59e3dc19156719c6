"""OpenCV-style resizing (what MindSpore's Resize runs): bilinear with half-pixel centres and
no antialiasing, and nearest with ``floor(x * scale)`` sources."""

from __future__ import annotations

import numpy as np

__all__ = ["resize_linear", "resize_nearest"]


def _linear_taps(out_size: int, in_size: int, clamp_weights: bool):
    """Source indices and weights. Horizontally OpenCV gives border pixels one tap (weight 1);
    vertically it keeps the weights and clamps the row indices."""
    scale = in_size / out_size
    pos = ((np.arange(out_size) + 0.5) * scale - 0.5).astype(np.float32)
    low = np.floor(pos).astype(np.int64)
    frac = pos - low.astype(np.float32)
    if clamp_weights:
        frac[low < 0] = 0.0
        frac[low >= in_size - 1] = 0.0
    high = np.clip(low + 1, 0, in_size - 1)
    low = np.clip(low, 0, in_size - 1)
    return low, high, frac


def _fixed(frac):
    """OpenCV's 11-bit fixed-point weights for 8-bit images."""
    low = np.rint((np.float32(1) - frac.astype(np.float32)) * np.float32(2048)).astype(np.int64)
    return low, 2048 - low


def resize_linear(img: np.ndarray, height: int, width: int) -> np.ndarray:
    """Bilinear resize of an ``(H, W)`` or ``(H, W, C)`` image to ``(height, width)``."""
    y0, y1, fy = _linear_taps(height, img.shape[0], clamp_weights=False)
    x0, x1, fx = _linear_taps(width, img.shape[1], clamp_weights=True)
    shape = (-1, 1) if img.ndim == 2 else (-1, 1, 1)  # weights along axis 0
    across = (1, -1) if img.ndim == 2 else (1, -1, 1)  # weights along axis 1
    if img.dtype == np.uint8:
        data = img.astype(np.int64)
        wx0, wx1 = _fixed(fx)
        wy0, wy1 = _fixed(fy)
        rows = data[:, x0] * wx0.reshape(across) + data[:, x1] * wx1.reshape(across)
        rows = rows >> 4  # OpenCV's vertical pass: 11-bit weights on rows shifted by 4
        top = (rows[y0] * wy0.reshape(shape)) >> 16
        bottom = (rows[y1] * wy1.reshape(shape)) >> 16
        return np.clip((top + bottom + 2) >> 2, 0, 255).astype(np.uint8)
    data = img.astype(np.float32)
    fx32 = fx.astype(np.float32).reshape(across)
    fy32 = fy.astype(np.float32).reshape(shape)
    rows = data[:, x0] * (1 - fx32) + data[:, x1] * fx32
    return (rows[y0] * (1 - fy32) + rows[y1] * fy32).astype(img.dtype)


def resize_nearest(img: np.ndarray, height: int, width: int) -> np.ndarray:
    """Nearest-neighbour resize (source index ``floor(i * in / out)``)."""
    ys = np.minimum(
        (np.arange(height) * (img.shape[0] / height)).astype(np.int64), img.shape[0] - 1
    )
    xs = np.minimum((np.arange(width) * (img.shape[1] / width)).astype(np.int64), img.shape[1] - 1)
    return img[ys][:, xs]
