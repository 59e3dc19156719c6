"""Spectral audio transforms: spectrograms, mel and linear filter banks, cepstra, decibels and
complex (``(..., 2)`` real/imaginary) helpers. Outputs keep a floating input's dtype."""

from __future__ import annotations

import numpy as np

from ._base import AudioTransform, check_rank, spectrogram, to_db
from .utils import BorderType, MelType, NormMode, NormType, ScaleType, WindowType
from .utils import create_dct, linear_fbanks, melscale_fbanks

__all__ = [
    "Spectrogram",
    "MelScale",
    "MelSpectrogram",
    "AmplitudeToDB",
    "DBToAmplitude",
    "MFCC",
    "LFCC",
    "SpectralCentroid",
    "ComplexNorm",
    "Angle",
    "Magphase",
]

_MS = "https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio."


class Spectrogram(AudioTransform):
    """Create a spectrogram of shape <..., freq, time> from a waveform of shape <..., time>.

    Args:
        n_fft (int): Size of the FFT (``n_fft // 2 + 1`` bins). Default: ``400``.
        win_length (int): Window size. Default: ``None`` (``n_fft``).
        hop_length (int): Hop between frames. Default: ``None`` (``win_length // 2``).
        pad (int): Zeros added on both sides of the waveform. Default: ``0``.
        window (WindowType): Window function. Default: ``WindowType.HANN``.
        power (float): Exponent of the magnitude. Default: ``2.0``.
        normalized (bool): Divide by the window's L2 norm. Default: ``False``.
        center (bool): Pad ``n_fft // 2`` on both sides with `pad_mode`. Default: ``True``.
        pad_mode (BorderType): Padding when `center`. Default: ``BorderType.REFLECT``.
        onesided (bool): Keep only the non-negative frequencies. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.Spectrogram(n_fft=16)(np.ones((2, 64), np.float32)).shape
        (2, 9, 9)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Spectrogram.html
    """

    def __init__(
        self,
        n_fft=400,
        win_length=None,
        hop_length=None,
        pad=0,
        window=WindowType.HANN,
        power=2.0,
        normalized=False,
        center=True,
        pad_mode=BorderType.REFLECT,
        onesided=True,
    ):
        self.n_fft = n_fft
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2
        self.pad = pad
        self.window = WindowType(window)
        self.power = power
        self.normalized = normalized
        self.center = center
        self.pad_mode = BorderType(pad_mode)
        self.onesided = onesided

    def _spectrum(self, waveform, power):
        return spectrogram(
            waveform,
            n_fft=self.n_fft,
            win_length=self.win_length,
            hop_length=self.hop_length,
            pad=self.pad,
            window_type=self.window,
            power=power,
            normalized=self.normalized,
            center=self.center,
            pad_mode=self.pad_mode,
            onesided=self.onesided,
        )

    def _apply(self, waveform):
        return self._spectrum(waveform, self.power).astype(waveform.dtype)


class MelScale(AudioTransform):
    """Convert a spectrogram <..., n_stft, time> to the mel scale <..., n_mels, time>.

    Args:
        n_mels (int): Number of mel filters. Default: ``128``.
        sample_rate (int): Sample rate (Hz). Default: ``16000``.
        f_min (float): Minimum frequency. Default: ``0.0``.
        f_max (float): Maximum frequency. Default: ``None`` (``sample_rate // 2``).
        n_stft (int): Number of STFT bins. Default: ``201``.
        norm (NormType): Filter normalization. Default: ``NormType.NONE``.
        mel_type (MelType): Mel scale. Default: ``MelType.HTK``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.MelScale(n_mels=8, n_stft=201)(np.ones((201, 3), np.float32)).shape
        (8, 3)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MelScale.html
    """

    def __init__(
        self,
        n_mels=128,
        sample_rate=16000,
        f_min=0.0,
        f_max=None,
        n_stft=201,
        norm=NormType.NONE,
        mel_type=MelType.HTK,
    ):
        self.n_mels = n_mels
        self.sample_rate = sample_rate
        self.f_min = f_min
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.n_stft = n_stft
        self.norm = NormType(norm)
        self.mel_type = MelType(mel_type)
        self._banks = melscale_fbanks(
            n_stft, f_min, self.f_max, n_mels, sample_rate, self.norm, self.mel_type
        ).astype(np.float64)

    def _apply(self, spec):
        check_rank("MelScale", spec, 2, "..., freq, time")
        out = np.einsum("...ft,fm->...mt", spec.astype(np.float64), self._banks)
        return out.astype(spec.dtype)


class MelSpectrogram(AudioTransform):
    """Create a mel spectrogram <..., n_mels, time> from a waveform <..., time>: a
    :class:`Spectrogram` followed by a :class:`MelScale`.

    Args:
        sample_rate (int): Sample rate (Hz). Default: ``16000``.
        n_fft (int): Size of the FFT. Default: ``400``.
        win_length (int): Window size. Default: ``None`` (``n_fft``).
        hop_length (int): Hop. Default: ``None`` (``win_length // 2``).
        f_min (float): Minimum frequency. Default: ``0.0``.
        f_max (float): Maximum frequency. Default: ``None`` (``sample_rate // 2``).
        pad (int): Two-sided zero padding. Default: ``0``.
        n_mels (int): Number of mel filters. Default: ``128``.
        window (WindowType): Window function. Default: ``WindowType.HANN``.
        power (float): Exponent of the magnitude. Default: ``2.0``.
        normalized (bool): Normalize by the window norm. Default: ``False``.
        center (bool): Pad both sides. Default: ``True``.
        pad_mode (BorderType): Padding when `center`. Default: ``BorderType.REFLECT``.
        onesided (bool): Half spectrum. Default: ``True``.
        norm (NormType): Mel filter normalization. Default: ``NormType.NONE``.
        mel_scale (MelType): Mel scale. Default: ``MelType.HTK``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.MelSpectrogram(n_fft=64, n_mels=10)(np.ones(320, np.float32)).shape
        (10, 11)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MelSpectrogram.html
    """

    def __init__(
        self,
        sample_rate=16000,
        n_fft=400,
        win_length=None,
        hop_length=None,
        f_min=0.0,
        f_max=None,
        pad=0,
        n_mels=128,
        window=WindowType.HANN,
        power=2.0,
        normalized=False,
        center=True,
        pad_mode=BorderType.REFLECT,
        onesided=True,
        norm=NormType.NONE,
        mel_scale=MelType.HTK,
    ):
        self.sample_rate = sample_rate
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.f_min = f_min
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.pad = pad
        self.n_mels = n_mels
        self.window = WindowType(window)
        self.power = power
        self.normalized = normalized
        self.center = center
        self.pad_mode = BorderType(pad_mode)
        self.onesided = onesided
        self.norm = NormType(norm)
        self.mel_scale = MelType(mel_scale)
        self._spectrogram = Spectrogram(
            n_fft, self.win_length, self.hop_length, pad, window, power, normalized, center,
            pad_mode, onesided,
        )  # fmt: skip
        self._mel = MelScale(
            n_mels, sample_rate, f_min, self.f_max, n_fft // 2 + 1, norm, mel_scale
        )

    def _mel_power(self, waveform):
        spec = self._spectrogram._spectrum(waveform, self.power)
        return np.einsum("...ft,fm->...mt", spec, self._mel._banks)

    def _apply(self, waveform):
        return self._mel_power(waveform).astype(waveform.dtype)


class AmplitudeToDB(AudioTransform):
    """Convert a power or magnitude spectrogram to decibels, clipped at ``max - top_db``.

    Args:
        stype (ScaleType): Scale of the input. Default: ``ScaleType.POWER``.
        ref_value (float): Reference value. Default: ``1.0``.
        amin (float): Lower clamp of the input. Default: ``1e-10``.
        top_db (float): Dynamic range kept below the maximum. Default: ``80.0``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.AmplitudeToDB()(np.array([1.0, 10.0, 100.0])).tolist()
        [0.0, 10.0, 20.0]

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.AmplitudeToDB.html
    """

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        self.stype = ScaleType(stype)
        self.ref_value = ref_value
        self.amin = amin
        self.top_db = top_db

    def _apply(self, x):
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        db_multiplier = np.log10(max(self.ref_value, self.amin))
        out = to_db(x.astype(np.float64), multiplier, self.amin, db_multiplier, self.top_db)
        return out.astype(x.dtype)


class DBToAmplitude(AudioTransform):
    """Convert decibels back to power/amplitude: ``ref * (10 ** (0.1 * x)) ** power``.

    Args:
        ref (float): Output scale.
        power (float): Exponent (``1.0`` for power, ``0.5`` for magnitude).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.DBToAmplitude.html
    """

    def __init__(self, ref, power):
        self.ref = ref
        self.power = power

    def _apply(self, x):
        out = self.ref * np.power(np.power(10.0, 0.1 * x.astype(np.float64)), self.power)
        return out.astype(x.dtype)


def _cepstrum(features, dct, log, dtype):
    features = np.log(features + 1e-6) if log else to_db(features, 10.0, 1e-10, 0.0, 80.0)
    return np.einsum("...mt,mk->...kt", features, dct.astype(np.float64)).astype(dtype)


class MFCC(AudioTransform):
    """Mel-frequency cepstral coefficients <..., n_mfcc, time> of a waveform <..., time>.

    Args:
        sample_rate (int): Sample rate (Hz). Default: ``16000``.
        n_mfcc (int): Number of coefficients kept. Default: ``40``.
        dct_type (int): DCT type (only ``2``). Default: ``2``.
        norm (NormMode): DCT normalization. Default: ``NormMode.ORTHO``.
        log_mels (bool): Use ``log(mel + 1e-6)`` instead of decibels. Default: ``False``.
        melkwargs (dict): :class:`MelSpectrogram` arguments. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.MFCC(n_mfcc=13)(np.ones(1600, np.float32)).shape
        (13, 9)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MFCC.html
    """

    def __init__(
        self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO, log_mels=False,
        melkwargs=None,
    ):  # fmt: skip
        if dct_type != 2:
            raise ValueError(f"For 'MFCC', 'dct_type' must be 2, but got {dct_type}.")
        self.sample_rate = sample_rate
        self.n_mfcc = n_mfcc
        self.dct_type = dct_type
        self.norm = NormMode(norm)
        self.log_mels = log_mels
        self.melkwargs = dict(melkwargs or {})
        self.melkwargs.setdefault("sample_rate", sample_rate)
        self._mel = MelSpectrogram(**self.melkwargs)
        self._dct = create_dct(n_mfcc, self._mel.n_mels, self.norm)

    def _apply(self, waveform):
        mel = self._mel._mel_power(waveform)
        return _cepstrum(mel, self._dct, self.log_mels, waveform.dtype)


class LFCC(AudioTransform):
    """Linear-frequency cepstral coefficients <..., n_lfcc, time> of a waveform <..., time>.

    Args:
        sample_rate (int): Sample rate (Hz). Default: ``16000``.
        n_filter (int): Number of linear filters. Default: ``128``.
        n_lfcc (int): Number of coefficients kept. Default: ``40``.
        f_min (float): Minimum frequency. Default: ``0.0``.
        f_max (float): Maximum frequency. Default: ``None`` (``sample_rate // 2``).
        dct_type (int): DCT type (only ``2``). Default: ``2``.
        norm (NormMode): DCT normalization. Default: ``NormMode.ORTHO``.
        log_lf (bool): Use ``log(x + 1e-6)`` instead of decibels. Default: ``False``.
        speckwargs (dict): :class:`Spectrogram` arguments. Default: ``None``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.LFCC.html
    """

    def __init__(
        self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None, dct_type=2,
        norm=NormMode.ORTHO, log_lf=False, speckwargs=None,
    ):  # fmt: skip
        if dct_type != 2:
            raise ValueError(f"For 'LFCC', 'dct_type' must be 2, but got {dct_type}.")
        self.sample_rate = sample_rate
        self.n_filter = n_filter
        self.n_lfcc = n_lfcc
        self.f_min = f_min
        self.f_max = f_max if f_max is not None else sample_rate // 2
        self.dct_type = dct_type
        self.norm = NormMode(norm)
        self.log_lf = log_lf
        self.speckwargs = dict(speckwargs or {})
        self._spectrogram = Spectrogram(**self.speckwargs)
        n_freqs = self._spectrogram.n_fft // 2 + 1
        self._banks = linear_fbanks(n_freqs, f_min, self.f_max, n_filter, sample_rate)
        self._dct = create_dct(n_lfcc, n_filter, self.norm)

    def _apply(self, waveform):
        spec = self._spectrogram._spectrum(waveform, self._spectrogram.power)
        linear = np.einsum("...ft,fm->...mt", spec, self._banks.astype(np.float64))
        return _cepstrum(linear, self._dct, self.log_lf, waveform.dtype)


class SpectralCentroid(AudioTransform):
    """The spectral centroid <..., 1, time> (Hz) of a waveform <..., time>.

    Args:
        sample_rate (int): Sample rate (Hz).
        n_fft (int): Size of the FFT. Default: ``400``.
        win_length (int): Window size. Default: ``None`` (``n_fft``).
        hop_length (int): Hop. Default: ``None`` (``win_length // 2``).
        pad (int): Two-sided zero padding. Default: ``0``.
        window (WindowType): Window function. Default: ``WindowType.HANN``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.SpectralCentroid.html
    """

    def __init__(
        self,
        sample_rate,
        n_fft=400,
        win_length=None,
        hop_length=None,
        pad=0,
        window=WindowType.HANN,
    ):
        self.sample_rate = sample_rate
        self.n_fft = n_fft
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2
        self.pad = pad
        self.window = WindowType(window)
        self._spectrogram = Spectrogram(n_fft, self.win_length, self.hop_length, pad, window, 1.0)

    def _apply(self, waveform):
        spec = self._spectrogram._spectrum(waveform, 1.0)
        freqs = np.linspace(0, self.sample_rate // 2, self.n_fft // 2 + 1)[:, None]
        out = (freqs * spec).sum(axis=-2, keepdims=True) / spec.sum(axis=-2, keepdims=True)
        return out.astype(waveform.dtype)


def _complex_parts(api, x):
    if x.ndim < 1 or x.shape[-1] != 2:
        raise RuntimeError(
            f"For '{api}', the input must have shape <..., complex=2>, but got shape {x.shape}."
        )
    return x[..., 0].astype(np.float64), x[..., 1].astype(np.float64)


class ComplexNorm(AudioTransform):
    """The norm ``|z| ** power`` of complex values stored as <..., 2> (real, imaginary).

    Args:
        power (float): Exponent. Default: ``1.0``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.ComplexNorm.html
    """

    def __init__(self, power=1.0):
        self.power = power

    def _apply(self, x):
        real, imag = _complex_parts("ComplexNorm", x)
        return np.power(real**2 + imag**2, self.power / 2.0).astype(x.dtype)


class Angle(AudioTransform):
    """The angle of complex values stored as <..., 2> (real, imaginary).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Angle.html
    """

    def _apply(self, x):
        real, imag = _complex_parts("Angle", x)
        return np.arctan2(imag, real).astype(x.dtype)


class Magphase(AudioTransform):
    """Split complex values <..., 2> into magnitude ``|z| ** power`` and phase (two outputs).

    Args:
        power (float): Exponent of the magnitude. Default: ``1.0``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Magphase.html
    """

    def __init__(self, power=1.0):
        self.power = power

    def _apply(self, x):
        return ComplexNorm(self.power)._apply(x), Angle()._apply(x)
