"""ops.flash_attention_score / ops.FlashAttentionScore (Ascend's fused attention) against a
NumPy reference written out per head in float64: every layout, grouped key/value heads, masks,
the sparse modes, packed TND sequences, position bias, dropout bits, the primitive's softmax
statistics, gradients (eager, on the tape, and under jit) and MindSpore's argument errors."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import ops

B, N1, N2, S1, S2, D = 2, 4, 2, 5, 7, 8
SCALE = 0.3


def _data(seed=0, s1=S1, s2=S2, n2=N2):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((B, s1, N1, D)).astype(np.float32)
    k = rng.standard_normal((B, s2, n2, D)).astype(np.float32)
    v = rng.standard_normal((B, s2, n2, D)).astype(np.float32)
    return q, k, v


def reference(q, k, v, keep=None, bias=None, drop=None, keep_prob=1.0, scale=SCALE):
    """(out (B, S1, N1, D), row max, row sum) in float64; ``keep``/``bias``/``drop`` are
    (B or 1, N1 or 1, S1, S2)."""
    q, k, v = (np.asarray(t, np.float64) for t in (q, k, v))
    b, s1, n1, _ = q.shape
    s2, n2 = k.shape[1], k.shape[2]
    keep = np.ones((1, 1, s1, s2), bool) if keep is None else np.asarray(keep, bool)
    keep = np.broadcast_to(keep, (b, n1, s1, s2))
    out = np.zeros(q.shape)
    row_max = np.full((b, n1, s1), -np.inf)
    row_sum = np.zeros((b, n1, s1))
    for bi in range(b):
        for h in range(n1):
            g = h // (n1 // n2)
            scores = scale * q[bi, :, h] @ k[bi, :, g].T
            if bias is not None:
                scores = scores + np.broadcast_to(bias, (b, n1, s1, s2))[bi, h]
            for i in range(s1):
                kept = keep[bi, h, i]
                if not kept.any():
                    continue
                row = scores[i][kept]
                row_max[bi, h, i] = row.max()
                e = np.exp(row - row.max())
                row_sum[bi, h, i] = e.sum()
                p = np.zeros(s2)
                p[kept] = e / e.sum()
                if drop is not None:
                    p = np.where(np.broadcast_to(drop, (b, n1, s1, s2))[bi, h, i], p / keep_prob, 0)
                out[bi, i, h] = p @ v[bi, :, g]
    return out, row_max, row_sum


def to_layout(x, layout):
    """(B, S, N, D) -> ``layout``."""
    if layout == "BSH":
        return x.reshape(x.shape[0], x.shape[1], -1)
    if layout == "SBH":
        return x.reshape(x.shape[0], x.shape[1], -1).transpose(1, 0, 2)
    if layout == "BNSD":
        return x.transpose(0, 2, 1, 3)
    return x


def from_layout(x, layout, n):
    if layout == "BSH":
        return x.reshape(x.shape[0], x.shape[1], n, -1)
    if layout == "SBH":
        return x.transpose(1, 0, 2).reshape(x.shape[1], x.shape[0], n, -1)
    if layout == "BNSD":
        return x.transpose(0, 2, 1, 3)
    return x


def fa(q, k, v, layout="BSND", dtype=ms.float32, **kwargs):
    t = [ms.Tensor(to_layout(x, layout), dtype) for x in (q, k, v)]
    kwargs.setdefault("scalar_value", SCALE)
    out = ops.flash_attention_score(*t, N1, input_layout=layout, **kwargs)
    assert out.shape == t[0].shape and out.dtype == dtype
    return from_layout(out.astype(ms.float32).asnumpy(), layout, N1)


@pytest.mark.parametrize("layout", ["BSH", "SBH", "BNSD", "BSND"])
def test_layouts_with_grouped_heads(layout):
    q, k, v = _data()
    expected, _, _ = reference(q, k, v)
    np.testing.assert_allclose(fa(q, k, v, layout), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype, tol", [(ms.float16, 2e-3), (ms.bfloat16, 2e-2)])
def test_half_precision_inputs(dtype, tol):
    q, k, v = _data(1)
    cast = [np.asarray(ms.Tensor(x, dtype).astype(ms.float32).asnumpy()) for x in (q, k, v)]
    expected, _, _ = reference(*cast)
    np.testing.assert_allclose(fa(q, k, v, "BSH", dtype), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(S1, S2), (1, 1, S1, S2), (B, 1, S1, S2), (B, N1, S1, S2)])
@pytest.mark.parametrize("mask_dtype", [np.bool_, np.uint8])
def test_attn_mask_discards_true_positions(shape, mask_dtype):
    q, k, v = _data(2)
    rng = np.random.default_rng(3)
    discard = rng.random(shape) < 0.4
    discard[..., 0] = False  # every query keeps one key
    expected, _, _ = reference(q, k, v, keep=~np.broadcast_to(discard, (B, N1, S1, S2)))
    got = fa(q, k, v, attn_mask=ms.Tensor(discard.astype(mask_dtype)))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def _band(s1, s2, lo, hi, shift=0):
    """keep[i, j] where -lo <= j - i - shift <= hi."""
    d = np.arange(s2)[None, :] - np.arange(s1)[:, None] - shift
    return (d >= -lo) & (d <= hi)


@pytest.mark.parametrize("s1, s2", [(5, 7), (7, 5)])
def test_sparse_modes(s1, s2):
    q, k, v = _data(4, s1, s2)
    full = np.zeros((s1, s2), bool)
    opt = ms.Tensor(np.triu(np.ones((2048, 2048), bool), 1))
    cases = [
        (
            dict(sparse_mode=0, attn_mask=ms.Tensor(full), pre_tokens=1, next_tokens=2),
            _band(s1, s2, 1, 2),
        ),
        (dict(sparse_mode=1, attn_mask=ms.Tensor(full), pre_tokens=0, next_tokens=0), None),
        (dict(sparse_mode=2, attn_mask=opt), _band(s1, s2, 10**6, 0)),
        (dict(sparse_mode=3, attn_mask=opt), _band(s1, s2, 10**6, 0, s2 - s1)),
        (
            dict(sparse_mode=4, attn_mask=opt, pre_tokens=2, next_tokens=1),
            _band(s1, s2, 2, 1, s2 - s1),
        ),
    ]
    for kwargs, keep in cases:
        expected, _, _ = reference(q, k, v, keep=keep)
        np.testing.assert_allclose(fa(q, k, v, **kwargs), expected, rtol=1e-5, atol=1e-5)
    # prefix: causal from the lower right, plus the first prefix[b] keys
    prefix = [3, 0]
    keep = np.stack([_band(s1, s2, 10**6, 0, s2 - s1) | (np.arange(s2) < n)[None] for n in prefix])
    expected, _, _ = reference(q, k, v, keep=keep[:, None])
    got = fa(q, k, v, sparse_mode=5, prefix=prefix)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_no_mask_ignores_the_band_as_mindspore():
    q, k, v = _data(5)
    expected, _, _ = reference(q, k, v)
    got = fa(q, k, v, pre_tokens=0, next_tokens=0)  # sparse_mode 0 without attn_mask
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_fully_masked_query_gets_zeros():
    q, k, v = _data(6)
    discard = np.zeros((S1, S2), bool)
    discard[2] = True
    got = fa(q, k, v, attn_mask=ms.Tensor(discard))
    assert np.all(got[:, 2] == 0) and np.all(np.isfinite(got))
    expected, _, _ = reference(q, k, v, keep=~discard)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", [0, 2, 3])
def test_packed_tnd_sequences(mode):
    lq, lk = [3, 1, 4], [4, 2, 5]
    rng = np.random.default_rng(7)
    q = rng.standard_normal((sum(lq), N1, D)).astype(np.float32)
    k = rng.standard_normal((sum(lk), N2, D)).astype(np.float32)
    v = rng.standard_normal((sum(lk), N2, D)).astype(np.float32)
    kwargs = {}
    if mode:
        kwargs = dict(
            sparse_mode=mode, attn_mask=ms.Tensor(np.triu(np.ones((2048, 2048), bool), 1))
        )
    out = ops.flash_attention_score(
        *(ms.Tensor(x) for x in (q, k, v)),
        N1,
        actual_seq_qlen=list(np.cumsum(lq)),
        actual_seq_kvlen=ms.Tensor(np.cumsum(lk).astype(np.int64)),
        scalar_value=SCALE,
        input_layout="TND",
        **kwargs,
    ).asnumpy()
    cq, ck = np.cumsum([0, *lq]), np.cumsum([0, *lk])
    for i in range(3):
        qs, ks = slice(cq[i], cq[i + 1]), slice(ck[i], ck[i + 1])
        keep = None
        if mode == 2:
            keep = _band(lq[i], lk[i], 10**6, 0)
        elif mode == 3:
            keep = _band(lq[i], lk[i], 10**6, 0, lk[i] - lq[i])
        expected, _, _ = reference(q[None, qs], k[None, ks], v[None, ks], keep=keep)
        np.testing.assert_allclose(out[qs], expected[0], rtol=1e-5, atol=1e-5)


def test_real_shift_is_added_to_the_scaled_scores():
    q, k, v = _data(8)
    bias = np.random.default_rng(9).standard_normal((1, N1, S1, S2)).astype(np.float32)
    expected, _, _ = reference(q, k, v, bias=bias)
    got = fa(q, k, v, real_shift=ms.Tensor(bias))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_dropout_from_drop_mask_bits():
    q, k, v = _data(10)
    rng = np.random.default_rng(11)
    keep = rng.random((B, N1, S1, S2)) < 0.6
    padded = np.concatenate([keep, np.zeros((B, N1, S1, 1), bool)], -1)  # S2 = 7 -> 8 bits
    bits = np.packbits(padded, axis=-1, bitorder="little")
    assert bits.shape == (B, N1, S1, 1)
    expected, _, _ = reference(q, k, v, drop=keep, keep_prob=0.6)
    got = fa(q, k, v, drop_mask=ms.Tensor(bits), keep_prob=0.6)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_random_dropout_keeps_whole_probabilities_and_follows_the_seed():
    s2 = 16
    q = np.zeros((1, 3, N1, D), np.float32)  # uniform attention: each key weighs 1 / s2
    k = np.zeros((1, s2, N2, D), np.float32)
    v = np.ones((1, s2, N2, D), np.float32)

    def run():
        return ops.flash_attention_score(
            *(ms.Tensor(x) for x in (q, k, v)), N1, keep_prob=0.5, input_layout="BSND"
        ).asnumpy()

    ms.set_seed(3)
    first = run()
    kept = first * s2 * 0.5  # each entry counts the keys its row kept
    np.testing.assert_allclose(kept, np.round(kept), atol=1e-4)
    assert 0 < kept.mean() < s2 and len(np.unique(kept)) > 1
    ms.set_seed(3)
    np.testing.assert_array_equal(run(), first)


def test_primitive_returns_softmax_statistics():
    q, k, v = _data(12)
    discard = np.zeros((S1, S2), bool)
    discard[:, -2:] = True
    expected, row_max, row_sum = reference(q, k, v, keep=~discard)
    prim = ops.FlashAttentionScore(N1, scale_value=SCALE, input_layout="BNSD")
    t = [ms.Tensor(to_layout(x, "BNSD")) for x in (q, k, v)]
    got_max, got_sum, placeholder, out = prim(*t, None, None, None, ms.Tensor(discard))
    assert got_max.shape == got_sum.shape == (B, N1, S1, 8)
    assert got_max.dtype == ms.float32 and placeholder.shape == ()
    np.testing.assert_allclose(got_max.asnumpy(), np.repeat(row_max[..., None], 8, -1), rtol=1e-5)
    np.testing.assert_allclose(got_sum.asnumpy(), np.repeat(row_sum[..., None], 8, -1), rtol=1e-5)
    np.testing.assert_allclose(from_layout(out.asnumpy(), "BNSD", N1), expected, atol=1e-5)
    assert prim.head_num == N1 and prim.input_layout == "BNSD"


def _jnp_attention(q, k, v, keep):
    """A plain jnp attention in (B, S, N, D) to differentiate against."""
    k = jnp.repeat(k, N1 // N2, axis=2)
    v = jnp.repeat(v, N1 // N2, axis=2)
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) * SCALE
    scores = jnp.where(keep, scores, -1e30)
    return jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, -1), v)


@pytest.mark.parametrize("tape", [True, False])
def test_gradients_match_plain_attention(tape):
    q, k, v = _data(13)
    discard = np.triu(np.ones((S1, S2), bool), 3)
    w = np.random.default_rng(14).standard_normal(q.shape).astype(np.float32)

    def loss(q, k, v):
        out = ops.flash_attention_score(
            q, k, v, N1, attn_mask=ms.Tensor(discard), scalar_value=SCALE, input_layout="BSND"
        )
        return (out * ms.Tensor(w)).sum()

    def expected_loss(q, k, v):
        return (_jnp_attention(q, k, v, ~discard) * w).sum()

    expected = jax.grad(expected_loss, argnums=(0, 1, 2))(q, k, v)
    ms.set_context(pynative_grad_tape=tape)
    try:
        eager = ms.grad(loss, grad_position=(0, 1, 2))(*(ms.Tensor(x) for x in (q, k, v)))
    finally:
        ms.set_context(pynative_grad_tape=True)
    compiled = ms.jit(ms.grad(loss, grad_position=(0, 1, 2)))(*(ms.Tensor(x) for x in (q, k, v)))
    for got in (eager, compiled):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.asnumpy(), np.asarray(e), rtol=1e-4, atol=1e-5)


def test_mindone_style_primitive_call_under_jit():
    q, k, v = _data(15, n2=N1)
    discard = np.zeros((B, 1, S1, S2), bool)
    discard[1, :, :, 4:] = True
    prim = ops.operations.nn_ops.FlashAttentionScore(
        head_num=N1, keep_prob=1.0, scale_value=SCALE, input_layout="BNSD"
    )

    @ms.jit
    def attend(q, k, v, mask):
        return prim(q, k, v, None, None, None, mask)[3]

    t = [ms.Tensor(to_layout(x, "BNSD"), ms.float16) for x in (q, k, v)]
    out = attend(*t, ms.Tensor(discard))
    cast = [t_.astype(ms.float32).asnumpy().transpose(0, 2, 1, 3) for t_ in t]
    expected, _, _ = reference(*cast, keep=~discard)
    got = from_layout(out.astype(ms.float32).asnumpy(), "BNSD", N1)
    np.testing.assert_allclose(got, expected, rtol=2e-3, atol=2e-3)


def _call(**overrides):
    q = ms.Tensor(np.ones((B, S1, N1 * D), np.float32))
    k = ms.Tensor(np.ones((B, S2, N2 * D), np.float32))
    args = dict(query=q, key=k, value=k, head_num=N1)
    args.update(overrides)
    return ops.flash_attention_score(**args)


@pytest.mark.parametrize(
    "overrides, error, text",
    [
        (dict(query=3), TypeError, "'query' must be a Tensor"),
        (dict(query=ms.Tensor(np.ones((B, S1, N1 * D), np.int32))), TypeError, "float16, bfloat16"),
        (dict(value=ms.Tensor(np.ones((B, S2, N2 * D), np.float16))), TypeError, "same dtype"),
        (dict(input_layout=1), TypeError, "'input_layout' must be a str"),
        (dict(input_layout="BHS"), ValueError, "'input_layout' must be one of"),
        (dict(input_layout="BNSD"), ValueError, "must be 4-D"),
        (dict(head_num=0), RuntimeError, "'head_num' must be greater than 0"),
        (dict(head_num=3), RuntimeError, "divisible by 'head_num'"),
        (dict(head_num=2.0), TypeError, "head_num"),
        (dict(attn_mask=ms.Tensor(np.zeros((S1, S2), np.float32))), TypeError, "bool or uint8"),
        (
            dict(attn_mask=ms.Tensor(np.zeros((S2, S1), bool))),
            RuntimeError,
            "'attn_mask' must have one of the shapes",
        ),
        (  # mindone's Llama without attention_mask: one key column too many
            dict(attn_mask=ms.Tensor(np.zeros((B, 1, S1, S2 + 1), bool))),
            RuntimeError,
            "must be cut to them first",
        ),
        (
            dict(sparse_mode=2, attn_mask=ms.Tensor(np.zeros((S1, S2), bool))),
            RuntimeError,
            "(2048, 2048)",
        ),
        (dict(sparse_mode=1), RuntimeError, "sparse_mode 1 needs"),
        (dict(sparse_mode=7), RuntimeError, "'sparse_mode' must be 0 to 5"),
        (dict(sparse_mode=5), RuntimeError, "needs 'prefix'"),
        (dict(keep_prob=0.0), ValueError, "'keep_prob' must be in (0, 1]"),
        (dict(keep_prob="1"), TypeError, "'keep_prob' must be a float"),
        (dict(padding_mask=ms.Tensor(np.zeros(1))), RuntimeError, "'padding_mask' is reserved"),
        (
            dict(real_shift=ms.Tensor(np.zeros((B, N1, S1, S2), np.float16))),
            TypeError,
            "'real_shift'",
        ),
        (
            dict(real_shift=ms.Tensor(np.zeros((B, N1, 1024, S2), np.float32))),
            RuntimeError,
            "compressed",
        ),
        (dict(input_layout="TND"), RuntimeError, "must equal the query's head count"),
    ],
)
def test_bad_arguments(overrides, error, text):
    with pytest.raises(error, match=None) as info:
        _call(**overrides)
    assert text in str(info.value) and "flash_attention_score" in str(info.value)


def test_tnd_needs_consistent_lengths():
    q = ms.Tensor(np.ones((6, N1, D), np.float32))
    k = ms.Tensor(np.ones((6, N2, D), np.float32))
    with pytest.raises(RuntimeError, match="are required with input_layout 'TND'"):
        ops.flash_attention_score(q, k, k, N1, input_layout="TND")
    with pytest.raises(RuntimeError, match="end at the token counts 6 and 6"):
        ops.flash_attention_score(
            q, k, k, N1, input_layout="TND", actual_seq_qlen=[2, 5], actual_seq_kvlen=[3, 6]
        )
    with pytest.raises(RuntimeError, match="non-decreasing"):
        ops.flash_attention_score(
            q, k, k, N1, input_layout="TND", actual_seq_qlen=[4, 2, 6], actual_seq_kvlen=[2, 4, 6]
        )
