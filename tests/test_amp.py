"""cellax.amp: levels (checked on the lowered HLO), numerics, loss scaling eagerly and under jit."""

import re

import numpy as np
import pytest

import cellax as ms
from cellax import amp, nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(8, 16)
        self.norm = nn.LayerNorm((16,))
        self.act = nn.ReLU()
        self.dense2 = nn.Dense(16, 4)

    def construct(self, x):
        return self.dense2(self.act(self.norm(self.dense1(x))))


def _x(batch=4):
    return ms.Tensor(np.random.default_rng(0).normal(size=(batch, 8)), ms.float32)


def _dot_dtypes(fn, *args):
    text = ms.jit(fn).lower(*args).as_text()
    return re.findall(r"stablehlo\.dot_general.*-> tensor<[0-9x]*x?(\w+)>", text)


def _fresh(level, dtype=ms.bfloat16):
    ms.set_seed(0)
    net = Block()
    return net, amp.auto_mixed_precision(net, level, dtype)


@pytest.mark.parametrize("level", ["O1", "O2", "O3", "auto"])
def test_levels_run_matmuls_in_low_precision(level):
    _, net = _fresh(level)
    x = _x()
    dots = _dot_dtypes(lambda x: net(x), x)
    assert dots and all(d == "bf16" for d in dots), dots
    out = net(x)
    assert out.dtype == ms.float32


def test_o0_is_unchanged():
    net, wrapped = _fresh("O0")
    assert wrapped is net
    assert all(d == "f32" for d in _dot_dtypes(lambda x: net(x), _x()))


def test_o2_keeps_black_list_in_float32_and_o3_does_not():
    seen = {}

    def record(cell, inputs, output):
        seen[type(cell).__name__] = (inputs[0].dtype, output.dtype)

    for level, expected in (("O2", ms.float32), ("O3", ms.bfloat16)):
        raw, net = _fresh(level)
        raw.norm.register_forward_hook(record)
        net(_x())
        assert seen["LayerNorm"][0] == expected, level
    raw, net = _fresh("O1")
    raw.norm.register_forward_hook(record)
    raw.dense2.register_forward_hook(record)
    net(_x())
    assert seen["LayerNorm"][0] == ms.float32  # O1: outputs of white-list cells come back f32
    assert seen["Dense"] == (ms.bfloat16, ms.float32)


@pytest.mark.parametrize("level", ["O1", "O2", "O3"])
def test_numerics_close_to_float32_and_master_weights_stay_float32(level):
    reference, _ = _fresh("O0")
    raw, net = _fresh(level)
    x = _x()
    np.testing.assert_allclose(net(x).asnumpy(), reference(x).asnumpy(), rtol=5e-2, atol=5e-2)
    grads = ms.grad(lambda x: net(x).sum(), None, raw.trainable_params())(x)
    ref_grads = ms.grad(lambda x: reference(x).sum(), None, reference.trainable_params())(x)
    for g, r, p in zip(grads, ref_grads, raw.trainable_params()):
        assert p.dtype == ms.float32 and g.dtype == ms.float32
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy(), rtol=0.1, atol=0.1)


def test_o2_training_updates_float32_masters_eager_equals_jit():
    results = []
    for compiled in (False, True):
        raw, net = _fresh("O2")
        optimizer = nn.SGD(raw.trainable_params(), 0.05)
        grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, optimizer.parameters)

        def step(x):
            loss, grads = grad_fn(x)
            optimizer(grads)
            return loss

        step = ms.jit(step) if compiled else step
        losses = [float(step(_x())) for _ in range(4)]
        assert losses[-1] < losses[0]
        assert all(p.dtype == ms.float32 for p in raw.trainable_params())
        results.append(losses)
    # bf16 rounding differs between op-by-op execution and fused XLA kernels (~1 ulp)
    np.testing.assert_allclose(results[0], results[1], rtol=2e-2)


def test_custom_mixed_precision_and_lists():
    assert nn.Dense in amp.get_white_list() and nn.LayerNorm in amp.get_black_list()
    lists = amp.get_white_list()
    lists.clear()
    assert amp.get_white_list()  # a copy
    ms.set_seed(0)
    net = Block()
    amp.custom_mixed_precision(net, white_list=[nn.Dense], dtype=ms.bfloat16)
    assert all(d == "bf16" for d in _dot_dtypes(lambda x: net(x), _x()))
    with pytest.raises(ValueError, match="exactly one of 'white_list' and 'black_list'"):
        amp.custom_mixed_precision(Block(), white_list=[nn.Dense], black_list=[nn.LayerNorm])
    with pytest.raises(TypeError, match="must hold Cell classes"):
        amp.custom_mixed_precision(Block(), white_list=["Dense"])


def test_bad_input():
    with pytest.raises(ValueError, match="'amp_level' must be one of"):
        amp.auto_mixed_precision(Block(), "O4")
    with pytest.raises(ValueError, match="'dtype' must be cellax.float16 or cellax.bfloat16"):
        amp.auto_mixed_precision(Block(), "O2", ms.float32)
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        amp.auto_mixed_precision(lambda x: x, "O2")
    with pytest.raises(ValueError, match="'scale_value' must be >= 1"):
        amp.DynamicLossScaler(0.5, 2, 10)
    with pytest.raises(ValueError, match="'scale_value' must be >= 1"):
        amp.StaticLossScaler(-1)
    with pytest.raises(ValueError, match="'scale_window' must be a positive int"):
        amp.DynamicLossScaler(8, 2, 0)
    _, net = _fresh("O2")
    with pytest.warns(UserWarning, match="already has amp level 'O2'"):
        amp.auto_mixed_precision(net, "O3")


def test_all_finite_and_static_scaler():
    assert bool(amp.all_finite((ms.Tensor([1.0, 2.0]), ms.Tensor([3.0]))))
    assert not bool(amp.all_finite((ms.Tensor([1.0, np.nan]),)))
    assert not bool(amp.all_finite([ms.Tensor([np.inf])]))
    scaler = amp.StaticLossScaler(1024)
    scaled = scaler.scale((ms.Tensor([1.0], ms.float16), ms.Tensor([2.0])))
    assert scaled[0].dtype == ms.float16 and float(scaled[1][0]) == 2048.0
    assert float(scaler.unscale(ms.Tensor([1024.0]))[0]) == 1.0
    assert scaler.adjust(ms.Tensor(True)) is False


def test_dynamic_loss_scaler_adjust_eager_and_jit():
    for compiled in (False, True):
        scaler = amp.DynamicLossScaler(1024, 2, 3)
        adjust = ms.jit(scaler.adjust) if compiled else scaler.adjust
        history = []
        for finite in [False, True, True, True, True, True, True]:
            adjust(ms.Tensor(finite))
            history.append(float(scaler.scale_value))
        assert history == [512.0, 512.0, 512.0, 1024.0, 1024.0, 1024.0, 2048.0]


def _tutorial_step(net, scaler, optimizer, compiled):
    """The MindSpore tutorial pattern: scale, unscale, all_finite, skip on overflow."""

    def forward(x, y):
        return scaler.scale(((net(x) - y) ** 2).mean())

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        loss = scaler.unscale(loss)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        scaler.adjust(finite)
        ms._transforms.call_if(finite, optimizer, grads)
        return loss, finite

    return ms.jit(step) if compiled else step


@pytest.mark.parametrize("compiled", [False, True])
def test_overflow_skips_the_update_and_drops_the_scale(compiled):
    ms.set_seed(0)
    net = nn.Dense(2, 1)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    scaler = amp.DynamicLossScaler(2.0**10, 2, 2)
    step = _tutorial_step(net, scaler, optimizer, compiled)
    x, y = ms.ops.ones((3, 2)), ms.ops.zeros((3, 1))
    before = net.weight.asnumpy()
    _, finite = step(ms.Tensor(np.full((3, 2), np.inf, np.float32)), y)
    assert not bool(finite)
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    assert float(scaler.scale_value) == 512.0
    step(x, y)
    step(x, y)
    assert float(scaler.scale_value) == 1024.0
    assert not np.allclose(net.weight.asnumpy(), before)


@pytest.mark.parametrize("compiled", [False, True])
def test_train_one_step_with_loss_scale_cell(compiled):
    ms.set_seed(0)
    net = nn.Dense(2, 1)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    update = nn.DynamicLossScaleUpdateCell(2.0**8, 2, 2)
    train = nn.TrainOneStepWithLossScaleCell(loss_net, nn.SGD(net.trainable_params(), 0.1), update)
    run = ms.jit(train) if compiled else train
    x, y = ms.ops.ones((3, 2)), ms.ops.zeros((3, 1))
    before = net.weight.asnumpy()
    loss, overflow, scale = run(ms.Tensor(np.full((3, 2), np.inf, np.float32)), y)
    assert bool(overflow) and float(scale) == 256.0
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    assert float(train.scale_sense) == 128.0
    losses = [float(run(x, y)[0]) for _ in range(4)]
    assert losses[-1] < losses[0]
    assert float(train.scale_sense) == 512.0
    with pytest.raises(TypeError, match="'scale_sense' must be a Cell or Tensor"):
        nn.TrainOneStepWithLossScaleCell(loss_net, nn.SGD(net.trainable_params(), 0.1), 2.0)
    with pytest.raises(ValueError, match="the shape of 'scale_sense' must be"):
        nn.TrainOneStepWithLossScaleCell(
            loss_net, nn.SGD(net.trainable_params(), 0.1), ms.Tensor([1.0, 2.0])
        )


def test_loss_scale_managers_and_build_train_network():
    manager = amp.DynamicLossScaleManager(16.0, 2, 2)
    manager.update_loss_scale(True)
    assert manager.get_loss_scale() == 8.0
    manager.update_loss_scale(False)
    manager.update_loss_scale(False)
    assert manager.get_loss_scale() == 16.0
    assert isinstance(manager.get_update_cell(), nn.DynamicLossScaleUpdateCell)
    fixed = amp.FixedLossScaleManager(128.0, drop_overflow_update=False)
    assert fixed.get_update_cell() is None and fixed.get_loss_scale() == 128.0
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    train = amp.build_train_network(
        net, nn.SGD(net.trainable_params(), 0.1), nn.MSELoss(), level="O2"
    )
    assert isinstance(train, nn.TrainOneStepWithLossScaleCell)
    before = net.weight.asnumpy()
    # O2's default manager starts at 2**24: float16 gradients overflow, the step is skipped
    # and the scale halves, as in MindSpore
    loss, overflow, scale = train(ms.ops.ones((4, 3)), ms.ops.zeros((4, 2)))
    assert loss.dtype == ms.float32 and bool(overflow) and float(scale) == 2.0**24
    assert float(train.scale_sense) == 2.0**23
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    train = amp.build_train_network(
        net,
        nn.SGD(net.trainable_params(), 0.1),
        nn.MSELoss(),
        level="O2",
        loss_scale_manager=amp.DynamicLossScaleManager(2.0**8),
    )
    loss, overflow, _ = train(ms.ops.ones((4, 3)), ms.ops.zeros((4, 2)))
    assert not bool(overflow)
    assert not np.allclose(net.weight.asnumpy(), before)
    with pytest.raises(ValueError, match="'level' must be one of"):
        amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.1), level="O5")
