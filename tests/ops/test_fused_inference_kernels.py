"""Ascend's inference kernels on XLA against float64 NumPy references written from MindSpore's
documented semantics (MindSpore 2.10 CPU cannot run them): ``fused_infer_attention_score``,
the paged key/value cache (``ReshapeAndCache``, ``PagedAttention``, ``PagedAttentionMask``),
``FusedAddTopKDiv``, ``DequantSwigluQuant``, ``AddLayerNormV2`` and the backward primitives
(``RmsNormGrad``, ``AddLayerNormGrad``, ``RotaryPositionEmbeddingGrad``, the MoE permute grads,
``InplaceGroupedMatmulAdd``), with gradients through ``ms.grad`` and runs under ``ms.jit``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import ops
from cellax.ops import auto_generate as ag


def _t(a, dtype=ms.float32):
    return ms.Tensor(np.asarray(a), dtype)


def _attention(q, k, v, keep, scale, bias=None):
    """float64 attention in (B, N, S, D) with GQA, the keep mask broadcast to (B, N, S1, S2):
    the output and the row log-sum-exps (fully masked rows: zeros and -inf)."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    rep = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, rep, 1), np.repeat(v, rep, 1)
    s = np.einsum("bnqd,bnkd->bnqk", q, k) * scale
    if bias is not None:
        s = s + bias
    s = np.where(keep, s, -np.inf)
    top = s.max(-1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(top), top, 0))
    total = e.sum(-1, keepdims=True)
    p = e / np.where(total > 0, total, 1)
    with np.errstate(divide="ignore"):
        lse = np.log(total) + np.where(np.isfinite(top), top, 0)
    return np.einsum("bnqk,bnkd->bnqd", p, v), np.where(total > 0, lse, -np.inf), p


def _attention_grads(q, k, v, keep, scale, dout):
    """float64 gradients of ``sum(out * dout)`` with respect to q, k, v (B, N, S, D)."""
    _, _, p = _attention(q, k, v, keep, scale)
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    rep = q.shape[1] // k.shape[1]
    kr, vr = np.repeat(k, rep, 1), np.repeat(v, rep, 1)
    dv = np.einsum("bnqk,bnqd->bnkd", p, dout)
    dp = np.einsum("bnqd,bnkd->bnqk", dout, vr)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True)) * scale
    dq = np.einsum("bnqk,bnkd->bnqd", ds, kr)
    dk = np.einsum("bnqk,bnqd->bnkd", ds, q)

    def fold(g):
        return g.reshape(g.shape[0], -1, rep, *g.shape[2:]).sum(2)

    return dq, fold(dk), fold(dv)


# fused_infer_attention_score -----------------------------------------------------------------


@pytest.mark.parametrize("use_jit", [False, True])
def test_fused_infer_attention_prompt_bsh_gqa_lengths_mask_lse_and_grads(use_jit):
    rng = np.random.default_rng(0)
    b, n, nkv, s1, s2, d = 2, 4, 2, 5, 6, 8
    q = rng.standard_normal((b, n, s1, d)).astype(np.float32)
    k = rng.standard_normal((b, nkv, s2, d)).astype(np.float32)
    v = rng.standard_normal((b, nkv, s2, d)).astype(np.float32)
    mask = rng.random((s1, s2)) < 0.2  # 1 discards
    q_len, kv_len = [5, 3], [6, 4]
    dout = rng.standard_normal((b, n, s1, d))

    def bsh(x):
        return _t(x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1))

    def run(qq, kk, vv):
        out, lse = ops.fused_infer_attention_score(
            qq, kk, vv, atten_mask=_t(mask, ms.bool_), actual_seq_lengths=q_len,
            actual_seq_lengths_kv=_t(kv_len, ms.int64), num_heads=n, scale=0.3,
            num_key_value_heads=nkv, softmax_lse_flag=True,
        )  # fmt: skip
        return out, lse

    fn = ms.jit(run) if use_jit else run
    out, lse = fn(bsh(q), bsh(k), bsh(v))
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    keep = ~mask[None, None] & (j < np.array(kv_len)[:, None, None, None])
    keep = keep & (i < np.array(q_len)[:, None, None, None])
    ref, ref_lse, _ = _attention(q, k, v, keep, 0.3)
    got = out.asnumpy().reshape(b, s1, n, d).transpose(0, 2, 1, 3)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert lse.shape == (b, n, s1, 1) and lse.dtype == ms.float32
    np.testing.assert_allclose(lse.asnumpy(), ref_lse, rtol=1e-5, atol=1e-5)

    def loss(qq, kk, vv):
        return (run(qq, kk, vv)[0] * bsh(dout.astype(np.float32))).sum()

    grad_fn = ms.grad(loss, grad_position=(0, 1, 2))
    grads = (ms.jit(grad_fn) if use_jit else grad_fn)(bsh(q), bsh(k), bsh(v))
    refs = _attention_grads(q, k, v, keep, 0.3, dout)
    for g, r in zip(grads, refs):
        got = g.asnumpy().reshape(b, -1, r.shape[1], d).transpose(0, 2, 1, 3)
        np.testing.assert_allclose(got, r, rtol=1e-4, atol=1e-5)


def test_fused_infer_attention_layouts_sparse_modes_and_primitive():
    rng = np.random.default_rng(1)
    b, n, s1, s2, d = 2, 2, 4, 6, 4
    q = rng.standard_normal((b, n, s1, d)).astype(np.float32)
    k = rng.standard_normal((b, n, s2, d)).astype(np.float32)
    v = rng.standard_normal((b, n, s2, d)).astype(np.float32)
    kv_len = [6, 5]
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    # sparse_mode 3 (causal from the lower right) counts from each batch's own lengths
    keep = (j <= i + (np.array(kv_len) - s1)[:, None, None, None]) & (
        j < np.array(kv_len)[:, None, None, None]
    )
    ref = _attention(q, k, v, keep, 0.5)[0]
    optimized = _t(np.triu(np.ones((2048, 2048)), 1), ms.uint8)
    out, lse = ops.fused_infer_attention_score(
        _t(q), _t(k), _t(v), atten_mask=optimized, actual_seq_lengths_kv=kv_len, num_heads=n,
        scale=0.5, input_layout="BNSD_BSND", sparse_mode=3,
    )  # fmt: skip
    assert lse.shape == (1,) and float(lse[0]) == 0.0
    np.testing.assert_allclose(out.asnumpy(), ref.transpose(0, 2, 1, 3), rtol=1e-5, atol=1e-5)
    # BSND in, the primitive with its attribute names, a list of one key and one value
    fia = ag.FusedInferAttentionScore(num_heads=n, scale_value=0.5, input_layout="BSND",
                                      sparse_mode=3, softmax_lse_flag=True)  # fmt: skip
    out, lse = fia(_t(q.transpose(0, 2, 1, 3)), [_t(k.transpose(0, 2, 1, 3))],
                   [_t(v.transpose(0, 2, 1, 3))], None, optimized, None, kv_len)  # fmt: skip
    np.testing.assert_allclose(out.asnumpy(), ref.transpose(0, 2, 1, 3), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(lse.asnumpy(), _attention(q, k, v, keep, 0.5)[1], rtol=1e-5)
    assert ops.operations._infer_ops.FusedInferAttentionScore is ag.FusedInferAttentionScore


def test_fused_infer_attention_decode_with_mask_and_paged_cache():
    rng = np.random.default_rng(2)
    b, n, nkv, d, block, blocks = 2, 4, 2, 4, 4, 6
    q = rng.standard_normal((b, n, 1, d)).astype(np.float32)
    cache_k = rng.standard_normal((blocks, block, nkv * d)).astype(np.float32)
    cache_v = rng.standard_normal((blocks, block, nkv * d)).astype(np.float32)
    table = np.array([[3, 0], [5, 1]], np.int32)
    kv_len = [6, 3]
    mask = np.zeros((b, 2 * block), bool)
    mask[0, 1] = True  # (B, KV_S): 1 discards

    def dense(cache):
        x = cache[table].reshape(b, 2 * block, nkv, d)
        return x.transpose(0, 2, 1, 3)

    keep = (
        ~mask[:, None, None, :]
        & (np.arange(2 * block) < np.array(kv_len)[:, None])[:, None, None, :]
    )
    ref, ref_lse, _ = _attention(q, dense(cache_k), dense(cache_v), keep, 0.5)
    out, lse = ops.fused_infer_attention_score(
        _t(q.reshape(b, 1, n * d)), _t(cache_k), _t(cache_v), atten_mask=_t(mask, ms.bool_),
        actual_seq_lengths=[7, 7], actual_seq_lengths_kv=kv_len, block_table=_t(table, ms.int32),
        num_heads=n, num_key_value_heads=nkv, scale=0.5, block_size=block, softmax_lse_flag=True,
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy().reshape(b, n, d), ref[:, :, 0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(lse.asnumpy(), ref_lse, rtol=1e-5, atol=1e-5)
    # the same cache as (blocks, N, block_size, D) in BNSD
    cache4 = lambda c: _t(c.reshape(blocks, block, nkv, d).transpose(0, 2, 1, 3))  # noqa: E731
    out4, _ = ops.fused_infer_attention_score(
        _t(q), cache4(cache_k), cache4(cache_v), atten_mask=_t(mask, ms.bool_),
        actual_seq_lengths_kv=kv_len, block_table=_t(table, ms.int32), num_heads=n,
        input_layout="BNSD", num_key_value_heads=nkv, scale=0.5,
    )  # fmt: skip
    np.testing.assert_allclose(out4.asnumpy()[:, :, 0], ref[:, :, 0], rtol=1e-5, atol=1e-5)


def test_fused_infer_attention_errors():
    q = ms.ops.ones((1, 2, 4))
    with pytest.raises(NotImplementedError, match="fused_infer_attention_score"):
        ops.fused_infer_attention_score(q, q, q, quant_scale2=ms.ops.ones(1))
    with pytest.raises(ValueError, match="input_layout"):
        ops.fused_infer_attention_score(q, q, q, input_layout="TND")
    with pytest.raises(ValueError, match="sparse_mode"):
        ops.fused_infer_attention_score(q, q, q, sparse_mode=5)
    with pytest.raises(ValueError, match="num_key_value_heads"):
        ops.fused_infer_attention_score(q, q, q, num_heads=3, num_key_value_heads=2)


# paged key/value cache -------------------------------------------------------------------------


def test_reshape_and_cache_writes_parameters_eagerly_and_under_jit():
    blocks, block, nkv, d = 3, 2, 2, 2
    k_cache = ms.Parameter(ms.ops.zeros((blocks, block, nkv, d)), name="key_cache")
    v_cache = ms.Parameter(ms.ops.zeros((blocks, block, nkv * d)), name="value_cache")
    key = np.arange(3 * nkv * d, dtype=np.float32).reshape(1, 3, nkv * d)  # (B, S, H)
    slots = np.array([5, -1, 0], np.int32)  # -1: padding, not written
    op = ops.ReshapeAndCache()
    out = op(_t(key), _t(-key), k_cache, v_cache, _t(slots, ms.int32))
    assert out.shape == key.shape
    ref = np.zeros((blocks * block, nkv * d), np.float32)
    ref[5], ref[0] = key[0, 0], key[0, 2]
    np.testing.assert_array_equal(k_cache.asnumpy().reshape(-1, nkv * d), ref)
    np.testing.assert_array_equal(v_cache.asnumpy().reshape(-1, nkv * d), -ref)

    class Mgr(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.key_cache = ms.Parameter(ms.ops.zeros((blocks, block, nkv * d)), name="kc")
            self.cache = ops.auto_generate.ReshapeAndCache()

        def construct(self, key, slot_mapping):
            return self.cache(key, None, self.key_cache, None, slot_mapping)

    mgr = Mgr()
    step = ms.jit(mgr)
    step(_t(key), _t(slots, ms.int32))
    step(_t(key + 100), _t([1, 2, -1], ms.int32))
    ref[1], ref[2] = key[0, 0] + 100, key[0, 1] + 100
    np.testing.assert_array_equal(mgr.key_cache.asnumpy().reshape(-1, nkv * d), ref)
    # a plain Tensor cache is updated in place too
    plain = ms.ops.zeros((1, 2, 1))
    ag.reshape_and_cache(_t([[1.0]]), None, plain, None, _t([1], ms.int32))
    assert plain.asnumpy().ravel().tolist() == [0.0, 1.0]
    with pytest.raises(ValueError, match="reshape_and_cache"):
        ag.reshape_and_cache(_t([[1.0]]), _t([[1.0]]), plain, None, _t([1], ms.int32))


def _paged_reference(q, k_cache, v_cache, table, lengths, heads, scale, owner, position,
                     mask=None, bias=None, causal=False):  # fmt: skip
    blocks, block = k_cache.shape[:2]
    kv_heads = k_cache.shape[2]
    out = []
    for t in range(q.shape[0]):
        b = owner[t]
        keys = k_cache[table[b]].reshape(-1, kv_heads, k_cache.shape[-1]).transpose(1, 0, 2)
        vals = v_cache[table[b]].reshape(-1, kv_heads, v_cache.shape[-1]).transpose(1, 0, 2)
        j = np.arange(keys.shape[1])
        keep = (j < lengths[b]) & ((j <= position[t]) if causal else True)
        extra = 0.0
        if mask is not None:
            extra = extra + mask[t][None, : keys.shape[1]]
        if bias is not None:
            extra = extra + bias[t].reshape(heads, -1)[:, : keys.shape[1]]
        qt = q[t][None, :, None, :]  # (1, heads, 1, D)
        bias_t = np.broadcast_to(extra, (heads, keys.shape[1]))[None, :, None, :]
        o, _, _ = _attention(qt, keys[None], vals[None], keep[None, None, None], scale, bias_t)
        out.append(o[0, :, 0])
    return np.stack(out)


def test_paged_attention_decode_with_gqa_and_gradients():
    rng = np.random.default_rng(3)
    heads, kv_heads, d, block, blocks, batch = 4, 2, 4, 4, 6, 3
    k_cache = rng.standard_normal((blocks, block, kv_heads, d)).astype(np.float32)
    v_cache = rng.standard_normal((blocks, block, kv_heads, d)).astype(np.float32)
    table = np.array([[2, 4], [0, 1], [5, 3]], np.int32)
    lengths = np.array([7, 2, 4], np.int32)
    q = rng.standard_normal((batch, 1, heads * d)).astype(np.float32)  # mindformers' BSH
    pa = ops.PagedAttention(heads, 0.5, kv_heads)
    out = pa(_t(q), _t(k_cache), _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32))
    ref = _paged_reference(q.reshape(batch, heads, d), k_cache, v_cache, table, lengths, heads,
                           0.5, np.arange(batch), lengths - 1)  # fmt: skip
    assert out.shape == q.shape
    np.testing.assert_allclose(out.asnumpy().reshape(batch, heads, d), ref, rtol=1e-5, atol=1e-5)
    # gradient with respect to the query, under jit, against the dense attention's
    dout = rng.standard_normal((batch, heads, d))

    def loss(query, kc):
        y = pa(query, kc, _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32))
        return (y * _t(dout.reshape(batch, 1, -1).astype(np.float32))).sum()

    dq, dk = ms.jit(ms.grad(loss, grad_position=(0, 1)))(_t(q), _t(k_cache))
    for bi in range(batch):
        keys = k_cache[table[bi]].reshape(-1, kv_heads, d).transpose(1, 0, 2)[None]
        vals = v_cache[table[bi]].reshape(-1, kv_heads, d).transpose(1, 0, 2)[None]
        keep = (np.arange(keys.shape[2]) < lengths[bi])[None, None, None]
        rq, rk, _ = _attention_grads(q[bi].reshape(1, heads, 1, d), keys, vals, keep, 0.5,
                                     dout[bi].reshape(1, heads, 1, d))  # fmt: skip
        np.testing.assert_allclose(dq.asnumpy()[bi].reshape(heads, d), rq[0, :, 0], rtol=1e-4,
                                   atol=1e-5)  # fmt: skip
        got_k = dk.asnumpy()[table[bi]].reshape(-1, kv_heads, d).transpose(1, 0, 2)
        np.testing.assert_allclose(got_k, rk[0], rtol=1e-4, atol=1e-5)


def test_paged_attention_q_seq_lens_masks_alibi_and_mla():
    rng = np.random.default_rng(4)
    heads, d, block, blocks = 2, 4, 4, 4
    k_cache = rng.standard_normal((blocks, block, heads * d)).astype(np.float32)
    v_cache = rng.standard_normal((blocks, block, heads * d)).astype(np.float32)
    table = np.array([[1, 3], [2, 0]], np.int32)
    lengths = np.array([6, 3], np.int32)
    q_seq = np.array([2, 3], np.int32)
    tokens = int(q_seq.sum())
    q = rng.standard_normal((tokens, heads * d)).astype(np.float32)
    owner = np.array([0, 0, 1, 1, 1])
    position = np.array([4, 5, 0, 1, 2])
    mask = np.where(np.arange(8)[None] > position[:, None], -10000.0, 0.0).astype(np.float32)
    kc4 = k_cache.reshape(blocks, block, heads, d)
    vc4 = v_cache.reshape(blocks, block, heads, d)
    ref = _paged_reference(q.reshape(tokens, heads, d), kc4, vc4, table, lengths, heads, 0.5,
                           owner, position, causal=True)  # fmt: skip
    pa = ops.PagedAttention(heads, 0.5, heads)
    out = pa(_t(q), _t(k_cache), _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32), None,
             None, _t(mask), _t(q_seq, ms.int32))  # fmt: skip
    np.testing.assert_allclose(out.asnumpy().reshape(tokens, heads, d), ref, rtol=1e-5, atol=1e-5)
    trapezoid = ops.PagedAttention(heads, 0.5, heads, mask_mode="TRAPEZOIDAL")
    out = trapezoid(_t(q), _t(k_cache), _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32),
                    q_seq_lens=_t(q_seq, ms.int32))  # fmt: skip
    np.testing.assert_allclose(out.asnumpy().reshape(tokens, heads, d), ref, rtol=1e-5, atol=1e-5)
    # ALiBi bias (PagedAttentionMask), decode: one token per batch
    alibi = rng.standard_normal((2, heads, 1, 8)).astype(np.float32)
    qd = q[:2]
    pam = ops.PagedAttentionMask(heads, 0.5, heads)
    out = pam(_t(qd), _t(k_cache), _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32),
              None, None, _t(alibi))  # fmt: skip
    ref = _paged_reference(qd.reshape(2, heads, d), kc4, vc4, table, lengths, heads, 0.5,
                           np.arange(2), lengths - 1, bias=alibi)  # fmt: skip
    np.testing.assert_allclose(out.asnumpy().reshape(2, heads, d), ref, rtol=1e-5, atol=1e-5)
    # multi-latent attention: one cache, the values its first mla_v_dim columns
    mla = ops.PagedAttention(heads, 0.5, 1, mla_v_dim=2)
    cache = rng.standard_normal((blocks, block, 1, d)).astype(np.float32)
    out = mla(_t(qd.reshape(2, heads, d)), _t(cache), _t(cache), _t(table, ms.int32),
              _t(lengths, ms.int32))  # fmt: skip
    ref = _paged_reference(qd.reshape(2, heads, d), cache, cache[..., :2], table, lengths, heads,
                           0.5, np.arange(2), lengths - 1)  # fmt: skip
    assert out.shape == (2, heads, 2)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    with pytest.raises(NotImplementedError, match="PagedAttention"):
        pa(_t(qd), _t(k_cache), _t(v_cache), _t(table, ms.int32), _t(lengths, ms.int32),
           ms.ops.ones((2, 8)))  # fmt: skip


# routing, quantisation, normalisation ----------------------------------------------------------


def _topk_div_reference(x, add, groups, group_topk, n, k, is_norm, scale, mapping=None):
    s = 1 / (1 + np.exp(-np.asarray(x, np.float64)))
    biased = (s + add).reshape(len(x), groups, -1)
    score = np.sort(biased, -1)[..., ::-1][..., :n].sum(-1)
    masked = biased.copy()
    for r in range(len(x)):
        drop = np.argsort(-score[r], kind="stable")[group_topk:]
        masked[r, drop] = 0
    order = np.argsort(-masked.reshape(len(x), -1), axis=-1, kind="stable")
    ids = order[:, :k]
    w = np.take_along_axis(s, ids, 1)
    if is_norm:
        w = w / w.sum(-1, keepdims=True) * scale
    if mapping is not None:
        counts, table = mapping
        per = biased.shape[-1]
        for r in range(len(x)):
            off = order[r, group_topk * per - 1] + 7
            rand = (100000007 % off) / off
            ids[r] = [table[e, int(np.floor(counts[e] * np.float32(rand)))] for e in ids[r]]
    return w, ids


@pytest.mark.parametrize("is_norm", [True, False])
def test_fused_add_topk_div_matches_reference_with_gradient(is_norm):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 16)).astype(np.float32)
    add = rng.standard_normal(16).astype(np.float32) * 0.1
    w, ids = ag.FusedAddTopKDiv()(_t(x), _t(add), 4, 2, 2, 3, 0, is_norm, 2.5)
    rw, rids = _topk_div_reference(x, add, 4, 2, 2, 3, is_norm, 2.5)
    assert ids.dtype == ms.int32 and w.dtype == ms.float32
    np.testing.assert_array_equal(ids.asnumpy(), rids)
    np.testing.assert_allclose(w.asnumpy(), rw, rtol=1e-5)
    grad = ms.jit(
        ms.grad(lambda v: ag.fused_add_topk_div(v, _t(add), 4, 2, 2, 3, 0, is_norm)[0].sum())
    )
    g = grad(_t(x)).asnumpy()
    eps, e = 1e-3, np.zeros_like(x)
    e[0, rids[0, 0]] = eps
    f = lambda v: _topk_div_reference(v, add, 4, 2, 2, 3, is_norm, 2.5)[0].sum()  # noqa: E731
    np.testing.assert_allclose(
        g[0, rids[0, 0]], (f(x + e) - f(x - e)) / (2 * eps), rtol=1e-2, atol=1e-4
    )
    counts = np.full(16, 2, np.int32)
    table = rng.integers(0, 16, (16, 2)).astype(np.int32)
    _, mids = ag.fused_add_topk_div(_t(x), _t(add), 4, 2, 2, 3, mapping_num=_t(counts, ms.int32),
                                    mapping_table=_t(table, ms.int32), enable_expert_mapping=True)  # fmt: skip
    np.testing.assert_array_equal(mids.asnumpy(), _topk_div_reference(
        x, add, 4, 2, 2, 3, True, 2.5, (counts, table))[1])  # fmt: skip


def _swiglu_quant_reference(x, ws, act, left, mode, qs=None, qo=None, groups=None):
    x = np.asarray(x)
    xf = x.astype(np.float64)
    if np.issubdtype(x.dtype, np.integer):
        if groups is not None:
            row_group = np.repeat(np.arange(len(groups)), groups)
            xf[: len(row_group)] *= ws[row_group]
        else:
            xf = xf * ws
        xf = xf * act.reshape(-1, 1)
    a, b = np.split(xf, 2, -1)
    gate, lin = (a, b) if left else (b, a)
    out = gate / (1 + np.exp(-gate)) * lin
    if mode == "static":
        y = out / (1.0 if qs is None else qs) + (0.0 if qo is None else qo)
        scale = np.zeros(len(x))
    else:
        if qs is not None:
            out = out * (
                qs[np.repeat(np.arange(len(groups)), groups)] if groups is not None else qs
            )
        peak = np.abs(out).max(-1)
        scale = np.where(peak > 0, peak / 127, 1)
        y = out / scale[:, None]
    return np.clip(np.rint(y), -128, 127).astype(np.int8), scale


def test_dequant_swiglu_quant_static_dynamic_and_groups():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    y, scale = ag.DequantSwigluQuant()(_t(x), None, None, None, _t([0.02]), _t([1.0]), None,
                                       False, "static")  # fmt: skip
    ry, _ = _swiglu_quant_reference(x, None, None, False, "static", 0.02, 1.0)
    assert y.dtype == ms.int8 and scale.shape == (4,)
    assert np.abs(y.asnumpy().astype(int) - ry).max() <= 1
    xi = rng.integers(-50, 50, (5, 8)).astype(np.int32)
    ws = rng.random((2, 8)).astype(np.float32) * 0.1
    act = rng.random(5).astype(np.float32)
    qs = rng.random((2, 4)).astype(np.float32) + 0.5
    y, scale = ag.dequant_swiglu_quant(_t(xi, ms.int32), _t(ws), _t(act), quant_scale=_t(qs),
                                       group_index=_t([2, 2], ms.int64), activate_left=True,
                                       quant_mode="dynamic")  # fmt: skip
    ry, rs = _swiglu_quant_reference(xi[:4], ws, act[:4], True, "dynamic", qs, None, [2, 2])
    assert np.abs(y.asnumpy()[:4].astype(int) - ry).max() <= 1
    np.testing.assert_allclose(scale.asnumpy()[:4], rs, rtol=1e-5)
    assert not y.asnumpy()[4].any() and scale.asnumpy()[4] == 0  # past the groups
    with pytest.raises(ValueError, match="DequantSwigluQuant"):
        ag.dequant_swiglu_quant(_t(x[:, :7]), None, None)


def test_add_layernorm_v2_values_and_gradients():
    rng = np.random.default_rng(7)
    x1, x2 = rng.standard_normal((2, 3, 6)).astype(np.float32)
    gamma, beta = rng.standard_normal((2, 6)).astype(np.float32)
    y, mean, rstd, total = ag.AddLayerNormV2()(_t(x1), _t(x2), _t(gamma), _t(beta), 1e-5, True)
    x = x1.astype(np.float64) + x2
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * gamma + beta
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(total.asnumpy(), x, rtol=1e-6)
    dy = rng.standard_normal((3, 6)).astype(np.float32)

    def loss(a, g):
        return (ag.add_layernorm_v2(a, _t(x2), g, _t(beta))[0] * _t(dy)).sum()

    da, dg = ms.grad(loss, grad_position=(0, 1))(_t(x1), _t(gamma))
    xhat = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    gw = dy * gamma
    ref_dx = (
        gw - gw.mean(-1, keepdims=True) - xhat * (gw * xhat).mean(-1, keepdims=True)
    ) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(da.asnumpy(), ref_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dg.asnumpy(), (dy * xhat).sum(0), rtol=1e-4, atol=1e-5)


# backward primitives against jax.vjp of the forward -------------------------------------------


def test_rms_norm_and_add_layer_norm_grads_match_vjp():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 4, 6)).astype(np.float32)
    gamma = rng.standard_normal(6).astype(np.float32)
    dy = rng.standard_normal(x.shape).astype(np.float32)
    _, rstd = ops.rms_norm(_t(x), _t(gamma))
    dx, dgamma = ag.RmsNormGrad()(_t(dy), _t(x), rstd, _t(gamma))

    def rms(a, g):
        return a * jax.lax.rsqrt(jnp.mean(a * a, -1, keepdims=True) + 1e-6) * g

    _, vjp = jax.vjp(rms, jnp.asarray(x), jnp.asarray(gamma))
    rx, rg = vjp(jnp.asarray(dy))
    np.testing.assert_allclose(dx.asnumpy(), rx, rtol=1e-4, atol=1e-5)
    assert dgamma.dtype == ms.float32
    np.testing.assert_allclose(dgamma.asnumpy(), rg, rtol=1e-4, atol=1e-5)
    x2 = rng.standard_normal(x.shape).astype(np.float32)
    beta = rng.standard_normal(6).astype(np.float32)
    dsum = rng.standard_normal(x.shape).astype(np.float32)
    _, mean, rstd, _ = ops.add_layer_norm(_t(x), _t(x2), _t(gamma), _t(beta))
    dx, dgamma, dbeta = ag.AddLayerNormGrad()(_t(dy), _t(x), _t(x2), rstd, mean, _t(gamma),
                                              _t(dsum))  # fmt: skip

    def aln(a, b, g, bb):
        s = a + b
        mu = s.mean(-1, keepdims=True)
        y = (s - mu) * jax.lax.rsqrt(s.var(-1, keepdims=True) + 1e-5) * g + bb
        return y, s

    _, vjp = jax.vjp(aln, *(jnp.asarray(v) for v in (x, x2, gamma, beta)))
    r1, r2, rg, rb = vjp((jnp.asarray(dy), jnp.asarray(dsum)))
    np.testing.assert_allclose(dx.asnumpy(), r1, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dx.asnumpy(), r2, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dgamma.asnumpy(), rg, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dbeta.asnumpy(), rb, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding_grad_matches_vjp(mode):
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 3, 5, 8)).astype(np.float32)
    cos, sin = rng.standard_normal((2, 1, 1, 5, 8)).astype(np.float32)
    dy = rng.standard_normal(x.shape).astype(np.float32)

    def forward(a, c, s):
        return ops.rotary_position_embedding(ms.Tensor(a), ms.Tensor(c), ms.Tensor(s), mode).jax

    _, vjp = jax.vjp(forward, jnp.asarray(x), jnp.asarray(cos), jnp.asarray(sin))
    refs = vjp(jnp.asarray(dy))
    got = ag.RotaryPositionEmbeddingGrad()(_t(dy), _t(cos), _t(sin), _t(x), mode)
    for g, r in zip(got, refs):
        np.testing.assert_allclose(g.asnumpy(), r, rtol=1e-4, atol=1e-4)
    dx, dcos, dsin = ag.RotaryPositionEmbeddingGrad()(_t(dy), _t(cos), _t(sin), None, mode)
    np.testing.assert_allclose(dx.asnumpy(), refs[0], rtol=1e-4, atol=1e-4)
    assert not dcos.asnumpy().any() and dsin.shape == sin.shape


def test_moe_permute_grads_and_grouped_matmul_add_match_vjp():
    rng = np.random.default_rng(10)
    tokens = rng.standard_normal((4, 3)).astype(np.float32)
    experts = np.array([[2, 0], [1, 2], [0, 0], [1, 1]], np.int32)
    probs = rng.random((4, 2)).astype(np.float32)
    permuted, order = ops.moe_token_permute(_t(tokens), _t(experts, ms.int32))

    def permute(t):
        return ops.moe_token_permute(ms.Tensor(t), _t(experts, ms.int32))[0].jax

    dperm = rng.standard_normal(permuted.shape).astype(np.float32)
    _, vjp = jax.vjp(permute, jnp.asarray(tokens))
    got = ag.MoeTokenPermuteGrad()(_t(dperm), order, 2, False)
    np.testing.assert_allclose(got.asnumpy(), vjp(jnp.asarray(dperm))[0], rtol=1e-5, atol=1e-6)

    def unpermute(rows, p):
        return ops.moe_token_unpermute(ms.Tensor(rows), order, ms.Tensor(p)).jax

    dout = rng.standard_normal((4, 3)).astype(np.float32)
    _, vjp = jax.vjp(unpermute, permuted.jax, jnp.asarray(probs))
    rr, rp = vjp(jnp.asarray(dout))
    gr, gp = ag.MoeTokenUnpermuteGrad()(permuted, _t(dout), order, _t(probs))
    np.testing.assert_allclose(gr.asnumpy(), rr, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gp.asnumpy(), rp, rtol=1e-5, atol=1e-6)
    # InplaceGroupedMatmulAdd is the weight gradient of the row-grouped matmul
    x = rng.standard_normal((7, 3)).astype(np.float32)
    dy = rng.standard_normal((7, 4)).astype(np.float32)
    ends = np.array([2, 2, 7], np.int64)

    def gmm(w):
        out = ag.grouped_matmul([ms.Tensor(x)], [ms.Tensor(w)], group_list=_t(ends, ms.int64),
                                split_item=3, group_type=0)[0]  # fmt: skip
        return out.jax

    _, vjp = jax.vjp(gmm, jnp.zeros((3, 3, 4), jnp.float32))
    start = ms.Parameter(_t(np.ones((3, 3, 4), np.float32)), name="acc")
    out = ag.InplaceGroupedMatmulAdd()(_t(x), _t(dy), _t(ends, ms.int64), start)
    assert out is start
    np.testing.assert_allclose(start.asnumpy(), 1 + np.asarray(vjp(jnp.asarray(dy))[0]),
                               rtol=1e-5, atol=1e-5)  # fmt: skip


def test_mindspore_paths_of_the_inference_kernels():
    from cellax.ops.function import nn_func
    from cellax.ops.operations import nn_ops

    for name in ("PagedAttention", "PagedAttentionMask", "ReshapeAndCache"):
        assert getattr(nn_ops, name) is getattr(ops, name) is getattr(ag, name)
    assert nn_func.fused_infer_attention_score is ops.fused_infer_attention_score
    for name in ("AddLayerNormV2", "FusedAddTopKDiv", "DequantSwigluQuant", "RmsNormGrad",
                 "InplaceGroupedMatmulAdd", "grouped_matmul_add_", "reshape_and_cache"):  # fmt: skip
        assert callable(getattr(ag, name)) and not hasattr(ops, name)
    assert ops.operations._grad_ops.RmsNormGrad is ag.RmsNormGrad
