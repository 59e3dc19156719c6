"""MindSpore's protected Optimizer API that user-defined optimizers call (mindcv's AdamW, Lion
and NAdam subclass nn.Optimizer this way), checked against NumPy."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops


class DecayedSGD(nn.Optimizer):
    """A custom optimizer written as MindSpore users write one."""

    def __init__(self, params, learning_rate, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.sgd = ops.partial(lambda lr, p, g: ops.assign(p, p - lr * g))

    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        gradients = self._grad_sparse_indices_deduplicate(gradients)
        lr = self.get_lr()
        if self._is_dynamic_lr_or_weight_decay():
            self.assignadd(self.global_step, self.global_step_increase_tensor)
        return self.hyper_map(ops.partial(self.sgd, lr), self.parameters, gradients)


def _net():
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10))
    net.bias.set_data(ms.Tensor(np.array([0.5, -0.5], np.float32)))
    return net


def test_custom_optimizer_decay_and_scale_against_numpy():
    net = _net()
    w0, b0 = net.weight.asnumpy(), net.bias.asnumpy()
    opt = DecayedSGD(net.trainable_params(), 0.1, weight_decay=0.01, loss_scale=4.0)
    assert opt.decay_flags == (True, True) and opt.need_scale
    assert opt.optim_filter == (True, True) and opt.use_parallel is False
    np.testing.assert_allclose(opt.reciprocal_scale.asnumpy(), 0.25)
    gw, gb = np.ones((2, 3), np.float32), np.full((2,), 2.0, np.float32)
    opt((ms.Tensor(gw), ms.Tensor(gb)))
    # MindSpore scales weight_decay by loss_scale (get_weight_decay() is 0.04), so the decay
    # survives scale_grad unscaled: w - lr * (g / 4 + 0.01 * w).
    np.testing.assert_allclose(float(opt.get_weight_decay().asnumpy()), 0.04, rtol=1e-6)
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1 * (gw / 4 + 0.01 * w0), rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - 0.1 * (gb / 4 + 0.01 * b0), rtol=1e-6)
    # MindSpore 2.10 CPU, the same optimizer and inputs:
    golden = [[-0.025, 0.0749, 0.1748], [0.2747, 0.3746, 0.4745]], [0.4495, -0.5495]
    np.testing.assert_allclose(net.weight.asnumpy(), golden[0], rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), golden[1], rtol=1e-5)
    assert int(opt.global_step.asnumpy()[0]) == 0  # a fixed rate does not count steps


def test_decay_flags_follow_names_and_groups():
    net = _net()
    net.bias.name = "bn.gamma"
    opt = DecayedSGD(net.trainable_params(), 0.1)
    assert opt.decay_flags == (True, False) and not opt.exec_weight_decay
    assert isinstance(opt.weight_decay, ms.Tensor)  # MindSpore keeps a float32 Tensor
    groups = [{"params": [net.weight], "weight_decay": 0.1}, {"params": [net.bias]}]
    opt = DecayedSGD(groups, 0.1)
    assert opt.decay_flags == (True, False) and opt.dynamic_decay_flags == (False, False)


def test_dynamic_lr_advances_global_step():
    net = _net()
    opt = DecayedSGD(net.trainable_params(), [0.1, 0.05, 0.01])
    assert opt._is_dynamic_lr_or_weight_decay()
    grads = tuple(ops.ones_like(p) for p in net.trainable_params())
    opt(grads)
    opt(grads)
    assert int(opt.global_step.asnumpy()[0]) == 2


def test_dynamic_lr_reads_a_step_from_the_end():
    # MindSpore 2.10 CPU gives 0.3 here: a list rate's schedule gathers the step, so before the first
    # step ``learning_rate(global_step - 1)`` (what mindocr's fetch_optimizer_lr prints) is the
    # last rate; past the end cellax keeps the last rate
    opt = DecayedSGD(_net().trainable_params(), [0.1, 0.2, 0.3])
    assert float(opt.learning_rate(opt.global_step - 1).asnumpy()[0]) == pytest.approx(0.3)
    assert float(opt.learning_rate(ms.Tensor([1], ms.int32)).asnumpy()[0]) == pytest.approx(0.2)
    assert float(opt.learning_rate(ms.Tensor([7], ms.int32)).asnumpy()[0]) == pytest.approx(0.3)


def test_set_base_target_validates():
    opt = DecayedSGD(_net().trainable_params(), 0.1)
    opt._set_base_target("CPU")
    assert opt.target == "CPU"
    with pytest.raises(ValueError, match="must be one of"):
        opt._set_base_target("TPU")
    with pytest.raises(TypeError, match="must be string"):
        opt._set_base_target(1)


def test_loss_scale_cell_overflow_protocol():
    net = nn.WithLossCell(nn.Dense(2, 1), nn.MSELoss())
    update = nn.DynamicLossScaleUpdateCell(2.0**4, 2, 1000)
    step = nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params(), 0.1), update)
    status, x = step.start_overflow_check(ms.Tensor(1.0), ms.Tensor(3.0))
    assert status.shape == (8,) and float(x.asnumpy()) == 3.0
    finite = (ms.Tensor([1.0, 2.0]), ms.Tensor([3.0]))
    assert not bool(step.get_overflow_status(status, finite).asnumpy())
    bad = (ms.Tensor([1.0, np.inf]), ms.Tensor([3.0]))
    overflow = step.get_overflow_status(status, bad)
    assert bool(overflow.asnumpy())
    assert bool(step.process_loss_scale(overflow).asnumpy())
    assert float(step.scale_sense.asnumpy()) == 8.0  # halved by the dynamic manager
    grads = step.grad(net, step.weights)(ms.ops.ones((3, 2)), ms.ops.zeros((3, 1)), ms.Tensor(1.0))
    assert [g.shape for g in grads] == [(1, 2), (1,)]
