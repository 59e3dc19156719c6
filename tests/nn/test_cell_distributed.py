"""Distributed/Ascend methods: validated, recorded, and a one-time warning (no XLA effect)."""

import pytest

from cellax import nn

NO_EFFECT = "the request is recorded on the Cell .* but has no effect in cellax"


@pytest.mark.parametrize(
    "api, call, returns_self",
    [
        ("place", lambda c: c.place("MS_WORKER", 0), False),
        ("offload", lambda c: c.offload(), False),
        ("set_comm_fusion", lambda c: c.set_comm_fusion(3), True),
        ("set_param_ps", lambda c: c.set_param_ps(), False),
        ("set_boost", lambda c: c.set_boost("less_bn"), True),
        ("flatten_weights", lambda c: c.flatten_weights(), False),
    ],
)
def test_warns_once_and_records(api, call, returns_self):
    cell = nn.Dense(2, 2)
    with pytest.warns(UserWarning, match=f"For 'Cell.{api}', {NO_EFFECT}"):
        result = call(cell)
    assert (result is cell) if returns_self else result is None
    assert api in cell.parallel_requests

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(cell)


def test_shard_returns_none_without_warning():
    # MindSpore 2.10: Cell.shard returns None and has no device/level arguments
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nn.Dense(2, 2).shard(((2, 1),)) is None
    with pytest.raises(TypeError):
        nn.Dense(2, 2).shard((), device="CPU")


def test_effects_that_do_apply():
    cell = nn.Dense(2, 2)
    with pytest.warns(UserWarning):
        cell.set_comm_fusion(3)
    assert cell.weight.comm_fusion == 3
    with pytest.warns(UserWarning):
        cell.set_boost("less_bn")
    assert cell.get_flags()["less_bn"] is True
    with pytest.warns(UserWarning):
        assert cell.infer_param_pipeline_stage() == list(cell.get_parameters())


def test_pipeline_stage_and_layout_dict():
    cell = nn.Dense(2, 2)
    assert cell.pipeline_stage == 0 and cell.parameter_layout_dict == {}
    cell.pipeline_stage = 0
    with pytest.warns(UserWarning, match="Cell.pipeline_stage"):
        cell.pipeline_stage = 2
    assert cell.pipeline_stage == 2
    with pytest.raises(ValueError, match="'pipeline_stage' must be an int >= 0"):
        cell.pipeline_stage = -1
    with pytest.raises(TypeError, match="the type of 'pipeline_stage' must be int"):
        cell.pipeline_stage = 1.5
    with pytest.raises(TypeError, match="'parameter_layout_dict' must be a dict"):
        cell.parameter_layout_dict = []


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda c: c.shard([1]), TypeError, "For 'shard', 'in_strategy' must be a tuple"),
        (lambda c: c.shard((), out_strategy=[1]), TypeError, "'out_strategy' must be a tuple"),
        (lambda c: c.shard((), parameter_plan=1), TypeError, "'parameter_plan' must be a dict"),
        (lambda c: c.place("X", 0), ValueError, "For 'place', 'role' must be 'MS_WORKER'"),
        (lambda c: c.place("MS_WORKER", -1), ValueError, "'rank_id' must be >= 0"),
        (lambda c: c.offload("x"), ValueError, "For 'offload', 'backward_prefetch'"),
        (lambda c: c.set_comm_fusion("a"), TypeError, "For 'set_comm_fusion'"),
        (lambda c: c.set_param_ps(1), TypeError, "For 'set_param_ps'"),
        (lambda c: c.set_boost("x"), ValueError, "For 'set_boost', 'boost_type' must be 'less_bn'"),
        (lambda c: c.flatten_weights(-1), ValueError, "'fusion_size' must be >= 0"),
    ],
)
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call(nn.Dense(2, 2))
