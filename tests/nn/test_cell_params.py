"""Parameter access: get_parameters, parameters_dict, insert_param_to_cell, ..."""

import types

import numpy as np
import pytest

import cellax as ms
from cellax import nn


class SeedNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_w1 = ms.Parameter(ms.Tensor(np.ones([4, 4]), ms.float32))
        self.my_w2 = ms.Parameter(ms.Tensor(np.ones([16]), ms.float32))


class SeedNet2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_t1 = ms.Parameter(ms.Tensor(np.ones([4, 4]), ms.float32))
        self.subcell = SeedNet()


def test_seed_get_parameters():
    net = SeedNet2()
    params = net.get_parameters(expand=True)
    assert isinstance(params, types.GeneratorType)
    assert str(list(params)) == (
        "[Parameter (name=my_t1, shape=(4, 4), dtype=Float32, requires_grad=True), "
        "Parameter (name=subcell.my_w1, shape=(4, 4), dtype=Float32, requires_grad=True), "
        "Parameter (name=subcell.my_w2, shape=(16,), dtype=Float32, requires_grad=True)]"
    )
    assert [p.name for p in net.get_parameters(expand=False)] == ["my_t1"]


def test_parameters_and_names_prefix_and_expand():
    assert [n for n, _ in nn.Dense(2, 2).parameters_and_names(name_prefix="top")] == [
        "top.weight",
        "top.bias",
    ]
    seq = nn.SequentialCell(nn.Dense(2, 2))
    assert list(seq.parameters_and_names(expand=False)) == []


def test_parameters_dict_and_broadcast_dict():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

    net = Net()
    assert str(net.parameters_dict()) == (
        "OrderedDict([('dense.weight', Parameter (name=dense.weight, shape=(2, 2), "
        "dtype=Float32, requires_grad=True)), ('dense.bias', Parameter (name=dense.bias, "
        "shape=(2,), dtype=Float32, requires_grad=True))])"
    )
    assert list(net.parameters_broadcast_dict()) == ["dense.weight", "dense.bias"]
    assert list(net.parameters_dict(recurse=False)) == []


def test_trainable_and_untrainable():
    net = nn.Dense(2, 1)
    net.bias.requires_grad = False
    assert [p.name for p in net.trainable_params()] == ["weight"]
    assert [p.name for p in net.untrainable_params()] == ["bias"]


def test_init_parameters_data_returns_identity_mapping():
    net = nn.Dense(2, 2)
    mapping = net.init_parameters_data()
    assert list(mapping) == list(net.get_parameters())
    assert all(k is v for k, v in mapping.items())
    with pytest.raises(TypeError, match="For 'init_parameters_data'"):
        net.init_parameters_data(auto_parallel_mode=1)


def test_insert_param_to_cell():
    net = nn.ReLU()
    net.insert_param_to_cell("bias", ms.Parameter(ms.Tensor([1, 2, 3])))
    assert str(net.bias) == "Parameter (name=bias, shape=(3,), dtype=Int64, requires_grad=True)"
    net.insert_param_to_cell("a.b", ms.Parameter(ms.Tensor([1.0]), name="ab"), False)
    assert list(net._params) == ["bias", "a.b"]


@pytest.mark.parametrize(
    "args, error, match",
    [
        (("", None), KeyError, "'param_name' must not be empty"),
        (("a.b", None), KeyError, "'param_name' must contain no '.'"),
        ((3, None), TypeError, "'param_name' must be a str"),
        (("training", None), KeyError, "the name 'training' is already an attribute"),
        (("x", ms.Tensor([1.0])), TypeError, "'param' must be a Parameter or None"),
    ],
)
def test_insert_param_to_cell_errors(args, error, match):
    with pytest.raises(error, match=f"For 'insert_param_to_cell', .*{match}"):
        nn.Cell().insert_param_to_cell(*args)


def test_assigning_over_a_parameter():
    net = nn.Cell()
    net.bias = ms.Parameter(ms.Tensor([1.0, 2.0]))
    net.bias = ms.Tensor([7.0, 8.0])
    assert isinstance(net.bias, ms.Parameter)
    np.testing.assert_array_equal(net.bias.asnumpy(), [7.0, 8.0])
    with pytest.raises(TypeError, match="'bias' is a Parameter of 'Cell' and can not be replaced"):
        net.bias = 3
    net.bias = None
    assert net.bias is None and list(net.get_parameters()) == []
    del net.bias
    with pytest.raises(AttributeError, match="The 'Cell' object has no attribute 'bias'."):
        net.bias
