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


def _warm_restarts_closed_form(epoch, t0=2, mult=2, base=(0.1, 0.05)):
    """PyTorch's CosineAnnealingWarmRestarts.step(epoch) for T_mult > 1 (MindSpore 2.10 raises
    TypeError there: its Log primitive is called with two arguments)."""
    n = int(np.log(epoch / t0 * (mult - 1) + 1) / np.log(mult)) if epoch >= t0 else 0
    t_cur = epoch - t0 * (mult**n - 1) / (mult - 1)
    t_i = t0 * mult**n
    return [b * (1 + np.cos(np.pi * t_cur / t_i)) / 2 for b in base]


# cases where cellax deliberately differs from MindSpore 2.10: the reference it follows instead
DIFFERENT = {"warm_restarts_epoch_mult2": _warm_restarts_closed_form}


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_scheduler_matches_golden(case):
    got = cases.run(ms, mint, lr_scheduler, case)
    want = GOLDENS[case]
    if case in DIFFERENT:
        assert want["error"] == "TypeError", want
        for (lrs, _), epoch in zip(got, cases.CASES[case][3]):
            np.testing.assert_allclose(lrs, DIFFERENT[case](epoch), rtol=1e-5, atol=1e-7)
        return
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


def _adam(lr=1.0):
    return mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=lr)


@pytest.mark.parametrize("kind", ["cyclic", "warm_restarts", "plateau"])
def test_tensor_schedulers_step_inside_jit(kind):
    """CyclicLR, CosineAnnealingWarmRestarts and ReduceLROnPlateau step with Tensor math on
    Parameters: jitted steps give the eager rates."""
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85]

    def build():
        opt = _adam()
        if kind == "cyclic":
            return lr_scheduler.CyclicLR(opt, 0.1, 0.5, step_size_up=2, mode="triangular2")
        if kind == "warm_restarts":
            return lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.1)
        return lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1)

    def run(step):
        scheduler = build()
        out = []
        for m in metrics:
            step(scheduler, ms.Tensor(m))
            out.append(float(scheduler.get_last_lr()[0].asnumpy()))
        return out

    def eager(scheduler, m):
        return scheduler.step(m) if kind == "plateau" else scheduler.step()

    jitted = {}

    def traced(scheduler, m):
        if scheduler not in jitted:
            jitted[scheduler] = ms.jit(lambda m: eager(scheduler, m))
        jitted[scheduler](m)

    want = run(eager)
    assert len(set(want)) > 1, want  # the schedule does move
    np.testing.assert_allclose(run(traced), want, rtol=1e-6)


def test_new_scheduler_errors():
    opt = _adam()
    first = lr_scheduler.ExponentialLR(opt, 0.5)
    with pytest.raises(ValueError):
        lr_scheduler.SequentialLR(opt, [first], milestones=[1])
    with pytest.raises(ValueError):
        lr_scheduler.SequentialLR(_adam(), [first, lr_scheduler.StepLR(opt, 1)], milestones=[1])
    with pytest.raises(ValueError):
        lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError):
        lr_scheduler.ReduceLROnPlateau(opt, mode="lowest")
    with pytest.raises(ValueError):
        lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])
    with pytest.raises(TypeError):
        lr_scheduler.ReduceLROnPlateau(object())
    with pytest.raises(ValueError):
        lr_scheduler.CyclicLR(opt, 0.1, 1.0, mode="sawtooth")
    with pytest.raises(ValueError):
        lr_scheduler.CyclicLR(opt, [0.1, 0.2], 1.0)
    with pytest.raises(ValueError):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)
    with pytest.raises(TypeError):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0")
    restarts = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
    with pytest.raises(ValueError):
        restarts.step(-1)
    plateau = lr_scheduler.ReduceLROnPlateau(opt)
    assert plateau.best.name == "best" and float(plateau.best.asnumpy()) == float("inf")
