"""Training wrappers: WithLossCell, WithEvalCell, WithGradCell, ForwardValueAndGrad,
TrainOneStepCell, ParameterUpdate."""

import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn
from cellax._tensor import wrap


def mse(out, label):
    return wrap(jnp.mean((out._value - label._value) ** 2))


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    return ms.Tensor(x), ms.Tensor(y)


def dense():
    return nn.Dense(3, 1, weight_init="zeros", bias_init="zeros")


def test_with_loss_cell():
    net = dense()
    loss_net = nn.WithLossCell(net, mse)
    x, y = data()
    np.testing.assert_allclose(
        float(loss_net(x, y).asnumpy()), np.mean(y.asnumpy() ** 2), rtol=1e-6
    )
    assert loss_net.backbone_network is net
    assert [p.name for p in loss_net.trainable_params()] == ["weight", "bias"]


def test_with_eval_cell_casts():
    net = dense().to_float(ms.float16)
    x, y = data()
    loss, out, label = nn.WithEvalCell(net, mse, add_cast_fp32=True)(x, y.astype(ms.float16))
    assert out.dtype == ms.float32 and label.dtype == ms.float32
    np.testing.assert_allclose(float(loss.asnumpy()), np.mean(y.asnumpy() ** 2), rtol=1e-3)


def test_with_grad_cell_matches_value_and_grad():
    x, y = data()
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    grads = nn.WithGradCell(net, mse)(x, y)
    expected = ms.grad(lambda a, b: mse(net(a), b), None, net.trainable_params())(x, y)
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)
    scaled = nn.WithGradCell(net, mse, sens=ms.Tensor(3.0))(x, y)
    np.testing.assert_allclose(scaled[0].asnumpy(), 3 * grads[0].asnumpy(), rtol=1e-6)


def test_forward_value_and_grad():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    x = ms.Tensor([[1.0, 2.0]])
    loss, (input_grads, weight_grads) = nn.ForwardValueAndGrad(
        net, net.trainable_params(), get_all=True, get_by_list=True
    )(x)
    np.testing.assert_allclose(loss.asnumpy(), [[3.0]])
    np.testing.assert_allclose(input_grads[0].asnumpy(), [[1.0, 1.0]])
    np.testing.assert_allclose(weight_grads[1].asnumpy(), [1.0])
    loss, grad_x = nn.ForwardValueAndGrad(net, sens_param=True)(x, ms.Tensor([[2.0]]))
    np.testing.assert_allclose(grad_x.asnumpy(), [[2.0, 2.0]])
    with pytest.raises(TypeError, match="For 'ForwardValueAndGrad', 'weights' must be a list"):
        nn.ForwardValueAndGrad(net, None, get_by_list=True)


def test_train_one_step_cell_loss_falls():
    x, y = data()
    net = dense()
    optimizer = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, mse), optimizer)
    train_net.set_train()
    losses = [float(train_net(x, y).asnumpy()) for _ in range(30)]
    assert losses[-1] < 0.05 * losses[0]
    assert int(optimizer.global_step.asnumpy()[0]) == 30
    names = list(train_net.parameters_dict())
    assert names[:2] == ["weight", "bias"] and "moments.weight" in names


def test_train_one_step_cell_sens_scales_gradients():
    x, y = data()
    results = []
    for sens in (None, 4.0):
        net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
        train_net = nn.TrainOneStepCell(
            nn.WithLossCell(net, mse),
            nn.SGD(net.trainable_params(), 0.01),
            sens=sens,
            return_grad=True,
        )
        loss, grads = train_net(x, y)
        results.append((float(loss.asnumpy()), grads, net.weight.asnumpy()))
    (loss1, grads1, w1), (loss4, grads4, w4) = results
    assert loss1 == loss4
    assert list(grads1) == ["weight", "bias"]
    np.testing.assert_allclose(
        grads4["weight"].asnumpy(), 4 * grads1["weight"].asnumpy(), rtol=1e-6
    )
    np.testing.assert_allclose(1.0 - w4, 4 * (1.0 - w1), rtol=1e-5)


def test_train_one_step_cell_under_jit_matches_eager():
    x, y = data()
    weights = []
    for use_jit in (False, True):
        net = dense()
        train_net = nn.TrainOneStepCell(
            nn.WithLossCell(net, mse), nn.Adam(net.trainable_params(), 0.1)
        )
        step = ms.jit(train_net) if use_jit else train_net
        losses = [float(step(x, y).asnumpy()) for _ in range(3)]
        weights.append((losses, net.weight.asnumpy()))
    np.testing.assert_allclose(weights[1][0], weights[0][0], rtol=1e-6)
    np.testing.assert_allclose(weights[1][1], weights[0][1], rtol=1e-6)


def test_parameter_update():
    w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    update = nn.ParameterUpdate(w)
    update(ms.Tensor([5.0, 6.0]))
    np.testing.assert_allclose(w.asnumpy(), [5.0, 6.0])
    with pytest.raises(ValueError, match="For 'ParameterUpdate', 'x' must have the shape"):
        update(ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="For 'ParameterUpdate', 'param' must be a Parameter"):
        nn.ParameterUpdate(ms.Tensor([1.0]))


def test_errors():
    net = dense()
    with pytest.raises(TypeError, match="For 'WithLossCell', 'backbone' must be a Cell"):
        nn.WithLossCell(lambda x: x, mse)
    with pytest.raises(TypeError, match="For 'WithLossCell', 'loss_fn' must be a Cell or a func"):
        nn.WithLossCell(net, 3)
    with pytest.raises(TypeError, match="For 'WithEvalCell', 'add_cast_fp32' must be a bool"):
        nn.WithEvalCell(net, mse, add_cast_fp32=1)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    with pytest.raises(TypeError, match="For 'TrainOneStepCell', 'optimizer' must be an nn.Opt"):
        nn.TrainOneStepCell(net, lambda grads: grads)
    with pytest.raises(ValueError, match="For 'TrainOneStepCell', 'sens' can not be 0"):
        nn.TrainOneStepCell(net, optimizer, sens=0.0)
    with pytest.raises(TypeError, match="For 'TrainOneStepCell', 'network' must be a Cell"):
        nn.TrainOneStepCell(mse, optimizer)
