"""The audio transforms' base class and shared NumPy helpers (input checks, windows, STFT)."""

from __future__ import annotations

import numpy as np

from .utils import BorderType, WindowType


class AudioTransform:
    """A callable applied by ``Dataset.map`` or eagerly to a NumPy array. Subclasses define
    ``_apply(waveform)`` on a floating array (integers and bools become float32)."""

    _keeps_dtype = False

    def __call__(self, *inputs):
        arrays = [_as_float(type(self).__name__, x, self._keeps_dtype) for x in inputs]
        return self._apply(*arrays)

    def _apply(self, waveform: np.ndarray):
        raise NotImplementedError

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({fields})"


def _as_float(api: str, x, keep: bool = False) -> np.ndarray:
    array = np.asarray(x)
    if array.dtype.kind not in "biuf":
        raise TypeError(
            f"For '{api}', the input must be a numeric NumPy array, but got dtype {array.dtype}."
        )
    if keep or array.dtype.kind == "f":
        return array
    return array.astype(np.float32)


def check_rank(api: str, x: np.ndarray, rank: int, layout: str) -> None:
    if x.ndim < rank:
        raise RuntimeError(
            f"For '{api}', the input must have shape <{layout}>, but got shape {x.shape}."
        )


def window(kind: WindowType, length: int) -> np.ndarray:
    """A periodic window of ``length`` samples (float64)."""
    kind = WindowType(kind)
    n = np.arange(length, dtype=np.float64)
    phase = 2.0 * np.pi * n / length
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(phase)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(phase)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2.0 * phase)
    if kind == WindowType.BARTLETT:
        return 1.0 - np.abs(2.0 * n / length - 1.0)
    ratio = (n - length / 2.0) / (length / 2.0)
    return np.i0(12.0 * np.sqrt(np.maximum(0.0, 1.0 - ratio**2))) / np.i0(12.0)


def pad_last(x: np.ndarray, before: int, after: int, mode) -> np.ndarray:
    widths = [(0, 0)] * (x.ndim - 1) + [(before, after)]
    return np.pad(x, widths, mode=BorderType(mode).value)


def stft(
    waveform: np.ndarray,
    n_fft: int,
    win_length: int,
    hop_length: int,
    window_type: WindowType,
    *,
    center: bool,
    pad_mode,
    onesided: bool,
    normalized: bool,
) -> np.ndarray:
    """Complex STFT of shape (..., freq, frames): the window of ``win_length`` zero-padded to
    ``n_fft`` in the middle, frames every ``hop_length`` samples."""
    win = window(window_type, win_length)
    left = (n_fft - win_length) // 2
    win = np.pad(win, (left, n_fft - win_length - left))
    if center:
        waveform = pad_last(waveform, n_fft // 2, n_fft // 2, pad_mode)
    frames = 1 + (waveform.shape[-1] - n_fft) // hop_length
    starts = np.arange(frames) * hop_length
    segments = waveform[..., starts[:, None] + np.arange(n_fft)]
    spectrum = (np.fft.rfft if onesided else np.fft.fft)(segments * win, axis=-1)
    if normalized:
        spectrum = spectrum / np.sqrt(np.sum(win**2))
    return np.swapaxes(spectrum, -1, -2)


def spectrogram(
    waveform: np.ndarray,
    *,
    n_fft: int,
    win_length: int,
    hop_length: int,
    pad: int,
    window_type: WindowType,
    power: float,
    normalized: bool,
    center: bool,
    pad_mode,
    onesided: bool,
) -> np.ndarray:
    if pad > 0:
        waveform = pad_last(waveform, pad, pad, BorderType.CONSTANT)
    spectrum = stft(
        waveform.astype(np.float64),
        n_fft,
        win_length,
        hop_length,
        window_type,
        center=center,
        pad_mode=pad_mode,
        onesided=onesided,
        normalized=normalized,
    )
    magnitude = np.abs(spectrum)
    return magnitude if power == 1.0 else magnitude**power


def to_db(
    x: np.ndarray, multiplier: float, amin: float, db_multiplier: float, top_db
) -> np.ndarray:
    x_db = multiplier * np.log10(np.maximum(x, amin)) - multiplier * db_multiplier
    if top_db is not None:
        x_db = np.maximum(x_db, x_db.max() - top_db)
    return x_db
