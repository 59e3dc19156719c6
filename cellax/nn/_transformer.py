"""The Transformer encoder/decoder layers and stacks (MindSpore 2.x layout)."""

from __future__ import annotations

import copy


from .. import _dtype
from .._errors import check_positive_int
from ..ops._impl.activations import _relu, gelu_value
from ..ops._impl.utils import arr, wrap
from ._attention import MultiheadAttention
from ._cell import Cell
from ._container import CellList
from ._dense import Dense
from ._dropout import Dropout
from ._normalization import LayerNorm

__all__ = [
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]


def _gelu(x):
    return gelu_value(x, False)


def _activation_fn(api, activation):
    if isinstance(activation, str):
        table = {"relu": _relu, "gelu": _gelu}
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
        query = wrap(x)
        memory = query if memory is x else wrap(memory)  # self-attention: one projection
        out, _ = attention(
            query,
            memory,
            memory,
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
        for name, value in (("d_model", d_model), ("nhead", nhead)):
            check_positive_int(api, name, value)
        check_positive_int(api, "dim_feedforward", dim_feedforward)  # before Dense names itself
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
        x = arr(src, tensor=True)

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
        x, mem = arr(tgt, tensor=True), arr(memory, tensor=True)

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
        s, t = arr(src, tensor=True), arr(tgt, tensor=True)
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
