"""cellax.debug: compare_modes names where eager and compiled runs part; check_numerics."""

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops
from cellax import _core
from cellax._random import RNG_STATE
from cellax._tensor import unwrap
from cellax.debug import check_numerics, compare_modes


def _compiled(x) -> bool:
    """True while jit traces the value (eager values, even under grad, carry a concrete one)."""
    return _core.concrete(unwrap(x)) is None


class Planted(nn.Cell):
    """Adds ``shift`` only in the compiled run: a deliberate eager/compiled discrepancy."""

    def __init__(self, shift=1.0):
        super().__init__()
        self.shift = shift

    def construct(self, x):
        return x + self.shift if _compiled(x) else x


class Block(nn.Cell):
    def __init__(self, planted=False):
        super().__init__()
        self.fc = nn.Dense(4, 4)
        self.mid = Planted() if planted else nn.Identity()
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.mid(self.fc(x)))


class Net(nn.Cell):
    def __init__(self, depth_of_plant=None):
        super().__init__()
        self.stem = nn.Dense(3, 4)
        self.layers = nn.SequentialCell([Block(i == depth_of_plant) for i in range(3)])
        self.head = nn.Dense(4, 2)

    def construct(self, x):
        return self.head(self.layers(self.stem(x)))


def _x():
    return Tensor(np.random.RandomState(0).randn(2, 3).astype(np.float32))


def _params(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_identical_paths_report_no_difference():
    net = Net()
    report = compare_modes(net, _x())
    assert report.same and not report
    assert report.culprit is None and report.first_grad is None
    names = [d.label for d in report.calls if d.kind == "forward"]
    assert names[:3] == ["stem", "layers.0.fc", "layers.0.mid"]
    assert names[-1] == "Net"  # the root completes last, shown by its class
    assert any(d.kind == "grad" for d in report.calls)  # the sum of outputs was differentiated
    assert "no difference" in str(report)


@pytest.mark.parametrize("depth", [0, 2])
def test_planted_discrepancy_is_named_at_its_depth(depth):
    net = Net(depth_of_plant=depth)
    report = compare_modes(net, _x(), grads=False)
    assert not report.same
    assert report.culprit.label == f"layers.{depth}.mid"
    assert report.culprit.cell_type == "Planted"
    assert not report.culprit.inputs_differ
    assert report.culprit.source.endswith(
        f"test_debug.py:{Planted.construct.__code__.co_firstlineno}"
    )
    assert report.culprit.max_abs == pytest.approx(1.0)
    assert report.culprit.shapes == [(2, 4)]
    after = [d for d in report.calls if d.label == f"layers.{depth}.act"][0]
    assert after.differs and after.inputs_differ  # downstream Cells inherit the difference
    before = [d for d in report.calls if d.label == f"layers.{depth}.fc"][0]
    assert not before.differs
    text = str(report)
    assert f"first differing Cell: layers.{depth}.mid (Planted), its inputs agree" in text


def test_state_is_restored_bit_for_bit():
    net = nn.SequentialCell(nn.Dense(3, 8), nn.Dropout(p=0.5), nn.Dense(8, 2))
    net.set_train()
    params = _params(net)
    key = np.asarray(RNG_STATE._data).copy()
    report = compare_modes(net, _x())
    assert report.same  # same random key in both runs: the same dropout mask
    assert all(np.array_equal(params[p.name], p.asnumpy()) for p in net.get_parameters())
    assert np.array_equal(key, np.asarray(RNG_STATE._data))


def test_jitted_train_step_compares_state_after_the_step():
    net = Net(depth_of_plant=1)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    params = _params(net)
    y = Tensor(np.ones((2, 2), np.float32))
    report = compare_modes(step, _x(), y)
    assert report.culprit.label == "net.layers.1.mid"
    assert report.first_grad is not None  # the step's own gradients were recorded
    moved = {d.label for d in report.state if d.differs}
    assert "layers.0.fc.weight" in moved  # updated from different gradients
    assert all(np.array_equal(params[p.name], p.asnumpy()) for p in net.get_parameters())
    assert all(float(m.asnumpy().sum()) == 0.0 for m in opt.moments)  # nothing committed


def test_a_cell_called_several_times_is_recorded_per_call():
    class OnThirdCall(nn.Cell):
        def construct(self, x, i):
            return x + 1 if i == 2 and _compiled(x) else x

    cell = OnThirdCall()

    def fn(x):
        for i in range(4):
            x = cell(x, i)
        return x

    report = compare_modes(fn, Tensor(np.ones(2, np.float32)), grads=False)
    assert [d.label for d in report.calls] == ["cell", "cell#1", "cell#2", "cell#3"]
    assert report.culprit.label == "cell#2"


def test_user_hooks_keep_running_and_count():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    seen = []
    net[0].register_forward_hook(lambda cell, inputs, out: seen.append(1) or out * 2)
    x = Tensor(np.ones((1, 2), np.float32))
    expected = net(x).asnumpy()
    seen.clear()
    report = compare_modes(net, x)
    assert report.same and seen  # the hook ran in both runs
    np.testing.assert_allclose(net(x).asnumpy(), expected, rtol=1e-6)


def test_scan_cell_blocks_are_recorded_per_iteration():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def construct(self, x):
            return self.dense(x)

    net = nn.ScanCell([Block() for _ in range(3)])
    report = compare_modes(net, Tensor(np.ones((2, 4), np.float32)))
    assert report.same
    dense = [r.label for r in report.eager if r.kind == "forward" and r.cell_type == "Dense"]
    assert len(dense) == 3 and dense[1].endswith("#1")


def test_amp_network():
    net = ms.amp.auto_mixed_precision(Net(), "O2")
    report = compare_modes(net, _x(), rtol=1e-2, atol=1e-2)
    assert report.same
    assert any(d.cell_type == "Dense" for d in report.calls)


def test_bad_argument():
    with pytest.raises(TypeError, match="For 'compare_modes', 'fn_or_cell' must be"):
        compare_modes(3)
    with pytest.raises(TypeError, match="For 'check_numerics', 'grads' must be a bool"):
        check_numerics(lambda: 0, grads=1)


class Log(nn.Cell):
    def construct(self, x):
        return ops.log(x)


def _log_net():
    return nn.SequentialCell(nn.Dense(2, 2, weight_init="ones", bias_init="zeros"), Log())


def test_check_numerics_names_the_producer_compiled_and_compiles_once():
    net = _log_net()
    step = ms.jit(lambda x: net(x).sum())
    checked = check_numerics(step)
    with pytest.raises(FloatingPointError, match=r"Cell 'net.1' produced NaN in output 0 \(Log"):
        checked(Tensor(np.array([[-1.0, -2.0]], np.float32)))
    for _ in range(3):
        out = checked(Tensor(np.array([[1.0, 2.0]], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), 2 * np.log(3.0), rtol=1e-6)
    assert step.trace_count == 1


def test_check_numerics_entered_between_calls_of_a_jitted_step():
    net = _log_net()
    step = ms.jit(lambda x: net(x).sum())
    bad = Tensor(np.array([[-1.0, -2.0]], np.float32))
    step(bad)
    assert np.isnan(step(bad).asnumpy())  # nothing watches
    with pytest.raises(FloatingPointError, match="produced NaN"):
        with check_numerics():
            step(bad)
    assert np.isnan(step(bad).asnumpy())


def test_check_numerics_gradients_and_context_manager():
    dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
    grad = ms.grad(lambda x: ops.sqrt(dense(x)).sum())
    with pytest.raises(FloatingPointError, match="Cell 'Dense' received Inf in the gradient"):
        with check_numerics():
            grad(Tensor(np.zeros((1, 2), np.float32)))
    with check_numerics(grads=False):  # finite forward: nothing raised
        grad(Tensor(np.zeros((1, 2), np.float32)))
    with check_numerics():
        grad(Tensor(np.ones((1, 2), np.float32)))
