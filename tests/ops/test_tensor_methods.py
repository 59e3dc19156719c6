"""Tensor methods point at the functional ops with MindSpore's method signatures."""

import numpy as np
import pytest

import cellax as ms

from ._common import assert_golden, rng

T = ms.Tensor


def test_goldens_max_forms_and_std():
    X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))
    assert_golden("tensor_max_axis_kw", X.max(axis=1))
    assert_golden("tensor_max_dim_pos", X.max(1))
    assert_golden("tensor_std", X.std())
    values, index = X.min(axis=0, return_indices=True)
    assert values.asnumpy().tolist() == [1.0, 2.0, 0.0] and index.asnumpy().tolist() == [0, 1, 1]
    assert float(X.max()) == 3.0


@pytest.mark.parametrize(
    "method, ref",
    [
        (lambda t: t.sum(), lambda a: a.sum()),
        (lambda t: t.sum(1, keepdims=True), lambda a: a.sum(1, keepdims=True)),
        (lambda t: t.sum(dim=0, keepdim=True), lambda a: a.sum(0, keepdims=True)),
        (lambda t: t.mean(1), lambda a: a.mean(1)),
        (lambda t: t.prod(0), lambda a: a.prod(0)),
        (lambda t: t.argmax(1), lambda a: a.argmax(1)),
        (lambda t: t.argmin(), lambda a: a.argmin()),
        (lambda t: t.std(1, ddof=1), lambda a: a.std(1, ddof=1)),
        (lambda t: t.var(), lambda a: a.var()),
        (lambda t: t.cumsum(), lambda a: a.cumsum()),
        (lambda t: t.cumsum(1), lambda a: a.cumsum(1)),
        (lambda t: t.transpose(), lambda a: a.T),
        (lambda t: t.transpose(1, 0), lambda a: a.T),
        (lambda t: t.permute(1, 0), lambda a: a.T),
        (lambda t: t.reshape(3, 2), lambda a: a.reshape(3, 2)),
        (lambda t: t.view((6,)), lambda a: a.reshape(6)),
        (lambda t: t.flatten(), lambda a: a.reshape(-1)),
        (lambda t: t.unsqueeze(0), lambda a: a[None]),
        (lambda t: t.expand_dims(-1), lambda a: a[..., None]),
        (lambda t: t.unsqueeze(0).squeeze(), lambda a: a),
        (lambda t: t.clip(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5)),
        (lambda t: t.abs().sqrt(), lambda a: np.sqrt(np.abs(a))),
        (lambda t: t.exp().log(), lambda a: a),
        (lambda t: t.pow(2), lambda a: a**2),
        (lambda t: t.tile((2, 1)), lambda a: np.tile(a, (2, 1))),
        (lambda t: t.broadcast_to((4, 2, 3)), lambda a: np.broadcast_to(a, (4, 2, 3))),
        (lambda t: t.round(), lambda a: np.round(a)),
        (lambda t: t.floor() + t.ceil(), lambda a: np.floor(a) + np.ceil(a)),
        (lambda t: t.sign(), lambda a: np.sign(a)),
        (lambda t: t.softmax(1), lambda a: np.exp(a) / np.exp(a).sum(1, keepdims=True)),
        (lambda t: t.norm(), lambda a: np.linalg.norm(a)),
        (lambda t: t.sort()[0], lambda a: np.sort(a)),
        (lambda t: t.argsort(), lambda a: np.argsort(a, kind="stable")),
        (lambda t: t.topk(1)[0], lambda a: a.max(1, keepdims=True)),
        (lambda t: t.gather(T([1]), 1), lambda a: a[:, [1]]),
        (lambda t: t.masked_fill(t > 0, 0.0), lambda a: np.where(a > 0, 0, a)),
        (lambda t: t.where(t > 0, 0.0), lambda a: np.where(a > 0, a, 0)),
        (lambda t: t.isnan(), lambda a: np.isnan(a)),
        (lambda t: t.tril(), lambda a: np.tril(a)),
        (lambda t: t.triu(1), lambda a: np.triu(a, 1)),
        (lambda t: t.split(1, 1)[2], lambda a: a[:, 2:]),
        (lambda t: t.chunk(2, 1)[0], lambda a: a[:, :2]),
        (lambda t: t.expand_as(T(np.ones((3, 2, 3)))), lambda a: np.broadcast_to(a, (3, 2, 3))),
        (lambda t: t.all(), lambda a: a.all()),
        (lambda t: t.any(1), lambda a: a.any(1)),
        (lambda t: t.type_as(T([1], ms.int32)), lambda a: a.astype(np.int32)),
        (lambda t: t.float(), lambda a: a),
        (lambda t: t.amax(1), lambda a: a.max(1)),
        (lambda t: t.logsumexp(1), lambda a: np.log(np.exp(a).sum(1))),
        (lambda t: t.repeat_interleave(2, 0), lambda a: np.repeat(a, 2, 0)),
        (lambda t: t.matmul(t.T), lambda a: a @ a.T),
        (lambda t: t.add(1).sub(1).mul(2).div(2), lambda a: a),
        (lambda t: t.new_zeros((2,)), lambda a: np.zeros(2, np.float32)),
    ],
)
def test_methods_match_numpy(method, ref):
    a = rng(0).normal(size=(2, 3)).astype(np.float32)
    got = method(T(a))
    expected = np.asarray(ref(a))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_in_place_methods_and_parameters():
    t = T([1.0, 2.0])
    assert t.fill_(3.0) is t and t.asnumpy().tolist() == [3.0, 3.0]
    assert t.zero_() is t and t.asnumpy().tolist() == [0.0, 0.0]
    p = ms.Parameter(T([1.0, -2.0]), name="w")
    assert p.abs().sum().asnumpy().item() == 3.0
    p.fill_(5.0)
    assert p.asnumpy().tolist() == [5.0, 5.0]


def test_method_errors_come_from_the_ops():
    with pytest.raises(ValueError, match="For 'sum', 'dim' must be in range"):
        T([1.0]).sum(3)
    with pytest.raises(ValueError, match="For 'transpose', the permutation"):
        T(np.ones((2, 2, 2))).transpose(0, 0, 1)
    # two ints are a swap in MindSpore 2.10: swapping a dimension with itself changes nothing
    assert T(np.ones((2, 3))).transpose(0, 0).shape == (2, 3)


@pytest.mark.parametrize("dt", ["bool_", "int8", "uint8", "int16", "int32"])
def test_cumsum_dtypes_match_mindspore(dt):
    # MindSpore 2.10: Tensor.cumsum sums bool and narrow ints in Int32; ops.cumsum casts to its
    # `dtype` first (mindcv's EdgeNeXt sums a bool mask with dtype=float32), and without a
    # dtype rejects bool.
    m = T(np.ones((2, 3)), getattr(ms, dt))
    assert m.cumsum(1).dtype == ms.int32 and m.cumsum(1).asnumpy().tolist() == [[1, 2, 3]] * 2
    assert m.cumsum().asnumpy().tolist() == [1, 2, 3, 4, 5, 6] and m.cumsum().dtype == ms.int32
    assert m.cumsum(1, dtype=ms.float32).dtype == ms.float32
    r = ms.ops.cumsum(m, 1, dtype=ms.int64)
    assert r.dtype == ms.int64 and r.asnumpy().tolist() == [[1, 2, 3]] * 2
    if dt == "bool_":
        with pytest.raises(TypeError):
            ms.ops.cumsum(m, 1)
    assert T(np.ones(3), ms.float16).cumsum().dtype == ms.float16


A3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    "method, ref",
    [
        # MindSpore 2.10's torch-style spellings (settled against MindSpore 2.10 CPU).
        (lambda t: t.chunk(2, dim=2), lambda a: np.split(a, 2, 2)),
        (lambda t: t.chunk(chunks=3, dim=1), lambda a: np.split(a, 3, 1)),
        (lambda t: t.split(2, dim=2), lambda a: np.split(a, 2, 2)),
        (lambda t: t.split([1, 3], dim=2), lambda a: np.split(a, [1], 2)),
        (lambda t: t.prod(dim=1, keepdim=True), lambda a: a.prod(1, keepdims=True)),
        (lambda t: (t > 5).all(dim=1), lambda a: (a > 5).all(1)),
        (lambda t: (t > 5).any(dim=2, keepdim=True), lambda a: (a > 5).any(2, keepdims=True)),
        (lambda t: t.sort(dim=1, descending=True)[0], lambda a: -np.sort(-a, 1)),
        (lambda t: t.argsort(dim=1), lambda a: np.argsort(a, 1)),
        (lambda t: t.repeat_interleave(2, dim=1), lambda a: np.repeat(a, 2, 1)),
        (lambda t: t.index_select(dim=1, index=T([2, 0])), lambda a: a[:, [2, 0]]),
        (lambda t: t.gather(dim=2, index=T(np.ones((2, 3, 1), np.int64))), lambda a: a[:, :, 1:2]),
        (lambda t: t.gather(2, T(np.ones((2, 3, 1), np.int64))), lambda a: a[:, :, 1:2]),
        (lambda t: t.gather(T([1]), 1), lambda a: a[:, [1]]),  # the classic (indices, axis)
        (lambda t: t.transpose(0, 2), lambda a: a.swapaxes(0, 2)),  # two ints swap
        (lambda t: t.transpose(dim0=2, dim1=1), lambda a: a.swapaxes(1, 2)),
        (lambda t: t.transpose(2, 0, 1), lambda a: a.transpose(2, 0, 1)),
        (lambda t: t[0].transpose(0, 1), lambda a: a[0].T),  # a swap on 2-D too
        (lambda t: t.flatten(1), lambda a: a.reshape(2, 12)),
        (lambda t: t.flatten(0, 1), lambda a: a.reshape(6, 4)),
        (lambda t: t[:, :1].expand(2, 5, 4), lambda a: np.broadcast_to(a[:, :1], (2, 5, 4))),
        (lambda t: t[:, :1].expand((2, 5, 4)), lambda a: np.broadcast_to(a[:, :1], (2, 5, 4))),
        (lambda t: t[:, :1].expand(-1, 5, -1), lambda a: np.broadcast_to(a[:, :1], (2, 5, 4))),
    ],
)
def test_torch_style_method_spellings(method, ref):
    got, want = method(T(A3)), ref(A3)
    if isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.asnumpy(), w)
    else:
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.asnumpy(), want)


def test_type_method():
    x = T(np.array([[1.5, 2.0]], np.float32))
    assert x.type() == "Float32"  # the dtype's name without an argument, as MindSpore
    y = x.type(ms.int32)
    assert y.dtype == ms.int32 and y.asnumpy().tolist() == [[1, 2]]
    assert x.type(dtype=ms.float16).dtype == ms.float16
    assert x.dtype == ms.float32


def test_dim_keyword_rejects_keepdim_where_mindspore_has_none():
    with pytest.raises(TypeError, match="keepdim"):
        T(A3).sort(dim=1, keepdim=True)


@pytest.mark.parametrize(
    "method, ref",
    [
        (
            lambda t: t.add_(T([1.0, 2.0, 3.0]), alpha=2),
            lambda a: a + 2 * np.array([1.0, 2.0, 3.0]),
        ),
        (lambda t: t.sub_(1.0, alpha=0.5), lambda a: a - 0.5),
        (lambda t: t.mul_(T([[2.0], [3.0]])), lambda a: a * np.array([[2.0], [3.0]])),
        (lambda t: t.div_(4.0), lambda a: a / 4.0),
        (lambda t: t.div_(4.0, rounding_mode="floor"), lambda a: np.floor(a / 4.0)),
        (lambda t: t.exp_(), np.exp),
        (lambda t: t.masked_fill_(t > 2.0, -1.0), lambda a: np.where(a > 2.0, -1.0, a)),
        (
            lambda t: t.copy_(T([7, 8, 9], ms.int32)),
            lambda a: np.broadcast_to([7.0, 8.0, 9.0], a.shape),
        ),
        (lambda t: t.clamp_(1.0, 4.0), lambda a: np.clip(a, 1.0, 4.0)),
    ],
)
def test_in_place_methods_write_into_the_tensor(method, ref):
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = T(data)
    assert method(x) is x
    assert x.dtype == ms.float32 and x.shape == (2, 3)
    np.testing.assert_allclose(x.asnumpy(), ref(data).astype(np.float32), rtol=1e-6)


def test_in_place_methods_on_parameters_and_shapes():
    p = ms.Parameter(T(np.ones((2, 2), np.float32)), name="p")
    assert p.add_(1.0) is p
    assert p.asnumpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    x = T(np.ones((2,), np.float32))
    with pytest.raises(ValueError, match="does not broadcast"):
        x.add_(T(np.ones((3, 2), np.float32)))
    assert x.asnumpy().tolist() == [1.0, 1.0]
    u = T(np.zeros((100,), np.float32)).uniform_(2.0, 3.0)
    assert ((u.asnumpy() >= 2.0) & (u.asnumpy() < 3.0)).all()


def test_in_place_methods_under_grad_and_jit():
    def f(x):
        y = x * 2
        y.mul_(x)  # y = 2 x^2
        return y.sum()

    x = T(np.array([1.0, 2.0], np.float32))
    assert float(ms.jit(f)(x)) == 10.0
    assert ms.grad(f)(x).asnumpy().tolist() == [4.0, 8.0]
    assert ms.jit(ms.grad(f))(x).asnumpy().tolist() == [4.0, 8.0]
