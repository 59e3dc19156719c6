"""cellax.state / functional_call / load_state: a Cell as a pure function for raw JAX."""

from __future__ import annotations

import jax
import numpy as np
import optax
import pytest

import cellax as ms
from cellax import nn, ops


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(3, 3, "ones", "zeros")
        self.bn = nn.BatchNorm1d(3)
        self.dense2 = self.dense1  # shared: appears once in state()

    def construct(self, x):
        return self.dense2(self.bn(self.dense1(x)))


def test_state_maps_paths_to_arrays_shared_once():
    net = _Net()
    values = ms.state(net)
    assert list(values) == [
        "dense1.weight",
        "dense1.bias",
        "bn.moving_mean",  # Parameters (requires_grad=False) in MindSpore's BatchNorm
        "bn.moving_variance",
        "bn.gamma",
        "bn.beta",
    ]
    assert all(isinstance(v, jax.Array) for v in values.values())
    assert "dense2.weight" not in values
    assert "rng" in ms.state(net, rng=True)


def test_functional_call_is_pure_and_matches_the_cell():
    net = nn.Dense(3, 2)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    values = ms.state(net)
    before = net.weight.asnumpy().copy()
    doubled = {k: v * 2 for k, v in values.items()}
    out, new_values = ms.functional_call(net, doubled, x)
    assert isinstance(out, jax.Array)
    expected = x @ (2 * before).T + 2 * net.bias.asnumpy()
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6)
    np.testing.assert_array_equal(net.weight.asnumpy(), before)  # no Python object touched
    assert set(new_values) == set(doubled)


def test_written_state_comes_back_in_new_values():
    net = _Net()
    net.set_train(True)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    values = ms.state(net)
    mean_before = net.bn.moving_mean.asnumpy().copy()
    _, new_values = jax.jit(lambda v: ms.functional_call(net, v, x))(values)
    assert not np.allclose(np.asarray(new_values["bn.moving_mean"]), mean_before)
    np.testing.assert_array_equal(net.bn.moving_mean.asnumpy(), mean_before)
    ms.load_state(net, new_values)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), new_values["bn.moving_mean"])


def test_random_ops_need_the_rng_entry():
    net = nn.Dropout(p=0.5)
    net.set_train(True)
    x = np.ones((4, 4), np.float32)
    with pytest.raises(KeyError, match="rng=True"):
        ms.functional_call(net, ms.state(net), x)
    values = ms.state(net, rng=True)
    out1, new1 = ms.functional_call(net, values, x)
    out2, _ = ms.functional_call(net, values, x)
    np.testing.assert_array_equal(np.asarray(out1), np.asarray(out2))  # same key, same mask
    assert not np.array_equal(np.asarray(new1["rng"]), np.asarray(values["rng"]))


def test_missing_and_unknown_entries_are_named():
    net = nn.Dense(2, 2)
    values = ms.state(net)
    x = np.ones((1, 2), np.float32)
    with pytest.raises(KeyError, match="'bias'"):
        ms.functional_call(net, {"weight": values["weight"]}, x)
    with pytest.raises(KeyError, match="nope"):
        ms.functional_call(net, {**values, "nope": values["bias"]}, x)
    with pytest.raises(KeyError, match="nope"):
        ms.load_state(net, {"nope": values["bias"]})
    with pytest.raises(ValueError, match="shape"):
        ms.load_state(net, {"bias": np.zeros(3, np.float32)})
    with pytest.raises(TypeError, match="Cell"):
        ms.state(object())


def test_grad_over_values_matches_cellax_grad():
    net = nn.Dense(3, 1)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)

    def loss(values):
        out, _ = ms.functional_call(net, values, x)
        return (out**2).sum()

    grads = jax.grad(loss)(ms.state(net))
    expected = ms.grad(lambda: (net(ms.Tensor(x)) ** 2).sum(), None, net.trainable_params())()
    np.testing.assert_allclose(np.asarray(grads["weight"]), expected[0].asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(grads["bias"]), expected[1].asnumpy(), rtol=1e-5)


def test_raw_jax_jit_and_optax_train_a_cell():
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    x = np.ones((4, 2), np.float32)
    y = np.full((4, 1), 3.0, np.float32)
    tx = optax.adam(0.1)

    @jax.jit
    def step(values, opt_state):
        def loss_fn(v):
            out, _ = ms.functional_call(net, v, x)
            return ((out - y) ** 2).mean()

        loss, grads = jax.value_and_grad(loss_fn)(values)
        updates, opt_state = tx.update(grads, opt_state, values)
        return optax.apply_updates(values, updates), opt_state, loss

    values = ms.state(net)
    opt_state = tx.init(values)
    for _ in range(100):
        values, opt_state, loss = step(values, opt_state)
    assert float(loss) < 1e-3
    ms.load_state(net, values)
    out = ops.reduce_mean(net(ms.Tensor(x)))
    np.testing.assert_allclose(out.asnumpy(), 3.0, atol=0.05)
