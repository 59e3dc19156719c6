"""MindSpore's functional multi-head attention, which model code imports from
``mindspore.ops.function.nn_func``: ``multi_head_attention_forward`` (torch's layout: ``(L, N, E)``
inputs, ``(3E, E)`` packed projection) and its pieces, private there too (the shape checks, the
input projections, ``linear``, the dropout/pad helpers). None is a public ``ops`` name."""

from __future__ import annotations

import math

from ... import _dtype
from .dropout import dropout
from .resample import pad
from .shape import split, tensor_split
from .ufuncs import matmul

__all__: list = []


def linear(x, w, b):
    """``x @ w.T + b`` (``b`` may be None): MindSpore's projection helper."""
    out = matmul(x, w.swapaxes(-1, -2))
    return out if b is None else out + b


def _check_qkv_shape(query_ndim, key_ndim, value_ndim) -> bool:
    """Whether the query is batched (3-D); ValueError for key/value ranks that do not match."""
    if query_ndim not in (2, 3):
        raise ValueError(
            f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with "
            f"{query_ndim}D."
        )
    kind = "batched" if query_ndim == 3 else "unbatched"
    if key_ndim != query_ndim or value_ndim != query_ndim:
        raise ValueError(
            f"For {kind} `query`, the `key` and `value` must be {query_ndim}D tensor, but got "
            f"`key` with {key_ndim}D and `value` with {value_ndim}D."
        )
    return query_ndim == 3


def _check_kpm_shape(query_ndim, kmp_ndim) -> None:
    """A key padding mask is 2-D for a batched query and 1-D for an unbatched one."""
    expected = {3: 2, 2: 1}.get(query_ndim)
    if expected is not None and kmp_ndim != expected:
        kind = "batched" if query_ndim == 3 else "unbatched"
        raise ValueError(
            f"For {kind} `query`, the `key_padding_mask` must be `None` or {expected}D, but got "
            f"`key_padding_mask` with {kmp_ndim}D."
        )


def _check_attn_mask_shape(
    query_ndim, query_shape, key_shape, attn_mask_ndim, attn_mask_shape, num_heads
) -> None:
    """An attention mask is 2-D or 3-D; a 3-D one for an unbatched query is
    ``(num_heads, L, S)``."""
    if query_ndim in (2, 3) and attn_mask_ndim not in (2, 3):
        kind = "batched" if query_ndim == 3 else "unbatched"
        raise ValueError(
            f"For {kind} `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got "
            f"`attn_mask` with{attn_mask_ndim}D."
        )
    if query_ndim == 2 and attn_mask_ndim == 3:
        expected = (num_heads, query_shape[0], key_shape[0])
        if tuple(attn_mask_shape) != expected:
            raise ValueError(
                f"The shape of `attn_mask` must to be {expected}, but got {attn_mask_shape}."
            )


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """Project query, key and value with their own weights ``(E, E_x)`` and biases ``(E,)``."""
    e_q, e_k, e_v = q.shape[-1], k.shape[-1], v.shape[-1]
    for label, weight, expected in (
        ("query", w_q, (e_q, e_q)),
        ("key", w_k, (e_q, e_k)),
        ("value", w_v, (e_q, e_v)),
    ):
        if tuple(weight.shape) != expected:
            raise ValueError(
                f"Expecting {label} weights shape of {expected}, but got {tuple(weight.shape)}"
            )
    for label, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (e_q,):
            raise ValueError(
                f"Expecting {label} bias shape of {(e_q,)}, but got {tuple(bias.shape)}"
            )
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection_packed(q, k, v, w, b, k_is_v, q_is_k):
    """Project with one packed ``(3E, E)`` weight: one matmul for self-attention, two when
    key and value are the same tensor, three otherwise."""
    embed = q.shape[-1]
    if k_is_v and q_is_k:
        return tuple(tensor_split(linear(q, w, b), 3, axis=-1))
    if k_is_v:
        w_q, w_kv = split(w, [embed, embed * 2])
        b_q, b_kv = (None, None) if b is None else split(b, [embed, embed * 2])
        return (linear(q, w_q, b_q), *tensor_split(linear(k, w_kv, b_kv), 2, axis=-1))
    w_q, w_k, w_v = tensor_split(w, 3)
    b_q, b_k, b_v = (None, None, None) if b is None else tensor_split(b, 3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _inner_dropout(x, p, training):
    """Dropout with drop probability ``p`` while training (``0 < p <= 1``), else ``x``."""
    if 0.0 < p <= 1.0 and training:
        return dropout(x, p, training=True)
    return x


def _inner_pad(x, padding, value=None):
    """``ops.pad`` that also pads a bool tensor (through int32)."""
    if x.dtype == _dtype.bool_:
        return pad(x.astype(_dtype.int32), padding, value=value).astype(_dtype.bool_)
    return pad(x, padding, value=value)


_API = "multi_head_attention_forward"


def _sdpa(q, k, v, attn_mask, dropout_p, is_causal, training):
    from ... import ops

    # MindSpore scales query and key by the fourth root of head_dim each.
    scale = math.sqrt(math.sqrt(q.shape[-1]))
    if is_causal:
        # As MindSpore: the causal mask replaces attn_mask and is *added* as 1/0 (not -inf).
        attn_mask = ops.ones((q.shape[-2], k.shape[-2]), _dtype.float32).tril().astype(q.dtype)
    scores = ops.matmul(q / scale, k.swapaxes(-2, -1) / scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = _inner_dropout(ops.softmax(scores, -1), dropout_p, training)
    return ops.matmul(weights, v), weights


def _check_mask_dtype(name, mask):
    if mask.dtype != _dtype.bool_ and not _dtype.is_floating(mask.dtype):
        raise ValueError(
            f"For '{_API}', '{name}' must be a bool or floating Tensor, but got dtype {mask.dtype}."
        )


def _static(name, tensor, bsz_heads, head_dim):
    if tensor.shape[0] != bsz_heads or tensor.shape[2] != head_dim:
        raise ValueError(
            f"For '{_API}', '{name}' must have shape ({bsz_heads}, S, {head_dim}), but got "
            f"{tuple(tensor.shape)}."
        )
    return tensor


def multi_head_attention_forward(
    query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k,
    bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True,
    key_padding_mask=None, attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None,
    k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
    average_attn_weights=True, is_causal=False, k_is_v=False, q_is_k=False, dtype=None,
):  # fmt: skip
    """Multi-head attention on ``(L, N, E)`` query and ``(S, N, E)`` key/value (or unbatched
    ``(L, E)``); returns ``(output (L, N, E), weights (N, L, S))``, weights averaged over heads
    when `average_attn_weights` (else ``(N, num_heads, L, S)``)."""
    from ... import ops

    is_batched = _check_qkv_shape(query.ndim, key.ndim, value.ndim)
    if key_padding_mask is not None:
        _check_kpm_shape(query.ndim, key_padding_mask.ndim)
        _check_mask_dtype("key_padding_mask", key_padding_mask)
    if attn_mask is not None:
        _check_attn_mask_shape(
            query.ndim, query.shape, key.shape, attn_mask.ndim, attn_mask.shape, num_heads
        )
    if not is_batched:
        query, key, value = query.expand_dims(1), key.expand_dims(1), value.expand_dims(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.expand_dims(0)
    tgt_len, bsz, embed_dim = query.shape
    if embed_dim != embed_dim_to_check:
        raise ValueError(
            f"For '{_API}', the query's embed_dim must be {embed_dim_to_check}, but got {embed_dim}."
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(
            f"For '{_API}', embed_dim {embed_dim} must be divisible by num_heads {num_heads}."
        )
    if use_separate_proj_weight:
        if q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
            raise ValueError(
                f"For '{_API}', use_separate_proj_weight=True needs q_proj_weight, "
                "k_proj_weight and v_proj_weight."
            )
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = in_proj_bias.tensor_split(3)
        q, k, v = _in_projection(
            query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v
        )
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise ValueError(
                f"For '{_API}', 'key' and 'value' must have the same shape, but got "
                f"{tuple(key.shape)} and {tuple(value.shape)}."
            )
        if in_proj_weight is None:
            raise ValueError(
                f"For '{_API}', 'in_proj_weight' is None but use_separate_proj_weight=False."
            )
        q, k, v = _in_projection_packed(
            query, key, value, in_proj_weight, in_proj_bias, k_is_v, q_is_k
        )
    if attn_mask is not None:
        if attn_mask.dtype == _dtype.uint8:
            attn_mask = attn_mask.astype(_dtype.bool_)
        _check_mask_dtype("attn_mask", attn_mask)
        if attn_mask.ndim == 2:
            attn_mask = attn_mask.expand_dims(0)
    if bias_k is not None and bias_v is not None:
        k = ops.cat([k, bias_k.tile((1, bsz, 1))])
        v = ops.cat([v, bias_v.tile((1, bsz, 1))])
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = (
            None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))
        )
    elif bias_k is not None or bias_v is not None:
        raise ValueError(f"For '{_API}', 'bias_k' and 'bias_v' must both be given or both be None.")
    bsz_heads = bsz * num_heads
    q = q.view((tgt_len, bsz_heads, head_dim)).swapaxes(0, 1)
    if static_k is None:
        k = k.view((k.shape[0], bsz_heads, head_dim)).swapaxes(0, 1)
    else:
        k = _static("static_k", static_k, bsz_heads, head_dim)
    if static_v is None:
        v = v.view((v.shape[0], bsz_heads, head_dim)).swapaxes(0, 1)
    else:
        v = _static("static_v", static_v, bsz_heads, head_dim)
    if add_zero_attn:
        k = ops.cat([k, ops.zeros((bsz_heads, 1, head_dim), k.dtype)], axis=1)
        v = ops.cat([v, ops.zeros((bsz_heads, 1, head_dim), v.dtype)], axis=1)
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = (
            None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))
        )
    src_len = k.shape[1]
    if key_padding_mask is not None:
        key_padding_mask = (
            key_padding_mask.view((bsz, 1, 1, src_len))
            .tile((1, num_heads, 1, 1))
            .reshape(bsz_heads, 1, src_len)
        )
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == _dtype.bool_:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask + key_padding_mask
    if attn_mask is not None and attn_mask.dtype == _dtype.bool_:
        attn_mask = ops.zeros(attn_mask.shape, q.dtype).masked_fill(attn_mask, float("-inf"))
    if attn_mask is not None:
        if attn_mask.shape[0] == 1:
            attn_mask = attn_mask.expand_dims(0)
        else:
            attn_mask = attn_mask.view((bsz, num_heads, -1, src_len))
    q = q.view((bsz, num_heads, tgt_len, head_dim))
    k = k.view((bsz, num_heads, src_len, head_dim))
    v = v.view((bsz, num_heads, src_len, head_dim))
    out, weights = _sdpa(q, k, v, attn_mask, dropout_p, is_causal, training)
    out = out.transpose(2, 0, 1, 3).view((bsz * tgt_len, embed_dim))
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view((tgt_len, bsz, out.shape[1]))
    weights = weights.view((bsz, num_heads, tgt_len, src_len))
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not is_batched:
        out, weights = out.squeeze(1), weights.squeeze(0)
    return out, weights
