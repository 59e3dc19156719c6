"""mint.optim against MindSpore 2.10 CPU goldens (tests/goldens/mint_optim.json), plus the
rules the goldens cannot show (AdamW, which MindSpore CPU cannot run; eager steps; errors)."""

import importlib.util
import json
import os
import pathlib

import numpy as np
import pytest

import cellax as ms
from cellax import mint

_HERE = pathlib.Path(__file__).parents[1] / "goldens"
_spec = importlib.util.spec_from_file_location("moc", os.fspath(_HERE / "mint_optim_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
GOLDENS = json.loads((_HERE / "mint_optim.json").read_text())


def _check(got, want):
    assert len(got) == len(want)
    for step, (g, w) in enumerate(zip(got, want)):
        for gp, wp in zip(g, w):
            np.testing.assert_allclose(gp, wp, rtol=1e-5, atol=1e-5, err_msg=f"step {step}")


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_optimizer_matches_golden(case):
    want = GOLDENS[case]
    if "error" in want:
        pytest.skip(f"MindSpore 2.10 CPU cannot run it: {want['error']}")
    _check(cases.run(ms, mint, case), want)


def _numpy_adamw(steps, lr=0.1, wd=0.1, b1=0.9, b2=0.999, eps=1e-8):
    """PyTorch's AdamW on the cases' network (loss (w.x)^2 + 3 b^2), in float64."""
    x = np.array([0.3, -0.1])
    params = [np.array([1.0, -2.0]), np.array([0.5])]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    out = []
    for t in range(1, steps + 1):
        grads = [2 * (params[0] @ x) * x, 6 * params[1]]
        for i, g in enumerate(grads):
            params[i] = params[i] * (1 - lr * wd)
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            denom = np.sqrt(v[i] / (1 - b2**t)) + eps
            params[i] = params[i] - lr * (m[i] / (1 - b1**t)) / denom
        out.append([p.tolist() for p in params])
    return out


def test_adamw_matches_numpy_reference():
    _check(cases.run(ms, mint, "adamw"), _numpy_adamw(cases.STEPS))


def test_eager_step_equals_jitted_step():
    """cellax applies an eager mint step (MindSpore 2.10 CPU leaves the Parameters unchanged)."""
    w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    opt = mint.optim.Adam([w], lr=0.1)
    for _ in range(3):
        opt((ms.Tensor([0.6, -0.2]),))
    jit_w = cases.run(ms, mint, "adam")[-1][0]
    assert not np.allclose(w.asnumpy(), [1.0, -2.0])
    assert np.isfinite(jit_w).all()


def test_param_groups_structure():
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    b = ms.Parameter(ms.Tensor([2.0]), name="b")
    opt = mint.optim.SGD([{"params": [w], "momentum": 0.9}, {"params": [b], "lr": 0.5}], lr=0.1)
    assert len(opt.param_groups) == 2
    assert opt.param_groups[0]["momentum"] == 0.9 and opt.param_groups[1]["momentum"] == 0
    assert isinstance(opt.param_groups[1]["lr"], ms.Parameter)
    np.testing.assert_allclose([float(g["lr"].asnumpy()) for g in opt.param_groups], [0.1, 0.5])
    assert opt.param_groups[0]["lr"].name == "learning_rate_group_0"


@pytest.mark.parametrize(
    "make, error",
    [
        (lambda p: mint.optim.SGD([p], lr=-1.0), ValueError),
        (lambda p: mint.optim.Adam([p], lr=0.1, betas=(1.5, 0.9)), ValueError),
        (lambda p: mint.optim.AdamW([p], lr="big"), TypeError),
        (lambda p: mint.optim.SGD([{"params": [p], "speed": 1}], lr=0.1), KeyError),
    ],
)
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make(ms.Parameter(ms.Tensor([1.0]), name="p"))


@pytest.mark.parametrize("case", sorted(cases.STATE_CASES))
def test_state_names_match_golden(case):
    """The optimizer's registered Parameters (names, shapes, dtypes, initial values, order),
    its groups' keys and the slots the groups hold (amsgrad's max_exp_avg_sq) as MindSpore."""
    want = GOLDENS["state_" + case]
    got = cases.state(ms, mint, case)
    assert got == want


def test_step_counters_count_steps():
    """Adam's state_step counts from 0, AdamW's from -1 (MindSpore's AdamW kernel adds one),
    SGD's step_t from 0; the bias correction uses the step's number from 1 either way."""
    steps = {}
    for name, kwargs in [("Adam", {}), ("AdamW", {"weight_decay": 0.0}), ("SGD", {})]:
        w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
        opt = getattr(mint.optim, name)([w], lr=0.1, **kwargs)
        for _ in range(2):
            opt((ms.Tensor([0.6, -0.2]),))
        counter = opt.step_t if name == "SGD" else opt.state_step
        steps[name] = (counter.asnumpy().tolist(), w.asnumpy())
    assert steps["Adam"][0] == [2.0] and steps["AdamW"][0] == [1.0] and steps["SGD"][0] == 2
    np.testing.assert_allclose(steps["Adam"][1], steps["AdamW"][1], rtol=1e-6)
