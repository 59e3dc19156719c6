"""Custom Cell.bprop: the seed's Dropout2d, the extended form with internal_params, errors, jit."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import Parameter, Tensor, nn, ops


class Dropout2d(nn.Cell):
    """Seed 001's custom-backward Dropout2d (bprop reads ``out`` as (output, mask))."""

    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob
        self.dropout2d = ops.Dropout2D(keep_prob)

    def construct(self, x):
        return self.dropout2d(x)

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        if self.keep_prob != 0:
            dy = dy * (1 / self.keep_prob)
        dy = mask.astype(ms.float32) * dy
        return (dy.astype(x.dtype),)


def test_seed_dropout2d_bprop_uses_mask():
    dropout_2d = Dropout2d(0.8)
    dropout_2d.bprop_debug = True
    x = Tensor(np.random.default_rng(0).standard_normal((4, 6, 2, 2)), ms.float32)
    grad = ms.grad(lambda x: dropout_2d(x)[0] * 3)(x)
    # the mask of that call, drawn again from the same seed
    ms.set_seed(0)
    _, mask = dropout_2d(x)
    expected = mask.asnumpy().astype(np.float32) * 3 / 0.8
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6)
    assert 0 < mask.asnumpy().sum() < mask.size


def test_bprop_sees_inputs_out_and_dout():
    calls = []

    class Mul(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            calls.append((x.asnumpy(), y.asnumpy(), out.asnumpy(), dout.asnumpy()))
            return dout * 7, dout * 11

    x, y = Tensor([3.0], ms.float32), Tensor([5.0], ms.float32)
    gx, gy = ms.grad(lambda x, y: Mul()(x, y) * 2, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [14.0])
    np.testing.assert_allclose(gy.asnumpy(), [22.0])
    ((cx, cy, cout, cdout),) = calls
    np.testing.assert_allclose([cx[0], cy[0], cout[0], cdout[0]], [3.0, 5.0, 15.0, 2.0])


class NetWithParam(nn.Cell):
    def __init__(self):
        super(NetWithParam, self).__init__()
        self.w = Parameter(Tensor(np.array([2.0], dtype=np.float32)), name="weight")
        self.internal_params = [self.w]

    def construct(self, x):
        return self.w * x

    def bprop(self, *args):
        return (self.w * args[-1],), {self.w: args[0] * args[-1]}


@pytest.mark.parametrize("compiled", [False, True])
def test_extended_bprop_weight_gradients(compiled):
    net = NetWithParam()
    grad_fn = ms.grad(net, 0, net.trainable_params())
    if compiled:
        grad_fn = ms.jit(grad_fn)
    gx, (gw,) = grad_fn(Tensor(np.array([3.0], np.float32)))
    np.testing.assert_allclose(gx.asnumpy(), [2.0])
    np.testing.assert_allclose(gw.asnumpy(), [3.0])


def test_plain_bprop_gives_zero_weight_gradients_and_jit_matches_eager():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            return ops.sin(x) * self.w

        def bprop(self, x, out, dout):
            return (ops.cos(x) * self.w * dout,)

    net = Scale()
    x = Tensor(np.array([0.5, 1.5], np.float32))
    eager = ms.grad(net, 0, net.trainable_params())(x)
    jitted = ms.jit(ms.grad(net, 0, net.trainable_params()))(x)
    expected = jax.grad(lambda v: (jnp.sin(v) * jnp.array([2.0, 3.0])).sum())(x._value)
    for gx, (gw,) in (eager, jitted):
        np.testing.assert_allclose(gx.asnumpy(), np.asarray(expected), rtol=1e-6)
        np.testing.assert_allclose(gw.asnumpy(), [0.0, 0.0])


def test_bprop_forward_only_runs_construct():
    net = NetWithParam()
    np.testing.assert_allclose(net(Tensor(np.array([4.0], np.float32))).asnumpy(), [8.0])


def test_bprop_wrong_number_of_gradients():
    class Bad(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return (dout,)

    x = Tensor(np.array([3.0], np.float32))
    with pytest.raises(
        RuntimeError,
        match="For 'bprop' of Cell 'Bad', bprop must return one "
        "gradient per positional input \\(2\\), but got 1",
    ):
        ms.grad(Bad(), (0, 1))(x, x)


def test_bprop_wrong_gradient_shape():
    class BadShape(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (ops.ones((3,), ms.float32),)

    with pytest.raises(
        RuntimeError, match="For 'bprop' of Cell 'BadShape', the gradient of input 0"
    ):
        ms.grad(BadShape())(Tensor(np.array([3.0, 1.0], np.float32)))


# recorded from MindSpore 2.10 CPU by tests/goldens/bprop_returns.py
BAD_BPROP_OUTCOMES = {
    "str": "TypeError",
    "shape": "RuntimeError",
    "count": "ok",  # an extra gradient is ignored
    "int": "RuntimeError",
    "none": "TypeError",
    "dtype": "ok",
}


@pytest.mark.parametrize("kind", sorted(BAD_BPROP_OUTCOMES))
def test_bad_bprop_returns_like_mindspore(kind):
    from ._goldens import load_module

    case = load_module("bprop_returns")
    assert case.outcome(ms, kind) == BAD_BPROP_OUTCOMES[kind]
    if BAD_BPROP_OUTCOMES[kind] != "ok":
        with pytest.raises(Exception, match="For 'bprop' of Cell 'Net'"):  # names the API
            ms.grad(case.make_net(ms, kind))(Tensor(np.ones(2, np.float32)))
