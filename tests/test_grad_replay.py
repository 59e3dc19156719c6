"""set_context(pynative_grad_replay=True): PyNative gradients replayed from a compiled program
when their first call showed no Python-visible effects; eager otherwise."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops


@pytest.fixture
def replay():
    ms.set_context(pynative_grad_replay=True)
    try:
        yield
    finally:
        ms.set_context(pynative_grad_replay=False)


def _train(steps, with_bn=False, seed=0):
    """(losses, final weights, grad function) of a small training loop in PyNative mode."""
    ms.set_seed(seed)
    layers = [nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)]
    if with_bn:
        layers.insert(1, nn.BatchNorm1d(8))
    net = nn.SequentialCell(layers)
    net.set_train()
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    rng = np.random.default_rng(1)
    losses = []
    for i in range(steps):
        batch = 4 if i < 3 else 5  # a new input shape on the fourth step
        x = ms.Tensor(rng.standard_normal((batch, 6)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 3, batch).astype(np.int32))
        loss, grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss))
    state = {name: p.asnumpy() for name, p in net.parameters_and_names()}
    return losses, state, grad_fn


@pytest.mark.parametrize("with_bn", [False, True], ids=["mlp", "batchnorm"])
def test_replay_trains_as_eager(replay, with_bn):
    got_losses, got_state, _ = _train(6, with_bn)
    ms.set_context(pynative_grad_replay=False)
    want_losses, want_state, _ = _train(6, with_bn)
    # the same math, compiled vs op by op: equal up to float32 rounding of fused kernels
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    assert got_state.keys() == want_state.keys()
    for name in want_state:
        np.testing.assert_allclose(got_state[name], want_state[name], rtol=1e-5, atol=1e-6)


def test_replay_compiles_once_per_input_shape(replay):
    calls = []

    def f(x):
        calls.append(1)  # Python runs on the eager first call and once per compiled trace
        return (x * x).sum()

    grad_fn = ms.grad(f)
    for _ in range(5):
        np.testing.assert_allclose(grad_fn(ms.Tensor([1.0, 2.0])).asnumpy(), [2.0, 4.0])
    assert len(calls) == 2  # eager watch + one trace; the other 3 calls replayed
    np.testing.assert_allclose(grad_fn(ms.Tensor([3.0])).asnumpy(), [6.0])
    assert len(calls) == 3


def test_printing_function_stays_eager(replay, capsys):
    def f(x):
        y = (x * x).sum()
        print("loss", y)
        return y

    grad_fn = ms.grad(f)
    for value in (1.0, 2.0, 3.0):
        grad_fn(ms.Tensor([value]))
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["loss 1.0", "loss 4.0", "loss 9.0"]  # real values every step


def test_function_with_hooks_stays_eager(replay):
    seen = []
    net = nn.Dense(2, 1)
    # a hook with a Python effect: once per step in PyNative (a compiled trace would add one)
    net.register_forward_hook(lambda cell, inputs, output: seen.append(type(output).__name__))
    grad_fn = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
    for _ in range(3):
        grad_fn(ms.Tensor(np.ones((1, 2), np.float32)))
    assert seen == ["Tensor"] * 3


def test_errors_point_at_the_users_line(replay):
    net = nn.Dense(3, 2)
    grad_fn = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
    grad_fn(ms.Tensor(np.ones((2, 3), np.float32)))  # watched: quiet
    grad_fn(ms.Tensor(np.ones((2, 3), np.float32)))  # replayed
    with pytest.raises(ValueError, match="Dense"):
        grad_fn(ms.Tensor(np.ones((2, 4), np.float32)))  # wrong width: the eager error


def test_switch_is_off_by_default_and_validated():
    assert not ms.get_context("pynative_grad_replay")
    calls = []

    def f(x):
        calls.append(1)
        return ops.sum(x * x)

    grad_fn = ms.grad(f)
    for _ in range(3):
        grad_fn(ms.Tensor([1.0]))
    assert len(calls) == 3  # PyNative: the user's Python runs every step
    with pytest.raises(ValueError, match="not a MindSpore context key"):
        ms.set_context(pynative_grad_replay_typo=True)


def test_graph_mode_and_jit_are_unaffected(replay):
    net = nn.Dense(2, 2)
    grad_fn = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
    step = ms.jit(lambda x: grad_fn(x))
    x = ms.Tensor(np.ones((1, 2), np.float32))
    want = [g.asnumpy() for g in ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)]
    got = [g.asnumpy() for g in step(x)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


class _CustomStep(nn.Cell):
    """A training step as older MindSpore code writes it (mindcv's TrainStep, model zoos):
    GradOperation(...)(network, weights) built inside every construct."""

    def __init__(self, network, optimizer):
        super().__init__()
        self.network, self.optimizer = network, optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, 1.0)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        self.optimizer(grads)
        return loss


def _custom_step_losses(steps):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)])
    step = _CustomStep(
        nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9)
    )
    rng = np.random.default_rng(2)
    x = ms.Tensor(rng.standard_normal((4, 6)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 3, 4).astype(np.int32))
    return [float(step(x, y)) for _ in range(steps)], step


def test_grad_operation_built_per_step(replay):
    # the replay state is kept on the GradOperation per (network, weights)
    got, step = _custom_step_losses(5)
    held = list(step.grad._replays.values())
    assert len(held) == 1 and held[0][2].compiled is not None
    assert held[0][2].compiled.trace_count == 1
    ms.set_context(pynative_grad_replay=False)
    want, _ = _custom_step_losses(5)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _dropout_losses():
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(6, 8), nn.Dropout(p=0.5), nn.Dense(8, 3)])
    net.set_train()
    opt = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    x = ms.Tensor(np.ones((4, 6), np.float32))
    y = ms.Tensor(np.array([0, 1, 2, 0], np.int32))
    losses = []
    for _ in range(4):
        loss, grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss))
    return losses, float(ops.rand(1)[0])  # the global random stream after the loop


def test_replay_keeps_the_random_stream(replay):
    # dropout masks drawn by the compiled program are the ones eager draws (same key splits)
    got = _dropout_losses()
    ms.set_context(pynative_grad_replay=False)
    want = _dropout_losses()
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    assert got[1] == want[1]


def _train_one_step_cell(steps, printing=False):
    """(losses, final weights, the step Cell) of nn.TrainOneStepCell in PyNative mode."""
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3)])
    net.set_train()

    class Loss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fn = nn.CrossEntropyLoss()

        def construct(self, logits, label):
            loss = self.fn(logits, label)
            if printing:
                print("step loss computed")
            return loss

    step = nn.TrainOneStepCell(
        nn.WithLossCell(net, Loss()), nn.Momentum(net.trainable_params(), 0.1, 0.9)
    )
    rng = np.random.default_rng(1)
    losses = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((4, 6)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 3, 4).astype(np.int32))
        losses.append(float(step(x, y)))
    return losses, {name: p.asnumpy() for name, p in net.parameters_and_names()}, step


def test_train_one_step_cell_is_replayed(replay):
    got_losses, got_state, step = _train_one_step_cell(5)
    assert step._grad_replay.compiled is not None  # steps 2..5 ran the compiled program
    assert step._grad_replay.compiled.trace_count == 1
    ms.set_context(pynative_grad_replay=False)
    want_losses, want_state, eager_step = _train_one_step_cell(5)
    assert eager_step._grad_replay is None
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    for name in want_state:  # weights, moments and BatchNorm statistics alike
        np.testing.assert_allclose(got_state[name], want_state[name], rtol=1e-5, atol=1e-6)


def test_a_printing_train_step_stays_eager(replay, capsys):
    _, _, step = _train_one_step_cell(3, printing=True)
    assert capsys.readouterr().out.count("step loss computed") == 3  # every step printed
    assert step._grad_replay.compiled is None


def test_a_copied_train_step_replays_its_own_program(replay):
    import copy

    _, _, step = _train_one_step_cell(3)
    twin = copy.deepcopy(step)
    assert twin._grad_replay is None
    x = ms.Tensor(np.ones((4, 6), np.float32))
    y = ms.Tensor(np.zeros(4, np.int32))
    for _ in range(3):
        np.testing.assert_allclose(float(twin(x, y)), float(step(x, y)), rtol=1e-5)
    assert twin._grad_replay.compiled is not step._grad_replay.compiled
    twin_weights = [p.asnumpy() for p in twin.network.trainable_params()]
    step_weights = [p.asnumpy() for p in step.network.trainable_params()]
    for a, b in zip(twin_weights, step_weights):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
