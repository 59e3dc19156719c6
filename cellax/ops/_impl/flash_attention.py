"""Ascend's fused attention kernel on XLA: ``ops.flash_attention_score`` and the
``FlashAttentionScore`` primitive, which mindone's and mindformers' models call.

MindSpore runs them on Ascend only. cellax computes the same attention in every input layout
(``BSH``, ``SBH``, ``BNSD``, ``BSND`` and the packed variable-length ``TND``), with grouped
key/value heads, MindSpore's masks (``attn_mask``: True or 1 discards a position), the sparse
modes (band, causal from either corner, prefix), a position bias (``real_shift``) and dropout
(``keep_prob``, from ``drop_mask``'s bits or a fresh random mask). On an NVIDIA GPU, float16 and
bfloat16 attention without dropout runs cuDNN's fused kernel (``jax.nn.dot_product_attention``
with ``implementation="cudnn"``) where cuDNN takes the head size and mask; everywhere else it is
written out for XLA to fuse. Either way the scores are accumulated and the softmax taken in
float32, and the result has the query's dtype. Everything is differentiable.

Where cellax differs from the Ascend kernel is listed in ``flash_attention_score``'s docstring
(so on the "Differences from MindSpore" page).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._random import next_key
from .eager import fused
from .primitive import primitive
from .utils import arr, check_ints, wrap

__all__ = ["FlashAttentionScore", "flash_attention_score"]

_INT_MAX = 2147483647
_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND", "TND")
_FLOATS = (jnp.float16, jnp.bfloat16, jnp.float32)
_STATS = 8  # softmax_max and softmax_sum repeat each row's value 8 times, as Ascend's


def _to_bsnd(x, layout: str, heads: int):
    """``x`` in ``layout`` as (batch, seq, heads, head_dim); TND as a batch of one."""
    if layout == "BSH":
        return x.reshape(x.shape[0], x.shape[1], heads, -1)
    if layout == "SBH":
        return x.transpose(1, 0, 2).reshape(x.shape[1], x.shape[0], heads, -1)
    if layout == "BNSD":
        return x.transpose(0, 2, 1, 3)
    if layout == "TND":
        return x[None]
    return x


def _from_bsnd(x, layout: str):
    if layout == "BSH":
        return x.reshape(x.shape[0], x.shape[1], -1)
    if layout == "SBH":
        return x.reshape(x.shape[0], x.shape[1], -1).transpose(1, 0, 2)
    if layout == "BNSD":
        return x.transpose(0, 2, 1, 3)
    if layout == "TND":
        return x[0]
    return x


def _segments(cum, length: int):
    """(segment id, position in its segment) of each of ``length`` packed tokens, from the
    cumulative lengths ``cum`` (MindSpore's ``actual_seq_qlen``/``actual_seq_kvlen``)."""
    t = jnp.arange(length)
    seg = jnp.searchsorted(cum, t, side="right")
    starts = jnp.concatenate([jnp.zeros((1,), cum.dtype), cum[:-1]])
    return seg, t - starts[jnp.minimum(seg, cum.shape[0] - 1)]


def _keep_mask(s1, s2, mask, prefix, cum_q, cum_kv, mode, pre, nxt, packed):
    """A bool array broadcastable to (B, N1, S1, S2): True where a score is kept; None when
    nothing is masked."""
    if packed:  # TND: attention within each sequence, causal from its own corner
        seg_q, pos_q = _segments(cum_q, s1)
        seg_k, pos_k = _segments(cum_kv, s2)
        keep = seg_q[:, None] == seg_k[None, :]
        if mode in (2, 3):
            lens_q = jnp.diff(cum_q, prepend=0)[jnp.minimum(seg_q, cum_q.shape[0] - 1)]
            lens_k = jnp.diff(cum_kv, prepend=0)[jnp.minimum(seg_q, cum_kv.shape[0] - 1)]
            shift = (lens_k - lens_q)[:, None] if mode == 3 else 0
            keep = keep & (pos_k[None, :] <= pos_q[:, None] + shift)
        return keep[None, None]
    i = jnp.arange(s1)[:, None]
    j = jnp.arange(s2)[None, :]
    user = None if mask is None else ~mask.astype(jnp.bool_)
    if mode == 0:
        if user is None:
            return None
        return user & (i - j <= pre) & (j - i <= nxt)
    if mode == 1:
        return user
    if mode == 2:
        return (j <= i)[None, None]
    if mode == 3:
        return (j <= i + (s2 - s1))[None, None]
    if mode == 4:
        d = j - i - (s2 - s1)
        return ((d >= -pre) & (d <= nxt))[None, None]
    # mode 5: causal from the lower right, plus each batch's first prefix[b] keys
    causal = (j <= i + (s2 - s1))[None, None]
    return causal | (j[None, None] < prefix[:, None, None, None])


def _scores(q, k, bias, keep, scale):
    """Scaled, biased, masked scores in float32, (B, N1, S1, S2), with each row's max and sum
    of exponentials (masked scores are -inf; a fully masked row has max -inf and sum 0)."""
    b, s1, n1, d = q.shape
    n2 = k.shape[2]
    qg = q.reshape(b, s1, n2, n1 // n2, d)
    logits = jnp.einsum("bqhgd,bkhd->bhgqk", qg, k, preferred_element_type=jnp.float32)
    logits = logits.reshape(b, n1, s1, k.shape[1]) * scale
    if bias is not None:
        logits = logits + bias.astype(jnp.float32)
    if keep is not None:
        logits = jnp.where(keep, logits, -jnp.inf)
    row_max = jnp.max(logits, axis=-1, keepdims=True)
    safe_max = jnp.where(jnp.isfinite(row_max), row_max, 0.0)
    e = jnp.exp(logits - jax.lax.stop_gradient(safe_max))
    return e, row_max, jnp.sum(e, axis=-1, keepdims=True)


def _explicit(q, k, v, bias, keep, drop, scale, keep_prob):
    """Attention written out, in (B, S, N, D), with dropout: (out, row max, row sum)."""
    b, s1, n1, _ = q.shape
    n2 = k.shape[2]
    e, row_max, row_sum = _scores(q, k, bias, keep, scale)
    probs = e / jnp.where(row_sum > 0, row_sum, 1.0)
    if drop is not None:
        probs = jnp.where(drop, probs / keep_prob, 0.0)
    probs = probs.reshape(b, n2, n1 // n2, s1, -1).astype(v.dtype)
    out = jnp.einsum("bhgqk,bkhd->bqhgd", probs, v, preferred_element_type=jnp.float32)
    return out.reshape(b, s1, n1, -1).astype(q.dtype), row_max, row_sum


def _cudnn(q, k, v, bias, keep, scale):
    """cuDNN's fused attention through ``jax.nn.dot_product_attention`` where it applies (an
    NVIDIA GPU, float16 or bfloat16, a head size and mask it takes); else None."""
    if q.dtype == jnp.float32 or jax.default_backend() != "gpu":
        return None
    try:
        out = jax.nn.dot_product_attention(
            q, k, v, bias=bias, mask=keep, scale=scale, implementation="cudnn"
        )
    except (NotImplementedError, ValueError, RuntimeError, TypeError):
        return None
    if keep is not None:  # a query with every key masked out gets zeros, as on the XLA path
        b, s1, n1, _ = q.shape
        seen = jnp.broadcast_to(keep, (b, n1, s1, k.shape[1])).any(-1)
        out = out * seen.transpose(0, 2, 1)[..., None].astype(out.dtype)
    return out


@fused(static_argnums=(9,))
def _attention(query, key, value, bias, mask, prefix, cum_q, cum_kv, drop, config):
    """One compiled call: (softmax_max, softmax_sum, attention_out) in the query's layout."""
    layout, n1, n2, scale, keep_prob, mode, pre, nxt, stats, drop_kind = config
    packed = layout == "TND"
    q = _to_bsnd(query, layout, n1)
    k = _to_bsnd(key, layout, n2)
    v = _to_bsnd(value, layout, n2)
    s1, s2 = q.shape[1], k.shape[1]
    keep = _keep_mask(s1, s2, mask, prefix, cum_q, cum_kv, mode, pre, nxt, packed)
    if bias is not None and bias.ndim == 2:
        bias = bias[None, None]
    if drop_kind == "bits":  # (B, N1, S1, S2 // 8) uint8, bit t of byte c keeps key 8c + t
        bits = jnp.unpackbits(drop, axis=-1, bitorder="little")
        drop = bits[..., :s2].astype(jnp.bool_)
    elif drop_kind == "key":
        drop = jax.random.bernoulli(drop, keep_prob, (q.shape[0], n1, s1, s2))
    out = _cudnn(q, k, v, bias, keep, scale) if drop is None else None
    if out is None:
        out, row_max, row_sum = _explicit(q, k, v, bias, keep, drop, scale, keep_prob)
    elif stats:  # a second pass over the scores; under jit, gone when unused
        _, row_max, row_sum = _scores(q, k, bias, keep, scale)
    out = _from_bsnd(out, layout)
    if not stats:
        return out
    if packed:  # (T1, N1, 8)
        row_max, row_sum = row_max[0].transpose(1, 0, 2), row_sum[0].transpose(1, 0, 2)
    shape = row_max.shape[:-1] + (_STATS,)
    return jnp.broadcast_to(row_max, shape), jnp.broadcast_to(row_sum, shape), out


def _check_layout(api, layout):
    if not isinstance(layout, str):
        raise TypeError(
            f"For '{api}', 'input_layout' must be a str, but got {type(layout).__name__}."
        )
    if layout not in _LAYOUTS:
        raise ValueError(
            f"For '{api}', 'input_layout' must be one of {list(_LAYOUTS)}, but got '{layout}'."
        )


def _heads(api, layout, q, k, head_num):
    """(N1, N2, D) from the shapes, with MindSpore's RuntimeErrors for ones that disagree."""
    rank = 4 if layout in ("BNSD", "BSND") else 3
    for name, x in (("query", q), ("key", k)):
        if x.ndim != rank:
            raise ValueError(
                f"For '{api}', '{name}' must be {rank}-D in layout '{layout}', but got shape "
                f"{tuple(x.shape)}."
            )
    if layout in ("BSH", "SBH"):
        h1, h2 = q.shape[2], k.shape[2]
        if h1 % head_num:
            raise RuntimeError(
                f"For '{api}', the hidden size of 'query' ({h1}) must be divisible by "
                f"'head_num' ({head_num})."
            )
        d = h1 // head_num
        if h2 % d:
            raise RuntimeError(
                f"For '{api}', the hidden size of 'key' ({h2}) must be a multiple of the head "
                f"size {d} (query's hidden size {h1} / head_num {head_num})."
            )
        n1, n2 = head_num, h2 // d
    else:
        axis = {"BNSD": 1, "BSND": 2, "TND": 1}[layout]
        n1, n2, d = q.shape[axis], k.shape[axis], q.shape[-1]
        if n1 != head_num:
            raise RuntimeError(
                f"For '{api}', 'head_num' ({head_num}) must equal the query's head count "
                f"{n1} in layout '{layout}'."
            )
        if k.shape[-1] != d:
            raise RuntimeError(
                f"For '{api}', the D axis of 'query', 'key' and 'value' must be the same, but "
                f"got {d} and {k.shape[-1]}."
            )
    if n2 == 0 or n1 % n2:
        raise RuntimeError(
            f"For '{api}', 'head_num' ({n1}) must be divisible by the key's head count {n2}."
        )
    return n1, n2, d


def _batch_seq(layout, x):
    """(batch, sequence length) of ``x`` in ``layout`` (TND: one packed sequence)."""
    if layout in ("BSH", "BSND"):
        return x.shape[0], x.shape[1]
    if layout == "SBH":
        return x.shape[1], x.shape[0]
    if layout == "BNSD":
        return x.shape[0], x.shape[2]
    return 1, x.shape[0]


def _optional_tensor(api, name, x):
    if x is None:
        return None
    return arr(x, api, name, tensor=True)


def _lengths(api, name, value):
    lengths = check_ints(api, name, value, scalar=False, tensor=True)
    if not lengths or any(b < a for a, b in zip((0, *lengths), lengths)):
        raise RuntimeError(
            f"For '{api}', '{name}' must be non-empty and non-decreasing (cumulative sequence "
            f"lengths), but got {list(lengths)}."
        )
    return lengths


def _run(
    api,
    query,
    key,
    value,
    head_num,
    real_shift,
    drop_mask,
    padding_mask,
    attn_mask,
    prefix,
    actual_seq_qlen,
    actual_seq_kvlen,
    keep_prob,
    scale,
    pre_tokens,
    next_tokens,
    inner_precise,
    input_layout,
    sparse_mode,
    stats,
):
    q = arr(query, api, "query", tensor=True)
    k = arr(key, api, "key", tensor=True)
    v = arr(value, api, "value", tensor=True)
    if q.dtype not in _FLOATS:
        raise TypeError(
            f"For '{api}', 'query' must be a float16, bfloat16 or float32 Tensor, but got "
            f"{_dtype.from_numpy_dtype(q.dtype)}."
        )
    if k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(
            f"For '{api}', 'query', 'key' and 'value' must have the same dtype, but got "
            f"{_dtype.from_numpy_dtype(q.dtype)}, {_dtype.from_numpy_dtype(k.dtype)} and {_dtype.from_numpy_dtype(v.dtype)}."
        )
    _check_layout(api, input_layout)
    head_num = check_ints(api, "head_num", head_num)
    if head_num <= 0:
        raise RuntimeError(f"For '{api}', 'head_num' must be greater than 0, but got {head_num}.")
    for name, number in (("keep_prob", keep_prob), ("scalar_value", scale)):
        if isinstance(number, bool) or not isinstance(number, (int, float, np.floating)):
            raise TypeError(
                f"For '{api}', '{name}' must be a float, but got {type(number).__name__}."
            )
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"For '{api}', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    pre = check_ints(api, "pre_tokens", pre_tokens)
    nxt = check_ints(api, "next_tokens", next_tokens)
    check_ints(api, "inner_precise", inner_precise)
    mode = check_ints(api, "sparse_mode", sparse_mode)
    if mode not in range(6):
        raise RuntimeError(
            f"For '{api}', 'sparse_mode' must be 0 to 5 (6, 7 and 8 are not implemented in "
            f"MindSpore either), but got {mode}."
        )
    if padding_mask is not None:
        raise RuntimeError(f"For '{api}', 'padding_mask' is reserved and must be None.")
    if v.shape != k.shape:
        raise RuntimeError(
            f"For '{api}', 'value' must have the shape of 'key' {tuple(k.shape)}, but got "
            f"{tuple(v.shape)}."
        )
    n1, n2, _ = _heads(api, input_layout, q, k, head_num)
    (b, s1), (b2, s2) = _batch_seq(input_layout, q), _batch_seq(input_layout, k)
    if b2 != b:
        raise RuntimeError(
            f"For '{api}', 'query' and 'key' must have the same batch size, but got {b} and {b2}."
        )
    packed = input_layout == "TND"
    cum_q = cum_kv = None
    if packed:
        if actual_seq_qlen is None or actual_seq_kvlen is None:
            raise RuntimeError(
                f"For '{api}', 'actual_seq_qlen' and 'actual_seq_kvlen' are required with "
                f"input_layout 'TND'."
            )
        lq = _lengths(api, "actual_seq_qlen", actual_seq_qlen)
        lk = _lengths(api, "actual_seq_kvlen", actual_seq_kvlen)
        if len(lq) != len(lk) or lq[-1] != s1 or lk[-1] != s2:
            raise RuntimeError(
                f"For '{api}', 'actual_seq_qlen' and 'actual_seq_kvlen' must have one entry per "
                f"sequence and end at the token counts {s1} and {s2}, but got {list(lq)} and "
                f"{list(lk)}."
            )
        if mode not in (0, 2, 3):
            raise RuntimeError(
                f"For '{api}', input_layout 'TND' takes sparse_mode 0, 2 or 3, but got {mode}."
            )
        cum_q, cum_kv = jnp.asarray(lq, jnp.int32), jnp.asarray(lk, jnp.int32)
    mask = _optional_tensor(api, "attn_mask", attn_mask)
    if mask is not None:
        if mask.dtype not in (jnp.bool_, jnp.uint8):
            raise TypeError(
                f"For '{api}', 'attn_mask' must be a bool or uint8 Tensor, but got "
                f"{_dtype.from_numpy_dtype(mask.dtype)}."
            )
        if mode in (2, 3, 4) or packed:
            if mask.shape != (2048, 2048):
                raise RuntimeError(
                    f"For '{api}', with sparse_mode {mode} 'attn_mask' must be the optimized "
                    f"(2048, 2048) mask, but got shape {tuple(mask.shape)}."
                )
            mask = None  # cellax builds the causal or band mask from the lengths
        elif mask.shape in ((b, n1, s1, s2), (b, 1, s1, s2), (1, 1, s1, s2)):
            pass
        elif mask.shape == (s1, s2) and mode != 5:
            mask = mask[None, None]
        else:
            # MindSpore 2.10's shape inference accepts exactly these shapes (it never slices a
            # larger mask), so a (B, 1, S1, S2 + 1) mask fails on Ascend as well.
            shapes = [(b, n1, s1, s2), (b, 1, s1, s2), (1, 1, s1, s2)]
            shapes += [] if mode == 5 else [(s1, s2)]
            raise RuntimeError(
                f"For '{api}', 'attn_mask' must have one of the shapes "
                f"{', '.join(map(str, shapes))}, but got {tuple(mask.shape)}. A mask built for "
                f"more keys must be cut to them first: attn_mask[..., :{s1}, :{s2}]."
            )
        if mode == 5:
            mask = None  # prefix mode: the mask follows from the lengths and 'prefix'
    elif mode == 1:
        raise RuntimeError(f"For '{api}', sparse_mode 1 needs the full 'attn_mask'.")
    prefix_arr = None
    if mode == 5:
        if prefix is None:
            raise RuntimeError(f"For '{api}', sparse_mode 5 needs 'prefix'.")
        counts = check_ints(api, "prefix", prefix, scalar=False, tensor=True)
        if len(counts) != b:
            raise RuntimeError(
                f"For '{api}', 'prefix' must hold one count per batch ({b}), but got {len(counts)}."
            )
        prefix_arr = jnp.asarray(counts, jnp.int32)
    bias = _optional_tensor(api, "real_shift", real_shift)
    if bias is not None:
        if bias.dtype != q.dtype:
            raise TypeError(
                f"For '{api}', 'real_shift' must have the dtype of 'query' "
                f"{_dtype.from_numpy_dtype(q.dtype)}, but got {_dtype.from_numpy_dtype(bias.dtype)}."
            )
        if packed or bias.shape not in ((b, n1, s1, s2), (1, n1, s1, s2)):
            raise RuntimeError(
                f"For '{api}', 'real_shift' must have shape {(b, n1, s1, s2)} or "
                f"{(1, n1, s1, s2)} (cellax does not take the compressed 1024-row form), but "
                f"got {tuple(bias.shape)}."
            )
    drop, drop_kind = None, None
    if keep_prob < 1.0:
        drop_bits = _optional_tensor(api, "drop_mask", drop_mask)
        if drop_bits is None:
            drop, drop_kind = next_key(), "key"
        else:
            want = (b, n1, s1, -(-s2 // 8))
            if drop_bits.dtype != jnp.uint8 or packed or drop_bits.shape != want:
                raise RuntimeError(
                    f"For '{api}', 'drop_mask' must be a uint8 Tensor of shape {want}, but got "
                    f"{_dtype.from_numpy_dtype(drop_bits.dtype)} of shape {tuple(drop_bits.shape)}."
                )
            drop, drop_kind = drop_bits, "bits"
    config = (
        input_layout,
        n1,
        n2,
        float(scale),
        float(keep_prob),
        mode,
        pre,
        nxt,
        stats,
        drop_kind,
    )
    out = _attention(q, k, v, bias, mask, prefix_arr, cum_q, cum_kv, drop, config)
    if not stats:
        return wrap(out)
    row_max, row_sum, out = out
    return wrap(row_max), wrap(row_sum), wrap(jnp.zeros((), q.dtype)), wrap(out)


def flash_attention_score(
    query,
    key,
    value,
    head_num,
    real_shift=None,
    drop_mask=None,
    padding_mask=None,
    attn_mask=None,
    prefix=None,
    actual_seq_qlen=None,
    actual_seq_kvlen=None,
    keep_prob=1.0,
    scalar_value=1.0,
    pre_tokens=2147483647,
    next_tokens=2147483647,
    inner_precise=0,
    input_layout="BSH",
    sparse_mode=0,
):
    r"""Scaled dot-product attention as Ascend's FlashAttentionScore kernel computes it.

    :math:`\mathrm{out} = \mathrm{Dropout}(\mathrm{Softmax}(\mathrm{Mask}(s \cdot QK^\top +
    \mathrm{real\_shift})), \mathrm{keep\_prob}) V`, with the scores accumulated and the
    softmax taken in float32 and the result in the query's dtype. Key and value may have fewer
    heads than the query (grouped-query attention: ``head_num`` a multiple of theirs).

    Args:
        query (Tensor): float16, bfloat16 or float32, in ``input_layout``: ``BSH``
            :math:`(B, S_1, N_1 D)`, ``SBH`` :math:`(S_1, B, N_1 D)`, ``BNSD``
            :math:`(B, N_1, S_1, D)`, ``BSND`` :math:`(B, S_1, N_1, D)` or ``TND``
            :math:`(T_1, N_1, D)` (sequences packed one after another).
        key (Tensor): The keys, the query's dtype and layout, :math:`N_2` heads, :math:`S_2`.
        value (Tensor): The values, the shape of ``key``.
        head_num (int): :math:`N_1`, the query's heads.
        real_shift (Tensor, optional): A position bias added to the scaled scores,
            :math:`(B, N_1, S_1, S_2)` or :math:`(1, N_1, S_1, S_2)`. Default: ``None``.
        drop_mask (Tensor, optional): uint8 :math:`(B, N_1, S_1, \lceil S_2/8 \rceil)`, one
            bit per key (bit ``t`` of byte ``c`` keeps key ``8c + t``), used when
            ``keep_prob < 1``; None draws a random mask. Default: ``None``.
        padding_mask (None): Reserved by MindSpore; must be None.
        attn_mask (Tensor, optional): bool or uint8, True (1) discards a score:
            :math:`(B, N_1, S_1, S_2)`, :math:`(B, 1, S_1, S_2)`, :math:`(1, 1, S_1, S_2)` or
            :math:`(S_1, S_2)` exactly (a larger mask is refused, as by MindSpore 2.10's shape
            inference, never sliced); with ``sparse_mode`` 2, 3 or 4 MindSpore's optimized
            (2048, 2048) mask. Default: ``None``.
        prefix (Union[Tensor, tuple[int], list[int]], optional): With ``sparse_mode`` 5, how
            many leading keys every query of each batch sees. Default: ``None``.
        actual_seq_qlen (Union[Tensor, tuple[int], list[int]], optional): With ``TND``, the
            cumulative query lengths of the packed sequences. Default: ``None``.
        actual_seq_kvlen (Union[Tensor, tuple[int], list[int]], optional): With ``TND``, the
            cumulative key lengths. Default: ``None``.
        keep_prob (float): The dropout keep probability in (0, 1]. Default: ``1.0``.
        scalar_value (float): The score scale :math:`s`, usually :math:`1/\sqrt{D}`.
            Default: ``1.0``.
        pre_tokens (int): With ``sparse_mode`` 0 (and a mask) or 4, how many keys before the
            diagonal a query sees. Default: ``2147483647``.
        next_tokens (int): Likewise, how many keys after the diagonal. Default: ``2147483647``.
        inner_precise (int): Reserved by MindSpore; no effect. Default: ``0``.
        input_layout (str): ``"BSH"``, ``"SBH"``, ``"BNSD"``, ``"BSND"`` or ``"TND"``.
            Default: ``"BSH"``.
        sparse_mode (int): 0: ``attn_mask`` (if any) within the ``pre_tokens`` /
            ``next_tokens`` band counted from the upper left; 1: ``attn_mask`` alone; 2:
            causal from the upper left; 3: causal from the lower right; 4: the band counted
            from the lower right; 5: causal from the lower right plus ``prefix`` leading keys.
            ``TND`` takes 0, 2 and 3 (causal within each sequence). Default: ``0``.

    Returns:
        Tensor, the attention output, with the shape and dtype of ``query``.

    Differences from MindSpore: MindSpore runs this on Ascend only; cellax runs it on every
    XLA device (cuDNN's fused kernel on NVIDIA GPUs for float16/bfloat16 without dropout).
    float32 inputs are accepted (Ascend takes float16 and bfloat16); a query whose keys are
    all masked out gets zeros; ``real_shift`` is added after scaling; the compressed 1024-row
    ``real_shift`` is refused; with ``sparse_mode`` 2, 3 and 4 the optimized (2048, 2048)
    ``attn_mask`` is checked, not read (cellax builds the causal or band mask itself); the
    random dropout mask comes from cellax's generator, so it differs from Ascend's.

    Raises:
        TypeError: If ``query`` is not a float16/bfloat16/float32 Tensor, the three dtypes
            differ, ``attn_mask`` is not bool or uint8, ``real_shift`` has another dtype or
            ``input_layout`` is not a str.
        ValueError: If ``input_layout`` is unknown, a rank does not fit it or ``keep_prob`` is
            outside (0, 1].
        RuntimeError: If the head counts, head sizes, mask or bias shapes, sequence lengths or
            ``sparse_mode`` are invalid.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> q = ms.Tensor(np.ones((2, 4, 64)), ms.float16)
        >>> out = ops.flash_attention_score(q, q, q, head_num=4, scalar_value=0.125)
        >>> print(out.shape, out.dtype)
        (2, 4, 64) Float16
    """
    return _run(
        "flash_attention_score",
        query,
        key,
        value,
        head_num,
        real_shift,
        drop_mask,
        padding_mask,
        attn_mask,
        prefix,
        actual_seq_qlen,
        actual_seq_kvlen,
        keep_prob,
        scalar_value,
        pre_tokens,
        next_tokens,
        inner_precise,
        input_layout,
        sparse_mode,
        False,
    )


def _primitive_call(
    self,
    query,
    key,
    value,
    real_shift=None,
    drop_mask=None,
    padding_mask=None,
    attn_mask=None,
    prefix=None,
    actual_seq_qlen=None,
    actual_seq_kvlen=None,
):
    a = self.attrs
    return _run(
        "FlashAttentionScore",
        query,
        key,
        value,
        a["head_num"],
        real_shift,
        drop_mask,
        padding_mask,
        attn_mask,
        prefix,
        actual_seq_qlen,
        actual_seq_kvlen,
        a["keep_prob"],
        a["scale_value"],
        a["pre_tokens"],
        a["next_tokens"],
        a["inner_precise"],
        a["input_layout"],
        a["sparse_mode"],
        True,
    )


FlashAttentionScore = primitive(
    "FlashAttentionScore",
    flash_attention_score,
    {
        "head_num": None,
        "keep_prob": 1.0,
        "scale_value": 1.0,
        "pre_tokens": _INT_MAX,
        "next_tokens": _INT_MAX,
        "inner_precise": 0,
        "input_layout": "BSH",
        "sparse_mode": 0,
    },
    _primitive_call,
    r"""Ascend's FlashAttentionScore primitive (see :func:`flash_attention_score`).

    Built with ``head_num, keep_prob=1.0, scale_value=1.0, pre_tokens, next_tokens,
    inner_precise=0, input_layout="BSH", sparse_mode=0``; called with ``(query, key, value,
    real_shift, drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen,
    actual_seq_kvlen)``. Returns ``(softmax_max, softmax_sum, softmax_out, attention_out)``:
    each query row's largest scaled score and its sum of exponentials (float32,
    :math:`(B, N_1, S_1, 8)`, or :math:`(T_1, N_1, 8)` with ``TND``), an empty placeholder and
    the attention output. Under ``jit`` the statistics are not computed when unused.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> q = ms.Tensor(np.ones((1, 2, 3, 16)), ms.bfloat16)
        >>> fa = ops.FlashAttentionScore(head_num=2, scale_value=0.25, input_layout="BNSD")
        >>> row_max, row_sum, _, out = fa(q, q, q)
        >>> out.shape, row_max.shape, float(row_sum[0, 0, 0, 0])
        ((1, 2, 3, 16), (1, 2, 3, 8), 3.0)
    """,
)
