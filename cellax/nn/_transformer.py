"""MultiheadAttention and the Transformer encoder/decoder stacks (MindSpore 2.x layout)."""

from __future__ import annotations

import copy
import math

import jax
import jax.numpy as jnp

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import XavierNormal, XavierUniform, initializer
from .._parameter import Parameter
from .._random import next_key
from ..ops._utils import arr, wrap
from ._cell import Cell
from ._container import CellList
from ._dense import Dense
from ._dropout import Dropout
from ._normalization import LayerNorm

__all__ = [
    "MultiheadAttention",
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]


def _mask_to_additive(api, mask, name, dtype):
    value = jnp.asarray(arr(mask))
    if value.dtype == jnp.bool_:
        return jnp.where(value, -jnp.inf, 0.0).astype(dtype)
    if not jnp.issubdtype(value.dtype, jnp.floating):
        raise TypeError(
            f"For '{api}', '{name}' must be a bool or float Tensor, but got dtype {value.dtype}."
        )
    return value.astype(dtype)


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
        q, k, v = arr(query), arr(key), arr(value)
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
        (wq, wk, wv), (bq, bk, bv) = self._projections()
        q = q @ wq.T + (0 if bq is None else bq)
        k = k @ wk.T + (0 if bk is None else bk)
        v = v @ wv.T + (0 if bv is None else bv)
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
        heads, hd = self.num_heads, self.head_dim

        def split(t):
            return t.reshape(t.shape[0], batch, heads, hd).transpose(1, 2, 0, 3)

        qh, kh, vh = split(q) / math.sqrt(hd), split(k), split(v)
        scores = qh @ jnp.swapaxes(kh, -1, -2)
        if mask is not None:
            scores = scores + (mask if mask.ndim == 4 else mask[None])
        if pad is not None:
            scores = scores + pad[:, None, None, :]
        weights = jax.nn.softmax(scores, axis=-1)
        dropped = weights
        if self.training and self.dropout > 0:
            keep = jax.random.bernoulli(next_key(), 1 - self.dropout, weights.shape)
            dropped = jnp.where(keep, weights / (1 - self.dropout), 0)
        out = (dropped @ vh).transpose(2, 0, 1, 3).reshape(length, batch, e)
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


def _activation_fn(api, activation):
    if isinstance(activation, str):
        table = {"relu": jax.nn.relu, "gelu": lambda x: jax.nn.gelu(x, approximate=False)}
        if activation not in table:
            raise ValueError(
                f"For '{api}', 'activation' must be 'relu', 'gelu', a Cell or a callable, but "
                f"got {activation!r}."
            )
        return table[activation]
    if callable(activation):
        return activation
    raise TypeError(
        f"For '{api}', 'activation' must be a str, a Cell or a callable, but got "
        f"{type(activation).__name__}."
    )


class _LayerBase(Cell):
    def _apply_activation(self, x):
        if isinstance(self.activation, Cell):
            return self.activation(wrap(x))._value
        result = self.activation(wrap(x) if self._wrap_activation else x)
        return arr(result)

    def _feed_forward(self, x):
        h = self.dense1(wrap(x))._value
        h = self.dropout(wrap(self._apply_activation(h)))
        return arr(self.dense2(h))

    def _attend(self, attention, x, memory, mask, padding_mask):
        out, _ = attention(
            wrap(x),
            wrap(memory),
            wrap(memory),
            key_padding_mask=padding_mask,
            need_weights=False,
            attn_mask=mask,
        )
        return out._value

    def _init_common(
        self,
        api,
        d_model,
        nhead,
        dim_feedforward,
        dropout,
        activation,
        layer_norm_eps,
        batch_first,
        norm_first,
        dtype,
    ):
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype
        )
        return _activation_fn(api, activation)


class TransformerEncoderLayer(_LayerBase):
    r"""One encoder layer: self-attention and a feed-forward block, each with a residual
    connection and LayerNorm (before the block with ``norm_first``, after it otherwise).

    Args:
        d_model (int): Model width.
        nhead (int): Attention heads.
        dim_feedforward (int): Hidden width of the feed-forward block. Default: ``2048``.
        dropout (float): Default: ``0.1``.
        activation (Union[str, Cell, callable]): ``'relu'`` or ``'gelu'`` (exact) or your own.
            Default: ``'relu'``.
        layer_norm_eps (float): Default: ``1e-5``.
        batch_first (bool): Default: ``False``.
        norm_first (bool): Default: ``False``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **src** (Tensor) - :math:`(S, N, E)` (or batch first).
        - **src_mask** (Tensor) - Attention mask. Default: ``None``.
        - **src_key_padding_mask** (Tensor) - :math:`(N, S)`. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> layer = ms.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(ms.ops.ones((5, 3, 8))).shape
        (5, 3, 8)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.TransformerEncoderLayer.html
    """

    def __init__(
        self,
        d_model,
        nhead,
        dim_feedforward=2048,
        dropout=0.1,
        activation="relu",
        layer_norm_eps=1e-5,
        batch_first=False,
        norm_first=False,
        dtype=_dtype.float32,
    ) -> None:
        super().__init__()
        api = "TransformerEncoderLayer"
        act = self._init_common(
            api,
            d_model,
            nhead,
            dim_feedforward,
            dropout,
            activation,
            layer_norm_eps,
            batch_first,
            norm_first,
            dtype,
        )
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self._wrap_activation = not isinstance(activation, str)
        self.activation = act

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = arr(src)

        def block_sa(h):
            out = self._attend(self.self_attn, h, h, src_mask, src_key_padding_mask)
            return arr(self.dropout1(wrap(out)))

        def block_ff(h):
            return arr(self.dropout2(wrap(self._feed_forward(h))))

        def norm(layer, h):
            return layer(wrap(h))._value

        if self.norm_first:
            x = x + block_sa(norm(self.norm1, x))
            x = x + block_ff(norm(self.norm2, x))
        else:
            x = norm(self.norm1, x + block_sa(x))
            x = norm(self.norm2, x + block_ff(x))
        return wrap(x)


class TransformerDecoderLayer(_LayerBase):
    r"""One decoder layer: self-attention, attention over ``memory`` and a feed-forward block,
    each with a residual connection and LayerNorm; arguments as
    :class:`TransformerEncoderLayer`.

    Inputs:
        - **tgt** (Tensor) - :math:`(T, N, E)`.
        - **memory** (Tensor) - :math:`(S, N, E)`.
        - **tgt_mask**, **memory_mask**, **tgt_key_padding_mask**,
          **memory_key_padding_mask** (Tensor) - Masks. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> layer = ms.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(ms.ops.ones((4, 3, 8)), ms.ops.ones((5, 3, 8))).shape
        (4, 3, 8)
    """

    def __init__(
        self,
        d_model,
        nhead,
        dim_feedforward=2048,
        dropout=0.1,
        activation="relu",
        layer_norm_eps=1e-5,
        batch_first=False,
        norm_first=False,
        dtype=_dtype.float32,
    ) -> None:
        super().__init__()
        api = "TransformerDecoderLayer"
        act = self._init_common(
            api,
            d_model,
            nhead,
            dim_feedforward,
            dropout,
            activation,
            layer_norm_eps,
            batch_first,
            norm_first,
            dtype,
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype
        )
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        self._wrap_activation = not isinstance(activation, str)
        self.activation = act

    def construct(
        self,
        tgt,
        memory,
        tgt_mask=None,
        memory_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
    ):
        x, mem = arr(tgt), arr(memory)

        def block_sa(h):
            out = self._attend(self.self_attn, h, h, tgt_mask, tgt_key_padding_mask)
            return arr(self.dropout1(wrap(out)))

        def block_mha(h):
            out = self._attend(self.multihead_attn, h, mem, memory_mask, memory_key_padding_mask)
            return arr(self.dropout2(wrap(out)))

        def block_ff(h):
            return arr(self.dropout3(wrap(self._feed_forward(h))))

        def norm(layer, h):
            return layer(wrap(h))._value

        if self.norm_first:
            x = x + block_sa(norm(self.norm1, x))
            x = x + block_mha(norm(self.norm2, x))
            x = x + block_ff(norm(self.norm3, x))
        else:
            x = norm(self.norm1, x + block_sa(x))
            x = norm(self.norm2, x + block_mha(x))
            x = norm(self.norm3, x + block_ff(x))
        return wrap(x)


def _clones(layer, n):
    return CellList([copy.deepcopy(layer) for _ in range(n)])


class TransformerEncoder(Cell):
    r"""A stack of ``num_layers`` copies of ``encoder_layer``, then the optional ``norm``.

    Examples:
        >>> import cellax as ms
        >>> layer = ms.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> net = ms.nn.TransformerEncoder(layer, num_layers=2)
        >>> net(ms.ops.ones((5, 3, 8))).shape
        (5, 3, 8)
    """

    def __init__(self, encoder_layer, num_layers, norm=None) -> None:
        super().__init__()
        check_positive_int("TransformerEncoder", "num_layers", num_layers)
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        out = src
        for layer in self.layers:
            out = layer(out, src_mask, src_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class TransformerDecoder(Cell):
    r"""A stack of ``num_layers`` copies of ``decoder_layer``, then the optional ``norm``.

    Examples:
        >>> import cellax as ms
        >>> layer = ms.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> net = ms.nn.TransformerDecoder(layer, num_layers=2)
        >>> net(ms.ops.ones((4, 3, 8)), ms.ops.ones((5, 3, 8))).shape
        (4, 3, 8)
    """

    def __init__(self, decoder_layer, num_layers, norm=None) -> None:
        super().__init__()
        check_positive_int("TransformerDecoder", "num_layers", num_layers)
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(
        self,
        tgt,
        memory,
        tgt_mask=None,
        memory_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
    ):
        out = tgt
        for layer in self.layers:
            out = layer(
                out, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask
            )
        return out if self.norm is None else self.norm(out)


class Transformer(Cell):
    r"""Encoder-decoder Transformer (each stack ends with a LayerNorm).

    Args:
        d_model (int): Default: ``512``.
        nhead (int): Default: ``8``.
        num_encoder_layers (int): Default: ``6``.
        num_decoder_layers (int): Default: ``6``.
        dim_feedforward (int): Default: ``2048``.
        dropout (float): Default: ``0.1``.
        activation (Union[str, Cell, callable]): Default: ``'relu'``.
        custom_encoder (Cell): Replaces the encoder stack. Default: ``None``.
        custom_decoder (Cell): Replaces the decoder stack. Default: ``None``.
        layer_norm_eps (float): Default: ``1e-5``.
        batch_first (bool): Default: ``False``.
        norm_first (bool): Default: ``False``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Transformer(8, 2, 1, 1, 16)
        >>> net(ms.ops.ones((5, 3, 8)), ms.ops.ones((4, 3, 8))).shape
        (4, 3, 8)
    """

    def __init__(
        self,
        d_model=512,
        nhead=8,
        num_encoder_layers=6,
        num_decoder_layers=6,
        dim_feedforward=2048,
        dropout=0.1,
        activation="relu",
        custom_encoder=None,
        custom_decoder=None,
        layer_norm_eps=1e-5,
        batch_first=False,
        norm_first=False,
        dtype=_dtype.float32,
    ) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                dtype,
            )
            norm = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                layer_norm_eps,
                batch_first,
                norm_first,
                dtype,
            )
            norm = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(
        self,
        src,
        tgt,
        src_mask=None,
        tgt_mask=None,
        memory_mask=None,
        src_key_padding_mask=None,
        tgt_key_padding_mask=None,
        memory_key_padding_mask=None,
    ):
        s, t = arr(src), arr(tgt)
        batch_axis = 0 if self.batch_first else 1
        if s.ndim == 3 and t.ndim == 3 and s.shape[batch_axis] != t.shape[batch_axis]:
            raise ValueError(
                f"For 'Transformer', 'src' and 'tgt' must have the same batch size, but got "
                f"shapes {tuple(s.shape)} and {tuple(t.shape)}."
            )
        if s.shape[-1] != self.d_model or t.shape[-1] != self.d_model:
            raise ValueError(
                f"For 'Transformer', the feature size of 'src' and 'tgt' must be d_model="
                f"{self.d_model}, but got shapes {tuple(s.shape)} and {tuple(t.shape)}."
            )
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(
            tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask
        )
