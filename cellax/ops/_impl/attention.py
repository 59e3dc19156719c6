"""The pieces of MindSpore's functional multi-head attention that model code imports from
``mindspore.ops.function.nn_func`` (private there too): the shape checks, the input
projections, ``linear`` and the dropout/pad helpers. None is a public ``ops`` name."""

from __future__ import annotations

from ... import _dtype
from .dropout import dropout
from .ufuncs import matmul
from .resample import pad
from .shape import split, tensor_split

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
