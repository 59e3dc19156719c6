import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get
except ImportError:
    from _goldens import cases, get

ACT = cases("activation")


@pytest.mark.parametrize("case", ACT, ids=[f"{c['cls']}-{c['id']}" for c in ACT])
def test_activation_matches_mindspore(case):
    net = getattr(nn, case["cls"])(**case["kwargs"])
    out = net(ms.Tensor(get(case, "x")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)
    assert repr(net) == f"{case['cls']}()"


@pytest.mark.parametrize(
    "name",
    [
        "relu",
        "relu6",
        "leakyrelu",
        "gelu",
        "fast_gelu",
        "silu",
        "sigmoid",
        "tanh",
        "softmax",
        "logsoftmax",
        "elu",
        "hswish",
        "hsigmoid",
        "mish",
        "softsign",
        "hshrink",
        "softshrink",
    ],
)
def test_get_activation(name):
    cell = nn.get_activation(name)
    assert isinstance(cell, nn.Cell)
    assert cell(ms.Tensor([[0.5, -1.0]])).shape == (1, 2)


def test_prelu_per_channel_and_grad():
    net = nn.PReLU(3, 0.1)
    x = np.random.default_rng(0).standard_normal((2, 3, 2)).astype(np.float32)

    def loss(inp):
        return wrap(jnp.sum(net(inp)._value * 2.0))

    grads = ms.grad(loss, grad_position=None, weights=net.trainable_params())(ms.Tensor(x))
    expected = (2 * np.where(x < 0, x, 0)).sum((0, 2))
    np.testing.assert_allclose(grads[0].asnumpy(), expected, rtol=1e-5)
    out = net(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, np.where(x >= 0, x, 0.1 * x), rtol=1e-6)


def test_gelu_grad_matches_jax():
    x = jnp.linspace(-2, 2, 7)
    got = ms.grad(lambda v: wrap(jnp.sum(nn.GELU()(v)._value)))(ms.Tensor(x))
    ref = jax.grad(lambda v: jnp.sum(jax.nn.gelu(v, approximate=True)))(x)
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-6)


def test_activation_errors():
    with pytest.raises(KeyError, match="For 'get_activation', the activation 'nope' is unknown"):
        nn.get_activation("nope")
    with pytest.raises(ValueError, match="For 'GLU', the size of 'x' along axis -1 must be even"):
        nn.GLU()(ops.ones((2, 3)))
    with pytest.raises(ValueError, match="For 'Hardtanh', 'min_val' must not exceed 'max_val'"):
        nn.Hardtanh(1.0, -1.0)
    with pytest.raises(ValueError, match="For 'PReLU', 'channel' 3 must be 1 or the channel"):
        nn.PReLU(3)(ops.ones((2, 4)))
