"""Audio transforms on spectrograms (deltas, cepstral mean normalization, masking) and
resampling, plus the names MindSpore 2.10 has that cellax does not compute yet."""

from __future__ import annotations

import math

import numpy as np

from .. import config
from ._base import AudioTransform, check_rank, pad_last
from .utils import BorderType, ResampleMethod

__all__ = [
    "ComputeDeltas",
    "SlidingWindowCmn",
    "MaskAlongAxis",
    "MaskAlongAxisIID",
    "FrequencyMasking",
    "TimeMasking",
    "Resample",
]


class ComputeDeltas(AudioTransform):
    """Delta coefficients of a spectrogram <..., freq, time> along time:
    ``sum_k k (x[t+k] - x[t-k]) / (2 sum_k k^2)`` over ``k = 1 .. (win_length - 1) // 2``.

    Args:
        win_length (int): Window length (at least 3). Default: ``5``.
        pad_mode (BorderType): Padding of the time ends. Default: ``BorderType.EDGE``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.ComputeDeltas.html
    """

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        if win_length < 3:
            raise ValueError(
                f"For 'ComputeDeltas', 'win_length' must be at least 3, but got {win_length}."
            )
        self.win_length = win_length
        self.pad_mode = BorderType(pad_mode)

    def _apply(self, spec):
        check_rank("ComputeDeltas", spec, 2, "..., freq, time")
        n = (self.win_length - 1) // 2
        denominator = n * (n + 1) * (2 * n + 1) / 3
        padded = pad_last(spec.astype(np.float64), n, n, self.pad_mode)
        length = spec.shape[-1]
        out = sum(k * padded[..., n + k : n + k + length] for k in range(-n, n + 1))
        return (out / denominator).astype(spec.dtype)


class SlidingWindowCmn(AudioTransform):
    """Sliding-window cepstral mean (and variance) normalization (Kaldi), per utterance, of
    features <..., time, freq>.

    Args:
        cmn_window (int): Window in frames. Default: ``600``.
        min_cmn_window (int): Minimum window at the start (when not `center`). Default: ``100``.
        center (bool): Center the window on the frame (else it ends at the frame). Default: ``False``.
        norm_vars (bool): Also normalize the variance to one. Default: ``False``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.SlidingWindowCmn.html
    """

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False):
        self.cmn_window = cmn_window
        self.min_cmn_window = min_cmn_window
        self.center = center
        self.norm_vars = norm_vars

    def _window(self, t: int, frames: int) -> tuple[int, int]:
        if self.center:
            start = t - self.cmn_window // 2
            end = start + self.cmn_window
        else:
            start, end = t - self.cmn_window, t + 1
        if start < 0:
            end, start = end - start, 0
        if not self.center and end > t:
            end = max(t + 1, self.min_cmn_window)
        if end > frames:
            start, end = max(0, start - (end - frames)), frames
        return start, end

    def _apply(self, features):
        check_rank("SlidingWindowCmn", features, 2, "..., time, freq")
        x = features.astype(np.float64)
        frames = x.shape[-2]
        out = np.empty_like(x)
        for t in range(frames):
            start, end = self._window(t, frames)
            window = x[..., start:end, :]
            mean = window.mean(axis=-2)
            out[..., t, :] = x[..., t, :] - mean
            if self.norm_vars:
                if end - start == 1:
                    out[..., t, :] = 0.0
                else:
                    variance = (window**2).mean(axis=-2) - mean**2
                    out[..., t, :] *= variance**-0.5
        return out.astype(features.dtype)


def _mask(spec, axis: int, start: int, width: int, value: float):
    out = spec.copy()
    index = [slice(None)] * spec.ndim
    index[axis] = slice(start, start + width)
    out[tuple(index)] = value
    return out


class MaskAlongAxis(AudioTransform):
    """Set ``[mask_start, mask_start + mask_width)`` of a spectrogram <..., freq, time> to
    `mask_value` along `axis` (``1`` frequency, ``2`` time).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MaskAlongAxis.html
    """

    def __init__(self, mask_start, mask_width, mask_value, axis):
        if axis not in (1, 2):
            raise ValueError(f"For 'MaskAlongAxis', 'axis' must be 1 or 2, but got {axis}.")
        self.mask_start, self.mask_width, self.mask_value, self.axis = (
            mask_start,
            mask_width,
            mask_value,
            axis,
        )

    def _apply(self, spec):
        check_rank("MaskAlongAxis", spec, 2, "..., freq, time")
        return _mask(spec, self.axis - 3, self.mask_start, self.mask_width, self.mask_value)


def _random_mask(spec, axis: int, param: int, value: float):
    rng = config.op_rng()
    length = spec.shape[axis]
    width = int(rng.integers(0, param + 1))
    start = int(rng.integers(0, length - width + 1))
    return _mask(spec, axis, start, width, value)


class MaskAlongAxisIID(AudioTransform):
    """Mask a random band of width in ``[0, mask_param]`` along `axis` (``1`` frequency, ``2`` time).

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.MaskAlongAxisIID.html
    """

    def __init__(self, mask_param, mask_value, axis):
        if axis not in (1, 2):
            raise ValueError(f"For 'MaskAlongAxisIID', 'axis' must be 1 or 2, but got {axis}.")
        self.mask_param, self.mask_value, self.axis = mask_param, mask_value, axis

    def _apply(self, spec):
        check_rank("MaskAlongAxisIID", spec, 2, "..., freq, time")
        return _random_mask(spec, self.axis - 3, self.mask_param, self.mask_value)


class FrequencyMasking(AudioTransform):
    """Mask frequency bins of a spectrogram <..., freq, time> (SpecAugment). With `iid_masks`,
    each channel gets a random band of width in ``[0, freq_mask_param]``; otherwise the band
    ``[mask_start, mask_start + freq_mask_param)`` is masked.

    Args:
        iid_masks (bool): Random masks per channel. Default: ``False``.
        freq_mask_param (int): Mask width (maximum width when `iid_masks`). Default: ``0``.
        mask_start (int): Start of the mask when not `iid_masks`. Default: ``0``.
        mask_value (float): Fill value. Default: ``0.0``.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.FrequencyMasking.html
    """

    _axis = -2

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        self.iid_masks = iid_masks
        self.mask_param = freq_mask_param
        self.mask_start = mask_start
        self.mask_value = mask_value

    def _apply(self, spec):
        check_rank(type(self).__name__, spec, 2, "..., freq, time")
        if not self.iid_masks:
            return _mask(spec, self._axis, self.mask_start, self.mask_param, self.mask_value)
        flat = spec.reshape((-1,) + spec.shape[-2:])
        masked = [
            _random_mask(channel, self._axis, self.mask_param, self.mask_value) for channel in flat
        ]
        return np.stack(masked).reshape(spec.shape)


class TimeMasking(FrequencyMasking):
    """Mask time steps of a spectrogram <..., freq, time> (SpecAugment); the arguments mirror
    :class:`FrequencyMasking` with `time_mask_param`.

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.TimeMasking.html
    """

    _axis = -1

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


class Resample(AudioTransform):
    """Resample a waveform <..., time> from `orig_freq` to `new_freq` with a windowed-sinc
    polyphase filter (as torchaudio's ``resample``).

    Args:
        orig_freq (float): Original sample rate. Default: ``16000``.
        new_freq (float): Target sample rate. Default: ``16000``.
        resample_method (ResampleMethod): Window of the sinc. Default: ``ResampleMethod.SINC_INTERPOLATION``.
        lowpass_filter_width (int): Zero crossings on each side of the filter. Default: ``6``.
        rolloff (float): Cut-off as a fraction of the lower Nyquist frequency. Default: ``0.99``.
        beta (float): Kaiser window shape. Default: ``None`` (``14.769656459379492``).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import audio
        >>> audio.Resample(16000, 8000)(np.zeros((2, 1600), np.float32)).shape
        (2, 800)

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.Resample.html
    """

    def __init__(
        self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
        lowpass_filter_width=6, rolloff=0.99, beta=None,
    ):  # fmt: skip
        self.orig_freq = orig_freq
        self.new_freq = new_freq
        self.resample_method = ResampleMethod(resample_method)
        self.lowpass_filter_width = lowpass_filter_width
        self.rolloff = rolloff
        self.beta = beta if beta is not None else 14.769656459379492

    def _kernel(self, orig: int, new: int):
        width_param = self.lowpass_filter_width
        base_freq = min(orig, new) * self.rolloff
        width = math.ceil(width_param * orig / base_freq)
        idx = np.arange(-width, width + orig, dtype=np.float64) / orig
        t = (-np.arange(new, dtype=np.float64) / new)[:, None] + idx[None, :]
        t = np.clip(t * base_freq, -width_param, width_param)
        if self.resample_method == ResampleMethod.SINC_INTERPOLATION:
            window = np.cos(t * math.pi / width_param / 2) ** 2
        else:
            window = np.i0(self.beta * np.sqrt(1 - (t / width_param) ** 2)) / np.i0(self.beta)
        t = t * math.pi
        sinc = np.where(t == 0, 1.0, np.sin(t) / np.where(t == 0, 1.0, t))
        return sinc * window * base_freq / orig, width

    def _apply(self, waveform):
        if self.orig_freq == self.new_freq:
            return waveform
        gcd = math.gcd(int(self.orig_freq), int(self.new_freq))
        orig, new = int(self.orig_freq) // gcd, int(self.new_freq) // gcd
        kernel, width = self._kernel(orig, new)
        shape = waveform.shape
        flat = waveform.reshape(-1, shape[-1]).astype(np.float64)
        padded = np.pad(flat, ((0, 0), (width, width + orig)))
        frames = (padded.shape[-1] - kernel.shape[-1]) // orig + 1
        starts = np.arange(frames) * orig
        segments = padded[:, starts[:, None] + np.arange(kernel.shape[-1])]
        out = np.einsum("bfk,nk->bfn", segments, kernel).reshape(flat.shape[0], -1)
        target = math.ceil(new * shape[-1] / orig)
        return out[:, :target].reshape(shape[:-1] + (-1,)).astype(waveform.dtype)
