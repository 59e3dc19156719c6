"""Ascend's inference attention kernels on XLA: ``ops.prompt_flash_attention`` (the prefill
step) and ``ops.incre_flash_attention`` (one decoding step against a key/value cache), as
:func:`flash_attention_score` with the valid lengths turned into a mask. Float inputs only:
the quantisation arguments (``deq_scale*``/``quant_*``/``antiquant_*``) and paged caches
(``block_table``) raise ``NotImplementedError``.
"""

from __future__ import annotations

import jax.numpy as jnp

from .flash_attention import _batch_seq, _check_layout, flash_attention_score
from .utils import arr, check_ints, wrap

__all__ = ["prompt_flash_attention", "incre_flash_attention"]


def _no_quant(api, **values):
    given = sorted(name for name, value in values.items() if value is not None)
    if given:
        raise NotImplementedError(
            f"For '{api}', cellax runs the floating-point attention only; {given} (quantised or "
            "paged inputs) are not supported. Pass None for them."
        )


def _length_mask(api, name, lengths, batch, size, axis):
    """A (B, 1, S1, S2) bool mask, True past each batch's valid length along ``axis``
    (2: queries, 3: keys)."""
    values = check_ints(api, name, lengths, scalar=False, tensor=True)
    if len(values) not in (1, batch):
        raise ValueError(
            f"For '{api}', '{name}' must have one entry per batch ({batch}), but got {values}."
        )
    valid = jnp.asarray(values, jnp.int32).reshape(-1, 1, 1, 1) if values else None
    position = jnp.arange(size).reshape((1, 1, 1, -1) if axis == 3 else (1, 1, -1, 1))
    return position >= valid


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
    mask = _combined_mask(api, attn_mask, masks, batch, s1, s2) if masks else attn_mask
    # with sparse_mode 0 Ascend applies the pre_tokens/next_tokens band only together with an
    # attn_mask (without one, the default next_tokens=0 does not make the attention causal)
    if sparse_mode == 0 and attn_mask is None:
        pre_tokens, next_tokens = 2147483647, 2147483647
    return flash_attention_score(
        query,
        key,
        value,
        num_heads,
        real_shift=pse_shift,
        attn_mask=mask,
        scalar_value=scale_value,
        pre_tokens=pre_tokens,
        next_tokens=next_tokens,
        input_layout=input_layout,
        sparse_mode=sparse_mode,
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
