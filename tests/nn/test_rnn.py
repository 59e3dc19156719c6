import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get, params, set_params
except ImportError:
    from _goldens import cases, get, params, set_params

RNNS = cases("rnn")


@pytest.mark.parametrize("case", RNNS, ids=[f"{c['id']}-{c['cls']}" for c in RNNS])
def test_rnn_matches_mindspore(case):
    net = getattr(nn, case["cls"])(**case["kwargs"])
    assert [name for name, _ in net.parameters_and_names()] == case["names"]
    set_params(net, params(case))
    out, hidden = net(ms.Tensor(get(case, "x")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5)
    if case["cls"] == "LSTM":
        np.testing.assert_allclose(hidden[0].asnumpy(), get(case, "h"), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(hidden[1].asnumpy(), get(case, "c"), rtol=1e-4, atol=1e-5)
    else:
        np.testing.assert_allclose(hidden.asnumpy(), get(case, "h"), rtol=1e-4, atol=1e-5)


CELLS = cases("rnncell")


@pytest.mark.parametrize("case", CELLS, ids=[f"{c['id']}-{c['cls']}" for c in CELLS])
def test_rnn_cell_matches_mindspore(case):
    net = getattr(nn, case["cls"])(3, 4, **case["kwargs"])
    set_params(net, params(case))
    x, h = ms.Tensor(get(case, "x")), ms.Tensor(get(case, "h"))
    if case["cls"] == "LSTMCell":
        hy, cy = net(x, (h, ms.Tensor(get(case, "c"))))
        np.testing.assert_allclose(cy.asnumpy(), get(case, "cy"), rtol=1e-4, atol=1e-5)
    else:
        hy = net(x, h)
    np.testing.assert_allclose(hy.asnumpy(), get(case, "hy"), rtol=1e-4, atol=1e-5)


def test_seq_length_masks_and_reverses_within_length():
    net = nn.GRU(3, 4, bidirectional=True, batch_first=True)
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    out, h = net(ms.Tensor(x), seq_length=ms.Tensor([5, 3], ms.int32))
    short, h_short = net(ms.Tensor(x[1:, :3]))
    np.testing.assert_allclose(out.asnumpy()[1, :3], short.asnumpy()[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out.asnumpy()[1, 3:], 0)
    np.testing.assert_allclose(h.asnumpy()[:, 1], h_short.asnumpy()[:, 0], rtol=1e-5, atol=1e-6)


def test_lstm_grad_under_jit_matches_jax():
    net = nn.LSTM(3, 4, batch_first=True)
    x = ms.Tensor(np.random.default_rng(1).standard_normal((2, 4, 3)).astype(np.float32))

    def loss(inp):
        out, _ = net(inp)
        return wrap(jnp.sum(jnp.square(out._value)))

    grads = ms.jit(ms.grad(loss, grad_position=None, weights=net.trainable_params()))(x)
    w_ih, w_hh, b_ih, b_hh = (p.asnumpy() for p in net.trainable_params())

    def ref(w_ih, w_hh, b_ih, b_hh):
        def step(carry, xt):
            h, c = carry
            i, f, g, o = jnp.split(xt @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, -1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        zeros = jnp.zeros((2, 4))
        _, hs = jax.lax.scan(step, (zeros, zeros), jnp.swapaxes(x._value, 0, 1))
        return jnp.sum(jnp.square(hs))

    expected = jax.grad(ref, (0, 1, 2, 3))(w_ih, w_hh, b_ih, b_hh)
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_rnn_errors():
    with pytest.raises(
        ValueError,
        match=r"For 'LSTM', 'x' must be \(seq, batch, input_size\).*"
        r"input_size=3, but got x.shape=\(2, 4, 5\)",
    ):
        nn.LSTM(3, 4)(ops.ones((2, 4, 5)))
    with pytest.raises(ValueError, match=r"For 'GRU', 'hx' must have shape \(1, 4, 4\)"):
        nn.GRU(3, 4)(ops.ones((2, 4, 3)), ops.zeros((1, 2, 4)))
    with pytest.raises(ValueError, match="For 'RNN', 'nonlinearity' must be 'tanh' or 'relu'"):
        nn.RNN(3, 4, nonlinearity="gelu")
    with pytest.raises(ValueError, match=r"For 'LSTM', 'dropout' must be in \[0, 1\)"):
        nn.LSTM(3, 4, dropout=1.0)
    with pytest.raises(TypeError, match="For 'LSTMCell', 'hx' must be a tuple"):
        nn.LSTMCell(3, 4)(ops.ones((2, 3)), ops.zeros((2, 4)))
