"""ops.ctc_loss and nn.CTCLoss against MindSpore 2.10 (tests/goldens/record_ctc.py): loss,
log_alpha table, gradient (MindSpore's CTC rule) and the cell form; the ops.CTCLoss primitive
(tests/goldens/record_ctc_primitive.py)."""

import json

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

from .._goldens import load_module, load_npz, path

CASES = load_module("ctc_cases").cases()
GOLD = load_npz("ctc.npz")
T = ms.Tensor


def _args(case):
    return (T(case["targets"]), T(case["input_lengths"]), T(case["target_lengths"]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_and_log_alpha_match_mindspore(name):
    case = CASES[name]
    loss, log_alpha = ops.ctc_loss(T(case["log_probs"]), *_args(case), **case["kwargs"])
    ref_alpha = GOLD[f"{name}/log_alpha"]
    assert log_alpha.shape == ref_alpha.shape
    alpha = log_alpha.asnumpy()
    np.testing.assert_array_equal(np.isneginf(alpha), np.isneginf(ref_alpha))
    reachable = np.isfinite(ref_alpha)
    np.testing.assert_allclose(alpha[reachable], ref_alpha[reachable], rtol=1e-5, atol=1e-5)
    ref = GOLD[f"{name}/loss"]
    if case["kwargs"].get("zero_infinity"):
        # documented: infinite losses read 0 (MindSpore 2.10 CPU still returns inf)
        nll = ops.ctc_loss(
            T(case["log_probs"]), *_args(case), **{**case["kwargs"], "reduction": "none"}
        )[0].asnumpy()
        assert np.isinf(GOLD["impossible_none_zero_infinity_False/loss"]).any()
        assert np.isfinite(loss.asnumpy()).all() and (nll == 0).sum() == 1
        return
    assert loss.shape == ref.shape
    np.testing.assert_allclose(loss.asnumpy(), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_mindspore(name):
    case = CASES[name]
    args, kwargs = _args(case), case["kwargs"]

    def total(lp):
        return ops.ctc_loss(lp, *args, **kwargs)[0].sum()

    grad = ms.grad(total)(T(case["log_probs"])).asnumpy()
    ref = GOLD[f"{name}/grad"]
    np.testing.assert_array_equal(np.isnan(grad), np.isnan(ref))
    ok = ~np.isnan(ref)
    np.testing.assert_allclose(grad[ok], ref[ok], rtol=1e-4, atol=1e-5)


def test_raw_scores_are_not_renormalized():
    # MindSpore uses log_probs as given: scaling every probability by e adds -T to the loss
    case = CASES["basic_none"]
    lp = case["log_probs"]
    base = ops.ctc_loss(T(lp), *_args(case), reduction="none")[0].asnumpy()
    shifted = ops.ctc_loss(T(lp + 1.0), *_args(case), reduction="none")[0].asnumpy()
    np.testing.assert_allclose(base - shifted, case["input_lengths"], rtol=1e-5)


@pytest.mark.parametrize("name", ["basic_mean", "basic_none", "blank_last", "unnormalized_mean"])
def test_cell_matches_mindspore(name):
    case = CASES[name]
    out = nn.CTCLoss(**case["kwargs"])(T(case["log_probs"]), *_args(case))
    np.testing.assert_allclose(out.asnumpy(), GOLD[f"{name}/cell"], rtol=1e-5, atol=1e-5)


def test_gradient_under_jit_matches_eager():
    case = CASES["repeated_labels"]
    args = _args(case)

    def total(lp):
        return ops.ctc_loss(lp, *args, reduction="mean")[0]

    eager = ms.grad(total)(T(case["log_probs"])).asnumpy()
    jitted = ms.jit(ms.grad(total))(T(case["log_probs"])).asnumpy()
    np.testing.assert_allclose(jitted, eager, rtol=1e-5, atol=1e-6)


def test_blank_out_of_range_is_an_error():
    case = CASES["basic_none"]
    with pytest.raises(ValueError, match="'blank' must be in"):
        ops.ctc_loss(T(case["log_probs"]), *_args(case), blank=5)


_PRIMITIVE = json.loads(path("ctc_primitive.json").read_text())
record_ctc_primitive = load_module("record_ctc_primitive")


@pytest.mark.parametrize("name", sorted(record_ctc_primitive.CASES))
def test_ctc_loss_primitive_matches_mindspore(name):
    labels, lengths, kwargs = record_ctc_primitive.CASES[name]
    indices, values = record_ctc_primitive.sparse(labels)
    loss, grad = ms.ops.CTCLoss(**kwargs)(
        ms.Tensor(record_ctc_primitive.scores()),
        ms.Tensor(indices),
        ms.Tensor(values),
        ms.Tensor(np.array(lengths, np.int32)),
    )
    golden = _PRIMITIVE[name]
    np.testing.assert_allclose(loss.asnumpy(), golden["loss"], rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy(), golden["grad"], rtol=1e-4, atol=1e-6)


def test_ctc_loss_primitive_backpropagates_its_gradient_output():
    labels, lengths, _ = record_ctc_primitive.CASES["short_sequence"]
    indices, values = record_ctc_primitive.sparse(labels)
    prim = ms.ops.CTCLoss()
    args = (ms.Tensor(indices), ms.Tensor(values), ms.Tensor(np.array(lengths, np.int32)))
    x = ms.Tensor(record_ctc_primitive.scores())
    got = ms.grad(lambda x: prim(x, *args)[0].sum())(x)
    np.testing.assert_allclose(got.asnumpy(), prim(x, *args)[1].asnumpy(), atol=1e-6)


def test_ctc_loss_primitive_errors():
    labels, lengths, kwargs = record_ctc_primitive.ERRORS["too_long"]
    assert _PRIMITIVE["errors"]["too_long"] == "RuntimeError"
    indices, values = record_ctc_primitive.sparse(labels)
    with pytest.raises(RuntimeError, match="For 'CTCLoss', each sequence length"):
        ms.ops.CTCLoss(**kwargs)(
            ms.Tensor(record_ctc_primitive.scores()),
            ms.Tensor(indices),
            ms.Tensor(values),
            ms.Tensor(np.array(lengths, np.int32)),
        )
    with pytest.raises(ValueError, match="ctc_merge_repeated=True"):
        ms.ops.CTCLoss(ctc_merge_repeated=False)
