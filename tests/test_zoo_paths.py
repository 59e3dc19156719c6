"""The private MindSpore names today's zoo code (mindone 0.5.0) imports: each path imports
under the alias and behaves as MindSpore 2.10 does on one device (issue 34)."""

import importlib

import numpy as np
import pytest

import cellax as ms
from cellax import nn

PATHS = [
    ("train.serialization", "_load_dismatch_prefix_params _update_param"),
    ("train.amp", "AMP_WHITE_LIST AMP_BLACK_LIST _auto_black_list _auto_mixed_precision_rewrite"),
    ("_c_expression", "MSContext Tensor"),
    ("_c_expression.amp", "AmpLevel create_amp_strategy push_amp_strategy pop_amp_strategy"),
    ("_c_expression.amp", "get_curr_amp_strategy"),
    ("_c_expression.typing", "Type kFloat32 kBFloat16 kInt64 kBool"),
]


@pytest.fixture
def alias():
    handle = ms.alias_mindspore()
    yield handle
    handle.remove()


@pytest.mark.parametrize("path,names", PATHS, ids=[p for p, _ in PATHS])
def test_path_resolves_to_cellax(alias, path, names):
    module = importlib.import_module(f"mindspore.{path}")
    assert module is importlib.import_module(f"cellax.{path}")
    for name in names.split():
        assert getattr(module, name) is getattr(module, name)


def test_load_dismatch_prefix_params():
    net = nn.Dense(2, 1)
    weights = {
        "backbone.weight": ms.Parameter(ms.Tensor(np.ones((1, 2)), ms.float32), name="w"),
        "backbone.bias": ms.Parameter(ms.Tensor(np.full((1,), 3.0), ms.float16), name="b"),
    }
    not_loaded = ["weight", "bias"]
    ms.train.serialization._load_dismatch_prefix_params(net, weights, not_loaded, False)
    assert not_loaded == []
    assert net.weight.asnumpy().tolist() == [[1.0, 1.0]] and net.bias.dtype == ms.float32
    assert net.bias.asnumpy().tolist() == [3.0]
    with pytest.raises(RuntimeError, match="same type"):
        ms.train.serialization._update_param(net.bias, weights["backbone.bias"], True)


def test_auto_black_list_and_rewrite():
    from cellax.train import amp

    assert nn.Dense in amp.AMP_WHITE_LIST and ms.ops.MatMul in amp.AMP_WHITE_LIST
    assert amp.AMP_BLACK_LIST == [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]
    net = nn.SequentialCell(nn.Dense(3, 3), nn.LayerNorm((3,)), nn.Dense(3, 2))
    assert amp._auto_black_list(net, [nn.LayerNorm], ms.float16) is net
    assert net(ms.ops.ones((1, 3))).dtype == ms.float16
    assert net[1](ms.ops.ones((1, 3), ms.float16)).dtype == ms.float16
    assert net[1].gamma.dtype == ms.float32  # the master weights stay float32
    net = nn.SequentialCell(nn.Dense(3, 3), nn.ReLU())
    amp._auto_mixed_precision_rewrite(net, ms.bfloat16, white_list=amp.AMP_WHITE_LIST)
    assert net[0](ms.ops.ones((1, 3))).dtype == ms.float32  # cast back, as "O1"
    with pytest.raises(ValueError, match="one of white_list and black_list"):
        amp._auto_mixed_precision_rewrite(net, ms.float16)


def test_c_expression_names():
    from cellax._c_expression import MSContext, amp, typing

    assert MSContext.get_instance() is MSContext.get_instance()
    assert MSContext.get_instance().get_ascend_soc_version() == ""
    assert typing.kFloat32 is ms.float32 and isinstance(typing.kBFloat16, typing.Type)
    assert amp.get_curr_amp_strategy() is None
    amp.push_amp_strategy(amp.AmpLevel.AmpAuto, ms.float16, [("MatMul", [])], [])
    strategy = amp.get_curr_amp_strategy()
    assert strategy.get_amp_level() == amp.AmpLevel.AmpAuto
    assert strategy.get_white_list() == [("MatMul", [])] and strategy.get_black_list() == []
    amp.pop_amp_strategy()
    assert amp.get_curr_amp_strategy() is None
    with pytest.raises(AttributeError, match="C\\+\\+ context"):
        MSContext.get_instance().set_param
