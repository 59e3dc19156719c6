"""cellax.numpy against MindSpore 2.10's mindspore.numpy goldens (tests/goldens/numpy.json)."""

import json
import pathlib
import sys

import numpy as np
import pytest

import cellax as ms
import cellax.numpy as mnp

GOLDENS = pathlib.Path(__file__).parents[1] / "goldens"
sys.path.insert(0, str(GOLDENS))
import numpy_cases as cases  # noqa: E402

RECORDED = json.loads((GOLDENS / "numpy.json").read_text())["cases"]

# Cases where cellax deliberately differs from MindSpore 2.10 (documented in the docstrings).
DIFFERENCES = {
    "invert_bool": "cellax inverts Bool as logical NOT (MindSpore 2.10 raises TypeError)",
    "not_equal": "cellax compares a Float32 Tensor with a float (MindSpore 2.10 raises TypeError)",
}


def _floats(values):
    def one(v):
        if isinstance(v, list):
            return complex(one(v[0]), one(v[1]))
        if v in ("nan", "inf", "-inf"):
            return float(v)
        return v

    return np.asarray([one(v) for v in values])


def assert_same(got, want, path="result"):
    assert type(got) is dict and got.keys() == want.keys(), f"{path}: {got} != {want}"
    if "values" in want:
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} != {want['shape']}"
        tol = 2e-3 if want["dtype"] in ("Float16", "BFloat16") else 1e-5
        np.testing.assert_allclose(
            _floats(got["values"]), _floats(want["values"]), rtol=tol, atol=tol, err_msg=path
        )
        return
    for key in ("tuple", "list"):
        if key in want:
            assert len(got[key]) == len(want[key]), f"{path}: {len(got[key])} items"
            for i, (g, w) in enumerate(zip(got[key], want[key])):
                assert_same(g, w, f"{path}[{i}]")
            return
    if want.get("python") == "float":
        assert got["python"] == "float"
        np.testing.assert_allclose(_floats([got["value"]]), _floats([want["value"]]), rtol=1e-6)
        return
    assert got == want, f"{path}: {got} != {want}"


@pytest.mark.parametrize("key", sorted(cases.CASES))
def test_matches_mindspore(key):
    if key in DIFFERENCES:
        pytest.skip(DIFFERENCES[key])
    assert_same(cases.run(mnp, ms, key), RECORDED[key])
