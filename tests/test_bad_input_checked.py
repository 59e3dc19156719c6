"""jit(check_indices=True): out-of-range indices inside a compiled program raise the eager
error after the run and commit nothing (issue 22)."""

import numpy as np
import pytest

import cellax as ms
from cellax import Parameter, Tensor, nn, ops

_X = np.arange(12, dtype=np.float32).reshape(3, 4)
_ONES = Tensor(np.ones((1, 4), np.float32))
_CASES = [  # (function of (x, index), good index, bad index, error, message start)
    (lambda x, i: ops.gather(x, i, 0), [0, -3], [0, 3], RuntimeError, "For 'gather'"),
    (lambda x, i: ops.index_select(x, 1, i), [3], [4], RuntimeError, "For 'index_select'"),
    (lambda x, i: ops.gather_d(x, 1, i), [[0]] * 3, [[0], [4], [0]], RuntimeError, "For 'gather_"),
    (lambda x, i: ops.gather_nd(x, i), [[2, 3]], [[2, 4]], RuntimeError, "For 'gather_nd'"),
    (lambda x, i: x[i], [2], [-4], RuntimeError, "For 'Tensor.__getitem__'"),
    (lambda x, i: ops.cross_entropy(x, i), [0, 3, -100], [0, 4, 1], RuntimeError, "For 'cross_"),
    (lambda x, i: ops.nll_loss(x, i), [0, 3, 1], [0, 1, 9], RuntimeError, "For 'nll_loss'"),
    (
        lambda x, i: ops.tensor_scatter_update(x, i, _ONES),
        [[2]],
        [[3]],
        ValueError,
        "For 'tensor_scatter_update'",
    ),
    (lambda x, i: ops.embedding(i, x), [2], [3], RuntimeError, "For 'embedding'"),
]


@pytest.mark.parametrize("fn, good, bad, error, start", _CASES)
def test_checked_jit_raises_the_eager_error_after_the_run(fn, good, bad, error, start):
    x = Tensor(_X)
    with pytest.raises(error):  # the eager error, as MindSpore CPU raises it
        fn(x, Tensor(bad))
    checked = ms.jit(fn, check_indices=True)
    np.testing.assert_allclose(checked(x, Tensor(good)).asnumpy(), fn(x, Tensor(good)).asnumpy())
    with pytest.raises(error, match=f"^{start}.*check_indices=True"):
        checked(x, Tensor(bad))
    ms.jit(fn)(x, Tensor(bad))  # unchecked: clamped or dropped, no error (documented)


def test_checked_step_commits_nothing():
    net = nn.Embedding(3, 2)
    optimizer = nn.SGD(net.trainable_params(), 0.5)
    steps = Parameter(Tensor(0, ms.int32), name="steps")
    grad_fn = ms.value_and_grad(lambda ids: net(ids).sum(), None, optimizer.parameters)

    def train(ids):
        loss, grads = grad_fn(ids)
        optimizer(grads)
        ops.assign(steps, steps + 1)
        return loss

    step = ms.jit(train, check_indices=True)
    step(Tensor([0, 1]))
    table = net.embedding_table.asnumpy().copy()
    with pytest.raises(RuntimeError, match="For 'embedding', 'input' must be within"):
        step(Tensor([1, 5]))
    np.testing.assert_array_equal(net.embedding_table.asnumpy(), table)
    assert int(steps.asnumpy()) == 1
    step(Tensor([2]))  # the next good step runs and commits
    assert int(steps.asnumpy()) == 2
    assert not np.array_equal(net.embedding_table.asnumpy(), table)


def test_check_indices_option():
    with pytest.raises(TypeError, match="For 'jit', 'check_indices' must be a bool"):
        ms.jit(lambda x: x, check_indices="yes")
    config = ms.JitConfig(check_indices=True)
    checked = ms.jit(lambda x, i: ops.gather(x, i, 0), jit_config=config)
    with pytest.raises(RuntimeError, match="For 'gather'"):
        checked(Tensor(_X), Tensor([7]))
