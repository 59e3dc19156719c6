"""mint.nn layers are ordinary Cells: grad, jit, hooks, recompute, amp and checkpoints work."""

import numpy as np
import pytest

import cellax as ms
from cellax import mint, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mint.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = mint.nn.BatchNorm2d(4)
        self.act = mint.nn.ReLU()
        self.pool = mint.nn.AdaptiveAvgPool2d(1)
        self.flat = mint.nn.Flatten()
        self.fc = mint.nn.Linear(4, 2)

    def construct(self, x):
        return self.fc(self.flat(self.pool(self.act(self.bn(self.conv(x))))))


def _x():
    return ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 5, 5)).astype(np.float32))


def _grads(net, x, jit=False):
    grad_fn = ms.grad(lambda a: mint.sum(net(a) ** 2), None, net.trainable_params())
    grads = (ms.jit(grad_fn) if jit else grad_fn)(x)
    return [g.asnumpy() for g in grads]


def test_linear_grad_matches_dense():
    ms.set_seed(0)
    lin = mint.nn.Linear(3, 2)
    dense = nn.Dense(3, 2)
    dense.weight.set_data(ms.Tensor(lin.weight.asnumpy()))
    dense.bias.set_data(ms.Tensor(lin.bias.asnumpy()))
    x = ms.Tensor(np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]], np.float32))
    for a, b in zip(_grads(lin, x), _grads(dense, x)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def test_jit_and_recompute_give_the_eager_gradients():
    ms.set_seed(0)
    net = Net()
    net.set_train(False)
    x = _x()
    eager = _grads(net, x)
    jitted = _grads(net, x, jit=True)
    net.conv.recompute()
    recomputed = _grads(net, x, jit=True)
    for a, b, c in zip(eager, jitted, recomputed):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(c, a, rtol=1e-4, atol=1e-5)
    assert any(np.abs(g).sum() > 0 for g in eager)


def test_batchnorm_updates_running_stats_in_training_under_jit():
    ms.set_seed(0)
    net = Net()
    net.set_train(True)
    before = net.bn.running_mean.asnumpy().copy()
    ms.jit(lambda a: net(a))(_x())
    assert not np.allclose(net.bn.running_mean.asnumpy(), before)
    assert int(net.bn.num_batches_tracked.asnumpy()) == 1


def test_forward_hook_changes_the_output():
    ms.set_seed(0)
    lin = mint.nn.Linear(3, 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    plain = lin(x).asnumpy()
    handle = lin.register_forward_hook(lambda cell, inputs, output: output * 2)
    np.testing.assert_allclose(lin(x).asnumpy(), plain * 2, rtol=1e-6)
    handle.remove()
    np.testing.assert_allclose(lin(x).asnumpy(), plain, rtol=1e-6)


def test_amp_o2_casts_the_layers():
    ms.set_seed(0)
    net = Net()
    net.set_train(False)
    reference = net(_x()).asnumpy()
    half = ms.amp.auto_mixed_precision(net, "O2")
    out = half(_x())
    assert out.dtype in (ms.float16, ms.float32)
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), reference, rtol=2e-2, atol=2e-2)


def test_checkpoint_round_trip(tmp_path):
    ms.set_seed(0)
    net = Net()
    names = [p.name for p in net.get_parameters()]
    assert "conv.weight" in names and "bn.running_mean" in names and "fc.bias" in names
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    ms.set_seed(1)
    other = Net()
    assert not np.allclose(other.fc.weight.asnumpy(), net.fc.weight.asnumpy())
    not_loaded, _ = ms.load_param_into_net(other, ms.load_checkpoint(path))
    assert not not_loaded
    for a, b in zip(net.get_parameters(), other.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


@pytest.mark.parametrize("layer", ["Linear", "Conv2d", "Embedding", "LayerNorm"])
def test_pytorch_default_init_bounds(layer):
    """Kaiming-uniform (a=sqrt(5)) weights: within +-1/sqrt(fan_in); Embedding N(0, 1)."""
    ms.set_seed(0)
    if layer == "Linear":
        w, fan_in = mint.nn.Linear(50, 40).weight.asnumpy(), 50
    elif layer == "Conv2d":
        w, fan_in = mint.nn.Conv2d(6, 8, 3).weight.asnumpy(), 6 * 9
    elif layer == "Embedding":
        w = mint.nn.Embedding(200, 20).weight.asnumpy()
        assert abs(w.std() - 1.0) < 0.1 and abs(w.mean()) < 0.1
        return
    else:
        norm = mint.nn.LayerNorm(5)
        np.testing.assert_array_equal(norm.weight.asnumpy(), np.ones(5, np.float32))
        np.testing.assert_array_equal(norm.bias.asnumpy(), np.zeros(5, np.float32))
        return
    bound = 1 / np.sqrt(fan_in)
    assert np.abs(w).max() <= bound + 1e-7
    assert np.abs(w).max() > 0.8 * bound  # spread over the whole interval
