"""nn.MultiheadAttention (and the mask conversion the Transformer layers share)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import XavierNormal, XavierUniform, initializer
from .._parameter import Parameter
from .._random import next_key
from ..ops._impl.eager import fused
from ..ops._impl.utils import arr, wrap
from ._cell import Cell
from ._dense import Dense, _affine

__all__ = ["MultiheadAttention"]


def _mask_to_additive(api, mask, name, dtype):
    value = jnp.asarray(arr(mask))
    if value.dtype == jnp.bool_:
        return jnp.where(value, -jnp.inf, 0.0).astype(dtype)
    if not _dtype.is_floating(value.dtype):
        raise TypeError(
            f"For '{api}', '{name}' must be a bool or float Tensor, but got dtype {value.dtype}."
        )
    return value.astype(dtype)


@fused(static_argnums=(6, 7))
def _heads_attention(q, k, v, mask, pad, keep, heads, dropout):
    """Scaled dot-product attention over ``heads`` heads of projected ``q`` (L, N, E), ``k``,
    ``v`` (S, N, E): the additive ``mask`` (3-D or 4-D) and padding ``pad`` (N, S), then the
    dropout ``keep`` mask (or None). ``(out (L, N, E), weights (N, heads, L, S))``: one
    compiled call eagerly, one kernel on the gradient tape."""
    length, batch, e = q.shape
    hd = e // heads

    def split(t):
        return t.reshape(t.shape[0], batch, heads, hd).transpose(1, 2, 0, 3)

    qh, kh, vh = split(q) / math.sqrt(hd), split(k), split(v)
    scores = qh @ jnp.swapaxes(kh, -1, -2)
    if mask is not None:
        scores = scores + (mask if mask.ndim == 4 else mask[None])
    if pad is not None:
        scores = scores + pad[:, None, None, :]
    weights = jax.nn.softmax(scores, axis=-1)
    dropped = weights if keep is None else jnp.where(keep, weights / (1 - dropout), 0)
    out = (dropped @ vh).transpose(2, 0, 1, 3).reshape(length, batch, e)
    return out, weights


class MultiheadAttention(Cell):
    r"""Multi-head scaled dot-product attention with input and output projections.

    Args:
        embed_dim (int): The model width :math:`E`.
        num_heads (int): Heads; must divide ``embed_dim``.
        dropout (float): Dropout on the attention weights in training. Default: ``0.0``.
        has_bias (bool): Biases on the projections. Default: ``True``.
        add_bias_kv (bool): Append learned bias rows to key and value. Default: ``False``.
        add_zero_attn (bool): Append a zero row to key and value. Default: ``False``.
        kdim (int): Key features. Default: ``None`` (``embed_dim``).
        vdim (int): Value features. Default: ``None`` (``embed_dim``).
        batch_first (bool): Inputs as (batch, seq, feature). Default: ``False``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **query** (Tensor) - :math:`(L, N, E)` (or batch first, or unbatched :math:`(L, E)`).
        - **key** (Tensor) - :math:`(S, N, kdim)`.
        - **value** (Tensor) - :math:`(S, N, vdim)`.
        - **key_padding_mask** (Tensor) - :math:`(N, S)`; True (bool) masks a key, a float is
          added. Default: ``None``.
        - **need_weights** (bool) - Return the attention weights. Default: ``True``.
        - **attn_mask** (Tensor) - :math:`(L, S)` or :math:`(N \cdot heads, L, S)`, bool or
          float like ``key_padding_mask``. Default: ``None``.
        - **average_attn_weights** (bool) - Average the weights over heads. Default: ``True``.

    Outputs:
        Tuple (attn_output, attn_weights): :math:`(L, N, E)` and :math:`(N, L, S)` (or
        :math:`(N, heads, L, S)`), or ``None`` without ``need_weights``.

    Raises:
        ValueError: If ``embed_dim`` is not divisible by ``num_heads`` or the inputs do not fit.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.MultiheadAttention(8, 2)
        >>> q = ms.ops.ones((5, 3, 8))
        >>> out, weights = net(q, q, q)
        >>> out.shape, weights.shape
        ((5, 3, 8), (3, 5, 5))

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.MultiheadAttention.html
    """

    def __init__(
        self,
        embed_dim,
        num_heads,
        dropout=0.0,
        has_bias=True,
        add_bias_kv=False,
        add_zero_attn=False,
        kdim=None,
        vdim=None,
        batch_first=False,
        dtype=_dtype.float32,
    ) -> None:
        super().__init__()
        api = "MultiheadAttention"
        self.embed_dim = check_positive_int(api, "embed_dim", embed_dim)
        self.num_heads = check_positive_int(api, "num_heads", num_heads)
        if embed_dim % num_heads:
            raise ValueError(
                f"For '{api}', 'embed_dim' must be divisible by 'num_heads', but got "
                f"embed_dim={embed_dim}, num_heads={num_heads}."
            )
        self.head_dim = embed_dim // num_heads
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.dropout = dropout
        self.batch_first = check_bool(api, "batch_first", batch_first)
        self.add_zero_attn = check_bool(api, "add_zero_attn", add_zero_attn)
        xavier = XavierUniform()
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(
                initializer(xavier, (3 * embed_dim, embed_dim), dtype), name="in_proj_weight"
            )
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(
                initializer(xavier, (embed_dim, embed_dim), dtype), name="q_proj_weight"
            )
            self.k_proj_weight = Parameter(
                initializer(xavier, (embed_dim, self.kdim), dtype), name="k_proj_weight"
            )
            self.v_proj_weight = Parameter(
                initializer(xavier, (embed_dim, self.vdim), dtype), name="v_proj_weight"
            )
            self.in_proj_weight = None
        if has_bias:
            self.in_proj_bias = Parameter(
                initializer("zeros", (3 * embed_dim,), dtype), name="in_proj_bias"
            )
        else:
            self.in_proj_bias = None
        if add_bias_kv:
            self.bias_k = Parameter(
                initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_k"
            )
            self.bias_v = Parameter(
                initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_v"
            )
        else:
            self.bias_k = self.bias_v = None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)

    def _projections(self):
        e = self.embed_dim
        if self.in_proj_weight is not None:
            w = self.in_proj_weight._value
            weights = (w[:e], w[e : 2 * e], w[2 * e :])
        else:
            weights = (
                self.q_proj_weight._value,
                self.k_proj_weight._value,
                self.v_proj_weight._value,
            )
        if self.in_proj_bias is None:
            return weights, (None, None, None)
        b = self.in_proj_bias._value
        return weights, (b[:e], b[e : 2 * e], b[2 * e :])

    def construct(
        self,
        query,
        key,
        value,
        key_padding_mask=None,
        need_weights=True,
        attn_mask=None,
        average_attn_weights=True,
    ):
        api = "MultiheadAttention"
        q, k, v = (arr(t, tensor=True) for t in (query, key, value))
        unbatched = q.ndim == 2
        if unbatched:
            q, k, v = q[:, None], k[:, None], v[:, None]
            if key_padding_mask is not None:
                key_padding_mask = jnp.asarray(arr(key_padding_mask))[None]
        elif self.batch_first:
            q, k, v = (jnp.swapaxes(t, 0, 1) for t in (q, k, v))
        if q.ndim != 3 or q.shape[-1] != self.embed_dim:
            raise ValueError(
                f"For '{api}', 'query' must be (L, N, embed_dim={self.embed_dim}) (or batch "
                f"first), but got shape {tuple(arr(query).shape)}."
            )
        if k.shape[-1] != self.kdim or v.shape[-1] != self.vdim or k.shape[:2] != v.shape[:2]:
            raise ValueError(
                f"For '{api}', 'key' and 'value' must be (S, N, kdim={self.kdim}) and "
                f"(S, N, vdim={self.vdim}), but got {tuple(arr(key).shape)} and "
                f"{tuple(arr(value).shape)}."
            )
        length, batch, e = q.shape
        if query is key and key is value and self.in_proj_weight is not None:
            # self-attention with the packed weight: one matmul, split after (as MindSpore)
            bias = None if self.in_proj_bias is None else self.in_proj_bias._value
            q, k, v = jnp.split(_affine(q, self.in_proj_weight._value, bias), 3, axis=-1)
        else:
            (wq, wk, wv), (bq, bk, bv) = self._projections()
            q, k, v = _affine(q, wq, bq), _affine(k, wk, bk), _affine(v, wv, bv)
        mask = None
        if attn_mask is not None:
            mask = _mask_to_additive(api, attn_mask, "attn_mask", q.dtype)
            if mask.ndim == 2:
                mask = mask[None]
            else:
                mask = mask.reshape(batch, self.num_heads, *mask.shape[1:])
        pad = None
        if key_padding_mask is not None:
            pad = _mask_to_additive(api, key_padding_mask, "key_padding_mask", q.dtype)
        if self.bias_k is not None:
            k = jnp.concatenate([k, jnp.broadcast_to(self.bias_k._value, (1, batch, e))])
            v = jnp.concatenate([v, jnp.broadcast_to(self.bias_v._value, (1, batch, e))])
            mask = None if mask is None else jnp.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])
            pad = None if pad is None else jnp.pad(pad, [(0, 0), (0, 1)])
        if self.add_zero_attn:
            k = jnp.concatenate([k, jnp.zeros((1, batch, e), k.dtype)])
            v = jnp.concatenate([v, jnp.zeros((1, batch, e), v.dtype)])
            mask = None if mask is None else jnp.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])
            pad = None if pad is None else jnp.pad(pad, [(0, 0), (0, 1)])
        keep = None
        if self.training and self.dropout > 0:
            shape = (batch, self.num_heads, length, k.shape[0])
            keep = jax.random.bernoulli(next_key(), 1 - self.dropout, shape)
        out, weights = _heads_attention(q, k, v, mask, pad, keep, self.num_heads, self.dropout)
        out = self.out_proj(wrap(out))._value
        if self.batch_first and not unbatched:
            out = jnp.swapaxes(out, 0, 1)
        if unbatched:
            out = out[:, 0]
        if not need_weights:
            return wrap(out), None
        if average_attn_weights:
            weights = jnp.mean(weights, axis=1)
        if unbatched:
            weights = weights[0]
        return wrap(out), wrap(weights)
