"""Primitive classes: construction attributes, call mapping onto the functional ops."""

import numpy as np
import pytest

import cellax as ms
from cellax import ops

from ._common import assert_golden

T = ms.Tensor
X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))


@pytest.mark.parametrize(
    "make, call, expected",
    [
        (lambda: ops.ReduceSum(keep_dims=True), lambda p: p(X, 1), [[7.0], [4.0]]),
        (lambda: ops.ReduceSum(), lambda p: p(X), 11.0),
        (lambda: ops.ReduceMean(), lambda p: p(X, (0, 1)), 11.0 / 6),
        (lambda: ops.ReduceMax(True), lambda p: p(X, 0), [[2.0, 3.0, 3.0]]),
        (lambda: ops.ReduceMin(), lambda p: p(X, 1), [1.0, 0.0]),
        (lambda: ops.ReduceProd(), lambda p: p(X, 1), [9.0, 0.0]),
        (lambda: ops.Argmax(axis=0), lambda p: p(X), [1, 0, 0]),
        (lambda: ops.Concat(1), lambda p: p([X, X]).shape, (2, 6)),
        (lambda: ops.Stack(axis=-1), lambda p: p([X, X]).shape, (2, 3, 2)),
        (lambda: ops.Split(1, 3), lambda p: [t.shape for t in p(X)], [(2, 1)] * 3),
        (lambda: ops.Tile(), lambda p: p(X, (2, 1)).shape, (4, 3)),
        (lambda: ops.Squeeze(0), lambda p: p(X[None]).shape, (2, 3)),
        (lambda: ops.Transpose(), lambda p: p(X, (1, 0)).shape, (3, 2)),
        (lambda: ops.Reshape(), lambda p: p(X, (3, 2)).shape, (3, 2)),
        (lambda: ops.ExpandDims(), lambda p: p(X, 0).shape, (1, 2, 3)),
        (lambda: ops.Gather(), lambda p: p(X, T([2]), 1), [[3.0], [0.0]]),
        (lambda: ops.GatherD(), lambda p: p(X, 1, T([[0], [2]])), [[1.0], [0.0]]),
        (lambda: ops.GatherNd(), lambda p: p(X, T([[1, 0]])), [2.0]),
        (lambda: ops.OneHot(), lambda p: p(T([1]), 2, T(1.0), T(0.0)), [[0.0, 1.0]]),
        (lambda: ops.Cast(), lambda p: p(X, ms.int32).dtype, ms.int32),
        (lambda: ops.Shape(), lambda p: p(X), (2, 3)),
        (lambda: ops.Rank(), lambda p: p(X), 2),
        (lambda: ops.Pow(), lambda p: p(T([2.0]), 3), [8.0]),
        (lambda: ops.Exp(), lambda p: p(T([0.0])), [1.0]),
        (lambda: ops.Log(), lambda p: p(T([1.0])), [0.0]),
        (lambda: ops.Sqrt(), lambda p: p(T([4.0])), [2.0]),
        (lambda: ops.Square(), lambda p: p(T([3.0])), [9.0]),
        (lambda: ops.Abs(), lambda p: p(T([-3.0])), [3.0]),
        (lambda: ops.Neg(), lambda p: p(T([3.0])), [-3.0]),
        (lambda: ops.Maximum(), lambda p: p(T([1.0]), T([2.0])), [2.0]),
        (lambda: ops.Minimum(), lambda p: p(T([1.0]), T([2.0])), [1.0]),
        (lambda: ops.Equal(), lambda p: p(T([1.0]), 1.0), [True]),
        (lambda: ops.Greater(), lambda p: p(T([1.0]), 2.0), [False]),
        (lambda: ops.Less(), lambda p: p(T([1.0]), 2.0), [True]),
        (
            lambda: ops.Select(),
            lambda p: p(T([True, False]), T([1.0, 2.0]), T([3.0, 4.0])),
            [1.0, 4.0],
        ),
        (lambda: ops.ZerosLike(), lambda p: p(T([1.0, 2.0])), [0.0, 0.0]),
        (lambda: ops.OnesLike(), lambda p: p(T([1.0, 2.0])), [1.0, 1.0]),
        (lambda: ops.Zeros(), lambda p: p((2,), ms.float32), [0.0, 0.0]),
        (lambda: ops.Ones(), lambda p: p((2,), ms.int32), [1, 1]),
        (lambda: ops.Fill(), lambda p: p(ms.float32, (2,), 5), [5.0, 5.0]),
        (lambda: ops.Softmax(0), lambda p: p(T([0.0, 0.0])), [0.5, 0.5]),
        (lambda: ops.LogSoftmax(), lambda p: p(T([0.0, 0.0])), [-np.log(2)] * 2),
        (lambda: ops.Tanh(), lambda p: p(T([0.0])), [0.0]),
        (lambda: ops.Sigmoid(), lambda p: p(T([0.0])), [0.5]),
        (lambda: ops.GeLU(), lambda p: p(T([0.0])), [0.0]),
        (lambda: ops.ReLU(), lambda p: p(T([-1.0, 1.0])), [0.0, 1.0]),
        (lambda: ops.ReLU6(), lambda p: p(T([7.0])), [6.0]),
        (lambda: ops.Elu(), lambda p: p(T([1.0])), [1.0]),
        (lambda: ops.TopK(), lambda p: p(T([1.0, 3.0, 2.0]), 2)[1], [1, 2]),
        (lambda: ops.Sort(descending=True), lambda p: p(T([1.0, 3.0, 2.0]))[0], [3.0, 2.0, 1.0]),
        (lambda: ops.CumSum(exclusive=True), lambda p: p(T([1, 2, 3]), 0), [0, 1, 3]),
        (lambda: ops.CumSum(reverse=True), lambda p: p(T([1, 2, 3]), 0), [6, 5, 3]),
        (lambda: ops.BroadcastTo((2, 2)), lambda p: p(T([1, 2])).shape, (2, 2)),
        (lambda: ops.MatMul(transpose_b=True), lambda p: p(X, X), [[19.0, 8.0], [8.0, 8.0]]),
        (lambda: ops.Einsum("ij->j"), lambda p: p((X,)), [3.0, 5.0, 3.0]),
        (lambda: ops.AddN(), lambda p: p([T([1.0]), T([2.0])]), [3.0]),
        (lambda: ops.Pad(((1, 0), (0, 0))), lambda p: p(X).shape, (3, 3)),
    ],
)
def test_primitive_calls(make, call, expected):
    result = call(make())
    if isinstance(result, ms.Tensor):
        np.testing.assert_allclose(result.asnumpy(), np.asarray(expected), rtol=1e-6)
    else:
        assert result == expected


def test_attributes_repr_and_goldens():
    prim = ops.ReduceSum(keep_dims=True)
    assert prim.keep_dims is True and prim.attrs == {"keep_dims": True}
    assert repr(prim) == "Prim[ReduceSum]<keep_dims=True>"
    assert_golden("argmaxwithvalue", ops.ArgMaxWithValue(axis=1)(X))
    assert_golden("Argmax_prim", ops.Argmax()(X))
    with pytest.raises(TypeError, match="For 'Softmax', expected at most 1 positional"):
        ops.Softmax(0, 1)
    with pytest.raises(TypeError, match="For 'Concat', unexpected argument"):
        ops.Concat(dim=1)


def test_dropout_primitive_returns_output_and_mask():
    ms.set_seed(0)
    out, mask = ops.Dropout(keep_prob=0.5)(ops.ones((100,)))
    assert mask.dtype == ms.float32 and set(np.unique(mask.asnumpy())) <= {0.0, 1.0}
    np.testing.assert_allclose(out.asnumpy(), mask.asnumpy() * 2)


def test_random_primitives_with_seed_are_repeatable():
    a = ops.UniformReal(seed=3)((4,)).asnumpy()
    np.testing.assert_array_equal(a, ops.UniformReal(seed=3)((4,)).asnumpy())
    assert ops.Multinomial()(T([0.0, 1.0]), 2).asnumpy().tolist() == [1, 1]
    perm = ops.Randperm(max_length=5, pad=-1)(T([3], ms.int32)).asnumpy()
    assert sorted(perm[:3].tolist()) == [0, 1, 2] and perm[3:].tolist() == [-1, -1]
