"""Issue 23: cellax against MindSpore 2.10 goldens for the semantic rules (NaN handling, result
dtypes, the input dtypes primitives accept, keyword arguments, layer edge cases).

The cases live in tests/goldens/conformance_cases.py; tests/goldens/record_conformance.py
recorded tests/goldens/conformance.json with MindSpore 2.10 CPU.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import cellax as ms

_GOLDENS = pathlib.Path(__file__).parent / "goldens"
sys.path.insert(0, str(_GOLDENS))
import conformance_cases as cc  # noqa: E402

GOLD = json.loads((_GOLDENS / "conformance.json").read_text())["cases"]
BASE = cc.make_namespace(ms)
CASES = cc.all_cases()


def test_goldens_cover_every_case():
    assert set(GOLD) == set(CASES) | {"fresh_" + key for key in cc.FRESH}


@pytest.mark.parametrize("key", sorted(CASES))
def test_case_matches_mindspore(key):
    got = cc.run_case(CASES[key], BASE, ms)
    want = GOLD[key]
    if key in cc.VALUES_ONLY:
        got, want = got["seq"][0], want["seq"][0]
    assert cc.same(got, want, *cc.TOLERANCE.get(key, ())), (
        f"{key}\n  code: {CASES[key]}\n  mindspore: {want}\n  cellax: {got}"
    )


def test_topk_tied_indices_point_at_the_values():
    x = ms.Tensor([1.0, 3.0, 3.0, 2.0, 3.0])
    values, indices = ms.ops.topk(x, 2)
    assert values.asnumpy().tolist() == [3.0, 3.0]
    assert indices.asnumpy().tolist() == [1, 2]  # lowest indices first among ties


def test_maximum_nan_gradient_is_finite():
    x = ms.Tensor([float("nan"), 1.0, 3.0])
    y = ms.Tensor([2.0, 5.0, 1.0])
    grad = ms.grad(lambda a, b: ms.ops.maximum(a, b).sum(), grad_position=(0, 1))(x, y)
    assert grad[0].asnumpy().tolist() == [0.0, 0.0, 1.0]
    assert grad[1].asnumpy().tolist() == [1.0, 1.0, 0.0]


def test_softmax_all_masked_row_has_zero_gradient():
    x = ms.Tensor([[float("-inf"), float("-inf")], [0.0, 1.0]])
    grad = ms.grad(lambda a: (ms.ops.softmax(a) * ms.Tensor([[1.0, 2.0]])).sum())(x)
    values = grad.asnumpy()
    assert values[0].tolist() == [0.0, 0.0]
    assert abs(values[1].sum()) < 1e-6 and values[1][1] > 0


@pytest.mark.parametrize("key", sorted(cc.FRESH))
def test_fresh_process_case_matches_mindspore(key):
    """Process-wide state (the Parameter#N counter): run in a new interpreter."""
    root = pathlib.Path(__file__).parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    script = "import cellax as ms\n" + cc.FRESH[key]
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == GOLD["fresh_" + key]["stdout"]
