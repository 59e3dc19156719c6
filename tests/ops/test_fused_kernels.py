"""Ascend's fused kernels on XLA against float64 NumPy references (MindSpore 2.10 CPU cannot
run them): grouped matmul (every mode, antiquant, per-token quant), the MoE routing kernels,
rotary embedding (``rotary_position_embedding``, ``ApplyRotaryPosEmb``) and RMS norm, with
gradients through ``ms.grad``, runs under ``ms.jit`` and MindSpore's argument errors. Where
MindSpore's docs print a result, the test checks that example too."""

from __future__ import annotations

import numpy as np
import pytest

import cellax as ms
from cellax import ops
from cellax.ops import auto_generate as ag


def _rng(seed=0):
    return np.random.default_rng(seed)


def _t(a, dtype=ms.float32):
    return ms.Tensor(np.asarray(a), dtype)


# grouped matmul -------------------------------------------------------------------------------


def _grouped_reference(x, w, ends, bias=None):
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    out = np.zeros((x.shape[0], w.shape[2]))
    start = 0
    for e, end in enumerate(ends):
        out[start:end] = x[start:end] @ w[e]
        if bias is not None:
            out[start:end] += bias[e]
        start = end
    return out


def test_grouped_matmul_matches_mindspore_docs_example():
    x = np.repeat([[0], [1], [2], [2], [1], [1]], 4, axis=1)
    w = np.arange(32).reshape(4, 4, 2)
    y = ag.GroupedMatmul(3, 0)(
        [_t(x, ms.float16)], [_t(w, ms.float16)], None, None, None, None, None,
        _t([1, 3, 4, 6], ms.int64),
    )  # fmt: skip
    expected = [[0, 0], [44, 48], [88, 96], [152, 160], [108, 112], [108, 112]]
    assert isinstance(y, tuple) and y[0].dtype == ms.float16
    assert y[0].asnumpy().tolist() == expected
    sizes = _t([1, 2, 1, 2], ms.int64)
    y4 = ag.grouped_matmul_v4(
        [_t(x, ms.float16)], [_t(w, ms.float16)], group_list=sizes, split_item=3, group_type=0,
        group_list_type=1,
    )  # fmt: skip
    assert y4[0].asnumpy().tolist() == expected


@pytest.mark.parametrize("use_jit", [False, True])
def test_grouped_matmul_split_item_3_values_and_gradients(use_jit):
    rng = _rng(1)
    x = rng.standard_normal((7, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 4)).astype(np.float32)
    bias = rng.standard_normal((3, 4)).astype(np.float32)
    ends = [2, 2, 6]  # an empty group, and a row past the last group
    dy = rng.standard_normal((7, 4)).astype(np.float32)

    def loss(x, w, b, group_list):
        y = ag.GroupedMatmul(split_item=3, group_type=0)([x], [w], [b], group_list=group_list)[0]
        return (y * _t(dy)).sum()

    fn = ms.grad(loss, grad_position=(0, 1, 2))
    if use_jit:
        fn = ms.jit(fn)
    dx, dw, db = fn(_t(x), _t(w), _t(bias), _t(ends, ms.int64))
    ref = _grouped_reference(x, w, ends, bias)
    y = ag.grouped_matmul([_t(x)], [_t(w)], [_t(bias)], group_list=_t(ends, ms.int64),
                          split_item=3, group_type=0)[0]  # fmt: skip
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    assert np.all(y.asnumpy()[6] == 0)
    groups = [(0, 2), (2, 2), (2, 6)]
    ref_dx, ref_dw, ref_db = np.zeros(x.shape), np.zeros(w.shape), np.zeros(bias.shape)
    for e, (lo, hi) in enumerate(groups):
        ref_dx[lo:hi] = dy[lo:hi].astype(np.float64) @ w[e].T
        ref_dw[e] = x[lo:hi].T.astype(np.float64) @ dy[lo:hi]
        ref_db[e] = dy[lo:hi].sum(0)
    for got, want in ((dx, ref_dx), (dw, ref_dw), (db, ref_db)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_grouped_matmul_split_item_0_lists_transposes_and_antiquant():
    rng = _rng(2)
    xs = [rng.standard_normal((2, 5, 3)), rng.standard_normal((4, 2))]
    ws = [rng.standard_normal((6, 3)), rng.standard_normal((5, 2))]  # transposed: (N, K)
    bs = [rng.standard_normal(6), rng.standard_normal(5)]
    out = ag.grouped_matmul(
        [_t(a) for a in xs], [_t(a) for a in ws], [_t(a) for a in bs], transpose_b=True
    )
    for got, a, w, b in zip(out, xs, ws, bs):
        np.testing.assert_allclose(got.asnumpy(), a @ w.T + b, rtol=1e-5, atol=1e-5)
    dxs = ms.grad(lambda a: ag.grouped_matmul([a], [_t(ws[1])], transpose_b=True)[0].sum())(
        _t(xs[1])
    )
    np.testing.assert_allclose(dxs.asnumpy(), np.ones((4, 5)) @ ws[1], rtol=1e-5, atol=1e-5)
    # int8 weights dequantised as (w + offset) * scale, one value per output column
    w8 = rng.integers(-5, 5, (3, 4)).astype(np.int8)
    scale, offset = rng.random(4) + 0.5, rng.standard_normal(4)
    x = rng.standard_normal((2, 3))
    got = ag.grouped_matmul(
        [_t(x, ms.float16)], [_t(w8, ms.int8)], antiquant_scale=[_t(scale, ms.float16)],
        antiquant_offset=[_t(offset, ms.float16)],
    )[0]  # fmt: skip
    ref = x @ ((w8 + offset) * scale)
    np.testing.assert_allclose(got.asnumpy().astype(np.float64), ref, rtol=2e-2, atol=2e-2)


def test_grouped_matmul_v4_per_token_quant_and_v2_list():
    rng = _rng(3)
    x = rng.integers(-8, 8, (5, 4)).astype(np.int8)
    w = rng.integers(-8, 8, (2, 4, 3)).astype(np.int8)
    scale = rng.random((2, 3)).astype(np.float32)
    token_scale = rng.random(5).astype(np.float32)
    y = ag.GroupedMatmulV4()(
        [_t(x, ms.int8)], [_t(w, ms.int8)], None, [_t(scale)], None, None, None,
        [_t(token_scale)], _t([2, 3], ms.int64), split_item=3, group_type=0, group_list_type=1,
        output_dtype=ms.float32,
    )[0]  # fmt: skip
    ref = _grouped_reference(x, w, [2, 5])
    ref = ref * np.concatenate([np.repeat(scale[:1], 2, 0), np.repeat(scale[1:], 3, 0)])
    ref = ref * token_scale[:, None]
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-5)
    xf, wf = rng.standard_normal((5, 4)), rng.standard_normal((2, 4, 3))
    y2 = ag.GroupedMatmulV2()([_t(xf)], [_t(wf)], group_list=[1, 5], split_item=3, group_type=0)
    np.testing.assert_allclose(y2[0].asnumpy(), _grouped_reference(xf, wf, [1, 5]), rtol=1e-5)


def test_grouped_matmul_errors():
    x, w = ops.ones((4, 3)), ops.ones((2, 3, 2))
    with pytest.raises(TypeError, match="'group_type' must be 0 when 'split_item' is 3"):
        ag.GroupedMatmul(3, -1)([x], [w], group_list=_t([1, 4], ms.int64))
    with pytest.raises(TypeError, match="'split_item' must be 0 or 3"):
        ag.GroupedMatmul(1, -1)([x], [ops.ones((3, 2))])
    with pytest.raises(TypeError, match="'group_list' is required"):
        ag.GroupedMatmul(3, 0)([x], [w])
    with pytest.raises(ValueError, match="non-decreasing"):
        ag.GroupedMatmul(3, 0)([x], [w], group_list=_t([3, 1], ms.int64))
    with pytest.raises(ValueError, match="one entry per expert"):
        ag.GroupedMatmul(3, 0)([x], [w], group_list=_t([1, 2, 4], ms.int64))
    with pytest.raises(NotImplementedError, match="A8W8"):
        ag.GroupedMatmul()([x], [ops.ones((3, 2))], scale=[ops.ones(2)])
    with pytest.raises(ValueError, match="must be 2-D and match"):
        ag.GroupedMatmul()([x], [ops.ones((4, 2))])


# MoE routing ----------------------------------------------------------------------------------


def test_moe_token_permute_unpermute_match_reference_and_docs():
    tokens = _t([[1, 1, 1], [7, 7, 7], [2, 2, 2], [1, 1, 1], [2, 2, 2], [3, 3, 3]])
    out, order = ops.moe_token_permute(tokens, _t([5, 0, 3, 1, 2, 4], ms.int32))
    assert out.asnumpy()[:, 0].tolist() == [7, 1, 2, 2, 3, 1]
    assert order.asnumpy().tolist() == [5, 0, 3, 1, 2, 4] and order.dtype == ms.int32
    rng = _rng(4)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    experts = rng.integers(0, 3, (5, 2)).astype(np.int32)
    probs = rng.random((5, 2)).astype(np.float32)
    permuted, order = ag.MoeTokenPermute()(_t(x), _t(experts, ms.int32))
    flat = experts.reshape(-1)
    slots = np.argsort(flat, kind="stable")
    np.testing.assert_array_equal(permuted.asnumpy(), x[slots // 2])
    np.testing.assert_array_equal(np.sort(flat)[order.asnumpy()], flat)
    merged = ops.moe_token_unpermute(permuted, order, _t(probs))
    np.testing.assert_allclose(merged.asnumpy(), x * probs.sum(1, keepdims=True), rtol=1e-6)
    assert ops.moe_token_permute(_t(x), _t(experts, ms.int32), 4)[0].shape == (4, 3)

    def loss(x, p):
        permuted, order = ops.moe_token_permute(x, _t(experts, ms.int32))
        return (ops.moe_token_unpermute(permuted * 2.0, order, p) ** 2).sum()

    dx, dp = ms.jit(ms.grad(loss, grad_position=(0, 1)))(_t(x), _t(probs))
    s = probs.sum(1, keepdims=True).astype(np.float64)
    np.testing.assert_allclose(dx.asnumpy(), 8 * x * s**2, rtol=1e-5)
    np.testing.assert_allclose(dp.asnumpy(), (8 * s * (x**2).sum(1, keepdims=True)).repeat(2, 1),
                               rtol=1e-5)  # fmt: skip
    with pytest.raises(ValueError, match="'padded_mode' can only be False"):
        ops.moe_token_permute(_t(x), _t(experts, ms.int32), padded_mode=True)


def test_moe_init_routing_v2_matches_mindspore_docs():
    x = np.array([[0.1, 0.2, 0.3], [0.2, 0.7, 0.8], [0.3, 0.3, 0.5]], np.float32)
    experts = _t([[0, 1, 1], [2, 1, 1], [0, 0, 0]], ms.int32)
    out, rows = ops.moe_init_routing_v2(_t(x), experts, 3, 2, 3, 1, 0, False)
    np.testing.assert_allclose(out.asnumpy(), [[x[0], x[2]], [x[0], x[0]], [x[1], 0 * x[1]]])
    assert rows.asnumpy().tolist() == [0, 2, 3, 4, -1, -1, 1, -1, -1]
    *_, before = ops.moe_init_routing_v2(_t(x), experts, 3, 2, 3, 1, 0, True)
    assert before.asnumpy().tolist() == [4, 4, 1]
    out, rows, counts = ag.MoeInitRoutingV2()(_t(x), experts, 0, 0, 3, 0, 2, False)[:3]
    assert counts.asnumpy().tolist() == [4, 4, 1]
    order = np.argsort(np.array([0, 1, 1, 2, 1, 1, 0, 0, 0]), kind="stable")
    np.testing.assert_array_equal(out.asnumpy(), x[order // 3])
    assert ops.moe_init_routing_v2(_t(x), experts, 0, 0, 3, 0, 1, False)[2].asnumpy().tolist() == [
        4, 8, 9,
    ]  # fmt: skip
    active, rows = ops.moe_init_routing_v2(_t(x), experts, 4, 0, 3, 0, 0, False)
    assert active.shape == (4, 3) and int((rows.asnumpy() >= 0).sum()) == 4


def test_moe_init_and_finalize_routing_round_trip_with_gradients():
    rng = _rng(5)
    n, k, h, e = 4, 2, 3, 3
    x = rng.standard_normal((n, h)).astype(np.float32)
    experts = rng.integers(0, e, (n, k)).astype(np.int32)
    row_idx = np.arange(n * k, dtype=np.int32).reshape(k, n).T
    scales = rng.random((n, k)).astype(np.float32)
    bias = rng.standard_normal((e, h)).astype(np.float32)
    expanded, rows, sorted_experts = ag.MoeInitRouting()(
        _t(x), _t(row_idx, ms.int32), _t(experts, ms.int32), n
    )
    assert sorted_experts.asnumpy().tolist() == sorted(experts.ravel().tolist())
    assert ag.MoeComputeExpertTokens()(sorted_experts, e).asnumpy().tolist() == [
        int((experts <= i).sum()) for i in range(e)
    ]

    def merge(expanded, x1, scales):
        return ag.MoeFinalizeRouting()(
            expanded, x1, None, _t(bias), scales, rows, _t(experts, ms.int32)
        )

    out = merge(expanded, _t(x), _t(scales))
    ref = x + sum(scales[:, [j]] * (x + bias[experts[:, j]]) for j in range(k))
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    dexp, dx1, dscales = ms.grad(lambda *a: merge(*a).sum(), grad_position=(0, 1, 2))(
        expanded, _t(x), _t(scales)
    )
    np.testing.assert_allclose(dx1.asnumpy(), np.ones((n, h)))
    ref_ds = np.stack([(x + bias[experts[:, j]]).sum(1) for j in range(k)], 1)
    np.testing.assert_allclose(dscales.asnumpy(), ref_ds, rtol=1e-5, atol=1e-6)
    positions = rows.asnumpy().reshape(k, n).T  # token i's j-th copy sits at positions[i, j]
    ref_dexp = np.zeros((n * k, h))
    ref_dexp[positions.ravel()] = np.repeat(scales.ravel()[:, None], h, 1)
    np.testing.assert_allclose(dexp.asnumpy(), ref_dexp, rtol=1e-6)


def test_moe_finalize_routing_matches_mindspore_docs():
    expanded = np.repeat([[0.1], [0.2], [0.3], [0.1], [0.2], [0.3]], 4, 1)
    x1 = np.repeat([[1.0], [0.2], [0.3]], 4, 1)
    bias = np.repeat([[0.1], [0.2], [0.3], [0.4]], 4, 1)
    out = ag.moe_finalize_routing(
        _t(expanded, ms.float16), _t(x1, ms.float16), None, _t(bias, ms.float16),
        _t([[0.7, 0.3], [0.8, 0.2], [0.8, 0.2]], ms.float16), _t([2, 3, 1, 0, 5, 4], ms.int32),
        _t([[0, 1], [0, 2], [1, 3]], ms.int32),
    )  # fmt: skip
    np.testing.assert_allclose(out.asnumpy()[:, 0], [1.37, 0.48, 0.74], atol=2e-3)


def test_moe_gating_top_k_softmax_matches_mindspore_docs():
    x = np.array(
        [[0.1, 0.2, 0.1, 0.1], [0.2, 0.2, 0.4, 0.2], [0.3, 0.3, 0.1, 0.3], [0.1, 0.7, 0.1, 0.1]]
    )
    from cellax.ops.operations import _infer_ops

    y, experts, rows = _infer_ops.MoeGatingTopKSoftmax()(
        _t(x, ms.float16), _t([True] * 4, ms.bool_), k=4
    )
    expected = [
        [0.2693, 0.2437, 0.2437, 0.2437],
        [0.2893, 0.2369, 0.2369, 0.2369],
        [0.262, 0.262, 0.262, 0.2144],
        [0.378, 0.2074, 0.2074, 0.2074],
    ]
    np.testing.assert_allclose(y.asnumpy(), expected, atol=1e-3)
    assert experts.asnumpy().tolist() == [[4] * 4] * 4  # finished rows: no expert
    y, experts, rows = ag.MoeGatingTopKSoftmax()(_t(x), None, 2)
    probs = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    np.testing.assert_allclose(y.asnumpy(), -np.sort(-probs, 1)[:, :2], rtol=1e-6)
    assert experts.asnumpy()[:, 0].tolist() == probs.argmax(1).tolist()
    assert rows.asnumpy().tolist() == [[0, 4], [1, 5], [2, 6], [3, 7]]


# rotary embedding -----------------------------------------------------------------------------


def _rotary_reference(x, cos, sin, interleaved):
    x = np.asarray(x, np.float64)
    if interleaved:
        rotated = np.stack([-x[..., 1::2], x[..., 0::2]], -1).reshape(x.shape)
    else:
        half = x.shape[-1] // 2
        rotated = np.concatenate([-x[..., half:], x[..., :half]], -1)
    return x * cos + rotated * sin


@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding_values_and_gradients(mode):
    rng = _rng(6)
    x = rng.standard_normal((2, 3, 5, 8)).astype(np.float32)  # BNSD
    angles = rng.standard_normal((1, 1, 5, 8))
    cos, sin = np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)
    rope = ag.RotaryPositionEmbedding()
    got = rope(_t(x), _t(cos), _t(sin), mode)
    np.testing.assert_allclose(got.asnumpy(), _rotary_reference(x, cos, sin, mode), rtol=1e-5,
                               atol=1e-6)  # fmt: skip
    dy = rng.standard_normal(x.shape)

    def loss(x, c, s):
        return (ops.rotary_position_embedding(x, c, s, mode) * _t(dy)).sum()

    dx, dc, ds = ms.jit(ms.grad(loss, grad_position=(0, 1, 2)))(_t(x), _t(cos), _t(sin))
    # the map is linear in x: its gradient is the transpose of the rotation
    basis = np.eye(8)
    rot = _rotary_reference(basis, 0.0, 1.0, mode)  # row i: rotate(e_i)
    ref_dx = dy * cos + (dy * sin) @ rot.T
    np.testing.assert_allclose(dx.asnumpy(), ref_dx, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dc.asnumpy(), (dy * x).sum((0, 1), keepdims=True), rtol=1e-5,
                               atol=1e-5)  # fmt: skip
    ref_ds = (dy * _rotary_reference(x, 0.0, 1.0, mode)).sum((0, 1), keepdims=True)
    np.testing.assert_allclose(ds.asnumpy(), ref_ds, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="'mode' must be 0 or 1"):
        ops.rotary_position_embedding(_t(x), _t(cos), _t(sin), 2)


@pytest.mark.parametrize("cos_format", [2, 3])
def test_apply_rotary_pos_emb_prefill_and_decode_layouts(cos_format):
    rng = _rng(7)
    b, s, nq, nk, d = 2, 3, 4, 2, 6
    table = rng.standard_normal((10, d))
    cos, sin = np.cos(table).astype(np.float32), np.sin(table).astype(np.float32)
    q = rng.standard_normal((b, s, nq * d)).astype(np.float32)
    k = rng.standard_normal((b, s, nk * d)).astype(np.float32)
    op = ops.ApplyRotaryPosEmb(cos_format)
    lengths = _t([s] * b, ms.int32)
    q_out, k_out = op(_t(q), _t(k), _t(cos), _t(sin), lengths)  # prefill: row = position
    for got, data, heads in ((q_out, q, nq), (k_out, k, nk)):
        ref = _rotary_reference(
            data.reshape(b, s, heads, d), cos[:s, None], sin[:s, None], cos_format == 3
        )
        np.testing.assert_allclose(got.asnumpy(), ref.reshape(data.shape), rtol=1e-5, atol=1e-6)
    # decode: one token per sequence, cos/sin gathered per token; 2-D (tokens, hidden) input
    positions = np.array([4, 7])
    q2 = rng.standard_normal((b, nq * d)).astype(np.float32)
    q_out, _ = op(_t(q2), _t(q2), _t(cos[positions]), _t(sin[positions]), lengths)
    ref = _rotary_reference(
        q2.reshape(b, nq, d), cos[positions][:, None], sin[positions][:, None], cos_format == 3
    )
    np.testing.assert_allclose(q_out.asnumpy(), ref.reshape(q2.shape), rtol=1e-5, atol=1e-6)
    # BSND input, differentiable, under jit
    q4 = q.reshape(b, s, nq, d)
    dq = ms.jit(ms.grad(lambda a: op(a, _t(k), _t(cos), _t(sin), lengths)[0].sum()))(_t(q4))
    ones = np.ones(d)
    rot = _rotary_reference(np.eye(d), 0.0, 1.0, cos_format == 3)
    ref_dq = cos[:s, None] * ones + (sin[:s, None] * ones) @ rot.T
    np.testing.assert_allclose(dq.asnumpy(), np.broadcast_to(ref_dq, q4.shape), rtol=1e-5,
                               atol=1e-6)  # fmt: skip
    with pytest.raises(ValueError, match="'cos_format' must be 0, 1, 2 or 3"):
        ops.ApplyRotaryPosEmb(4)(_t(q), _t(k), _t(cos), _t(sin), lengths)
    with pytest.raises(ValueError, match="a row per token"):
        op(_t(q), _t(k), _t(cos[:2]), _t(sin[:2]), lengths)


# RMS norm -------------------------------------------------------------------------------------


def test_rms_norm_over_gamma_dims_with_gradients():
    rng = _rng(8)
    x = rng.standard_normal((3, 2, 4)).astype(np.float32)
    gamma = rng.standard_normal((2, 4)).astype(np.float32)
    eps = 1e-6

    def reference(x, g):
        x = x.astype(np.float64)
        rstd = 1 / np.sqrt((x**2).mean((1, 2), keepdims=True) + eps)
        return x * rstd * g, rstd

    y, rstd = ops.RmsNorm(eps)(_t(x), _t(gamma))
    ref_y, ref_rstd = reference(x, gamma)
    assert rstd.shape == (3, 1, 1)
    np.testing.assert_allclose(y.asnumpy(), ref_y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), ref_rstd, rtol=1e-5)
    dy = rng.standard_normal(x.shape)
    dx, dg = ms.jit(ms.grad(lambda a, g: (ops.rms_norm(a, g)[0] * _t(dy)).sum(), (0, 1)))(
        _t(x), _t(gamma)
    )
    # d/dx of x * r * g with r = (mean(x^2) + eps)^-1/2: g*r*dy - x * r^3 * mean(x * g * dy)
    xf = x.astype(np.float64)
    m = (xf * gamma * dy).sum((1, 2), keepdims=True) / 8
    ref_dx = gamma * ref_rstd * dy - xf * ref_rstd**3 * m
    np.testing.assert_allclose(dx.asnumpy(), ref_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dg.asnumpy(), (xf * ref_rstd * dy).sum(0), rtol=1e-5, atol=1e-5)
    y, rstd, total = ag.AddRmsNorm()(_t(x), _t(x), _t(gamma))
    np.testing.assert_allclose(y.asnumpy(), reference(2 * x, gamma)[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(total.asnumpy(), 2 * x)
    with pytest.raises(ValueError, match="trailing dimensions"):
        ops.rms_norm(_t(x), _t(gamma.T))


def test_mindspore_paths_of_the_fused_kernels():
    import cellax.ops.operations as P
    from cellax.ops.operations import _infer_ops, nn_ops

    assert P.RmsNorm is nn_ops.RmsNorm is ops.RmsNorm is ag.RmsNorm
    assert P.ApplyRotaryPosEmb is ops.ApplyRotaryPosEmb is ag.ApplyRotaryPosEmb
    assert _infer_ops.GroupedMatmul is ag.GroupedMatmul
    assert ag.moe_token_permute is ops.moe_token_permute


# inference attention --------------------------------------------------------------------------


def _attention_reference(q, k, v, scale, keep):
    """q (B, N, S1, D), k/v (B, N, S2, D), keep (B, 1, S1, S2) -> (B, N, S1, D) in float64."""
    scores = scale * np.einsum("bnsd,bntd->bnst", q, k).astype(np.float64)
    scores = np.where(keep, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = np.nan_to_num(weights / weights.sum(-1, keepdims=True))
    return np.einsum("bnst,bntd->bnsd", weights, v)


def test_prompt_and_incre_flash_attention_with_valid_lengths():
    rng = _rng(9)
    b, n, s, d = 2, 2, 4, 3
    q, k, v = (rng.standard_normal((b, n, s, d)).astype(np.float32) for _ in range(3))
    kv_lengths = [3, 4]
    keep = np.arange(s)[None, None, None, :] < np.array(kv_lengths)[:, None, None, None]
    out = ops.prompt_flash_attention(
        _t(q), _t(k), _t(v), actual_seq_lengths_kv=kv_lengths, num_heads=n, scale_value=0.5,
        input_layout="BNSD",
    )  # fmt: skip
    ref = _attention_reference(q, k, v, 0.5, np.broadcast_to(keep, (b, 1, s, s)))
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    causal = np.triu(np.ones((s, s), bool), 1)
    out = ops.prompt_flash_attention(
        _t(q), _t(k), _t(v), attn_mask=_t(causal, ms.bool_), num_heads=n, input_layout="BNSD"
    )
    np.testing.assert_allclose(out.asnumpy(), _attention_reference(q, k, v, 1.0, ~causal),
                               rtol=1e-5, atol=1e-5)  # fmt: skip
    # one decoding step, BSH, with the cache valid up to each batch's length
    q1 = q[:, :, :1]
    bsh = lambda a: _t(a.transpose(0, 2, 1, 3).reshape(b, a.shape[2], n * d))  # noqa: E731
    dq = ms.grad(
        lambda x: ops.incre_flash_attention(
            x, [bsh(k)], [bsh(v)], actual_seq_lengths=kv_lengths, num_heads=n
        ).sum()
    )
    step = ops.incre_flash_attention(bsh(q1), [bsh(k)], [bsh(v)], actual_seq_lengths=kv_lengths,
                                     num_heads=n)  # fmt: skip
    ref = _attention_reference(q1, k, v, 1.0, keep)
    np.testing.assert_allclose(step.asnumpy(), ref.transpose(0, 2, 1, 3).reshape(b, 1, n * d),
                               rtol=1e-5, atol=1e-5)  # fmt: skip
    assert np.isfinite(ms.jit(dq)(bsh(q1)).asnumpy()).all()
    with pytest.raises(NotImplementedError, match="quantised or paged"):
        ops.incre_flash_attention(bsh(q1), bsh(k), bsh(v), block_table=_t([[0]], ms.int32))
