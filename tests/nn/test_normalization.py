import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get, ids, params
except ImportError:
    from _goldens import cases, get, ids, params

BN = cases("batchnorm")


def _set_bn(net, case):
    start = params(case, "start.")
    named = dict(net.parameters_and_names())
    for name, value in start.items():
        key = {"mean": "moving_mean", "variance": "moving_variance"}.get(name, name)
        target = named[key] if key in named else named[name]
        target.set_data(ms.Tensor(value))


@pytest.mark.parametrize("case", BN, ids=ids(BN))
def test_batchnorm_matches_mindspore(case):
    net = getattr(nn, case["cls"])(**case["kwargs"])
    _set_bn(net, case)
    net.set_train(True)
    y1 = net(ms.Tensor(get(case, "x1")))
    y2 = net(ms.Tensor(get(case, "x2")))
    np.testing.assert_allclose(y1.asnumpy(), get(case, "y1"), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y2.asnumpy(), get(case, "y2"), rtol=1e-4, atol=1e-5)
    after = params(case, "after.")
    mine = {p.name: p.asnumpy() for p in net.get_parameters()}
    assert sorted(mine) == sorted(after)
    for name, value in after.items():
        np.testing.assert_allclose(mine[name], value, rtol=1e-5, atol=1e-6, err_msg=name)
    net.set_train(False)
    np.testing.assert_allclose(
        net(ms.Tensor(get(case, "x3"))).asnumpy(), get(case, "y3"), rtol=1e-4, atol=1e-5
    )
    assert repr(net) == case["repr"]


def test_batchnorm_parameter_names_when_nested():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm2d(2)
            self.seq = nn.SequentialCell([nn.BatchNorm1d(2)])

    names = [p.name for p in Net().get_parameters()]
    assert names == [
        "bn.moving_mean",
        "bn.moving_variance",
        "bn.gamma",
        "bn.beta",
        "seq.0.moving_mean",
        "seq.0.moving_variance",
        "seq.0.gamma",
        "seq.0.beta",
    ]
    bn = nn.BatchNorm2d(2)
    assert [p.requires_grad for p in bn.get_parameters()] == [False, False, True, True]


def test_batchnorm_jit_update_equals_eager():
    x = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype(np.float32)
    eager, compiled = nn.BatchNorm2d(3, momentum=0.8), nn.BatchNorm2d(3, momentum=0.8)
    eager.set_train()
    compiled.set_train()
    step = ms.jit(lambda inp: compiled(inp))
    for i in range(2):
        a = eager(ms.Tensor(x + i))
        b = step(ms.Tensor(x + i))
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    for p, q in zip(eager.get_parameters(), compiled.get_parameters()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-6, atol=1e-7)
    assert not np.allclose(eager.moving_mean.asnumpy(), 0)


def test_batchnorm_grad_updates_stats_and_matches_jax():
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    bn = nn.BatchNorm1d(3)
    bn.set_train()

    def loss(inp):
        return wrap(jnp.sum(jnp.square(bn(inp)._value) * jnp.arange(3.0)))

    grads = ms.grad(loss, grad_position=0, weights=bn.trainable_params())(ms.Tensor(x))

    def ref(v, gamma, beta):
        y = (v - v.mean(0)) / jnp.sqrt(v.var(0) + 1e-5) * gamma + beta
        return jnp.sum(jnp.square(y) * jnp.arange(3.0))

    gx, gg, gb = jax.grad(ref, (0, 1, 2))(x, jnp.ones(3), jnp.zeros(3))
    np.testing.assert_allclose(grads[0].asnumpy(), gx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[1][0].asnumpy(), gg, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[1][1].asnumpy(), gb, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * x.mean(0), rtol=1e-5, atol=1e-6)


def test_batchnorm_use_batch_statistics_false_in_training():
    bn = nn.BatchNorm1d(2, use_batch_statistics=False)
    bn.set_train()
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(bn(x).asnumpy(), x.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-6)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [0, 0])


LN = cases("layernorm")


@pytest.mark.parametrize("case", LN, ids=ids(LN))
def test_layernorm_matches_mindspore(case):
    net = nn.LayerNorm(**case["kwargs"])
    for name, value in params(case).items():
        getattr(net, name).set_data(ms.Tensor(value))
    np.testing.assert_allclose(
        net(ms.Tensor(get(case, "x"))).asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5
    )
    assert repr(net) == case["repr"]


def test_groupnorm_matches_mindspore():
    (case,) = cases("groupnorm")
    net = nn.GroupNorm(2, 4, eps=1e-4)
    for name, value in params(case).items():
        getattr(net, name).set_data(ms.Tensor(value))
    np.testing.assert_allclose(
        net(ms.Tensor(get(case, "x"))).asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5
    )
    assert repr(net) == case["repr"]


def test_instance_norm_matches_numpy():
    x = np.random.default_rng(2).standard_normal((2, 3, 3, 4)).astype(np.float32)
    net = nn.InstanceNorm2d(3)
    net.set_train()
    out = net(ms.Tensor(x)).asnumpy()
    ref = (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        net.moving_mean.asnumpy(), 0.1 * x.mean((0, 2, 3)), rtol=1e-4, atol=1e-6
    )


def test_layer_norm_functional_matches_numpy():
    x = np.random.default_rng(3).standard_normal((2, 3, 4)).astype(np.float32)
    out = ops.layer_norm(ms.Tensor(x), (3, 4), ms.Tensor(np.full((3, 4), 2.0, np.float32)))
    ref = (x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-5) * 2
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_normalization_errors():
    with pytest.raises(
        ValueError,
        match=r"For 'BatchNorm2d', 'x' must be a 4-D Tensor with "
        r"num_features=3.*x.shape=\(2, 4, 2, 2\)",
    ):
        nn.BatchNorm2d(3)(ops.ones((2, 4, 2, 2)))
    with pytest.raises(ValueError, match=r"For 'BatchNorm1d', 'momentum' must be in \[0.0, 1.0\]"):
        nn.BatchNorm1d(3, momentum=1.5)
    with pytest.raises(ValueError, match="For 'LayerNorm', the shape of 'input_x'"):
        nn.LayerNorm((3,))(ops.ones((2, 4)))
    with pytest.raises(TypeError, match="For 'LayerNorm', 'normalized_shape' must be a tuple"):
        nn.LayerNorm(3)
    with pytest.raises(ValueError, match="For 'GroupNorm', 'num_channels' must be divisible"):
        nn.GroupNorm(3, 4)
    with pytest.raises(ValueError, match="For 'batch_norm', 'running_mean' must have shape"):
        ops.batch_norm(ops.ones((2, 3)), ops.zeros(2), ops.ones(3), None, None)
