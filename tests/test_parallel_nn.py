"""mindspore.parallel.nn (Pipeline, GradAccumulation, ...): one program, MindSpore's
arithmetic; the error types and messages are MindSpore 2.10's (CPU)."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn
from cellax.parallel.nn import (
    GradAccumulation,
    MicroBatchInterleaved,
    Pipeline,
    PipelineCell,
    PipelineGradReducer,
)


def test_names_are_the_nn_wrappers():
    assert PipelineCell is nn.PipelineCell and issubclass(Pipeline, PipelineCell)
    assert MicroBatchInterleaved is nn.MicroBatchInterleaved
    assert PipelineGradReducer is nn.PipelineGradReducer
    assert not hasattr(nn, "GradAccumulation")  # only mindspore.parallel.nn has it


def test_grad_accumulation_sums_micro_batch_gradients():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((8, 3)).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((8, 2)).astype(np.float32))
    ms.set_seed(3)
    net = nn.Dense(3, 2)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    params = net.trainable_params()
    loss, grads = ms.value_and_grad(GradAccumulation(loss_net, 4), None, params)(x, y)
    # the reference: the 4 micro-batch losses added by hand, in NumPy
    w, b = (p.asnumpy() for p in params)
    xs, ys = x.asnumpy().reshape(4, 2, 3), y.asnumpy().reshape(4, 2, 2)
    err = xs @ w.T + b - ys
    np.testing.assert_allclose(loss.asnumpy(), (err**2).mean(axis=(1, 2)).sum(), rtol=1e-6)
    gw = sum(2 * e.T @ xi / e.size for e, xi in zip(err, xs))
    gb = sum(2 * e.sum(0) / e.size for e in err)
    np.testing.assert_allclose(grads[0].asnumpy(), gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), gb, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="batch dimension 8 of an input can not be cut into 3"):
        GradAccumulation(loss_net, 3)(x, y)


@pytest.mark.parametrize("cls", [GradAccumulation, Pipeline])
def test_wrapper_argument_errors(cls):
    api = "GradAccumulation" if cls is GradAccumulation else "PipelineCell"
    with pytest.raises(ValueError, match=f"For '{api}', the argument 'micro_size' must be large"):
        cls(nn.ReLU(), 0)
    with pytest.raises(TypeError, match="'micro_size' must be integer, but got the type : <class"):
        cls(nn.ReLU(), 2.0)
    with pytest.raises(TypeError, match="'network' must cell type, but got the type : <class"):
        cls(3, 2)
    assert cls(nn.ReLU(), True).micro_size == 1  # a bool is an int, as in MindSpore


def test_pipeline_stage_and_segment_config():
    net = nn.SequentialCell([nn.ReLU(), nn.ReLU()])
    with pytest.warns(UserWarning, match="'stage_config' is ignored"):
        piped = Pipeline(net, 2, stage_config={"0": 0, "1": 1}, segment_config={"1": 3})
    assert (net[0].pipeline_stage, net[1].pipeline_stage, net[1].pipeline_segment) == (0, 1, 3)
    with (
        pytest.warns(UserWarning, match="ignored"),
        pytest.raises(KeyError, match="'stage_config' : {'x': 1}"),
    ):
        Pipeline(net, 2, stage_config={"x": 1})
    with pytest.raises(KeyError, match="'segment_config' : {'x': 1} is not found"):
        Pipeline(net, 2, segment_config={"x": 1})
    out = piped(ms.Tensor([[1.0], [-2.0], [3.0], [4.0]]))
    np.testing.assert_array_equal(out.asnumpy(), [[4.0], [4.0]])
    with pytest.raises(ValueError, match="'interleave_num' must be large than 0, but got 0"):
        MicroBatchInterleaved(nn.ReLU(), 0)


def test_pipeline_tutorial_pattern_with_auto_parallel():
    # MindSpore 2.10's pipeline sample: stages, Pipeline(WithLossCell), PipelineGradReducer,
    # a jitted step wrapped in AutoParallel(...).pipeline(stages=2); one program here
    from cellax.parallel.auto_parallel import AutoParallel

    ms.set_seed(1)
    net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 4)])
    with pytest.warns(UserWarning, match="pipeline_stage"):
        net[2].pipeline_stage = 1
    net_with_loss = Pipeline(nn.WithLossCell(net, nn.MSELoss()), 4)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(net_with_loss, None, optimizer.parameters)
    reducer = PipelineGradReducer(optimizer.parameters, opt_shard=False)

    @ms.jit
    def train_one_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        optimizer(reducer(grads))
        return loss

    parallel_net = AutoParallel(train_one_step, parallel_mode="semi_auto")
    with pytest.warns(UserWarning, match="AutoParallel.pipeline"):
        parallel_net.pipeline(stages=2)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 8)).astype(np.float32)
    y = rng.standard_normal((16, 4)).astype(np.float32)
    w1, b1, w2, b2 = (p.asnumpy() for p in net.trainable_params())
    out = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    expected = sum(((out - y)[i * 4 : (i + 1) * 4] ** 2).mean() for i in range(4))
    loss = parallel_net(ms.Tensor(x), ms.Tensor(y))
    np.testing.assert_allclose(float(loss.asnumpy()), expected, rtol=1e-5)
    assert float(parallel_net(ms.Tensor(x), ms.Tensor(y)).asnumpy()) < expected
