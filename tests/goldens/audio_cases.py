"""Deterministic audio transforms shared by record_audio.py (MindSpore 2.10) and
tests/dataset/test_audio_goldens.py (cellax). Each case is ``(input, expression)``: the name
of one of ``inputs()``'s arrays and an expression over ``a`` (the ``audio`` module) and ``u``
(``audio.utils``) giving a transform, or a function result when it starts with ``u.``.
``TOLERANCE`` gives the relative tolerance of the comparison per case (default 1e-4)."""

import numpy as np


def inputs() -> dict:
    rng = np.random.default_rng(34)
    t = np.arange(1000) / 8000.0
    wave = 0.4 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 1250 * t + 0.3)
    wave = np.stack([wave, 0.5 * wave[::-1]]) + 0.02 * rng.standard_normal((2, 1000))
    return {
        "wave": wave.astype(np.float32),
        "wave64": wave[:, :300].astype(np.float64),
        "spec": rng.uniform(0.0, 3.0, (2, 201, 6)).astype(np.float32),
        "small_spec": rng.uniform(0.0, 3.0, (2, 9, 7)).astype(np.float32),
        "complex": rng.standard_normal((2, 9, 5, 2)).astype(np.float32),
        "codes": rng.integers(0, 256, (2, 40)).astype(np.int32),
    }


SPECKWARGS = (
    "{'n_fft': 64, 'win_length': 60, 'hop_length': 32, 'pad': 2, 'window': u.WindowType.HAMMING, "
    "'power': 2.0, 'normalized': False, 'center': True, 'pad_mode': u.BorderType.REFLECT, "
    "'onesided': True}"
)
MELKWARGS = (
    "{'n_fft': 64, 'win_length': 64, 'hop_length': 32, 'f_min': 20.0, 'f_max': 3900.0, 'pad': 0, "
    "'n_mels': 12, 'window': u.WindowType.HANN, 'power': 2.0, 'normalized': False, "
    "'center': True, 'pad_mode': u.BorderType.REFLECT, 'onesided': True, "
    "'norm': u.NormType.NONE, 'mel_scale': u.MelType.HTK}"
)

CASES = {
    "spectrogram": ("wave", "a.Spectrogram()"),
    "spectrogram_small": ("wave", "a.Spectrogram(n_fft=64, hop_length=16, power=1.0)"),
    "spectrogram_hamming_constant": (
        "wave",
        "a.Spectrogram(n_fft=50, win_length=40, hop_length=20, window=u.WindowType.HAMMING, "
        "pad_mode=u.BorderType.CONSTANT, normalized=True)",
    ),
    "spectrogram_nocenter_pad": (
        "wave",
        "a.Spectrogram(n_fft=32, pad=5, center=False, window=u.WindowType.BLACKMAN)",
    ),
    "spectrogram_bartlett_edge": (
        "wave",
        "a.Spectrogram(n_fft=30, window=u.WindowType.BARTLETT, pad_mode=u.BorderType.EDGE)",
    ),
    "spectrogram_kaiser_symmetric": (
        "wave",
        "a.Spectrogram(n_fft=30, window=u.WindowType.KAISER, pad_mode=u.BorderType.SYMMETRIC)",
    ),
    "spectrogram_f64": ("wave64", "a.Spectrogram(n_fft=32)"),
    "melspectrogram": ("wave", "a.MelSpectrogram(sample_rate=8000, n_fft=128, n_mels=20)"),
    "melspectrogram_slaney": (
        "wave",
        "a.MelSpectrogram(sample_rate=8000, n_fft=128, hop_length=40, n_mels=16, f_min=50.0, "
        "f_max=3500.0, norm=u.NormType.SLANEY, mel_scale=u.MelType.SLANEY, power=1.0)",
    ),
    "melscale": ("spec", "a.MelScale(n_mels=16, sample_rate=16000, n_stft=201)"),
    "melscale_slaney": (
        "spec",
        "a.MelScale(n_mels=10, sample_rate=16000, f_min=30.0, f_max=7000.0, n_stft=201, "
        "norm=u.NormType.SLANEY, mel_type=u.MelType.SLANEY)",
    ),
    "amplitude_to_db": ("spec", "a.AmplitudeToDB()"),
    "amplitude_to_db_magnitude": (
        "spec",
        "a.AmplitudeToDB(stype=u.ScaleType.MAGNITUDE, ref_value=2.0, amin=1e-3, top_db=20.0)",
    ),
    "db_to_amplitude": ("spec", "a.DBToAmplitude(0.5, 0.5)"),
    "mfcc": ("wave", "a.MFCC(sample_rate=8000, n_mfcc=13)"),
    "mfcc_log": (
        "wave",
        "a.MFCC(sample_rate=8000, n_mfcc=10, log_mels=True, norm=u.NormMode.NONE, "
        "melkwargs=" + MELKWARGS + ")",
    ),
    "lfcc": (
        "wave",
        "a.LFCC(sample_rate=8000, n_filter=20, n_lfcc=10, speckwargs=" + SPECKWARGS + ")",
    ),
    "resample_down": ("wave", "a.Resample(orig_freq=8000, new_freq=6000)"),
    "resample_up": ("wave", "a.Resample(orig_freq=16000, new_freq=22050)"),
    "resample_kaiser": (
        "wave",
        "a.Resample(8000, 4000, resample_method=u.ResampleMethod.KAISER_WINDOW, "
        "lowpass_filter_width=4, rolloff=0.9)",
    ),
    "complex_norm": ("complex", "a.ComplexNorm(power=2.0)"),
    "angle": ("complex", "a.Angle()"),
    "compute_deltas": ("small_spec", "a.ComputeDeltas()"),
    "compute_deltas_constant": (
        "small_spec",
        "a.ComputeDeltas(win_length=4, pad_mode=u.BorderType.CONSTANT)",
    ),
    "mu_law_encoding": ("wave", "a.MuLawEncoding()"),
    "mu_law_decoding": ("codes", "a.MuLawDecoding(quantization_channels=256)"),
    "gain": ("wave", "a.Gain(3.0)"),
    "vol_db": ("wave", "a.Vol(2.0, u.GainType.DB)"),
    "vol_power": ("wave", "a.Vol(4.0, u.GainType.POWER)"),
    "vol_amplitude": ("wave", "a.Vol(3.0)"),
    "dc_shift": ("wave", "a.DCShift(0.3)"),
    "dc_shift_limiter": ("wave", "a.DCShift(0.5, 0.05)"),
    "contrast": ("wave", "a.Contrast(50.0)"),
    "fade_linear": ("wave", "a.Fade(100, 200)"),
    "fade_quarter_sine": ("wave", "a.Fade(50, 80, u.FadeShape.QUARTER_SINE)"),
    "fade_half_sine": ("wave", "a.Fade(50, 80, u.FadeShape.HALF_SINE)"),
    "fade_log": ("wave", "a.Fade(50, 80, u.FadeShape.LOGARITHMIC)"),
    "fade_exp": ("wave", "a.Fade(50, 80, u.FadeShape.EXPONENTIAL)"),
    "biquad": ("wave", "a.Biquad(0.4, 0.2, 0.1, 1.0, -0.3, 0.1)"),
    "lfilter": ("wave", "a.LFilter([1.0, -0.5, 0.2], [0.3, 0.2, 0.1])"),
    "lfilter_noclamp": ("wave", "a.LFilter([1.0, -0.9], [2.0, 1.0], clamp=False)"),
    "filtfilt": ("wave", "a.Filtfilt([1.0, -0.5, 0.2], [0.3, 0.2, 0.1])"),
    "allpass": ("wave", "a.AllpassBiquad(8000, 1000.0, 0.5)"),
    "band": ("wave", "a.BandBiquad(8000, 1000.0)"),
    "band_noise": ("wave", "a.BandBiquad(8000, 1000.0, 0.6, noise=True)"),
    "bandpass": ("wave", "a.BandpassBiquad(8000, 900.0)"),
    "bandpass_skirt": ("wave", "a.BandpassBiquad(8000, 900.0, 0.9, const_skirt_gain=True)"),
    "bandreject": ("wave", "a.BandrejectBiquad(8000, 440.0)"),
    "bass": ("wave", "a.BassBiquad(8000, 4.0)"),
    "treble": ("wave", "a.TrebleBiquad(8000, -3.0, 2000.0)"),
    "highpass": ("wave", "a.HighpassBiquad(8000, 800.0)"),
    "lowpass": ("wave", "a.LowpassBiquad(8000, 800.0)"),
    "equalizer": ("wave", "a.EqualizerBiquad(8000, 1200.0, 5.0)"),
    "deemph": ("wave", "a.DeemphBiquad(44100)"),
    "riaa": ("wave", "a.RiaaBiquad(44100)"),
    "magphase": ("complex", "a.Magphase(1.0)"),
    "spectral_centroid": ("wave", "a.SpectralCentroid(8000, n_fft=64)"),
    "sliding_window_cmn": ("small_spec", "a.SlidingWindowCmn(cmn_window=4, min_cmn_window=2)"),
    "sliding_window_cmn_center": (
        "small_spec",
        "a.SlidingWindowCmn(cmn_window=4, min_cmn_window=2, center=True, norm_vars=True)",
    ),
    "mask_along_axis": ("small_spec", "a.MaskAlongAxis(1, 3, 5.0, 2)"),
    "frequency_masking": ("small_spec", "a.FrequencyMasking(False, 3, 2, 7.0)"),
    "time_masking": ("small_spec", "a.TimeMasking(False, 2, 1)"),
    "overdrive": ("wave", "a.Overdrive(10.0, 30.0)"),
    "create_dct": ("wave", "u.create_dct(5, 8)"),
    "create_dct_ortho": ("wave", "u.create_dct(6, 10, u.NormMode.ORTHO)"),
    "melscale_fbanks": ("wave", "u.melscale_fbanks(20, 0.0, 4000.0, 6, 8000)"),
    "melscale_fbanks_slaney": (
        "wave",
        "u.melscale_fbanks(33, 100.0, 7000.0, 10, 16000, u.NormType.SLANEY, u.MelType.SLANEY)",
    ),
    "linear_fbanks": ("wave", "u.linear_fbanks(20, 50.0, 3800.0, 6, 8000)"),
}

TOLERANCE = {}


def run(a, u, name, arrays):
    source, expression = CASES[name]
    value = eval(expression)
    if expression.startswith("u."):
        return np.asarray(value)
    return np.asarray(value(arrays[source].copy()))
