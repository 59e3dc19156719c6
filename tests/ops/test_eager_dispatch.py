"""Eager dispatch shortcuts keep semantics: fused multi-op kernels, cached dtype checks."""

import jax
import numpy as np
import pytest

import cellax as ms
from cellax import ops
from cellax.ops._impl.eager import fused

X = np.array([[1.0, np.nan, 3.0], [-np.inf, -np.inf, -np.inf]], np.float32)


@pytest.mark.parametrize(
    "op",
    [
        lambda x: ops.softmax(x, -1),
        lambda x: ops.argmax(x, 1),
        lambda x: ops.argmin(x, None, True),
        lambda x: ops.maximum(x, 2.0),
        lambda x: ops.minimum(2.0, x),
        lambda x: ops.relu(x),
    ],
)
def test_fused_ops_give_the_same_values_eagerly_and_compiled(op):
    x = ms.Tensor(X)
    eager = op(x).asnumpy()
    compiled = ms.jit(op)(x).asnumpy()
    np.testing.assert_array_equal(eager, compiled)
    assert op(x).dtype == ms.jit(op)(x).dtype


def test_fused_values_follow_mindspore_rules():
    x = ms.Tensor(X)
    # all -inf along the axis: zeros (not NaN); a NaN wins argmax only in the first position
    np.testing.assert_array_equal(ops.softmax(x, -1).asnumpy()[1], [0.0, 0.0, 0.0])
    assert ops.argmax(x, 1).asnumpy().tolist() == [2, 0]
    assert ops.argmax(x, 1).dtype == ms.int64
    np.testing.assert_array_equal(ops.maximum(x, 2.0).asnumpy()[0], [2.0, 2.0, 3.0])


def test_fused_ops_keep_their_gradients():
    # relu keeps jax.nn.relu's rule (gradient 0 at 0) under grad: the traced path is unchanged
    g = ms.grad(lambda x: ops.relu(x).sum())(ms.Tensor([-1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(g.asnumpy(), [0.0, 0.0, 1.0])
    g = ms.grad(lambda x: (ops.softmax(x, -1) * ms.Tensor([1.0, 0.0])).sum())(ms.Tensor([0.0, 0.0]))
    np.testing.assert_allclose(g.asnumpy(), [0.25, -0.25], rtol=1e-6)


def test_fused_calls_the_function_directly_on_tracers():
    calls = []

    @fused(static_argnums=(1,))
    def scale(x, k):
        calls.append(type(x).__name__)
        return x * k

    scale(jax.numpy.ones(2), 3)  # eager: traced once by jax.jit, then cached
    scale(jax.numpy.ones(2), 3)
    assert len(calls) == 1
    jax.jit(lambda x: scale(x, 3))(jax.numpy.ones(2))
    assert len(calls) == 2


def test_cached_dtype_checks_still_raise_every_time():
    b = ms.Tensor([True, False])
    for _ in range(2):
        with pytest.raises(TypeError, match="For 'add', the dtype of the input Tensor"):
            ops.add(b, b)
        with pytest.raises(TypeError, match="For 'bitwise_not'"):
            ops.bitwise_not(ms.Tensor([1.0]))
    with pytest.raises(ValueError, match="For 'add', the shapes of 'input' \\(2,\\)"):
        ops.add(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="For 'select', the shapes of 'cond'"):
        ops.where(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0, 3.0]), 0.0)
