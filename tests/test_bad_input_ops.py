"""The bad-argument campaign over the public ops API (issue 38; tests/goldens/bad_ops_cases.py,
tools/fuzz_bad_input_ops.py): every call with one bad or edge-case argument returns or raises
a builtin type MindSpore raises, naming the API called and no JAX/NumPy internals; for a
recorded sample, the same builtin type as MindSpore 2.10 (bad_ops.json).

The suite draws a fixed sample (hypothesis, derandomized); ``CELLAX_HYPOTHESIS=long`` draws far
more and runs every huge-size case (each batch in a child process: a crash or a hang fails the
test instead of the run).
"""

import os
import pathlib
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cellax as ms
from cellax import Tensor, mint, nn, ops

from ._goldens import assert_same_outcome, load_cases, load_module

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import fuzz_bad_input_ops as campaign
finally:
    sys.path.pop(0)

LONG = os.environ.get("CELLAX_HYPOTHESIS") == "long"
SOURCE = load_module("bad_ops_cases")
ALL = SOURCE.cases()
ROWS = SOURCE.rows()
HUGE = [name for name in ALL if name.endswith("/huge")]
GOLDEN = load_cases("bad_ops.json")

# Where cellax deliberately differs from MindSpore 2.10's recorded type, with the reason
# (docs/differences.md).
DIFFERENT = {
    # MindSpore reaches attribute access on the str (AttributeError); cellax names the input
    "ops.inner/1/str": "TypeError",
    # MindSpore fails indexing its own shape tuple (IndexError); an out-of-range axis and a
    # target whose shape does not fit are wrong values
    "ops.diff/2/negative_out": "ValueError",
    "ops.nll_loss/0/0d": "ValueError",
    # the bool input is also (2, 3): cellax checks the shape first, MindSpore the dtype
    "ops.matrix_power/0/bool": "ValueError",
    "ops.margin_ranking_loss/1/bool": "ValueError",
    # cartesian_prod takes 1-D Tensors; MindSpore 2.10 also runs a 0-D one
    "ops.cartesian_prod/0/0d": "ValueError",
    # integer and bool inputs where MindSpore's CPU kernels take floats only: cellax computes
    # (the cellax.ops package's "Differences from MindSpore")
    **{
        name: "ok"
        for name in (
            "nn.BCEWithLogitsLoss/0/bool",
            "ops.amin/0/bool",
            "ops.cosine_similarity/0/int32",
            "ops.isclose/1/int32",
            "ops.log/0/int32",
        )
    },
}


def _scope() -> dict:
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "mint": mint, "np": np}
    exec(SOURCE.SETUP, scope)
    return scope


def _row_name(template: str) -> str:
    code = SOURCE.base(template)
    return next(name for name, text in ALL.items() if name.endswith("/ok") and text == code)


def test_the_table_is_broad():
    apis = {SOURCE.api_of(row) for row in ROWS}
    functional = {api for api in apis if api.startswith("ops.")}
    assert len(functional) >= 150 and len(apis) - len(functional) >= 60
    assert len(ALL) > 5000
    # every kind of argument is replaced by every value of its kind
    labels = {name.rsplit("/", 1)[1] for name in ALL}
    assert {"int", "object", "5d", "empty", "float", "complex", "repeated", "huge"} <= labels


@settings(max_examples=2000 if LONG else 15)
@given(data=st.data())
def test_bad_arguments_keep_the_error_contract(data):
    template = data.draw(st.sampled_from(ROWS), label="row")
    row = _row_name(template)
    names = [row] + [
        name
        for name in ALL
        if name.startswith(row[:-2] + "/") and name != row and not name.endswith("/huge")
    ]
    name = data.draw(st.sampled_from(names), label="case")
    outcome, detail = campaign.run_case(name, ALL[name], _scope())
    if name == row:
        assert outcome == "ok", (name, ALL[name], detail)  # the table's valid call
    assert outcome in campaign.GOOD, (name, ALL[name], outcome, detail)


def test_huge_sizes_fail_cleanly_in_a_child():
    # sizes of 10**12 elements and more: before the size check, XLA aborted or hung on some
    names = HUGE if LONG else HUGE[:: max(1, len(HUGE) // 6)]
    results = campaign.run_isolated(names)
    bad = {name: result for name, result in results.items() if result[0] not in campaign.GOOD}
    assert bad == {}


def test_outcomes_are_classified():
    assert campaign.names_api("For 'Softmax', 'x' must be", "nn.Softmax")
    assert campaign.names_api("For 'softmax', 'x' must be", "nn.Softmax")
    assert campaign.names_api("For 'Tensor.gather', ...", "mint.gather")
    assert not campaign.names_api("For 'Tensor', 'input_data' must be", "ops.pad")
    assert campaign.names_api("For 'concat', 'tensors'", "ops.cat")  # an alias: bad_ops_cases
    assert not campaign.names_api("For 'concat', 'tensors'", "ops.stack")
    assert not campaign.names_api("tuple index out of range", "ops.gather")
    assert campaign.classify(None, "ops.abs") == ("ok", "")
    assert campaign.classify(TypeError("For 'abs', 'x' must be"), "ops.abs")[0] == "clean"
    assert campaign.classify(TypeError("For 'pad', bad"), "ops.abs")[0] == "wrong_api"
    assert campaign.classify(ValueError("For 'abs', jnp.abs failed"), "ops.abs")[0] == "leaky"
    assert campaign.classify(AttributeError("For 'abs'"), "ops.abs")[0] == "bad_type"


def test_every_golden_case_is_recorded():
    assert set(GOLDEN) == set(SOURCE.CASES) and len(GOLDEN) >= 50
    assert all(GOLDEN[name]["code"] == ALL[name] for name in GOLDEN)
    assert set(DIFFERENT) <= set(GOLDEN)


@pytest.mark.parametrize("name", sorted(SOURCE.CASES))
def test_same_builtin_exception_type_as_mindspore(name):
    expected = DIFFERENT.get(name, GOLDEN[name]["outcome"])
    api = SOURCE.api_of_case(name)
    assert_same_outcome(
        name, ALL[name], expected, _scope(), lambda text: campaign.names_api(text, api)
    )
