"""Learning-rate functions and schedule Cells against MindSpore goldens."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn

from tests._goldens import load_json

GOLDENS = load_json("optim.json", "schedules")

# Same arguments as tests/goldens/record_optim.py.
FUNCTIONS = {
    "exponential_decay_lr": lambda: nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
    "exponential_decay_lr_stair": lambda: nn.exponential_decay_lr(0.1, 0.9, 9, 2, 2, True),
    "natural_exp_decay_lr": lambda: nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2),
    "natural_exp_decay_lr_stair": lambda: nn.natural_exp_decay_lr(0.1, 0.9, 9, 2, 2, True),
    "inverse_decay_lr": lambda: nn.inverse_decay_lr(0.1, 0.5, 6, 2, 2),
    "inverse_decay_lr_stair": lambda: nn.inverse_decay_lr(0.1, 0.5, 9, 2, 2, True),
    "cosine_decay_lr": lambda: nn.cosine_decay_lr(0.01, 0.1, 10, 2, 3),
    "polynomial_decay_lr": lambda: nn.polynomial_decay_lr(0.1, 0.01, 10, 2, 3, 0.5),
    "polynomial_decay_lr_update": lambda: nn.polynomial_decay_lr(0.1, 0.01, 14, 2, 2, 0.5, True),
    "piecewise_constant_lr": lambda: nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]),
    "warmup_lr": lambda: nn.warmup_lr(0.1, 10, 2, 3),
}

CELLS = {
    "ExponentialDecayLR": lambda: nn.ExponentialDecayLR(0.1, 0.9, 4),
    "ExponentialDecayLR_stair": lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, True),
    "NaturalExpDecayLR": lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4),
    "NaturalExpDecayLR_stair": lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4, True),
    "InverseDecayLR": lambda: nn.InverseDecayLR(0.1, 0.5, 4),
    "InverseDecayLR_stair": lambda: nn.InverseDecayLR(0.1, 0.5, 4, True),
    "CosineDecayLR": lambda: nn.CosineDecayLR(0.01, 0.1, 6),
    "PolynomialDecayLR": lambda: nn.PolynomialDecayLR(0.1, 0.01, 6, 0.5),
    "PolynomialDecayLR_update": lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, True),
    "WarmUpLR": lambda: nn.WarmUpLR(0.1, 6),
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_functions_match_mindspore(name):
    values = FUNCTIONS[name]()
    assert isinstance(values, list) and all(isinstance(v, float) for v in values)
    np.testing.assert_allclose(values, GOLDENS[name], rtol=1e-12)


@pytest.mark.parametrize("name", list(CELLS))
def test_cells_match_mindspore(name):
    cell = CELLS[name]()
    values = []
    for step in range(10):
        out = cell(ms.Tensor(step, ms.int32))
        assert out.dtype == ms.float32 and out.shape == ()
        values.append(float(out.asnumpy()))
    np.testing.assert_allclose(values, GOLDENS[name], rtol=2e-7, atol=1e-9)


def test_cell_is_traceable_under_jit():
    schedule = nn.CosineDecayLR(0.01, 0.1, 6)
    compiled = ms.jit(lambda step: schedule(step))
    values = [float(compiled(ms.Tensor([step], ms.int32)).asnumpy()[0]) for step in range(4)]
    np.testing.assert_allclose(values, GOLDENS["CosineDecayLR"][:4], rtol=2e-7)
    assert compiled.trace_count == 1


def test_custom_schedule_drives_optimizer():
    class Halving(nn.LearningRateSchedule):
        def construct(self, global_step):
            return 0.5 ** global_step.astype(ms.float32)

    w = ms.Parameter(ms.Tensor([0.0]), name="w")
    opt = nn.SGD([w], Halving())
    for _ in range(3):
        opt((ms.Tensor([1.0]),))
    np.testing.assert_allclose(w.asnumpy(), [-(1.0 + 0.5 + 0.25)], rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="For 'exponential_decay_lr', 'total_step' must be an int"):
        nn.exponential_decay_lr(0.1, 0.9, 1.5, 2, 1)
    with pytest.raises(ValueError, match="For 'inverse_decay_lr', 'decay_epoch' must be a posit"):
        nn.inverse_decay_lr(0.1, 0.9, 4, 2, 0)
    with pytest.raises(TypeError, match="For 'natural_exp_decay_lr', 'learning_rate' must be a"):
        nn.natural_exp_decay_lr(1, 0.9, 4, 2, 1)
    with pytest.raises(ValueError, match="For 'cosine_decay_lr', 'max_lr' must be greater"):
        nn.cosine_decay_lr(0.1, 0.1, 4, 2, 1)
    with pytest.raises(ValueError, match="For 'piecewise_constant_lr', 'milestone' and"):
        nn.piecewise_constant_lr([1, 2], [0.1])
    with pytest.raises(ValueError, match="For 'piecewise_constant_lr', 'milestone' must be incr"):
        nn.piecewise_constant_lr([3, 2], [0.1, 0.2])
    with pytest.raises(TypeError, match="For 'polynomial_decay_lr', 'update_decay_epoch' must"):
        nn.polynomial_decay_lr(0.1, 0.01, 4, 2, 2, 0.5, 1)
    with pytest.raises(ValueError, match="For 'warmup_lr', 'learning_rate' must be a non-neg"):
        nn.warmup_lr(-0.1, 4, 2, 2)
    with pytest.raises(ValueError, match="For 'ExponentialDecayLR', 'decay_steps' must be a pos"):
        nn.ExponentialDecayLR(0.1, 0.9, 0)
    with pytest.raises(TypeError, match="For 'InverseDecayLR', 'is_stair' must be a bool"):
        nn.InverseDecayLR(0.1, 0.9, 2, 1)
    with pytest.raises(ValueError, match="For 'CosineDecayLR', 'max_lr' must be greater"):
        nn.CosineDecayLR(0.2, 0.1, 2)
    with pytest.raises(ValueError, match="For 'PolynomialDecayLR', 'power' must be a positive"):
        nn.PolynomialDecayLR(0.1, 0.01, 2, 0.0)
    with pytest.raises(TypeError, match="For 'WarmUpLR', 'learning_rate' must be a float"):
        nn.WarmUpLR(1, 2)
