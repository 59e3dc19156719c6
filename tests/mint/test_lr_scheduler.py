"""cellax.experimental.optim.lr_scheduler with mint optimizers against MindSpore 2.10 CPU
goldens (tests/goldens/lr_scheduler.json): the rates after every epoch and the Parameters the
jitted train steps produce with them (Adam follows the schedule, SGD keeps its 'lr_float')."""

import importlib.util
import json
import os
import pathlib

import numpy as np
import pytest

import cellax as ms
from cellax import mint
from cellax.experimental.optim import lr_scheduler

_HERE = pathlib.Path(__file__).parents[1] / "goldens"
_spec = importlib.util.spec_from_file_location("lrc", os.fspath(_HERE / "lr_scheduler_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
GOLDENS = json.loads((_HERE / "lr_scheduler.json").read_text())


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_scheduler_matches_golden(case):
    got = cases.run(ms, mint, lr_scheduler, case)
    want = GOLDENS[case]
    assert len(got) == len(want)
    for epoch, ((g_lrs, g_params), (w_lrs, w_params)) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g_lrs, w_lrs, rtol=1e-5, atol=1e-7, err_msg=f"epoch {epoch}")
        for g, w in zip(g_params, w_params):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"epoch {epoch}")


def test_step_inside_jit():
    """The scheduler's step is Tensor math on Parameters: it can run inside cellax.jit."""
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    opt = mint.optim.Adam([w], lr=1.0)
    scheduler = lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.1)
    eager = [1.0]
    ref = lr_scheduler.CosineAnnealingLR(
        mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="v")], lr=1.0), T_max=4, eta_min=0.1
    )
    for _ in range(5):
        ref.step()
        eager.append(float(ref.get_last_lr()[0].asnumpy()))
    jitted = ms.jit(lambda: scheduler.step())
    got = [float(scheduler.get_last_lr()[0].asnumpy())]
    for _ in range(5):
        jitted()
        got.append(float(scheduler.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(got, eager, rtol=1e-6)
    assert got[4] == pytest.approx(0.1, rel=1e-5)


def test_errors_and_state():
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    opt = mint.optim.Adam([w], lr=0.5)
    with pytest.raises(KeyError):
        lr_scheduler.StepLR(opt, 1, last_epoch=3)
    with pytest.raises(ValueError):
        lr_scheduler.StepLR(opt, 1, last_epoch=-2)
    with pytest.raises(TypeError):
        lr_scheduler.MultiStepLR(opt, (1, 2))
    with pytest.raises(ValueError):
        lr_scheduler.LinearLR(opt, start_factor=0.0)
    scheduler = lr_scheduler.ExponentialLR(opt, 0.5)
    assert float(opt.param_groups[0]["initial_lr"].asnumpy()) == 0.5
    assert scheduler.last_epoch.name == "last_epoch_ExponentialLR"
    assert float(scheduler.last_epoch.asnumpy()) == 0.0
