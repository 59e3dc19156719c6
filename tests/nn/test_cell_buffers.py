"""Buffers: nn.Buffer, register_buffer, buffers, named_buffers, get_buffer."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn


class NetB(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_b = nn.Buffer(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_b


class NetA(nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


def test_seed_buffers_and_named_buffers():
    net_a = NetA(NetB())
    assert [f"buffer is {b}" for b in net_a.buffers()] == ["buffer is [4 5 6]", "buffer is [1 2 3]"]
    assert [f"{n}: {b}" for n, b in net_a.named_buffers()] == [
        "buffer_a: [4 5 6]",
        "net_b.buffer_b: [1 2 3]",
    ]
    assert [n for n, _ in net_a.named_buffers(prefix="m", recurse=False)] == ["m.buffer_a"]
    assert str(net_a(ms.tensor([1, 1, 1]))) == "[ 6  8 10]"


def test_named_buffers_remove_duplicate():
    shared = nn.Buffer(ms.tensor([1.0]))
    net = nn.Cell()
    net.a = shared
    net.b = shared
    assert [n for n, _ in net.named_buffers()] == ["a"]
    assert [n for n, _ in net.named_buffers(remove_duplicate=False)] == ["a", "b"]


def test_seed_get_buffer():
    class NetC(nn.Cell):
        def __init__(self):
            super().__init__()
            self.buffer_c = nn.Buffer(ms.tensor([0, 0, 0]))

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net_b = NetA(NetC())

    net = Outer()
    net.net_b.net_b.w = ms.Parameter(ms.tensor([1.0]))
    assert f"{net.get_buffer('net_b.net_b.buffer_c')}" == "[0 0 0]"
    with pytest.raises(AttributeError, match="For 'get_buffer', NetC has no attribute `nope`"):
        net.get_buffer("net_b.net_b.nope")
    with pytest.raises(AttributeError, match="For 'get_buffer', `w` is not a buffer"):
        net.get_buffer("net_b.net_b.w")


def test_register_buffer_seed_and_assignment():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("buffer0", ms.tensor([1, 2, 3]))

    net = Net()
    assert str(net.buffer0) == "[1 2 3]"
    assert isinstance(net.buffer0, nn.Buffer)
    net.buffer0 = ms.tensor([4, 5, 6])
    assert str(net.buffer0) == "[4 5 6]" and isinstance(net.buffer0, nn.Buffer)
    net.register_buffer("buffer0", ms.tensor([9]))
    assert str(net.buffer0) == "[9]"
    net.buffer0 = None
    assert net.buffer0 is None and list(net.buffers()) == []


def test_buffer_updates_under_jit():
    net = nn.Cell()
    net.register_buffer("count", ms.tensor(np.zeros(2, np.float32)))

    @ms.jit
    def step():
        net.count = net.count + 1.0
        return net.count

    step()
    step()
    np.testing.assert_array_equal(net.count.asnumpy(), [2.0, 2.0])


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((1, ms.tensor([1])), TypeError, "the name must be a str"),
        (("a.b", ms.tensor([1])), KeyError, "contain no '.'"),
        (("", ms.tensor([1])), KeyError, "must be non-empty"),
        (("training", ms.tensor([1])), KeyError, "the name 'training' is already an attribute"),
        (("zz", np.ones(2)), TypeError, "'tensor' must be a Tensor or None, but got ndarray"),
    ],
)
def test_register_buffer_errors(args, error, match):
    with pytest.raises(error, match=f"For 'register_buffer', .*{match}"):
        nn.Cell().register_buffer(*args)


def test_buffer_replace_by_non_tensor_errors():
    net = nn.Cell()
    net.register_buffer("buf", ms.tensor([1]))
    with pytest.raises(TypeError, match="'buf' is a buffer of 'Cell' and can not be replaced"):
        net.buf = 3
