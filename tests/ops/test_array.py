"""Creation, shape and indexing ops vs NumPy, plus MindSpore goldens and eager-only errors."""

import jax
import numpy as np
import pytest
from jax.test_util import check_grads

import cellax as ms
from cellax import ops

from ._common import assert_golden, rng

T = ms.Tensor


def _x(shape=(2, 3, 4), seed=0):
    return rng(seed).normal(size=shape).astype(np.float32)


def test_creation_dtypes_and_values():
    assert ops.ones((2, 3)).dtype == ms.float32 and ops.zeros(2, ms.int32).dtype == ms.int32
    assert (
        ops.full((2,), 3).dtype == ms.int64 and ops.full((2,), 3.0).dtype == ms.int64
    )  # as MindSpore
    assert ops.full_like(T([1.0, 2.0]), 7).asnumpy().tolist() == [7.0, 7.0]
    assert ops.eye(3, 2).asnumpy().tolist() == np.eye(3, 2).tolist()
    assert ops.empty(2, 3).shape == (2, 3)
    np.testing.assert_allclose(ops.logspace(0, 2, 3).asnumpy(), [1, 10, 100], rtol=1e-6)
    assert ops.tril_indices(3, 3).asnumpy().tolist() == list(map(list, np.tril_indices(3)))
    assert_golden("arange_int", ops.arange(5))
    assert_golden("arange_float", ops.arange(0, 1, 0.25))
    assert_golden("linspace", ops.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="For 'arange', 'step' must not be 0"):
        ops.arange(0, 5, 0)


@pytest.mark.parametrize(
    "ours, ref",
    [
        (lambda x: ops.reshape(x, (4, -1)), lambda x: x.reshape(4, -1)),
        (lambda x: ops.transpose(x, (2, 0, 1)), lambda x: x.transpose(2, 0, 1)),
        (lambda x: ops.permute(x, (1, 0, 2)), lambda x: x.transpose(1, 0, 2)),
        (lambda x: ops.expand_dims(x, -1), lambda x: x[..., None]),
        (lambda x: ops.unsqueeze(x, 1), lambda x: x[:, None]),
        (lambda x: ops.squeeze(x[:, :1], 1), lambda x: x[:, 0]),
        (
            lambda x: ops.broadcast_to(x[:1], (3, -1, 4)),
            lambda x: np.broadcast_to(x[:1], (3, 3, 4)),
        ),
        (lambda x: ops.tile(x, (1, 2, 1)), lambda x: np.tile(x, (1, 2, 1))),
        (lambda x: ops.repeat_interleave(x, 2, 1), lambda x: np.repeat(x, 2, 1)),
        (lambda x: ops.concat([x, x], 2), lambda x: np.concatenate([x, x], 2)),
        (lambda x: ops.cat((x, x), -1), lambda x: np.concatenate([x, x], -1)),
        (lambda x: ops.stack([x, x], 1), lambda x: np.stack([x, x], 1)),
        (lambda x: ops.flatten(x), lambda x: x.reshape(2, -1)),
        (lambda x: ops.flatten(x, start_dim=0, end_dim=1), lambda x: x.reshape(6, 4)),
        (lambda x: ops.movedim(x, 0, 2), lambda x: np.moveaxis(x, 0, 2)),
        (lambda x: ops.swapaxes(x, 0, 2), lambda x: np.swapaxes(x, 0, 2)),
        (lambda x: ops.flip(x, (0, 2)), lambda x: np.flip(x, (0, 2))),
        (lambda x: ops.roll(x, 2, 2), lambda x: np.roll(x, 2, 2)),
        (lambda x: ops.roll(x, 3), lambda x: np.roll(x, 3)),
        (lambda x: ops.narrow(x, 2, 1, 2), lambda x: x[:, :, 1:3]),
        (lambda x: ops.slice(x, (0, 1, 0), (2, 2, -1)), lambda x: x[:, 1:3, :]),
        (lambda x: ops.pad(x, (1, 2)), lambda x: np.pad(x, ((0, 0), (0, 0), (1, 2)))),
        (
            lambda x: ops.pad(x, (1, 1, 2, 0), mode="reflect"),
            lambda x: np.pad(x, ((0, 0), (2, 0), (1, 1)), mode="reflect"),
        ),
        (
            lambda x: ops.pad(x, (1, 1), mode="replicate"),
            lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1)), mode="edge"),
        ),
        (lambda x: ops.tril(x, 1), lambda x: np.tril(x, 1)),
        (lambda x: ops.triu(x), lambda x: np.triu(x)),
        (lambda x: ops.diagonal(x, 1, 1, 2), lambda x: np.diagonal(x, 1, 1, 2)),
        (lambda x: ops.diag(x[0, 0]), lambda x: np.diag(x[0, 0])),
        (lambda x: ops.where(x > 0, x, 0.0), lambda x: np.where(x > 0, x, 0.0)),
        (lambda x: ops.masked_fill(x, x > 0, 2.0), lambda x: np.where(x > 0, 2.0, x)),
        (lambda x: ops.gather(x, T([2, 0]), 1), lambda x: np.take(x, [2, 0], 1)),
        (lambda x: ops.index_select(x, 2, T([3, 1])), lambda x: np.take(x, [3, 1], 2)),
        (
            lambda x: ops.gather_elements(x, 2, T(np.zeros((2, 3, 2), np.int64))),
            lambda x: np.take_along_axis(x, np.zeros((2, 3, 2), np.int64), 2),
        ),
        (lambda x: ops.gather_nd(x, T([[0, 1], [1, 2]])), lambda x: x[[0, 1], [1, 2]]),
        (lambda x: ops.cast(x, ms.int32), lambda x: x.astype(np.int32)),
    ],
)
def test_shape_ops_match_numpy(ours, ref):
    x = _x()
    got = ours(T(x))
    expected = ref(x)
    assert got.shape == expected.shape
    assert got.asnumpy().dtype == expected.dtype
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-6)


def test_split_chunk_unbind_meshgrid():
    x = np.arange(10).reshape(5, 2)
    assert [t.shape for t in ops.split(T(x), [1, 4])] == [(1, 2), (4, 2)]
    assert [t.shape for t in ops.tensor_split(T(x), 3)] == [(2, 2), (2, 2), (1, 2)]
    assert [t.asnumpy().tolist() for t in ops.unbind(T(x), 1)] == [
        x[:, 0].tolist(),
        x[:, 1].tolist(),
    ]
    assert_golden("split_int", ops.split(T(np.arange(5)), 2))
    assert_golden("chunk", ops.chunk(T(np.arange(5)), 2))
    gx, gy = ops.meshgrid(T([1, 2, 3]), T([4, 5]), indexing="ij")
    rx, ry = np.meshgrid([1, 2, 3], [4, 5], indexing="ij")
    assert gx.asnumpy().tolist() == rx.tolist() and gy.asnumpy().tolist() == ry.tolist()


def test_scatter_family():
    x = np.zeros((3, 4), np.float32)
    idx = T([[1], [2]])
    got = ops.tensor_scatter_update(T(x), idx, T(np.ones((2, 4), np.float32)))
    assert got.asnumpy()[1:].sum() == 8 and got.asnumpy()[0].sum() == 0
    got = ops.tensor_scatter_add(T(x), T([[1, 1], [1, 1]]), T([2.0, 3.0]))
    assert got.asnumpy()[1, 1] == 5.0
    got = ops.scatter(T(x), 1, T([[3], [0], [1]]), T(np.full((3, 1), 7.0, np.float32)))
    expected = x.copy()
    expected[[0, 1, 2], [3, 0, 1]] = 7
    np.testing.assert_array_equal(got.asnumpy(), expected)
    got = ops.scatter_nd(T([[0], [2], [0]]), T([1.0, 2.0, 3.0]), (4,))
    assert got.asnumpy().tolist() == [4.0, 0.0, 2.0, 0.0]
    with pytest.raises(ValueError, match="For 'tensor_scatter_update', 'updates' must have"):
        ops.tensor_scatter_update(T(x), idx, T(np.ones((3, 4), np.float32)))
    with pytest.raises(TypeError, match="For 'gather', 'input_indices' must be an integer"):
        ops.gather(T(x), T([0.5]), 0)


def test_sort_topk_unique_goldens():
    X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))
    assert_golden("topk", ops.topk(X, 2))
    assert_golden("sort", ops.sort(X))
    assert_golden("sort_desc", ops.sort(X, descending=True))
    assert_golden("argsort", ops.argsort(X))
    assert_golden("unique", ops.unique(T([3, 1, 3, 2])))
    assert_golden("gather", ops.gather(X, T([1, 0]), 1))
    assert_golden("one_hot_int", ops.one_hot(T([0, 2]), 3, 1, 0))
    values, indices = ops.topk(X, 1, dim=0, largest=False)
    assert values.asnumpy().tolist() == [[1.0, 2.0, 0.0]] and indices.dtype == ms.int32


def test_eager_only_ops_raise_under_tracing():
    x = T([1.0, 0.0, 2.0])
    assert ops.masked_select(x, x > 0.5).asnumpy().tolist() == [1.0, 2.0]
    assert ops.nonzero(x).asnumpy().tolist() == [[0], [2]]
    for fn, name in [
        (lambda v: ops.unique(v), "unique"),
        (lambda v: ops.nonzero(v), "nonzero"),
        (lambda v: ops.masked_select(v, v > 0), "masked_select"),
    ]:
        with pytest.raises(RuntimeError, match=f"For '{name}', the output shape depends"):
            jax.jit(lambda a: fn(T(a)).jax)(x.jax)


def test_shape_queries_and_print(capsys):
    x = T(np.ones((2, 3), np.float32))
    assert ops.shape(x) == (2, 3) and ops.rank(x) == 2 and ops.numel(x) == 6
    assert ops.dtype(x) == ms.float32 and ops.is_tensor(x) and not ops.is_tensor(1)
    assert ops.is_floating_point(x) and not ops.is_floating_point(T([1]))
    jax.jit(lambda a: ops.print_("value:", T(a)))(x.jax)
    assert "value: [[1. 1. 1.]" in capsys.readouterr().out


def test_gradients_through_shape_and_index_ops():
    x = np.asarray(_x((2, 3)), np.float64)

    def f(v):
        t = T(v)
        y = ops.concat([ops.transpose(t, (1, 0)), ops.flip(t, (0,)).reshape((3, 2))], 1)
        y = ops.gather(y, T([0, 2]), 0) * ops.pad(t, (0, 1))[:, :2].sum()
        z = ops.tensor_scatter_add(t, T([[0, 1]]), T(np.array([1.0])))
        return ops.sum(y) + ops.sum(ops.masked_fill(z, z > 0, 0.0) ** 2) + ops.sort(t)[0][0, 0]

    check_grads(jax.jit(lambda v: f(v).jax), (x,), order=1, modes=("rev",), atol=1e-3, rtol=1e-3)


def test_bad_inputs():
    x = T(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="For 'concat', all Tensors must have the same shape"):
        ops.concat([x, T(np.ones((3, 3), np.float32))], 1)
    with pytest.raises(ValueError, match="For 'transpose', the permutation must be"):
        ops.transpose(x, (0, 0))
    with pytest.raises(ValueError, match="For 'reshape', the number of elements"):
        ops.reshape(x, (4,))
    with pytest.raises(ValueError, match="For 'split', the sum of 'split_size_or_sections'"):
        ops.split(x, [1, 1], 1)
    with pytest.raises(TypeError, match="For 'masked_fill', 'mask' must be a bool Tensor"):
        ops.masked_fill(x, x, 0.0)
    with pytest.raises(ValueError, match="For 'topk', 'k' must be at most"):
        ops.topk(x, 5)
    with pytest.raises(ValueError, match="For 'broadcast_to', can not broadcast"):
        ops.broadcast_to(x, (4, 4))
    with pytest.raises(TypeError, match="For 'stack', 'tensors' must be a non-empty list"):
        ops.stack(x)
    with pytest.raises(ValueError, match="For 'pad', 'mode' must be one of"):
        ops.pad(x, (1, 1), mode="mirror")


# recorded from MindSpore 2.10 CPU by tests/goldens/narrow_ranges.py
NARROW_OPS = {
    "(0, 0, 0)": "ValueError",
    "(1, 1, 0)": "ValueError",
    "(1, 3, 0)": "ValueError",
    "(1, 2, 2)": "ValueError",
    "(1, -1, 1)": "ValueError",
    "(1, 0, 4)": "ValueError",
    "(2, 0, 1)": "ValueError",
}
NARROW_MINT = {"(0, 0, 0)": "ok (0, 3)", "(1, 1, 0)": "ok (2, 0)", "(1, 3, 0)": "ok (2, 0)"}


def test_narrow_ranges_like_mindspore():
    from .._goldens import load_module

    case = load_module("narrow_ranges")
    got = {str(a): case.outcome(ms, ms.ops.narrow, a) for a in case.ARGS}
    assert got == NARROW_OPS
    got = {str(a): case.outcome(ms, ms.mint.narrow, a) for a in case.ARGS[:3]}
    assert got == NARROW_MINT
