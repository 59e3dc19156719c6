"""state_dict / load_state_dict, extra state and the four state-dict hooks."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn

SEED_PRINT = (
    "OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, "
    "requires_grad=True)), ('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])"
)


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))
        self.param_a = ms.Parameter(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Model()
        self.dense = nn.Dense(2, 2)
        self.register_buffer("scratch", ms.tensor([0.0]), persistent=False)


def test_seed_state_dict_print():
    assert str(Model().state_dict()) == SEED_PRINT


def test_state_dict_keys_prefix_destination():
    net = Outer()
    state = net.state_dict()
    assert list(state) == ["inner.param_a", "inner.buffer_a", "dense.weight", "dense.bias"]
    assert state["dense.weight"] is net.dense.weight
    assert list(net.state_dict(prefix="m.")) == ["m." + k for k in state]
    dest = {}
    assert net.state_dict(destination=dest) is dest and list(dest) == list(state)
    with pytest.warns(FutureWarning, match="positional arguments are deprecated"):
        assert list(net.state_dict(None, "p.")) == ["p." + k for k in state]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"destination": []}, "'destination' must be a dict"),
        ({"prefix": 1}, "'prefix' must be a str"),
        ({"keep_vars": 1}, "'keep_vars' must be a bool"),
    ],
)
def test_state_dict_type_errors(kwargs, match):
    with pytest.raises(TypeError, match=f"For 'state_dict', {match}"):
        Model().state_dict(**kwargs)


def test_load_state_dict_roundtrip():
    source, target = Outer(), Outer()
    source.dense.weight.set_data(ms.ops.ones((2, 2)))
    source.inner.buffer_a = ms.tensor([7, 8, 9])
    result = target.load_state_dict(source.state_dict())
    assert repr(result) == "<All keys matched successfully>"  # as MindSpore 2.10 prints
    assert result.missing_keys == [] and result.unexpected_keys == []
    np.testing.assert_array_equal(target.dense.weight.asnumpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(target.inner.buffer_a.asnumpy(), [7, 8, 9])
    assert target.inner.buffer_a is not source.inner.buffer_a


def test_load_state_dict_strict_errors_load_nothing():
    net = Outer()
    before = net.dense.weight.asnumpy().copy()
    state = dict(Outer().state_dict())
    state["dense.weight"] = ms.ops.ones((2, 2))
    del state["dense.bias"]
    state["extra"] = ms.tensor([1.0])
    with pytest.raises(RuntimeError, match='Missing key.*"dense.bias".*\n.*Unexpected.*"extra"'):
        net.load_state_dict(state)
    np.testing.assert_array_equal(net.dense.weight.asnumpy(), before)
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == [] and result.unexpected_keys == []
    np.testing.assert_array_equal(net.dense.weight.asnumpy(), np.ones((2, 2)))


def test_load_state_dict_shape_and_type_errors():
    net = Outer()
    before = net.dense.bias.asnumpy().copy()
    state = dict(net.state_dict())
    state["dense.weight"] = ms.ops.ones((3, 2))
    state["dense.bias"] = ms.ops.ones((2,))
    with pytest.raises(RuntimeError, match=r"size mismatch for 'dense.weight'.*\(3, 2\).*\(2, 2\)"):
        net.load_state_dict(state)
    np.testing.assert_array_equal(net.dense.bias.asnumpy(), before)
    state["dense.weight"] = [1, 2]
    with pytest.raises(RuntimeError, match="the value of 'dense.weight' must be a Tensor"):
        net.load_state_dict(state)
    with pytest.raises(TypeError, match="For 'load_state_dict', 'state_dict' must be"):
        net.load_state_dict([1])


def test_load_state_dict_none_registered_is_unexpected():
    net = Model()
    state = dict(net.state_dict())
    net.param_a = None
    with pytest.raises(RuntimeError, match='Unexpected key.*"param_a"'):
        net.load_state_dict(state)


def test_load_casts_dtype():
    net = nn.Dense(2, 1)
    net.load_state_dict(
        {
            "weight": ms.Tensor(np.ones((1, 2)), ms.float64),
            "bias": ms.Tensor(np.zeros(1), ms.float64),
        }
    )
    assert net.weight.dtype == ms.float32


def test_seed_state_dict_pre_hook_mutating_params():
    net = Model()

    def add_extra_param(cell, prefix, keep_vars):
        cell._params["extra_param"] = ms.Parameter(ms.tensor([4, 5, 6]))

    handle = net.register_state_dict_pre_hook(add_extra_param)
    net_state_dict = net.state_dict()
    handle.remove()
    assert "extra_param" in net_state_dict


def test_state_dict_post_hook_and_metadata():
    net = Outer()
    calls = []

    def post(cell, state_dict, prefix, local_metadata):
        calls.append((type(cell).__name__, prefix))
        state_dict.pop(prefix + "buffer_a", None)

    net.inner.register_state_dict_post_hook(post)
    state = net.state_dict()
    assert calls == [("Model", "inner.")] and "inner.buffer_a" not in state
    assert list(state._metadata) == ["", "inner", "dense"]
    net.inner.register_state_dict_post_hook(lambda *args: 1)
    with pytest.raises(RuntimeError, match="must return None"):
        net.state_dict()


def test_load_hooks():
    net = Outer()
    seen = []

    def pre(cell, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        seen.append(("pre", prefix, sorted(state_dict)))
        state_dict[prefix + "param_a"] = ms.tensor([0, 0, 0])

    def post(cell, incompatible_keys):
        seen.append(("post", list(incompatible_keys.missing_keys)))
        incompatible_keys.missing_keys.clear()

    h1 = net.inner.register_load_state_dict_pre_hook(pre)
    h2 = net.register_load_state_dict_post_hook(post)
    result = net.load_state_dict(
        {"dense.weight": ms.ops.ones((2, 2)), "dense.bias": ms.ops.ones((2,))}
    )
    assert seen[0] == ("pre", "inner.", [])
    assert seen[1] == ("post", ["inner.buffer_a"])
    assert result.missing_keys == []
    np.testing.assert_array_equal(net.inner.param_a.asnumpy(), [0, 0, 0])
    h1.remove()
    h2.remove()
    with pytest.raises(TypeError, match="register_load_state_dict_post_hook"):
        net.register_load_state_dict_post_hook(3)


def test_extra_state():
    class WithExtra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(ms.tensor([1.0]))
            self.step = 0

        def get_extra_state(self):
            return {"step": self.step}

        def set_extra_state(self, state):
            self.step = state["step"]

    src = WithExtra()
    src.step = 5
    state = src.state_dict()
    assert list(state) == ["p", "_extra_state"]
    dst = WithExtra()
    dst.load_state_dict(state)
    assert dst.step == 5
    with pytest.raises(RuntimeError, match='Missing key.*"_extra_state"'):
        dst.load_state_dict({"p": ms.tensor([1.0])})
    with pytest.raises(RuntimeError, match='Unexpected key.*"_extra_state"'):
        Model().load_state_dict({**Model().state_dict(), "_extra_state": 1})
    with pytest.raises(RuntimeError, match="For 'get_extra_state', 'Model' does not override"):
        Model().get_extra_state()
    with pytest.raises(RuntimeError, match="For 'set_extra_state', 'Model' does not override"):
        Model().set_extra_state({})
