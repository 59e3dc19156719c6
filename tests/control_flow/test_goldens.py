"""CONTROL_FLOW.md's examples against MindSpore 2.10 CPU goldens (tests/goldens/control_flow.json)."""

import json
import os

import numpy as np
import pytest

import cellax as ms

from . import examples

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "goldens", "control_flow.json")
with open(GOLDEN) as f:
    CASES = json.load(f)["cases"]


def _graph_mode(on):
    ms.set_context(mode=ms.GRAPH_MODE if on else ms.PYNATIVE_MODE)


@pytest.fixture(scope="module")
def results():
    examples.setup(ms)
    return examples.run_all(_graph_mode)


def _close(got, want, path="out"):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} != {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=path)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(results, name):
    want = CASES[name]
    got = results[name]
    assert "error" not in got, got
    _close(got["value"], want["value"])
