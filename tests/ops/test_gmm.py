"""The training grouped matmul ``gmm`` (``ops.function.math_func``), ``Gmm``/``GmmV2`` and their
backward primitives, and ``KVCacheScatterUpdate``, against float64 NumPy references built from
MindSpore 2.10's documented semantics (MindSpore's CPU build cannot run these Ascend kernels):
both group types, cumulative and count group lists, gradients against the references and
``jax.vjp``, ``ms.jit`` with a traced group list, in-place cache writes, and the errors."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax.ops import auto_generate as ag
from cellax.ops.function import math_func
from cellax.ops.operations import _infer_ops


def _t(a, dtype=ms.float32):
    return ms.Tensor(np.asarray(a), dtype)


def _bounds(ends):
    return list(zip([0, *ends[:-1]], ends))


def _rows_reference(x, w, ends, bias=None):
    """group_type 0: rows start:end of x times w[e]; rows past the last end stay zero."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    out = np.zeros((x.shape[0], w.shape[2]))
    for e, (start, end) in enumerate(_bounds(ends)):
        out[start:end] = x[start:end] @ w[e] + (0 if bias is None else bias[e])
    return out


def _k_reference(x, w, ends, bias=None):
    """group_type 2: one product per group of the shared axis k."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    out = np.stack([x[:, start:end] @ w[start:end] for start, end in _bounds(ends)])
    return out if bias is None else out + np.asarray(bias, np.float64)[:, None, :]


def _data(group_type, seed=0):
    rng = np.random.default_rng(seed)
    if group_type == 0:
        x, w, ends = rng.standard_normal((7, 3)), rng.standard_normal((3, 3, 4)), [2, 2, 6]
    else:
        x, w, ends = rng.standard_normal((5, 8)), rng.standard_normal((8, 4)), [3, 3, 7]
    return x.astype(np.float32), w.astype(np.float32), np.array(ends, np.int64)


_REFERENCE = {0: _rows_reference, 2: _k_reference}


def test_gmm_matches_mindspore_docs_example_shapes():
    rng = np.random.default_rng(0)
    x = _t(rng.uniform(0, 1, (10, 20)))
    w = _t(rng.uniform(0, 1, (4, 20, 8)))
    y = math_func.gmm([x], [w], group_list=_t([2, 4, 2, 2], ms.int64), group_list_type=1)
    assert isinstance(y, tuple) and y[0].shape == (10, 8)
    y = math_func.gmm([x], [w], group_list=[2, 6, 8, 10], group_list_type=0)
    np.testing.assert_allclose(
        y[0].asnumpy(), _rows_reference(x.asnumpy(), w.asnumpy(), [2, 6, 8, 10]), rtol=1e-5
    )


@pytest.mark.parametrize("group_type", [0, 2])
@pytest.mark.parametrize("form", ["list", "cumulative", "counts", "bias"])
def test_gmm_matches_float64_reference(group_type, form):
    x, w, ends = _data(group_type)
    groups = len(ends)
    bias = np.arange(groups * 4, dtype=np.float32).reshape(groups, 4) if form == "bias" else None
    group_list = {
        "list": ends.tolist(),
        "cumulative": _t(ends, ms.int64),
        "counts": _t(np.diff(ends, prepend=0), ms.int64),
        "bias": _t(ends, ms.int64),
    }[form]
    out = math_func.gmm(
        [_t(x)],
        [_t(w)],
        None if bias is None else [_t(bias)],
        group_list,
        group_type,
        group_list_type=1 if form == "counts" else 0,
    )[0]
    assert out.dtype == ms.float32
    ref = _REFERENCE[group_type](x, w, ends, bias)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    # the primitive forms agree
    prim = ag.GmmV2() if form in ("cumulative", "counts") else ag.Gmm()
    again = prim(
        [_t(x)], [_t(w)], None if bias is None else [_t(bias)], group_list, group_type,
        1 if form == "counts" else 0,
    )  # fmt: skip
    np.testing.assert_array_equal(again[0].asnumpy(), out.asnumpy())


@pytest.mark.parametrize("group_type", [0, 2])
@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_gmm_half_inputs_keep_their_dtype(group_type, dtype):
    x, w, ends = _data(group_type)
    out = math_func.gmm([_t(x, dtype)], [_t(w, dtype)], group_list=ends.tolist(),
                        group_type=group_type)[0]  # fmt: skip
    assert out.dtype == dtype
    ref = _REFERENCE[group_type](x, w, ends)
    np.testing.assert_allclose(out.float().asnumpy(), ref, rtol=5e-2, atol=5e-2)


@pytest.mark.parametrize("group_type", [0, 2])
def test_gmm_gradients_match_reference_and_jax_vjp(group_type):
    x, w, ends = _data(group_type, seed=1)
    rng = np.random.default_rng(2)
    out_shape = _REFERENCE[group_type](x, w, ends).shape
    dy = rng.standard_normal(out_shape).astype(np.float32)

    def loss(a, b):
        out = math_func.gmm([a], [b], group_list=_t(ends, ms.int64), group_type=group_type)[0]
        return (out * _t(dy)).sum()

    gx, gw = ms.grad(loss, grad_position=(0, 1))(_t(x), _t(w))
    # float64 references: the transposed products of each group
    rx, rw = np.zeros(x.shape), np.zeros(w.shape)
    for g, (start, end) in enumerate(_bounds(ends)):
        if group_type == 0:
            rx[start:end] = dy[start:end] @ w[g].T
            rw[g] = x[start:end].T @ dy[start:end]
        else:
            rx[:, start:end] = dy[g] @ w[start:end].T
            rw[start:end] = x[:, start:end].T @ dy[g]
    np.testing.assert_allclose(gx.asnumpy(), rx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gw.asnumpy(), rw, rtol=1e-4, atol=1e-5)

    # jax.vjp through the op against jax.vjp of a dense (masked) formulation
    def through_op(a, b):
        out = math_func.gmm([ms.Tensor(a)], [ms.Tensor(b)], group_list=ends.tolist(),
                            group_type=group_type)[0]  # fmt: skip
        return out.jax

    def dense(a, b):
        axis = a.shape[0] if group_type == 0 else a.shape[1]
        owner = np.searchsorted(ends, np.arange(axis), side="right")
        mask = (owner[None, :] == np.arange(len(ends))[:, None]).astype(np.float32)
        if group_type == 0:
            return jnp.einsum("gm,mk,gkn->mn", mask, a, b)
        return jnp.einsum("gk,mk,kn->gmn", mask, a, b)

    _, vjp = jax.vjp(through_op, jnp.asarray(x), jnp.asarray(w))
    _, dense_vjp = jax.vjp(dense, jnp.asarray(x), jnp.asarray(w))
    for got, want in zip(vjp(jnp.asarray(dy)), dense_vjp(jnp.asarray(dy))):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("group_type", [0, 2])
def test_gmm_under_jit_with_traced_group_list(group_type):
    x, w, ends = _data(group_type)

    @ms.jit
    def step(a, b, group_list):
        return math_func.gmm([a], [b], group_list=group_list, group_type=group_type)[0]

    for sizes in (ends, np.array([0, 1, 4], np.int64)):
        out = step(_t(x), _t(w), _t(sizes, ms.int64))
        ref = _REFERENCE[group_type](x, w, sizes)
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-5)


def test_gmm_backward_kernels_match_jax_vjp():
    x, w, ends = _data(0, seed=3)
    dy = np.random.default_rng(4).standard_normal((x.shape[0], w.shape[2])).astype(np.float32)

    def forward(a, b):
        out = math_func.gmm([ms.Tensor(a)], [ms.Tensor(b)], group_list=ends.tolist())[0]
        return out.jax

    _, vjp = jax.vjp(forward, jnp.asarray(x), jnp.asarray(w))
    rx, rw = (np.asarray(g) for g in vjp(jnp.asarray(dy)))
    counts = _t(np.diff(ends, prepend=0), ms.int64)
    dx, dw, db = math_func.gmm_backward([_t(dy)], [_t(x)], [_t(w)], ends.tolist())
    assert len(dx) == len(dw) == 1 and db == []
    np.testing.assert_allclose(dx[0].asnumpy(), rx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dw[0].asnumpy(), rw, rtol=1e-5, atol=1e-6)
    dx, dw, db = math_func.gmm_backward_fusion([_t(dy)], [_t(w)], _t(ends, ms.int64))
    assert dw == [] and db == []
    np.testing.assert_allclose(dx[0].asnumpy(), rx, rtol=1e-5, atol=1e-6)
    for prim in (ag.GmmBackward(), ag.GmmV2Backward()):
        gx, gw = prim([_t(dy)], [_t(x)], [_t(w)], counts, 1)
        np.testing.assert_allclose(gx.asnumpy(), rx, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gw.asnumpy(), rw, rtol=1e-5, atol=1e-6)
    for prim in (ag.GmmBackwardFusion(), ag.GmmV2BackwardFusion()):
        (gx,) = prim([_t(dy)], [_t(w)], group_list=counts, group_list_type=1)
        np.testing.assert_allclose(gx.asnumpy(), rx, rtol=1e-5, atol=1e-6)


def test_gmm_errors():
    x, w, ends = _data(0)
    gmm = math_func.gmm
    with pytest.raises(ValueError, match="For 'gmm', 'group_type' must be 0"):
        gmm([_t(x)], [_t(w)], group_list=ends.tolist(), group_type=1)
    with pytest.raises(ValueError, match="'group_list' is required"):
        gmm([_t(x)], [_t(w)])
    with pytest.raises(ValueError, match="non-decreasing group ends"):
        gmm([_t(x)], [_t(w)], group_list=[3, 2, 6])
    with pytest.raises(ValueError, match="at most the 7 entries"):
        gmm([_t(x)], [_t(w)], group_list=_t([4, 4, 4], ms.int64), group_list_type=1)
    with pytest.raises(ValueError, match="exactly one Tensor"):
        gmm([_t(x), _t(x)], [_t(w)], group_list=ends.tolist())
    with pytest.raises(ValueError, match="one entry per group"):
        gmm([_t(x)], [_t(w)], group_list=[2, 6])
    with pytest.raises(ValueError, match="with group_type=2 'x' must be"):
        gmm([_t(x)], [_t(w)], group_list=[1, 2], group_type=2)
    with pytest.raises(ValueError, match="'group_list_type' must be 0"):
        gmm([_t(x)], [_t(w)], group_list=_t(ends, ms.int64), group_list_type=2)
    with pytest.raises(TypeError, match="For 'GmmV2', 'group_list' must be a Tensor"):
        ag.GmmV2()([_t(x)], [_t(w)], None, ends.tolist())


# KVCacheScatterUpdate -------------------------------------------------------------------------


def _scatter_reference(var, indices, updates, axis):
    """MindSpore's documented loop: batch b's updates go to positions indices[b] onwards."""
    out = np.array(var, np.float64)
    seq_out, seq_new = np.moveaxis(out, axis, 2), np.moveaxis(updates, axis, 2)
    for b, start in enumerate(indices):
        for u in range(seq_new.shape[2]):
            if 0 <= start + u < seq_out.shape[2]:
                seq_out[b, :, start + u] = seq_new[b, :, u]
    return out


@pytest.mark.parametrize("axis", [-1, -2])
@pytest.mark.parametrize("width", [1, 3])
def test_kv_cache_scatter_update_matches_reference(axis, width):
    rng = np.random.default_rng(5)
    shape = (3, 2, 6, 4) if axis == -2 else (3, 2, 4, 6)
    var = rng.uniform(1, 10, shape).astype(np.float32)
    new_shape = list(shape)
    new_shape[axis] = width
    updates = rng.uniform(1, 10, new_shape).astype(np.float32)
    indices = np.array([0, 4, 5], np.int64)  # the last two run past the end with width 3
    cache = ms.Parameter(_t(var), name="cache")
    out = _infer_ops.KVCacheScatterUpdate()(cache, _t(indices, ms.int64), _t(updates), axis,
                                            "update")  # fmt: skip
    assert out is cache
    np.testing.assert_array_equal(cache.asnumpy(), _scatter_reference(var, indices, updates, axis))
    # a plain Tensor is written in place too, and reduce defaults to 'none'
    plain = _t(var)
    ag.kv_cache_scatter_update(plain, _t(indices, ms.int64), _t(updates), axis)
    np.testing.assert_array_equal(plain.asnumpy(), cache.asnumpy())


def test_kv_cache_scatter_update_writes_a_cell_cache_under_jit():
    class Cache(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.key_cache = ms.Parameter(ms.ops.zeros((2, 1, 4, 2)), name="key_cache")
            self.scatter = ag.KVCacheScatterUpdate()

        def construct(self, key, position):
            self.scatter(self.key_cache, position, key, -2)
            return self.key_cache * 1

    cell = Cache()
    step = ms.jit(cell)
    ref = np.zeros((2, 1, 4, 2))
    for t in range(3):
        key = np.full((2, 1, 1, 2), t + 1, np.float32)
        position = np.array([t, t + 1], np.int64)
        out = step(_t(key), _t(position, ms.int64))
        ref = _scatter_reference(ref, position, key, -2)
        np.testing.assert_array_equal(out.asnumpy(), ref)
    np.testing.assert_array_equal(cell.key_cache.asnumpy(), ref)


def test_kv_cache_scatter_update_errors_and_paths():
    cache = ms.Parameter(ms.ops.zeros((1, 1, 4, 2)), name="c")
    op = ag.kv_cache_scatter_update
    with pytest.raises(ValueError, match="'axis' must be -1 or -2"):
        op(cache, _t([0], ms.int64), ms.ops.ones((1, 1, 1, 2)), 1)
    with pytest.raises(ValueError, match="'reduce' must be 'none' or 'update'"):
        op(cache, _t([0], ms.int64), ms.ops.ones((1, 1, 1, 2)), -2, "add")
    with pytest.raises(ValueError, match="must be 4-D and equal except along axis 2"):
        op(cache, _t([0], ms.int64), ms.ops.ones((1, 1, 1, 3)), -2)
    with pytest.raises(TypeError, match="'indices' must be an integer Tensor of shape"):
        op(cache, _t([0.0]), ms.ops.ones((1, 1, 1, 2)), -2)
    assert _infer_ops.KVCacheScatterUpdate is ag.KVCacheScatterUpdate
    assert not hasattr(ms.ops, "gmm") and not hasattr(ms.ops, "KVCacheScatterUpdate")
