"""Parameter names, attribute paths and traversal order against MindSpore 2.10 goldens."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn

from tests._goldens import load_json, load_module

GOLDENS = load_json("cell.json")
CASES = GOLDENS["cases"]
BUILDERS = load_module("record_cell").builders(ms)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("field", ["param_names", "param_paths", "cell_paths", "trainable"])
def test_names_match_mindspore(case, field):
    net = BUILDERS[case]()
    got = {
        "param_names": [p.name for p in net.get_parameters()],
        "param_paths": [n for n, _ in net.parameters_and_names()],
        "cell_paths": [n for n, _ in net.cells_and_names()],
        "trainable": [p.name for p in net.trainable_params()],
    }[field]
    assert got == CASES[case][field]


def test_seed_auto_prefix_false():
    class MyCell(nn.Cell):
        def __init__(self, forward_net):
            super().__init__(auto_prefix=False)
            self.net = forward_net
            self.relu = ms.ops.ReLU()

    my_net = MyCell(nn.Conv2d(120, 240, 4, has_bias=False, weight_init="normal"))
    assert str(my_net.trainable_params()) == (
        "[Parameter (name=weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]"
    )


def test_seed_auto_prefix_true_and_submodules():
    class MyCell(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.insert_child_to_cell("conv3", nn.Conv2d(64, 128, 3, 1))
            self.sequential_block = nn.SequentialCell(nn.ReLU(), nn.Conv2d(128, 256, 3, 1))

    net = MyCell()
    assert [n for n, _ in net.cells_and_names()] == [
        "",
        "conv1",
        "conv3",
        "sequential_block",
        "sequential_block.0",
        "sequential_block.1",
    ]
    # insert_child_to_cell does not prefix; attribute assignment does.
    assert [p.name for p in net.get_parameters()] == [
        "conv1.weight",
        "weight",
        "sequential_block.1.weight",
    ]


def test_unnamed_parameter_takes_attribute_name():
    net = nn.Cell()
    net.w = ms.Parameter(ms.Tensor(np.ones(2), ms.float32))
    named = ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="given")
    net.g = named
    assert (net.w.name, net.g.name) == ("w", "given")


def test_update_cell_prefix_and_param_prefix():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

    net = Net()
    assert net.dense.param_prefix == ""
    net.update_cell_prefix()
    assert net.dense.param_prefix == "dense"


def test_update_parameters_name_rejects_non_str():
    with pytest.raises(TypeError, match="For 'update_parameters_name'"):
        nn.Dense(2, 2).update_parameters_name(3)


def test_check_names_duplicate():
    class D(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor([1.0]), name="same")
            self.b = ms.Parameter(ms.Tensor([2.0]), name="same")

    net = D()
    with pytest.raises(ValueError, match="For 'check_names', the Parameter at 'b' has the name"):
        net.check_names()
    # MindSpore 2.10 does not raise here: the later Parameter of a name wins (issue 23, defect 1).
    params = net.parameters_dict()
    assert list(params) == ["same"] and params["same"] is net.b


def test_parameter_tuple_registers_elements():
    a = ms.Parameter(ms.Tensor([1.0]), name="x.a")
    net = nn.Cell()
    net.params = ms.ParameterTuple((a, ms.Parameter(ms.Tensor([2.0]))))
    assert [n for n, _ in net.parameters_and_names()] == ["x.a", "Parameter$2"]
    assert isinstance(net.params, ms.ParameterTuple)
