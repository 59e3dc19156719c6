import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get, ids, params, set_params
except ImportError:
    from _goldens import cases, get, ids, params, set_params

MHA = cases("mha")


@pytest.mark.parametrize("case", MHA, ids=ids(MHA))
def test_mha_matches_mindspore(case):
    net = nn.MultiheadAttention(**case["kwargs"])
    set_params(net, params(case))
    call = {}
    if case["extra"].get("key_padding_mask"):
        mask = np.zeros((2, 5), bool)
        mask[0, -2:] = True
        call["key_padding_mask"] = ms.Tensor(mask)
    if "average_attn_weights" in case["extra"]:
        call["average_attn_weights"] = case["extra"]["average_attn_weights"]
    out, weights = net(
        ms.Tensor(get(case, "q")), ms.Tensor(get(case, "k")), ms.Tensor(get(case, "v")), **call
    )
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), get(case, "weights"), rtol=1e-4, atol=1e-5)


def test_mha_parameter_names():
    net = nn.MultiheadAttention(4, 2, add_bias_kv=True)
    assert [n for n, _ in net.parameters_and_names()] == [
        "in_proj_weight",
        "in_proj_bias",
        "bias_k",
        "bias_v",
        "out_proj.weight",
        "out_proj.bias",
    ]


def test_mha_masks_match_reference():
    rng = np.random.default_rng(0)
    net = nn.MultiheadAttention(4, 1, has_bias=False)
    q = rng.standard_normal((3, 1, 4)).astype(np.float32)
    causal = np.triu(np.ones((3, 3), bool), 1)
    out, weights = net(ms.Tensor(q), ms.Tensor(q), ms.Tensor(q), attn_mask=ms.Tensor(causal))
    w = net.in_proj_weight.asnumpy()
    qp, kp, vp = q[:, 0] @ w[:4].T, q[:, 0] @ w[4:8].T, q[:, 0] @ w[8:].T
    scores = qp @ kp.T / 2.0 + np.where(causal, -np.inf, 0)
    ref_w = np.exp(scores - scores.max(1, keepdims=True))
    ref_w /= ref_w.sum(1, keepdims=True)
    np.testing.assert_allclose(weights.asnumpy()[0], ref_w, rtol=1e-5, atol=1e-6)
    ref = (ref_w @ vp) @ net.out_proj.weight.asnumpy().T
    np.testing.assert_allclose(out.asnumpy()[:, 0], ref, rtol=1e-4, atol=1e-5)


ENC = cases("encoder") + cases("decoder")


@pytest.mark.parametrize("case", ENC, ids=ids(ENC))
def test_transformer_layers_match_mindspore(case):
    cls = nn.TransformerEncoderLayer if case["kind"] == "encoder" else nn.TransformerDecoderLayer
    net = cls(**case["kwargs"])
    set_params(net, params(case))
    if case["kind"] == "encoder":
        out = net(ms.Tensor(get(case, "x")))
    else:
        out = net(ms.Tensor(get(case, "tgt")), ms.Tensor(get(case, "memory")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5)


def test_transformer_stack_names_and_grad():
    net = nn.Transformer(4, 2, 1, 1, 8, dropout=0.0)
    names = [n for n, _ in net.parameters_and_names()]
    assert names[0] == "encoder.layers.0.self_attn.in_proj_weight"
    assert names[-2:] == ["decoder.norm.gamma", "decoder.norm.beta"]
    src = ms.Tensor(np.random.default_rng(0).standard_normal((3, 2, 4)).astype(np.float32))
    tgt = ms.Tensor(np.random.default_rng(1).standard_normal((2, 2, 4)).astype(np.float32))

    def loss(a, b):
        return wrap(jnp.sum(jnp.square(net(a, b)._value)))

    grads = ms.jit(ms.grad(loss, grad_position=None, weights=net.trainable_params()))(src, tgt)
    assert len(grads) == len(net.trainable_params())
    assert float(np.abs(grads[0].asnumpy()).sum()) > 0


def test_transformer_errors():
    with pytest.raises(
        ValueError, match="For 'MultiheadAttention', 'embed_dim' must be divisible by 'num_heads'"
    ):
        nn.MultiheadAttention(5, 2)
    with pytest.raises(
        ValueError,
        match=r"For 'MultiheadAttention', 'query' must be \(L, N, "
        r"embed_dim=4\)",
    ):
        q = ops.ones((3, 2, 5))
        nn.MultiheadAttention(4, 2)(q, q, q)
    with pytest.raises(ValueError, match="For 'TransformerEncoderLayer', 'activation' must be"):
        nn.TransformerEncoderLayer(4, 2, 8, activation="swish")


def test_self_attention_projects_once_with_the_same_result():
    ms.set_seed(3)
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32))
    packed, weights = mha(x, x, x)  # the same Tensor: one matmul with the packed weight
    copy = ms.Tensor(x.asnumpy())
    separate, separate_weights = mha(x, copy, copy)  # per-projection matmuls
    np.testing.assert_allclose(packed.asnumpy(), separate.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(weights.asnumpy(), separate_weights.asnumpy(), rtol=1e-5, atol=1e-6)
    text = ms.jit(lambda t: mha(t, t, t)[0]).lower(x).as_text()
    assert text.count("stablehlo.dot_general") == 4  # q/k/v at once, scores, values, out_proj
