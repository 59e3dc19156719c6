"""Deterministic vision transforms against MindSpore 2.10 goldens
(tests/goldens/record_vision.py): pixel ops, affine warps, rotations and Gaussian blur."""

import json
import os
import sys

import numpy as np
import pytest

from cellax.dataset import vision as v  # noqa: F401  (used by the case expressions)

GOLDENS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "goldens")
sys.path.insert(0, GOLDENS)
import vision_cases as vc  # noqa: E402

with open(os.path.join(GOLDENS, "vision.json")) as f:
    GOLDEN = json.load(f)


@pytest.mark.parametrize("name", sorted(vc.CASES))
def test_vision_op_matches_mindspore(name):
    img = np.asarray(GOLDEN["__input__"], np.uint8)
    want = GOLDEN[name]
    out = eval(vc.CASES[name])(img.copy())
    assert str(out.dtype) == want["dtype"]
    expected = np.asarray(want["value"], out.dtype)
    assert out.shape == expected.shape
    largest, share = vc.TOLERANCE.get(name, (0, 0.0))
    diff = np.abs(out.astype(np.int64) - expected.astype(np.int64))
    assert diff.max() <= largest and (diff > 0).mean() <= share, (diff.max(), (diff > 0).mean())


def test_pil_input_gives_pil_output_with_the_same_pixels():
    from PIL import Image

    img = np.asarray(GOLDEN["__input__"], np.uint8)
    for op in (v.Equalize(), v.RandomAffine(degrees=(25, 25)), v.GaussianBlur(3, 1.2)):
        out = op(Image.fromarray(img))
        assert isinstance(out, Image.Image)
        np.testing.assert_array_equal(np.asarray(out), op(img))


def test_random_ranges_and_erasing():
    from cellax import dataset as ds

    ds.config.set_seed(3)
    img = np.asarray(GOLDEN["__input__"], np.uint8)
    outs = [v.RandomRotation(40)(img) for _ in range(4)]
    assert len({o.tobytes() for o in outs}) > 1  # a new angle per call
    chw = np.ones((3, 10, 10), np.float32)
    erased = v.RandomErasing(prob=1.0, value=(0.5, 0.25, 0.0))(chw)
    assert erased is not chw and (chw == 1).all()
    mask = erased != 1
    assert mask.any() and np.array_equal(mask[0], mask[1])
    np.testing.assert_array_equal(erased[1][mask[1]], 0.25)
    assert v.RandomErasing(prob=0.0)(chw) is chw
    with pytest.raises(ValueError):
        v.RandomRotation(30, resample=v.Inter.AREA)
    with pytest.raises(ValueError):
        v.GaussianBlur(4)
    with pytest.raises(RuntimeError):
        v.Equalize()(img.astype(np.float32))
