"""Time-domain audio transforms on <..., time> waveforms: IIR filters (``LFilter`` and the
biquad designs of SoX/torchaudio), gains, fades, effects and mu-law companding."""

from __future__ import annotations

import math

import numpy as np

from ._base import AudioTransform
from .utils import FadeShape, GainType

__all__ = [
    "LFilter",
    "Filtfilt",
    "Biquad",
    "AllpassBiquad",
    "BandBiquad",
    "BandpassBiquad",
    "BandrejectBiquad",
    "BassBiquad",
    "TrebleBiquad",
    "HighpassBiquad",
    "LowpassBiquad",
    "EqualizerBiquad",
    "DeemphBiquad",
    "RiaaBiquad",
    "Gain",
    "Vol",
    "DCShift",
    "Contrast",
    "Overdrive",
    "Fade",
    "MuLawEncoding",
    "MuLawDecoding",
]


def lfilter(waveform, a_coeffs, b_coeffs, clamp: bool) -> np.ndarray:
    from scipy import signal

    a = np.asarray(a_coeffs, np.float64)
    b = np.asarray(b_coeffs, np.float64)
    out = signal.lfilter(b / a[0], a / a[0], waveform.astype(np.float64), axis=-1)
    return np.clip(out, -1.0, 1.0) if clamp else out


class LFilter(AudioTransform):
    """An IIR filter ``a[0] y[n] = sum b[k] x[n-k] - sum_{k>0} a[k] y[n-k]`` along time.

    Args:
        a_coeffs (Sequence[float]): Denominator coefficients.
        b_coeffs (Sequence[float]): Numerator coefficients (same length).
        clamp (bool): Clip the output to [-1, 1]. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.LFilter([1.0, 0.0], [0.5, 0.5])(np.array([1.0, 0.0, 0.0])).tolist()
        [0.5, 0.5, 0.0]

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.LFilter.html
    """

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        if len(a_coeffs) != len(b_coeffs):
            raise ValueError(
                f"For 'LFilter', 'a_coeffs' and 'b_coeffs' must have the same length, but got "
                f"{len(a_coeffs)} and {len(b_coeffs)}."
            )
        self.a_coeffs = list(a_coeffs)
        self.b_coeffs = list(b_coeffs)
        self.clamp = clamp

    def _apply(self, waveform):
        return lfilter(waveform, self.a_coeffs, self.b_coeffs, self.clamp).astype(waveform.dtype)


class Filtfilt(LFilter):
    """Forward-backward IIR filtering (zero phase): :class:`LFilter` forwards without clamping,
    then backwards (clamped when `clamp`). Same arguments as :class:`LFilter`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Filtfilt.html
    """

    def _apply(self, waveform):
        forward = lfilter(waveform, self.a_coeffs, self.b_coeffs, False)
        backward = lfilter(forward[..., ::-1], self.a_coeffs, self.b_coeffs, self.clamp)
        return backward[..., ::-1].astype(waveform.dtype)


class Biquad(AudioTransform):
    """A second-order IIR filter with coefficients ``b0, b1, b2, a0, a1, a2`` (output clipped to [-1, 1]).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Biquad.html
    """

    def __init__(self, b0, b1, b2, a0, a1, a2):
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = b0, b1, b2, a0, a1, a2

    def _coefficients(self):
        return (self.b0, self.b1, self.b2), (self.a0, self.a1, self.a2)

    def _apply(self, waveform):
        b, a = self._coefficients()
        return lfilter(waveform, a, b, True).astype(waveform.dtype)


def _omega_alpha(sample_rate, freq, q):
    w0 = 2.0 * math.pi * freq / sample_rate
    return w0, math.sin(w0) / 2.0 / q


class AllpassBiquad(Biquad):
    """A two-pole all-pass filter (SoX ``allpass``).

    Args:
        sample_rate (int): Sample rate (Hz).
        central_freq (float): Central frequency (Hz).
        Q (float): Quality factor in (0, 1]. Default: ``0.707``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.AllpassBiquad.html
    """

    def __init__(self, sample_rate, central_freq, Q=0.707):  # noqa: N803 - MindSpore's name
        self.sample_rate, self.central_freq, self.Q = sample_rate, central_freq, Q

    def _coefficients(self):
        w0, alpha = _omega_alpha(self.sample_rate, self.central_freq, self.Q)
        cos = math.cos(w0)
        return (1 - alpha, -2 * cos, 1 + alpha), (1 + alpha, -2 * cos, 1 - alpha)


class BandBiquad(Biquad):
    """A two-pole band filter (SoX ``band``); `noise` selects the unpitched-audio mode.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.BandBiquad.html
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):  # noqa: N803
        self.sample_rate, self.central_freq, self.Q, self.noise = (
            sample_rate,
            central_freq,
            Q,
            noise,
        )

    def _coefficients(self):
        w0 = 2.0 * math.pi * self.central_freq / self.sample_rate
        a2 = math.exp(-2.0 * math.pi * (self.central_freq / self.Q) / self.sample_rate)
        a1 = -4.0 * a2 / (1.0 + a2) * math.cos(w0)
        b0 = math.sqrt(1.0 - a1 * a1 / (4.0 * a2)) * (1.0 - a2)
        if self.noise:
            b0 *= math.sqrt(((1.0 + a2) ** 2 - a1 * a1) * (1.0 - a2) / (1.0 + a2)) / b0
        return (b0, 0.0, 0.0), (1.0, a1, a2)


class BandpassBiquad(Biquad):
    """A two-pole band-pass filter; `const_skirt_gain` keeps the skirt gain constant (peak gain Q).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.BandpassBiquad.html
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):  # noqa: N803
        self.sample_rate, self.central_freq, self.Q = sample_rate, central_freq, Q
        self.const_skirt_gain = const_skirt_gain

    def _coefficients(self):
        w0, alpha = _omega_alpha(self.sample_rate, self.central_freq, self.Q)
        gain = math.sin(w0) / 2.0 if self.const_skirt_gain else alpha
        return (gain, 0.0, -gain), (1 + alpha, -2 * math.cos(w0), 1 - alpha)


class BandrejectBiquad(Biquad):
    """A two-pole band-reject (notch) filter.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.BandrejectBiquad.html
    """

    def __init__(self, sample_rate, central_freq, Q=0.707):  # noqa: N803
        self.sample_rate, self.central_freq, self.Q = sample_rate, central_freq, Q

    def _coefficients(self):
        w0, alpha = _omega_alpha(self.sample_rate, self.central_freq, self.Q)
        cos = math.cos(w0)
        return (1.0, -2 * cos, 1.0), (1 + alpha, -2 * cos, 1 - alpha)


def _shelf(sample_rate, gain, freq, q, high: bool):
    w0, alpha = _omega_alpha(sample_rate, freq, q)
    amp = math.exp(gain / 40.0 * math.log(10.0))
    t1, t2, t3 = (
        2.0 * math.sqrt(amp) * alpha,
        (amp - 1.0) * math.cos(w0),
        (amp + 1.0) * math.cos(w0),
    )
    s = 1.0 if high else -1.0
    b = (
        amp * ((amp + 1) + s * t2 + t1),
        -2 * s * amp * ((amp - 1) + s * t3),
        amp * ((amp + 1) + s * t2 - t1),
    )
    a = ((amp + 1) - s * t2 + t1, 2 * s * ((amp - 1) - s * t3), (amp + 1) - s * t2 - t1)
    return b, a


class BassBiquad(Biquad):
    """A low-shelf (bass) filter of `gain` dB below `central_freq` (default 100 Hz).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.BassBiquad.html
    """

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):  # noqa: N803
        self.sample_rate, self.gain, self.central_freq, self.Q = sample_rate, gain, central_freq, Q

    def _coefficients(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.Q, high=False)


class TrebleBiquad(BassBiquad):
    """A high-shelf (treble) filter of `gain` dB above `central_freq` (default 3000 Hz).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.TrebleBiquad.html
    """

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):  # noqa: N803
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coefficients(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.Q, high=True)


class HighpassBiquad(Biquad):
    """A two-pole high-pass filter at `cutoff_freq`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.HighpassBiquad.html
    """

    _sign = 1.0

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):  # noqa: N803
        self.sample_rate, self.cutoff_freq, self.Q = sample_rate, cutoff_freq, Q

    def _coefficients(self):
        w0, alpha = _omega_alpha(self.sample_rate, self.cutoff_freq, self.Q)
        cos = math.cos(w0)
        edge = (1 + self._sign * cos) / 2
        return (edge, -self._sign * (1 + self._sign * cos), edge), (1 + alpha, -2 * cos, 1 - alpha)


class LowpassBiquad(HighpassBiquad):
    """A two-pole low-pass filter at `cutoff_freq`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.LowpassBiquad.html
    """

    _sign = -1.0


class EqualizerBiquad(Biquad):
    """A peaking equalizer of `gain` dB around `center_freq`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.EqualizerBiquad.html
    """

    def __init__(self, sample_rate, center_freq, gain, Q=0.707):  # noqa: N803
        self.sample_rate, self.center_freq, self.gain, self.Q = sample_rate, center_freq, gain, Q

    def _coefficients(self):
        w0, alpha = _omega_alpha(self.sample_rate, self.center_freq, self.Q)
        amp = math.exp(self.gain / 40.0 * math.log(10.0))
        cos = math.cos(w0)
        return (1 + alpha * amp, -2 * cos, 1 - alpha * amp), (
            1 + alpha / amp,
            -2 * cos,
            1 - alpha / amp,
        )


class DeemphBiquad(Biquad):
    """ISO 908 CD de-emphasis (a treble shelf), for 44100 or 48000 Hz audio.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.DeemphBiquad.html
    """

    def __init__(self, sample_rate):
        if sample_rate not in (44100, 48000):
            raise ValueError(
                f"For 'DeemphBiquad', 'sample_rate' must be 44100 or 48000, but got {sample_rate}."
            )
        self.sample_rate = sample_rate

    def _coefficients(self):
        freq, slope, gain = (
            (5283.0, 0.4845, -9.477) if self.sample_rate == 44100 else (5356.0, 0.479, -9.62)
        )
        w0 = 2.0 * math.pi * freq / self.sample_rate
        amp = math.exp(gain / 40.0 * math.log(10.0))
        alpha = math.sin(w0) / 2.0 * math.sqrt((amp + 1.0 / amp) * (1.0 / slope - 1.0) + 2.0)
        t1, t2, t3 = (
            2.0 * math.sqrt(amp) * alpha,
            (amp - 1.0) * math.cos(w0),
            (amp + 1.0) * math.cos(w0),
        )
        b = (amp * ((amp + 1) + t2 + t1), -2 * amp * ((amp - 1) + t3), amp * ((amp + 1) + t2 - t1))
        return b, ((amp + 1) - t2 + t1, 2 * ((amp - 1) - t3), (amp + 1) - t2 - t1)


_RIAA = {
    44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
    48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
    88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
    96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946)),
}


class RiaaBiquad(Biquad):
    """RIAA vinyl playback equalization, for 44100, 48000, 88200 or 96000 Hz audio.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.RiaaBiquad.html
    """

    def __init__(self, sample_rate):
        if sample_rate not in _RIAA:
            raise ValueError(
                f"For 'RiaaBiquad', 'sample_rate' must be one of {sorted(_RIAA)}, but got {sample_rate}."
            )
        self.sample_rate = sample_rate

    def _coefficients(self):
        (z0, z1), (p0, p1) = _RIAA[self.sample_rate]
        b = np.array([1.0, -(z0 + z1), z0 * z1])
        a = np.array([1.0, -(p0 + p1), p0 * p1])
        # Unit gain at 1 kHz.
        z = np.exp(-1j * 2.0 * math.pi * 1000.0 / self.sample_rate * np.arange(3))
        b = b / abs(np.dot(b, z) / np.dot(a, z))
        return tuple(b), tuple(a)


def _db_to_linear(db):
    return math.exp(db * math.log(10.0) / 20.0)


class Gain(AudioTransform):
    """Amplify by `gain_db` decibels (no clipping).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Gain.html
    """

    def __init__(self, gain_db=1.0):
        self.gain_db = gain_db

    def _apply(self, waveform):
        return (waveform * _db_to_linear(self.gain_db)).astype(waveform.dtype)


class Vol(AudioTransform):
    """Scale the volume by `gain` (an amplitude ratio, a power ratio or decibels), clipped to [-1, 1].

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Vol.html
    """

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        self.gain = gain
        self.gain_type = GainType(gain_type)

    def _apply(self, waveform):
        if self.gain_type == GainType.AMPLITUDE:
            factor = self.gain
        elif self.gain_type == GainType.DB:
            factor = _db_to_linear(self.gain)
        else:
            factor = _db_to_linear(10.0 * math.log10(self.gain))
        return np.clip(waveform * factor, -1.0, 1.0).astype(waveform.dtype)


class DCShift(AudioTransform):
    """Shift the DC offset by `shift`, with an optional limiter of gain `limiter_gain`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.DCShift.html
    """

    def __init__(self, shift, limiter_gain=None):
        self.shift = shift
        self.limiter_gain = limiter_gain

    def _apply(self, waveform):
        x = waveform.astype(np.float64)
        shift, gain = self.shift, self.limiter_gain
        out = np.clip(x + shift, -1.0, 1.0)
        if gain is not None and shift != 0:
            threshold = 1.0 - (abs(shift) - gain)
            if shift > 0:
                mask = x > threshold
                limited = (x - threshold) * gain / (1 - threshold) + threshold + shift
                out = np.where(mask, np.minimum(limited, threshold), out)
            else:
                mask = x < -threshold
                limited = (x + threshold) * gain / (1 - threshold) - threshold + shift
                out = np.where(mask, np.maximum(limited, -threshold), out)
        return out.astype(waveform.dtype)


class Contrast(AudioTransform):
    """SoX ``contrast``: a sine-based compression of amount `enhancement_amount` (0 to 100).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Contrast.html
    """

    def __init__(self, enhancement_amount=75.0):
        self.enhancement_amount = enhancement_amount

    def _apply(self, waveform):
        angle = waveform.astype(np.float64) * (math.pi / 2)
        out = np.sin(angle + self.enhancement_amount / 750.0 * np.sin(angle * 4))
        return out.astype(waveform.dtype)


class Overdrive(AudioTransform):
    """SoX ``overdrive``: a soft-clipping distortion of `gain` dB and `color` (0 to 100).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Overdrive.html
    """

    def __init__(self, gain=20.0, color=20.0):
        self.gain = gain
        self.color = color

    def _apply(self, waveform):
        from scipy import signal

        x = waveform.astype(np.float64)
        temp = x * _db_to_linear(self.gain) + self.color / 200.0
        temp = np.where(temp < -1, -2.0 / 3, np.where(temp > 1, 2.0 / 3, temp - temp**3 / 3))
        # y[n] = t[n] - t[n-1] + 0.995 y[n-1]: a DC-blocking filter.
        last = signal.lfilter([1.0, -1.0], [1.0, -0.995], temp, axis=-1)
        return np.clip(x * 0.5 + last * 0.75, -1.0, 1.0).astype(waveform.dtype)


def _fade_curve(shape: FadeShape, length: int, rising: bool) -> np.ndarray:
    t = np.linspace(0.0, 1.0, length)
    if not rising:
        t = 1.0 - t
    if shape == FadeShape.LINEAR:
        return t
    if shape == FadeShape.EXPONENTIAL:
        # MindSpore's curve (torchaudio's is 2 ** ((t - 1) * 5)): it starts at 0.
        return t * 2.0 ** (t - 1.0)
    if shape == FadeShape.LOGARITHMIC:
        return np.log10(0.1 + t) + 1.0
    if shape == FadeShape.QUARTER_SINE:
        return np.sin(t * math.pi / 2.0)
    return np.sin(t * math.pi - math.pi / 2.0) / 2.0 + 0.5


class Fade(AudioTransform):
    """Fade in over the first `fade_in_len` samples and out over the last `fade_out_len`.

    Args:
        fade_in_len (int): Fade-in length. Default: ``0``.
        fade_out_len (int): Fade-out length. Default: ``0``.
        fade_shape (FadeShape): Curve. Default: ``FadeShape.LINEAR``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Fade.html
    """

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        self.fade_in_len = fade_in_len
        self.fade_out_len = fade_out_len
        self.fade_shape = FadeShape(fade_shape)

    def _apply(self, waveform):
        length = waveform.shape[-1]
        if self.fade_in_len > length or self.fade_out_len > length:
            raise RuntimeError(
                f"For 'Fade', 'fade_in_len' and 'fade_out_len' must not exceed the waveform length "
                f"{length}, but got {self.fade_in_len} and {self.fade_out_len}."
            )
        gain = np.ones(length)
        gain[: self.fade_in_len] = _fade_curve(self.fade_shape, self.fade_in_len, True)
        if self.fade_out_len:
            gain[length - self.fade_out_len :] *= _fade_curve(
                self.fade_shape, self.fade_out_len, False
            )
        return (waveform * gain).astype(waveform.dtype)


class MuLawEncoding(AudioTransform):
    """Mu-law encode a waveform in [-1, 1] into ``quantization_channels`` integer codes (int32).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MuLawEncoding.html
    """

    def __init__(self, quantization_channels=256):
        self.quantization_channels = quantization_channels

    def _apply(self, waveform):
        mu = self.quantization_channels - 1.0
        x = waveform.astype(np.float64)
        x_mu = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
        return ((x_mu + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(AudioTransform):
    """Decode mu-law codes back to a waveform in [-1, 1].

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MuLawDecoding.html
    """

    def __init__(self, quantization_channels=256):
        self.quantization_channels = quantization_channels

    def _apply(self, codes):
        mu = self.quantization_channels - 1.0
        x = codes.astype(np.float64) / mu * 2 - 1.0
        return (np.sign(x) * np.expm1(np.abs(x) * np.log1p(mu)) / mu).astype(codes.dtype)
