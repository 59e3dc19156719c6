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
    # cartesian_prod takes 1-D Tensors; MindSpore 2.10 also runs a 0-D one
    "ops.cartesian_prod/0/0d": "ValueError",
    # integer and bool inputs where MindSpore's CPU kernels take floats only: cellax computes
    # (the cellax.ops package's "Differences from MindSpore")
    **{
        name: "ok"
        for name in (
            "ops.amin/0/bool",
            "ops.cosine_similarity/0/int32",
            "ops.isclose/1/int32",
            "ops.log/0/int32",
        )
    },
}


# The findings of round 2 (tools/fuzz_bad_input_ops.py against MindSpore 2.10's outcomes of
# every case): each now raises a clean error of this builtin type, naming the API called.
LAST_FINDINGS = {
    # an argument of the wrong kind reached an internal helper or JAX
    "mint.gather/0/empty": "ValueError",
    "ops.gather_elements/0/empty": "ValueError",
    "mint.nn.functional.embedding/1/0d": "ValueError",
    "mint.permute/1/None": "TypeError",
    "mint.permute/1/float_int": "TypeError",
    "mint.squeeze/0/int": "TypeError",
    "ops.squeeze/0/int": "TypeError",
    "ops.flipud/0/0d": "ValueError",
    "ops.flipud/0/int": "TypeError",
    "ops.trapz/0/0d": "ValueError",
    "ops.adaptive_avg_pool1d/0/0d": "ValueError",
    "ops.bincount/0/int": "TypeError",
    "ops.take/0/empty": "RuntimeError",
    "ops.one_hot/2/empty": "ValueError",  # MindSpore reads memory outside the Tensor
    "ops.one_hot/3/empty": "ValueError",
    **{
        f"ops.addmm/{n}/{label}": "ValueError"
        for n in (0, 1)
        for label in ("bool", "empty", "int32")
    },
    **{f"ops.{api}/0/bool": "TypeError" for api in ("sign", "neg", "avg_pool1d", "max_pool1d")},
    **{
        f"ops.binary_cross_entropy_with_logits/{n}/{label}": "ValueError"
        for n in (2, 3)
        for label in ("empty", "5d")
    },
    "ops.scatter_nd/0/int": "TypeError",
    **{
        f"ops.scatter_nd/1/{label}": "ValueError"
        for label in ("0d", "5d", "bool", "empty", "int32")
    },
    # accepted before, refused by MindSpore
    "nn.Flatten/0/0d": "ValueError",
    "ops.lp_pool2d/0/5d": "ValueError",
    "ops.lp_pool2d/2/huge": "RuntimeError",  # MindSpore's AvgPool3D window check
    "ops.pow/1/complex": "TypeError",
    "ops.randint/1/huge": "RuntimeError",
}

# Accepted where MindSpore 2.10 raises, deliberately (the cellax.ops package's "Differences
# from MindSpore"), or accepted by both.
LAST_ACCEPTED = [
    # MindSpore takes an axis of 0 or -1 of a 0-D Tensor too
    "ops.sum/0/0d",
    "ops.squeeze/0/0d",
    "mint.squeeze/0/0d",
    "ops.histc/0/empty",  # bins zeros (MindSpore: the shape, the first bin arbitrary)
    # zero-size Tensors where the result is defined
    *("mint.split/0/empty", "mint.tile/0/empty", "ops.tile/0/empty", "ops.tril/0/empty"),
    *("nn.LayerNorm/1/empty", "nn.PReLU/1/empty", "ops.prelu/0/empty", "ops.pad/0/empty"),
    *("ops.argmax/0/empty", "ops.argmin/0/empty", "ops.max/0/empty", "ops.min/0/empty"),
    *("ops.diff/0/empty", "ops.avg_pool1d/0/empty"),
    # counts of zero where an empty result is defined; diff's n other than 1
    *("ops.randperm/0/zero", "ops.repeat_elements/1/zero", "ops.repeat_interleave/1/zero"),
    *("ops.topk/1/zero", "ops.vander/1/zero", "ops.diff/1/zero", "ops.diff/1/huge"),
    "ops.avg_pool1d/2/None",  # stride=None: the kernel size
    "ops.avg_pool2d/2/None",
    # broadcasting; a float condition is true where nonzero (MindSpore CPU takes Bool only)
    *("ops.cosine_similarity/0/5d", "ops.cosine_similarity/1/5d"),
    *("ops.where/0/0d", "ops.where/0/5d", "mint.where/0/0d", "mint.where/0/5d"),
    # limits of MindSpore's CPU kernels that its API does not have
    "ops.pdist/0/5d",  # batched (..., N, M)
    "ops.prelu/1/0d",  # a 0-D weight
]


def _scope() -> dict:
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "mint": mint, "np": np}
    exec(SOURCE.SETUP, scope)
    return scope


def assert_raises(name: str, builtin: str) -> None:
    """Campaign case ``name`` raises a clean error (naming the API) of type ``builtin``."""
    outcome, detail = campaign.run_case(name, ALL[name], _scope())
    assert outcome == "clean" and detail.startswith(builtin + ":"), (name, detail)


def assert_returns(name: str) -> None:
    """Campaign case ``name`` returns (a deliberate acceptance)."""
    assert campaign.run_case(name, ALL[name], _scope()) == ("ok", ""), name


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


@pytest.mark.parametrize("name", sorted(LAST_FINDINGS))
def test_the_last_findings_raise_clean_errors(name):
    assert_raises(name, LAST_FINDINGS[name])


@pytest.mark.parametrize("name", sorted(LAST_ACCEPTED))
def test_the_deliberate_acceptances_return(name):
    assert_returns(name)


def test_reductions_of_a_0d_tensor_over_its_axis_return_it():
    # MindSpore 2.10 CPU: each returns the 0-D input's value (an index of 0 for argmax/max)
    s0 = Tensor(np.float32(1.5))
    for call in (
        lambda: ops.sum(s0, 0),
        lambda: ops.sum(s0, -1, keepdim=True),
        lambda: ops.mean(s0, (0,)),
        lambda: ops.amax(s0, 0),
        lambda: ops.prod(s0, 0),
        lambda: ops.logsumexp(s0, 0),
        lambda: ops.nansum(s0, 0),
        lambda: ops.norm(s0, dim=0),
        lambda: ops.squeeze(s0, 0),
        lambda: mint.squeeze(s0, -1),
        lambda: s0.sum(0),
    ):
        out = call()
        assert out.shape == () and float(out) == 1.5
    values, index = ops.max(s0, 0)
    assert float(values) == 1.5 and int(index) == 0 and index.dtype == ms.int64
    assert int(ops.argmax(s0, 0)) == 0 and ops.argmax(s0, 0).dtype == ms.int64
    # argmin's index is Int32 (MindSpore 2.10), but Int64 for a 0-D input, as MindSpore's
    assert ops.argmin(s0).dtype == ms.int64 and ops.argmin(s0, 0).dtype == ms.int64
    assert ops.argmin(Tensor(np.ones((2, 2), np.float32)), 1).dtype == ms.int32
    assert bool(ops.all(s0 > 0, 0)) and int(ops.count_nonzero(s0, 0)) == 1
    # and where MindSpore refuses a 0-D input, cellax names the op
    for call, api in (
        (lambda: ops.var(s0, 0), "var"),
        (lambda: ops.flip(s0, (0,)), "flip"),
        (lambda: ops.movedim(s0, 0, 0), "movedim"),
        (lambda: ops.cumsum(s0, 0), "cumsum"),
        (lambda: ops.sort(s0, 0), "sort"),
        (lambda: ops.gather(s0, Tensor(np.array([0], np.int32)), 0), "gather"),
    ):
        with pytest.raises(ValueError, match=f"For '{api}'"):
            call()


def test_histc_of_an_empty_tensor_counts_nothing():
    out = ops.histc(Tensor(np.ones((0, 3), np.float32)), 4)
    assert out.shape == (4,) and out.dtype == ms.float32 and not out.asnumpy().any()


def test_gather_elements_takes_the_leading_part_of_other_dimensions():
    # MindSpore: an index smaller than the input in a dimension other than dim picks its
    # leading part there (not a broadcast of the index)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = ops.gather_elements(x, 1, Tensor(np.array([[2, 0]], np.int32)))
    assert out.asnumpy().tolist() == [[2.0, 0.0]]


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
