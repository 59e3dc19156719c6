"""cellax.dataset.audio against MindSpore 2.10 goldens (tests/goldens/record_audio.py), plus
pipeline use, the alias path and the transforms cellax does not compute yet."""

import os
import sys

import numpy as np
import pytest

from cellax import dataset as ds
from cellax.dataset import audio as a
from cellax.dataset.audio import utils as u

GOLDENS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "goldens")
sys.path.insert(0, GOLDENS)
import audio_cases as ac  # noqa: E402

GOLDEN = np.load(os.path.join(GOLDENS, "audio.npz"))
ARRAYS = ac.inputs()


@pytest.mark.parametrize("name", sorted(ac.CASES))
def test_audio_op_matches_mindspore(name):
    out = ac.run(a, u, name, ARRAYS)
    want = GOLDEN[name]
    assert out.dtype == want.dtype and out.shape == want.shape
    tolerance = ac.TOLERANCE.get(name, 1e-4)
    scale = max(1e-6, float(np.abs(want).max()))
    assert np.abs(out.astype(np.float64) - want).max() <= tolerance * scale


def test_audio_transforms_run_in_a_pipeline():
    waves = np.random.default_rng(0).standard_normal((3, 2, 400)).astype(np.float32)
    data = ds.NumpySlicesDataset({"audio": waves}, shuffle=False)
    data = data.map([a.Spectrogram(n_fft=64), a.AmplitudeToDB()], input_columns="audio")
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 3 and rows[0][0].shape == (2, 33, 13) and rows[0][0].dtype == np.float32


def test_integer_input_becomes_float32_and_float64_is_kept():
    assert a.Gain(0.0)(np.array([1, 2])).dtype == np.float32
    assert a.Spectrogram(n_fft=8)(np.zeros(32)).dtype == np.float64


def test_random_masks_follow_the_dataset_seed():
    spec = np.ones((2, 10, 12), np.float32)
    ds.config.set_seed(5)
    first = a.FrequencyMasking(True, 6)(spec)
    ds.config.set_seed(5)
    assert np.array_equal(first, a.FrequencyMasking(True, 6)(spec))
    assert (a.MaskAlongAxisIID(12, 0.0, 2)(spec) <= 1).all()


def test_pending_transforms_construct_and_raise_when_applied():
    op = a.GriffinLim(n_fft=16)
    with pytest.raises(NotImplementedError, match="GriffinLim"):
        op(np.zeros((9, 4), np.float32))


def test_bad_arguments_raise_mindspore_style_errors():
    with pytest.raises(ValueError, match="RiaaBiquad"):
        a.RiaaBiquad(8000)
    with pytest.raises(RuntimeError, match="MelScale"):
        a.MelScale()(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="LFilter"):
        a.LFilter([1.0], [1.0, 2.0])


def test_transforms_module_and_utils_match_mindspore_layout():
    from cellax.dataset.audio import transforms

    assert transforms.MelSpectrogram is a.MelSpectrogram
    assert u.WindowType.HANN == "hann" and a.BorderType is u.BorderType
    assert sorted(ac_names()) == sorted(set(ac_names()) & set(a.__all__))


def ac_names():
    return [
        "Spectrogram", "MelScale", "MelSpectrogram", "AmplitudeToDB", "Resample", "MFCC",
        "ComputeDeltas", "ComplexNorm", "Angle", "Magphase", "SpectralCentroid", "SlidingWindowCmn",
        "FrequencyMasking", "TimeMasking", "DCShift", "Contrast", "RiaaBiquad", "TrebleBiquad",
        "WindowType", "BorderType", "ScaleType", "NormType", "NormMode", "MelType",
        "create_dct", "melscale_fbanks",
    ]  # fmt: skip


def test_alias_imports_mindspore_dataset_audio():
    import subprocess

    code = (
        "import mindspore.dataset.audio as msaudio\n"
        "from mindspore.dataset.audio.utils import BorderType, WindowType, create_dct\n"
        "print(type(msaudio.Resample(16000, 8000)).__module__)\n"
    )
    env = dict(os.environ, CELLAX_ALIAS_MINDSPORE="1")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip().startswith("cellax.dataset.audio")
