"""train.data_sink: each call runs the function on the next sink_size batches (MindSpore 2.10
raises on CPU, so these expectations follow its documented GPU/Ascend behaviour)."""

import numpy as np
import pytest

import cellax as ms
from cellax import dataset as ds
from cellax import nn


def _rows(n=4):
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.float32)}, shuffle=False)


def test_sink_reads_batches_in_order_across_epochs():
    seen = []
    sink = ms.data_sink(lambda x: seen.append(float(x.asnumpy())) or x * 2, _rows(), sink_size=3)
    outs = [float(sink().asnumpy()) for _ in range(3)]
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert outs == [4.0, 2.0, 0.0]  # the last batch of each call, doubled
    assert ms.train.data_sink is ms.data_sink


def test_sink_with_jit_config_compiles_a_train_step():
    weight = ms.Parameter(ms.Tensor(np.zeros((1,), np.float32)), name="w")
    optimizer = nn.SGD([weight], learning_rate=0.5)
    grad_fn = ms.value_and_grad(lambda x: ((weight - x) ** 2).sum(), None, optimizer.parameters)

    def step(x):
        loss, grads = grad_fn(x)
        optimizer(grads)
        return loss

    sink = ms.data_sink(step, _rows(2), sink_size=2, jit_config=ms.JitConfig())
    loss = sink()
    # w: 0 -> (x=0) 0 -> (x=1) 0 - 0.5 * 2 * (0 - 1) = 1; the loss at the second step is 1
    assert float(loss.asnumpy()) == pytest.approx(1.0)
    np.testing.assert_allclose(weight.asnumpy(), [1.0])


def test_sink_size_errors():
    with pytest.raises(ValueError, match="'sink_size' must be positive"):
        ms.data_sink(lambda x: x, _rows(), sink_size=0)
    with pytest.raises(TypeError, match="sink_size"):
        ms.data_sink(lambda x: x, _rows(), sink_size=1.5)
