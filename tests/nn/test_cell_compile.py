"""set_inputs/get_inputs, compile, compile_and_run, set_jit_config, JitConfig."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn, Tensor


class ReluNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x, y=None):
        return self.relu(x)


def test_seed_set_inputs_get_inputs():
    net = ReluNet()
    input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
    net.set_inputs(input_dyn)
    # MindSpore 2.10 prints "value=\n)" for a 2-D placeholder (the seed text flattened it)
    assert str(net.get_inputs()) == "(Tensor(shape=[3, -1], dtype=Float32, value=\n),)"
    assert net(Tensor(np.random.random([3, 10]), dtype=ms.float32)).shape == (3, 10)
    net2 = ReluNet()
    net2.set_inputs(x=input_dyn)
    assert net2.get_inputs()["total_arg_length"] == 2
    assert net2(Tensor(np.random.random([3, 10]), dtype=ms.float32)).shape == (3, 10)
    assert ReluNet().get_inputs() is None


@pytest.mark.parametrize(
    "shape, dtype, error, match",
    [
        ((4, 5), ms.float32, ValueError, r"declared by set_inputs with shape \[3, -1\]"),
        ((3,), ms.float32, ValueError, r"\(rank 2\), but got shape \[3\]"),
        ((3, 5), ms.float16, TypeError, "with dtype Float32, but got Float16"),
    ],
)
def test_set_inputs_checks_calls(shape, dtype, error, match):
    net = ReluNet()
    net.set_inputs(Tensor(shape=[3, None], dtype=ms.float32))
    with pytest.raises(error, match=f"For 'ReluNet', input 0 .*{match}"):
        net(Tensor(np.ones(shape), dtype))


def test_set_inputs_errors():
    dyn = Tensor(shape=[3, None], dtype=ms.float32)
    with pytest.raises(ValueError, match="For 'set_inputs', give either positional"):
        ReluNet().set_inputs(dyn, x=dyn)
    with pytest.raises(TypeError, match="takes 1 positional input"):
        ReluNet().set_inputs(dyn, dyn, dyn)
    with pytest.raises(TypeError, match="'z' is not a parameter"):
        ReluNet().set_inputs(z=dyn)
    net = ReluNet()
    net.set_inputs(dyn)
    with pytest.raises(TypeError, match="declared by set_inputs as a Tensor"):
        net([1.0])


def test_compile_and_proto():
    net = nn.Dense(2, 3)
    with pytest.raises(RuntimeError, match="For 'get_func_graph_proto'"):
        net.get_func_graph_proto()
    assert net.compile(ms.ops.ones((4, 2))) is None
    assert "dot_general" in net.get_func_graph_proto()
    with pytest.raises(ValueError, match="For 'compile', input 0 is a shape-only Tensor"):
        net.compile(Tensor(shape=[None, 2], dtype=ms.float32))


def test_compile_and_run():
    net = nn.Dense(2, 3)
    x = ms.ops.ones((4, 2))
    out = net.compile_and_run(x)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_jit_config():
    config = ms.JitConfig()
    assert config.jit_config_dict == {
        "jit_level": "",
        "exc_mode": "auto",
        "jit_syntax_level": "",
        "debug_level": "RELEASE",
        "infer_boost": "off",
    }
    assert ms.JitConfig(jit_level="O2").jit_config_dict["backend"] == "GE"
    net = ReluNet()
    assert net.jit_config_dict == {}
    net.set_jit_config(ms.JitConfig(jit_level="O1"))
    assert net.jit_config_dict["jit_level"] == "O1"
    with pytest.raises(TypeError, match="For 'set_jit_config', 'jit_config' must be a JitConfig"):
        net.set_jit_config({})
    with pytest.raises(ValueError, match="For 'JitConfig', 'jit_level' must be one of"):
        ms.JitConfig(jit_level="O9")


def test_construct_must_be_overridden():
    with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
        nn.Cell()(ms.Tensor([1.0]))
