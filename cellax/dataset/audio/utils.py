"""``cellax.dataset.audio.utils``: the enums and filter-bank helpers of MindSpore's
``mindspore.dataset.audio.utils``, on NumPy."""

from __future__ import annotations

from enum import Enum

import numpy as np

__all__ = [
    "BorderType",
    "DensityFunction",
    "FadeShape",
    "GainType",
    "Interpolation",
    "MelType",
    "Modulation",
    "NormMode",
    "NormType",
    "ResampleMethod",
    "ScaleType",
    "WindowType",
    "create_dct",
    "linear_fbanks",
    "melscale_fbanks",
]


class BorderType(str, Enum):
    """Padding mode: ``CONSTANT``, ``EDGE``, ``REFLECT`` (no edge repeat) or ``SYMMETRIC``."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class DensityFunction(str, Enum):
    """Dither noise density: ``TPDF``, ``RPDF`` or ``GPDF``."""

    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class FadeShape(str, Enum):
    """Fade curve of :class:`Fade`."""

    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(str, Enum):
    """Unit of :class:`Vol`'s gain."""

    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class Interpolation(str, Enum):
    """Interpolation of :class:`Flanger`."""

    LINEAR = "linear"
    QUADRATIC = "quadratic"


class MelType(str, Enum):
    """Mel scale: ``HTK`` or ``SLANEY``."""

    HTK = "htk"
    SLANEY = "slaney"


class Modulation(str, Enum):
    """Modulation of :class:`Flanger` and :class:`Phaser`."""

    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


class NormMode(str, Enum):
    """DCT normalization: ``ORTHO`` or ``NONE``."""

    ORTHO = "ortho"
    NONE = "none"


class NormType(str, Enum):
    """Mel filter normalization: ``SLANEY`` (area) or ``NONE``."""

    SLANEY = "slaney"
    NONE = "none"


class ResampleMethod(str, Enum):
    """Window of :class:`Resample`'s sinc filter."""

    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class ScaleType(str, Enum):
    """Scale of :class:`AmplitudeToDB`'s input."""

    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, Enum):
    """Window function of the short-time Fourier transforms."""

    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


def _hz_to_mel(freq, mel_type: MelType):
    freq = np.asarray(freq, np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    # Slaney: linear below 1 kHz, logarithmic above.
    f_sp, min_log_hz, logstep = 200.0 / 3, 1000.0, np.log(6.4) / 27.0
    mels = freq / f_sp
    log_part = min_log_hz / f_sp + np.log(np.maximum(freq, 1e-10) / min_log_hz) / logstep
    return np.where(freq >= min_log_hz, log_part, mels)


def _mel_to_hz(mels, mel_type: MelType):
    mels = np.asarray(mels, np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    f_sp, min_log_hz, logstep = 200.0 / 3, 1000.0, np.log(6.4) / 27.0
    min_log_mel = min_log_hz / f_sp
    return np.where(
        mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)), f_sp * mels
    )


def _triangles(all_freqs: np.ndarray, f_pts: np.ndarray) -> np.ndarray:
    f_diff = np.diff(f_pts)
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def melscale_fbanks(
    n_freqs: int,
    f_min: float,
    f_max: float,
    n_mels: int,
    sample_rate: int,
    norm: NormType = NormType.NONE,
    mel_type: MelType = MelType.HTK,
) -> np.ndarray:
    """Create a mel frequency filter bank of shape (`n_freqs`, `n_mels`) (float32).

    Args:
        n_freqs (int): Number of frequency bins (``n_fft // 2 + 1``).
        f_min (float): Minimum frequency (Hz).
        f_max (float): Maximum frequency (Hz).
        n_mels (int): Number of mel filters.
        sample_rate (int): Sample rate (Hz).
        norm (NormType): ``NormType.SLANEY`` divides each triangle by its band width. Default: ``NormType.NONE``.
        mel_type (MelType): Mel scale. Default: ``MelType.HTK``.

    Returns:
        numpy.ndarray, the filter bank.

    Examples:
        >>> from cellax.dataset.audio import utils
        >>> utils.melscale_fbanks(201, 0.0, 8000.0, 40, 16000).shape
        (201, 40)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.melscale_fbanks.html
    """
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    banks = _triangles(all_freqs, f_pts)
    if NormType(norm) == NormType.SLANEY:
        banks = banks * (2.0 / (f_pts[2 : n_mels + 2] - f_pts[:n_mels]))[None, :]
    return banks.astype(np.float32)


def linear_fbanks(
    n_freqs: int, f_min: float, f_max: float, n_filter: int, sample_rate: int
) -> np.ndarray:
    """Create a linear triangular filter bank of shape (`n_freqs`, `n_filter`) (float32).

    Args:
        n_freqs (int): Number of frequency bins.
        f_min (float): Minimum frequency (Hz).
        f_max (float): Maximum frequency (Hz).
        n_filter (int): Number of filters.
        sample_rate (int): Sample rate (Hz).

    Returns:
        numpy.ndarray, the filter bank.

    Examples:
        >>> from cellax.dataset.audio import utils
        >>> utils.linear_fbanks(201, 0.0, 8000.0, 20, 16000).shape
        (201, 20)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.linear_fbanks.html
    """
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = np.linspace(f_min, f_max, n_filter + 2)
    return _triangles(all_freqs, f_pts).astype(np.float32)


def create_dct(n_mfcc: int, n_mels: int, norm: NormMode = NormMode.NONE) -> np.ndarray:
    """Create a DCT-II matrix of shape (`n_mels`, `n_mfcc`) (float32).

    Args:
        n_mfcc (int): Number of coefficients kept.
        n_mels (int): Number of mel filters.
        norm (NormMode): ``NormMode.ORTHO`` for an orthonormal basis. Default: ``NormMode.NONE``.

    Returns:
        numpy.ndarray, the DCT matrix.

    Examples:
        >>> from cellax.dataset.audio import utils
        >>> utils.create_dct(13, 40).shape
        (40, 13)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.create_dct.html
    """
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) == NormMode.NONE:
        dct = dct * 2.0
    else:
        dct[0] *= 1.0 / np.sqrt(2.0)
        dct = dct * np.sqrt(2.0 / n_mels)
    return dct.T.astype(np.float32)
