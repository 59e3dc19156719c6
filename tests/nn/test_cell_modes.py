"""Modes and flags, mixed precision facade."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


def test_phase_and_set_train():
    net = Net()
    assert (net.phase, net.training) == ("train", False)  # as MindSpore 2.10
    assert net.set_train(False) is net and net.phase == "predict"
    net.set_train()
    assert (net.phase, net.training, net.relu.training) == ("train", True, True)
    assert net.get_flags() == {"training": True}
    net.phase = "eval"
    assert net.phase == "eval"
    with pytest.raises(TypeError, match="For 'Cell', the type of 'phase' must be str"):
        net.phase = 3
    with pytest.raises(TypeError, match="For 'set_train', the type of 'mode' must be bool"):
        net.set_train(3)


def test_seed_flags():
    net = Net()
    net.add_flags(sink_mode=True)
    assert net.sink_mode is True
    assert str(net.get_flags()) == "{'sink_mode': True}"
    net2 = Net().add_flags_recursive(sink_mode=True)
    assert net2.relu.sink_mode is True
    assert nn.Cell(flags={"a": 1}).a == 1


def test_set_grad_and_bprop_debug():
    net = Net()
    assert net.set_grad() is net and net.requires_grad is True
    with pytest.raises(TypeError, match="For 'set_grad'"):
        net.set_grad(1)
    net.bprop_debug = True
    assert net.bprop_debug is True
    with pytest.raises(TypeError, match="'bprop_debug' must be bool"):
        net.bprop_debug = 1


@pytest.mark.parametrize(
    "dtype, flag", [(ms.float16, "fp16"), (ms.bfloat16, "bf16"), (ms.float32, "fp32")]
)
def test_to_float(dtype, flag):
    net = Net()
    assert net.to_float(dtype) is net
    assert net.relu.get_flags()[flag] is True
    x = ms.Tensor(np.array([-1.0, 2.0], np.float32))
    assert net(x).dtype == dtype
    out = net.auto_cast_inputs((x, ms.tensor([1])))
    assert out[0].dtype == dtype and out[1].dtype == ms.int64
    p = ms.Parameter(x, name="p")
    assert net.cast_param(p).dtype == dtype


def test_to_float_error_and_cast_inputs():
    with pytest.raises(ValueError, match="For 'to_float', 'dst_type' must be float16"):
        Net().to_float(ms.int32)
    out = Net().cast_inputs((ms.Tensor([1.0]), ms.tensor([1])), ms.float16)
    assert [t.dtype for t in out] == [ms.float16, ms.int64]
    assert Net().auto_cast_inputs([ms.Tensor([1.0])])[0].dtype == ms.float32


def test_run_construct():
    out = Net().run_construct((ms.Tensor([-1.0, 2.0]),), {})
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 2.0])
