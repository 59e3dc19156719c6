"""``multi_head_attention_forward``: MindSpore's functional multi-head attention (torch's
layout: ``(L, N, E)`` inputs, ``(3E, E)`` packed projection), which model code imports from
``mindspore.ops.function.nn_func``. Built from the helpers in ``attention.py``."""

from __future__ import annotations

import math

from ... import _dtype
from .attention import (
    _check_attn_mask_shape,
    _check_kpm_shape,
    _check_qkv_shape,
    _in_projection,
    _in_projection_packed,
    _inner_dropout,
    _inner_pad,
    linear,
)

__all__: list = []

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
