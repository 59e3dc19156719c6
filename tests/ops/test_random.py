"""Random ops: shapes, dtypes, ranges, statistics and reproducibility through the global seed."""

import numpy as np
import pytest

import cellax as ms
from cellax import ops

T = ms.Tensor


@pytest.mark.parametrize(
    "fn, shape, dtype",
    [
        (lambda: ops.rand(2, 3), (2, 3), ms.float32),
        (lambda: ops.rand((2, 3), dtype=ms.float64), (2, 3), ms.float64),
        (lambda: ops.randn(4), (4,), ms.float32),
        (lambda: ops.rand_like(ops.ones((2, 2))), (2, 2), ms.float32),
        (lambda: ops.randn_like(ops.ones((2,), ms.float16)), (2,), ms.float16),
        (lambda: ops.uniform((3,), T(0.0), T(1.0)), (3,), ms.float32),
        (lambda: ops.uniform((3,), T(0, ms.int32), T(5, ms.int32), dtype=ms.int32), (3,), ms.int32),
        (lambda: ops.normal((2, 3), T(0.0), T(1.0)), (2, 3), ms.float32),
        (lambda: ops.randint(0, 5, (3, 2)), (3, 2), ms.int64),
        (lambda: ops.randint_like(T([1, 2], ms.int32), 0, 3), (2,), ms.int32),
        (lambda: ops.randperm(5), (5,), ms.int64),
        (lambda: ops.bernoulli(ops.ones((4,))), (4,), ms.float32),
        (lambda: ops.multinomial(T([0.2, 0.8]), 3), (3,), ms.int32),
        (lambda: ops.standard_normal((2,)), (2,), ms.float32),
        (lambda: ops.UniformReal(seed=2)((2, 2)), (2, 2), ms.float32),
        (lambda: ops.StandardNormal()((3,)), (3,), ms.float32),
        (lambda: ops.UniformInt()((3,), T(0, ms.int32), T(4, ms.int32)), (3,), ms.int32),
    ],
)
def test_shapes_and_dtypes(fn, shape, dtype):
    out = fn()
    assert out.shape == shape and out.dtype == dtype


def test_statistics_and_ranges():
    u = ops.uniform((20000,), T(2.0), T(3.0)).asnumpy()
    assert u.min() >= 2 and u.max() < 3 and abs(u.mean() - 2.5) < 0.01
    n = ops.normal((20000,), T(1.0), T(2.0)).asnumpy()
    assert abs(n.mean() - 1) < 0.05 and abs(n.std() - 2) < 0.05
    r = ops.randint(3, 7, (5000,)).asnumpy()
    assert set(np.unique(r).tolist()) == {3, 4, 5, 6}
    assert sorted(ops.randperm(10).asnumpy().tolist()) == list(range(10))
    b = ops.bernoulli(ops.zeros(20000), 0.25).asnumpy()
    assert abs(b.mean() - 0.25) < 0.015
    m = ops.multinomial(T([[0.0, 1.0, 3.0]]), 4000).asnumpy()
    assert m.shape == (1, 4000) and abs((m == 2).mean() - 0.75) < 0.03 and not (m == 0).any()
    no_repeat = ops.multinomial(T([1.0, 1.0, 1.0, 1.0]), 4, replacement=False).asnumpy()
    assert sorted(no_repeat.tolist()) == [0, 1, 2, 3]


def test_global_seed_reproducibility_and_fixed_seed():
    ms.set_seed(7)
    a = ops.rand(5).asnumpy()
    b = ops.rand(5).asnumpy()
    ms.set_seed(7)
    np.testing.assert_array_equal(ops.rand(5).asnumpy(), a)
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(ops.rand(3, seed=11).asnumpy(), ops.rand(3, seed=11).asnumpy())


def test_random_ops_under_jit_match_eager_sequence():
    ms.set_seed(1)
    eager = [ops.randn(3).asnumpy() for _ in range(2)]
    ms.set_seed(1)
    draw = ms.jit(lambda: ops.randn(3))
    compiled = [draw().asnumpy() for _ in range(2)]
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(RuntimeError, match="For 'randint', 'high' must be greater than 'low'"):
        ops.randint(5, 5, (2,))
    with pytest.raises(ValueError, match="For 'bernoulli', 'p' must be in"):
        ops.bernoulli(ops.ones(2), 1.5)
    with pytest.raises(ValueError, match="For 'multinomial', 'num_samples' must be at most"):
        ops.multinomial(T([0.5, 0.5]), 3, replacement=False)
    with pytest.raises(TypeError, match="For 'rand', 'dtype' must be a floating-point type"):
        ops.rand(2, dtype=ms.int32)
