"""Ascend's inference attention kernels on XLA: ``ops.prompt_flash_attention`` (the prefill
step), ``ops.incre_flash_attention`` (one decoding step against a key/value cache) and
``ops.fused_infer_attention_score`` / ``FusedInferAttentionScore`` (either, chosen by the
query length, with an optional paged cache and the log-sum-exp output), as
:func:`flash_attention_score` with the valid lengths turned into a mask. Float inputs only:
the quantisation arguments (``deq_scale*``/``quant_*``/``antiquant_*``) raise
``NotImplementedError``.
"""

from __future__ import annotations

import jax.numpy as jnp

from .flash_attention import _batch_seq, _check_layout, _run
from ..._tensor import Tensor
from .primitive import primitive
from .utils import arr, check_ints, wrap

__all__ = ["prompt_flash_attention", "incre_flash_attention", "fused_infer_attention_score"]

AUTO_GENERATE = ["FusedInferAttentionScore"]  # only in ops.auto_generate (ext_primitives)
_INT_MAX = 2147483647


def _no_quant(api, **values):
    given = sorted(name for name, value in values.items() if value is not None)
    if given:
        raise NotImplementedError(
            f"For '{api}', cellax runs the floating-point attention only; {given} (quantised or "
            "paged inputs) are not supported. Pass None for them."
        )


def _lengths(api, name, lengths, batch):
    """Per-batch valid lengths as an int32 array ``(B,)`` or ``(1,)`` (a Tensor may be traced)."""
    if isinstance(lengths, Tensor):
        values = arr(lengths, api, name, tensor=True).reshape(-1)
        if not jnp.issubdtype(values.dtype, jnp.integer):
            raise TypeError(
                f"For '{api}', '{name}' must be an integer Tensor, but got {values.dtype}."
            )
    else:
        values = jnp.asarray(check_ints(api, name, lengths, scalar=False), jnp.int32)
    if values.shape[0] not in (1, batch):
        raise ValueError(
            f"For '{api}', '{name}' must have one entry per batch ({batch}), but got "
            f"{values.shape[0]} entries."
        )
    return values.astype(jnp.int32)


def _length_mask(api, name, lengths, batch, size, axis):
    """A (B, 1, S1, S2) bool mask, True past each batch's valid length along ``axis``
    (2: queries, 3: keys)."""
    valid = _lengths(api, name, lengths, batch).reshape(-1, 1, 1, 1)
    position = jnp.arange(size).reshape((1, 1, 1, -1) if axis == 3 else (1, 1, -1, 1))
    return position >= valid


def _sparse_mask(api, q_lengths, kv_lengths, batch, s1, s2, mode, pre, nxt):
    """(B, 1, S1, S2) True where sparse mode 2, 3 or 4 discards a score, the lower-right
    corner at each batch's valid lengths."""
    q_len = s1 if q_lengths is None else _lengths(api, "actual_seq_lengths", q_lengths, batch)
    kv_len = s2 if kv_lengths is None else _lengths(api, "actual_seq_lengths_kv", kv_lengths, batch)
    shift = jnp.reshape(jnp.asarray(kv_len) - jnp.asarray(q_len), (-1, 1, 1, 1))
    i = jnp.arange(s1).reshape(1, 1, -1, 1)
    j = jnp.arange(s2).reshape(1, 1, 1, -1)
    if mode == 2:
        return jnp.broadcast_to(j > i, (batch, 1, s1, s2))
    if mode == 3:
        return j > i + shift
    d = j - i - shift
    return (d < -pre) | (d > nxt)


def _combined_mask(api, attn_mask, masks, batch, s1, s2):
    total = None if attn_mask is None else arr(attn_mask, api, "attn_mask", tensor=True) != 0
    for mask in masks:
        if mask is not None:
            total = mask if total is None else total | mask
    if total is None:
        return None
    if total.ndim == 3:  # (B, S1, S2)
        total = total[:, None]
    return wrap(jnp.broadcast_to(total, (batch, total.shape[1], s1, s2)).astype(jnp.uint8))


def prompt_flash_attention(
    query,
    key,
    value,
    attn_mask=None,
    actual_seq_lengths=None,
    actual_seq_lengths_kv=None,
    pse_shift=None,
    deq_scale1=None,
    quant_scale1=None,
    deq_scale2=None,
    quant_scale2=None,
    quant_offset2=None,
    num_heads=1,
    scale_value=1.0,
    pre_tokens=2147483647,
    next_tokens=0,
    input_layout="BSH",
    num_key_value_heads=0,
    sparse_mode=0,
    inner_precise=1,
):
    r"""Full (prefill) attention, ``softmax(scale_value * Q K^T + pse_shift, masked) V``, as
    Ascend's PromptFlashAttention computes it: layouts ``BSH``, ``BSND`` and ``BNSD``,
    grouped key/value heads, ``attn_mask`` (True or 1 discards a score), the sparse modes
    and band of :func:`flash_attention_score`, and per-batch valid lengths of the queries
    (``actual_seq_lengths``) and keys (``actual_seq_lengths_kv``), which mask the rest.

    Returns:
        Tensor, the attention output in the query's layout, shape and dtype (rows past a
        batch's valid query length are zero).

    Raises:
        NotImplementedError: For the quantisation arguments.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only) and is
    differentiable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> q = ms.Tensor(np.ones((1, 2, 4), np.float32))
        >>> v = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 4))
        >>> out = ms.ops.prompt_flash_attention(q, q, v, num_heads=2, next_tokens=65535)
        >>> print(out)
        [[[2. 3. 4. 5.]
          [2. 3. 4. 5.]]]
    """
    api = "prompt_flash_attention"
    _no_quant(
        api,
        deq_scale1=deq_scale1,
        quant_scale1=quant_scale1,
        deq_scale2=deq_scale2,
        quant_scale2=quant_scale2,
        quant_offset2=quant_offset2,
    )
    return _prompt(
        api,
        query,
        key,
        value,
        attn_mask,
        actual_seq_lengths,
        actual_seq_lengths_kv,
        pse_shift,
        num_heads,
        scale_value,
        pre_tokens,
        next_tokens,
        input_layout,
        sparse_mode,
        stats=False,
    )


def _prompt(
    api,
    query,
    key,
    value,
    attn_mask,
    actual_seq_lengths,
    actual_seq_lengths_kv,
    pse_shift,
    num_heads,
    scale_value,
    pre_tokens,
    next_tokens,
    input_layout,
    sparse_mode,
    stats,
):
    """Prefill attention through :func:`flash_attention._run`: the output, or with ``stats``
    ``(softmax_max, softmax_sum, placeholder, output)``."""
    _check_layout(api, input_layout)
    if input_layout not in ("BSH", "BSND", "BNSD"):
        raise ValueError(
            f"For '{api}', 'input_layout' must be 'BSH', 'BSND' or 'BNSD', but got "
            f"'{input_layout}'."
        )
    q = arr(query, api, "query", tensor=True)
    k = arr(key, api, "key", tensor=True)
    batch, s1 = _batch_seq(input_layout, q)
    s2 = _batch_seq(input_layout, k)[1]
    masks = []
    if actual_seq_lengths is not None:
        masks.append(_length_mask(api, "actual_seq_lengths", actual_seq_lengths, batch, s1, 2))
    if actual_seq_lengths_kv is not None:
        masks.append(
            _length_mask(api, "actual_seq_lengths_kv", actual_seq_lengths_kv, batch, s2, 3)
        )
    if masks and sparse_mode in (2, 3, 4):
        # the causal diagonal and band count from each batch's own lengths: an explicit mask
        masks.append(
            _sparse_mask(
                api, actual_seq_lengths, actual_seq_lengths_kv, batch, s1, s2, sparse_mode,
                pre_tokens, next_tokens,
            )
        )  # fmt: skip
        attn_mask, sparse_mode = None, 1
    mask = _combined_mask(api, attn_mask, masks, batch, s1, s2) if masks else attn_mask
    # with sparse_mode 0 Ascend applies the pre_tokens/next_tokens band only together with an
    # attn_mask (without one, the default next_tokens=0 does not make the attention causal)
    if sparse_mode == 0 and attn_mask is None:
        pre_tokens, next_tokens = 2147483647, 2147483647
    return _run(
        api,
        query,
        key,
        value,
        num_heads,
        pse_shift,
        None,
        None,
        mask,
        None,
        None,
        None,
        1.0,
        scale_value,
        pre_tokens,
        next_tokens,
        0,
        input_layout,
        sparse_mode,
        stats,
    )


def incre_flash_attention(
    query,
    key,
    value,
    attn_mask=None,
    actual_seq_lengths=None,
    pse_shift=None,
    dequant_scale1=None,
    quant_scale1=None,
    dequant_scale2=None,
    quant_scale2=None,
    quant_offset2=None,
    antiquant_scale=None,
    antiquant_offset=None,
    block_table=None,
    num_heads=1,
    input_layout="BSH",
    scale_value=1.0,
    num_key_value_heads=0,
    block_size=0,
    inner_precise=1,
    kv_padding_size=None,
):
    r"""One decoding step of attention, as Ascend's IncreFlashAttention computes it: the
    query ``(B, 1, H)`` (``BSH``/``BSND``) or ``(B, N, 1, D)`` (``BNSD``) attends to the cached
    ``key``/``value`` (a Tensor or a list of one Tensor, ``(B, S_kv, H_kv)``), of which only
    the first ``actual_seq_lengths[b]`` positions of batch ``b`` are valid; ``attn_mask``
    (True or 1 discards) and ``pse_shift`` as in :func:`prompt_flash_attention`.

    Returns:
        Tensor, the attention output in the query's shape and dtype.

    Raises:
        NotImplementedError: For the quantisation arguments, ``block_table`` (paged caches)
            and ``kv_padding_size``.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only) and is
    differentiable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> q = ms.Tensor(np.ones((1, 1, 4), np.float32))
        >>> kv = ms.Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 4))
        >>> out = ms.ops.incre_flash_attention(q, [ms.ops.zeros((1, 3, 4))], [kv],
        ...                                    actual_seq_lengths=[2], num_heads=1)
        >>> print(out)
        [[[2. 3. 4. 5.]]]
    """
    api = "incre_flash_attention"
    _no_quant(
        api,
        dequant_scale1=dequant_scale1,
        quant_scale1=quant_scale1,
        dequant_scale2=dequant_scale2,
        quant_scale2=quant_scale2,
        quant_offset2=quant_offset2,
        antiquant_scale=antiquant_scale,
        antiquant_offset=antiquant_offset,
        block_table=block_table,
        kv_padding_size=kv_padding_size,
    )
    if isinstance(key, (list, tuple)):
        key = key[0] if len(key) == 1 else None
    if isinstance(value, (list, tuple)):
        value = value[0] if len(value) == 1 else None
    if key is None or value is None:
        raise ValueError(f"For '{api}', 'key' and 'value' must be a Tensor or a list of one.")
    return prompt_flash_attention(
        query,
        key,
        value,
        attn_mask,
        None,
        actual_seq_lengths,
        pse_shift,
        num_heads=num_heads,
        scale_value=scale_value,
        next_tokens=2147483647,  # the one query sees every valid cached key
        input_layout=input_layout,
        num_key_value_heads=num_key_value_heads,
    )


_FIA_LAYOUTS = ("BSH", "BNSD", "BSND", "BNSD_BSND")


def _one_tensor(api, name, value):
    """A key/value TensorList as one array: a single Tensor, or per-batch Tensors of one shape
    joined along the batch axis."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items or any(item is None for item in items):
        raise ValueError(f"For '{api}', '{name}' must be a Tensor or a non-empty list of them.")
    arrays = [arr(item, api, name, tensor=True) for item in items]
    if any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError(
            f"For '{api}', the Tensors of '{name}' must have one shape, but got "
            f"{[tuple(a.shape) for a in arrays]}."
        )
    return arrays[0] if len(arrays) == 1 else jnp.concatenate(arrays, 0)


def _from_blocks(api, name, cache, table, layout, kv_heads, block_size):
    """A paged cache ``(blocks, block_size, H)`` or ``(blocks, N, block_size, D)`` gathered by
    ``block_table`` ``(B, max_blocks)`` into a dense ``(B, S, ...)`` in ``layout``."""
    if cache.ndim not in (3, 4):
        raise ValueError(
            f"For '{api}', a paged '{name}' must be (blocks, block_size, H) or (blocks, N, "
            f"block_size, D), but got shape {tuple(cache.shape)}."
        )
    size = cache.shape[1] if cache.ndim == 3 else cache.shape[2]
    if block_size and block_size != size:
        raise ValueError(
            f"For '{api}', 'block_size' ({block_size}) must equal the block size of '{name}' "
            f"({size})."
        )
    blocks = cache[jnp.clip(table, 0, cache.shape[0] - 1)]  # (B, M, ...)
    b, m = table.shape
    if cache.ndim == 3:  # (B, M, bs, H) -> BSH
        dense = blocks.reshape(b, m * size, -1)
        if layout == "BSH":
            return dense
        dense = dense.reshape(b, m * size, kv_heads, -1)
        return dense if layout == "BSND" else dense.transpose(0, 2, 1, 3)
    dense = blocks.transpose(0, 2, 1, 3, 4).reshape(b, cache.shape[1], m * size, -1)  # BNSD
    if layout == "BNSD":
        return dense
    dense = dense.transpose(0, 2, 1, 3)
    return dense if layout == "BSND" else dense.reshape(b, m * size, -1)


def _fia_mask(api, mask, batch, s1, s2, sparse_mode, incremental):
    """``atten_mask`` in a shape ``flash_attention_score`` takes: bool ``(B, 1, S1, S2)``, or
    the optimized 2-D mask for sparse modes 2 to 4."""
    if mask is None:
        return None
    m = arr(mask, api, "atten_mask", tensor=True)
    if m.dtype not in (jnp.bool_, jnp.uint8, jnp.int8):
        raise TypeError(
            f"For '{api}', 'atten_mask' must be a bool, int8 or uint8 Tensor, but got {m.dtype}."
        )
    m = m != 0
    if not incremental and sparse_mode in (2, 3, 4):
        return wrap(m.reshape(m.shape[-2:]))
    if incremental and m.ndim in (2, 3):  # (B, KV_S) or (B, 1, KV_S)
        m = m.reshape(m.shape[0], 1, 1, -1)
    m = m.reshape((1,) * (4 - m.ndim) + m.shape)
    try:
        return wrap(jnp.broadcast_to(m, (batch, 1, s1, s2)))
    except ValueError:
        raise ValueError(
            f"For '{api}', 'atten_mask' must broadcast to {(batch, 1, s1, s2)}, but got shape "
            f"{tuple(arr(mask).shape)}."
        ) from None


def fused_infer_attention_score(
    query,
    key,
    value,
    *,
    pse_shift=None,
    atten_mask=None,
    actual_seq_lengths=None,
    actual_seq_lengths_kv=None,
    dequant_scale1=None,
    quant_scale1=None,
    dequant_scale2=None,
    quant_scale2=None,
    quant_offset2=None,
    antiquant_scale=None,
    antiquant_offset=None,
    key_antiquant_scale=None,
    key_antiquant_offset=None,
    value_antiquant_scale=None,
    value_antiquant_offset=None,
    block_table=None,
    query_padding_size=None,
    kv_padding_size=None,
    key_shared_prefix=None,
    value_shared_prefix=None,
    actual_shared_prefix_len=None,
    num_heads=1,
    scale=1.0,
    pre_tokens=2147483647,
    next_tokens=2147483647,
    input_layout="BSH",
    num_key_value_heads=0,
    sparse_mode=0,
    inner_precise=1,
    block_size=0,
    antiquant_mode=0,
    key_antiquant_mode=0,
    value_antiquant_mode=0,
    softmax_lse_flag=False,
):
    r"""Inference attention for both the prefill and the decoding step, as Ascend's
    FusedInferAttentionScore computes it: a query with one position (``Q_S == 1``) takes the
    incremental branch (:func:`incre_flash_attention`: ``actual_seq_lengths_kv`` valid keys,
    no band or sparse mode), any other the full branch (:func:`prompt_flash_attention`:
    ``actual_seq_lengths`` valid queries and ``actual_seq_lengths_kv`` valid keys, sparse modes
    0 to 4 with ``pre_tokens``/``next_tokens``).

    Layouts ``BSH``, ``BSND``, ``BNSD`` and ``BNSD_BSND`` (BNSD in, BSND out, full branch
    only); grouped key/value heads (``num_key_value_heads``; 0 means as many as the shapes
    give); ``atten_mask`` with True or 1 discarding a score, in any shape MindSpore lists
    (``(S1, S2)``, ``(B, S1, S2)``, ``(B, 1, S1, S2)``... ``(B, S2)`` when decoding);
    ``pse_shift`` added to the scaled scores; in the decoding step a paged key/value cache
    (``(blocks, block_size, H)`` or ``(blocks, N, block_size, D)``) read through
    ``block_table`` ``(B, max_blocks)``.

    Args:
        query (Tensor): float16, bfloat16 or float32 queries in ``input_layout``.
        key (Union[Tensor, list[Tensor]]): The keys (a list is joined along the batch axis).
        value (Union[Tensor, list[Tensor]]): The values, like ``key``.
        pse_shift (Tensor, optional): Added to the scaled scores. Default: ``None``.
        atten_mask (Tensor, optional): bool, int8 or uint8; True or 1 discards a score.
            Default: ``None``.
        actual_seq_lengths (Union[Tensor, list[int]], optional): Valid queries per batch.
            Default: ``None``.
        actual_seq_lengths_kv (Union[Tensor, list[int]], optional): Valid keys per batch.
            Default: ``None``.
        block_table (Tensor, optional): int32 ``(B, max_blocks)`` of a paged cache.
            Default: ``None``.
        num_heads (int): The query's heads. Default: ``1``.
        scale (float): The score scale, usually :math:`1/\sqrt{D}`. Default: ``1.0``.
        pre_tokens (int): The band before the diagonal (sparse modes 0 and 4).
            Default: ``2147483647``.
        next_tokens (int): The band after the diagonal. Default: ``2147483647``.
        input_layout (str): See above. Default: ``"BSH"``.
        num_key_value_heads (int): The key/value heads. Default: ``0``.
        sparse_mode (int): As in :func:`flash_attention_score` (0 to 4). Default: ``0``.
        block_size (int): Checked against the paged cache. Default: ``0``.
        softmax_lse_flag (bool): Also return each query row's log-sum-exp of the scaled
            scores. Default: ``False``.

    Of MindSpore's other arguments, the quantisation ones, the left-padding sizes and the
    shared prefix raise ``NotImplementedError`` when given; ``inner_precise`` and the
    antiquant modes have no effect on a float result.

    Returns:
        tuple: ``(attention_out, softmax_lse)``: the output in the query's shape (``BSND`` for
        ``BNSD_BSND``) and dtype; float32 ``(B, N, Q_S, 1)`` log-sum-exps (``-inf`` for a fully
        masked row) or, without ``softmax_lse_flag``, float32 zeros of shape ``(1,)``.

    Raises:
        NotImplementedError: For the quantisation arguments, the left-padding sizes and the
            shared prefix.
        ValueError: If the layout, heads or a mask shape do not fit.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only), takes float32
    and is differentiable; rows past a batch's valid query length are zero.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> q = ms.Tensor(np.ones((1, 2, 3, 4), np.float32))
        >>> out, lse = ms.ops.fused_infer_attention_score(q, q, q, num_heads=2,
        ...                                               input_layout="BNSD",
        ...                                               softmax_lse_flag=True)
        >>> print(out.shape, lse.shape, round(float(lse[0, 0, 0, 0]), 4))
        (1, 2, 3, 4) (1, 2, 3, 1) 5.0986
    """
    api = "fused_infer_attention_score"
    _no_quant(
        api,
        dequant_scale1=dequant_scale1,
        quant_scale1=quant_scale1,
        dequant_scale2=dequant_scale2,
        quant_scale2=quant_scale2,
        quant_offset2=quant_offset2,
        antiquant_scale=antiquant_scale,
        antiquant_offset=antiquant_offset,
        key_antiquant_scale=key_antiquant_scale,
        key_antiquant_offset=key_antiquant_offset,
        value_antiquant_scale=value_antiquant_scale,
        value_antiquant_offset=value_antiquant_offset,
        query_padding_size=query_padding_size,
        kv_padding_size=kv_padding_size,
        key_shared_prefix=key_shared_prefix,
        value_shared_prefix=value_shared_prefix,
        actual_shared_prefix_len=actual_shared_prefix_len,
    )
    if input_layout not in _FIA_LAYOUTS:
        raise ValueError(
            f"For '{api}', 'input_layout' must be one of {list(_FIA_LAYOUTS)}, but got "
            f"{input_layout!r}."
        )
    layout = "BNSD" if input_layout == "BNSD_BSND" else input_layout
    num_heads = check_ints(api, "num_heads", num_heads)
    kv_heads = check_ints(api, "num_key_value_heads", num_key_value_heads) or num_heads
    if num_heads <= 0 or kv_heads < 0 or num_heads % kv_heads:
        raise ValueError(
            f"For '{api}', 'num_heads' ({num_heads}) must be positive and divisible by "
            f"'num_key_value_heads' ({num_key_value_heads})."
        )
    q = arr(query, api, "query", tensor=True)
    k = _one_tensor(api, "key", key)
    v = _one_tensor(api, "value", value)
    batch, s1 = _batch_seq(layout, q)
    incremental = s1 == 1
    if incremental and input_layout == "BNSD_BSND":
        raise ValueError(f"For '{api}', input_layout 'BNSD_BSND' needs more than one query.")
    if block_table is not None:
        if not incremental:
            raise ValueError(f"For '{api}', 'block_table' is used only when decoding (Q_S 1).")
        table = arr(block_table, api, "block_table", tensor=True)
        k = _from_blocks(api, "key", k, table, layout, kv_heads, block_size)
        v = _from_blocks(api, "value", v, table, layout, kv_heads, block_size)
    s2 = _batch_seq(layout, k)[1]
    if num_key_value_heads and layout != "BSH":
        n2 = k.shape[1] if layout == "BNSD" else k.shape[2]
        if n2 != num_key_value_heads:
            raise ValueError(
                f"For '{api}', 'num_key_value_heads' ({num_key_value_heads}) must equal the "
                f"key's head count {n2}."
            )
    if incremental:
        sparse_mode, pre_tokens, next_tokens, actual_seq_lengths = 0, _INT_MAX, _INT_MAX, None
    elif sparse_mode not in range(5):
        raise ValueError(f"For '{api}', 'sparse_mode' must be 0 to 4, but got {sparse_mode}.")
    mask = _fia_mask(api, atten_mask, batch, s1, s2, sparse_mode, incremental)
    if incremental and mask is not None:  # decoding applies the mask as given, with no band
        sparse_mode = 1
    row_max, row_sum, _, out = _prompt(
        api,
        wrap(q),
        wrap(k),
        wrap(v),
        mask,
        actual_seq_lengths,
        actual_seq_lengths_kv,
        pse_shift,
        num_heads,
        scale,
        pre_tokens,
        next_tokens,
        layout,
        sparse_mode,
        stats=True,
    )
    if input_layout == "BNSD_BSND":
        out = wrap(arr(out).transpose(0, 2, 1, 3))
    if not softmax_lse_flag:
        return out, wrap(jnp.zeros((1,), jnp.float32))
    lse = arr(row_max)[..., :1] + jnp.log(arr(row_sum)[..., :1])
    return out, wrap(lse)


_FIA_INPUTS = (
    "pse_shift atten_mask actual_seq_lengths actual_seq_lengths_kv dequant_scale1 quant_scale1 "
    "dequant_scale2 quant_scale2 quant_offset2 antiquant_scale antiquant_offset block_table "
    "query_padding_size kv_padding_size key_antiquant_scale key_antiquant_offset "
    "value_antiquant_scale value_antiquant_offset key_shared_prefix value_shared_prefix "
    "actual_shared_prefix_len"
).split()


def _fia_call(self, query, key, value, *inputs, **named):
    # the primitive's inputs, in its order (the mask is named attn_mask there)
    if len(inputs) > len(_FIA_INPUTS):
        raise TypeError(
            f"For 'FusedInferAttentionScore', expected at most {3 + len(_FIA_INPUTS)} inputs, "
            f"but got {3 + len(inputs)}."
        )
    values = dict(zip(_FIA_INPUTS, inputs))
    if "attn_mask" in named:
        named["atten_mask"] = named.pop("attn_mask")
    values.update(named)
    attrs = dict(self.attrs)
    attrs["scale"] = attrs.pop("scale_value")
    return fused_infer_attention_score(query, key, value, **values, **attrs)


FusedInferAttentionScore = primitive(
    "FusedInferAttentionScore",
    fused_infer_attention_score,
    {
        "num_heads": 1,
        "scale_value": 1.0,
        "pre_tokens": _INT_MAX,
        "next_tokens": _INT_MAX,
        "input_layout": "BSH",
        "num_key_value_heads": 0,
        "sparse_mode": 0,
        "inner_precise": 1,
        "block_size": 0,
        "antiquant_mode": 0,
        "softmax_lse_flag": False,
        "key_antiquant_mode": 0,
        "value_antiquant_mode": 0,
    },
    _fia_call,
    r"""Primitive form of :func:`fused_infer_attention_score`: built with ``num_heads,
    scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, sparse_mode,
    inner_precise, block_size, antiquant_mode, softmax_lse_flag, key_antiquant_mode,
    value_antiquant_mode``, called with the Tensors (``attn_mask`` for the mask); returns
    ``(attention_out, softmax_lse)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import FusedInferAttentionScore
        >>> q = ms.Tensor(np.ones((2, 1, 8), np.float16))
        >>> kv = ms.Tensor(np.ones((2, 5, 4), np.float16))
        >>> fia = FusedInferAttentionScore(num_heads=2, num_key_value_heads=1)
        >>> out, lse = fia(q, [kv], [kv], actual_seq_lengths_kv=[3, 5])
        >>> print(out.shape, out.dtype, lse.shape)
        (2, 1, 8) Float16 (1,)
    """,
    module="cellax.ops.auto_generate",
)
