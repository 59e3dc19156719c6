"""Ascend's paged key/value cache kernels on XLA, as mindformers' inference path calls them:
``ReshapeAndCache`` writes each new token's key and value into a cache of fixed-size blocks at
its ``slot_mapping`` slot, and ``PagedAttention`` / ``PagedAttentionMask`` attend from each
query token to the ``context_lens[b]`` cached tokens its batch's row of ``block_tables``
points at. ``KVCacheScatterUpdate`` writes new tokens into a per-batch ``(B, H, S, D)``
cache from each batch's position.

A cache is ``(num_blocks, block_size, kv_heads, head_dim)`` or mindformers' NZ-free
``(num_blocks, block_size, kv_heads * head_dim)``; slot ``s`` is position ``s % block_size``
of block ``s // block_size``. Writing a cache that is a Parameter goes through ``ops.assign``
(so it works eagerly and inside ``jit``/``grad``, like MindSpore's in-place primitives); a
plain Tensor is updated in place. The block table, lengths and slots may be traced: shapes
never depend on their values.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._parameter import StateTensor
from ..._tensor import Tensor
from .inplace import _overwrite
from .primitive import primitive
from .state import assign
from .utils import arr, check_ints, wrap

__all__ = ["ReshapeAndCache", "PagedAttention", "PagedAttentionMask"]

# only in ops.auto_generate (ext_primitives); KVCacheScatterUpdate also in operations._infer_ops
AUTO_GENERATE = ["reshape_and_cache", "kv_cache_scatter_update", "KVCacheScatterUpdate"]


def _write(api, name, cache, new):
    if isinstance(cache, StateTensor):
        assign(cache, new)
    elif isinstance(cache, Tensor):
        _overwrite(api, cache, new)
    else:
        raise TypeError(f"For '{api}', '{name}' must be a Parameter or Tensor.")


def _cached(api, name, cache, tokens, slots):
    """``cache`` with the rows of ``tokens`` written at ``slots`` (negative slots skipped)."""
    data = arr(cache, api, name, tensor=True)
    if data.ndim not in (3, 4):
        raise ValueError(
            f"For '{api}', '{name}' must be (num_blocks, block_size, kv_heads, head_dim) or "
            f"(num_blocks, block_size, hidden), but got shape {tuple(data.shape)}."
        )
    rows = data.reshape((-1,) + data.shape[2:])
    values = arr(tokens, api, name.replace("_cache", ""), tensor=True)
    per_slot = int(np.prod(data.shape[2:]))
    if values.size != slots.shape[0] * per_slot:
        raise ValueError(
            f"For '{api}', '{name.replace('_cache', '')}' must hold {slots.shape[0]} tokens of "
            f"{data.shape[2:]} (one per slot), but got shape {tuple(values.shape)}."
        )
    values = values.reshape((slots.shape[0],) + data.shape[2:]).astype(data.dtype)
    where = jnp.where(slots < 0, rows.shape[0], slots)  # past the end: dropped
    return rows.at[where].set(values, mode="drop").reshape(data.shape)


def reshape_and_cache(key, value=None, key_cache=None, value_cache=None, slot_mapping=None):
    r"""Write the new tokens' keys (and values) into a block-wise key/value cache, in place:
    token ``t`` goes to slot ``slot_mapping[t]``, i.e. position ``slot % block_size`` of block
    ``slot // block_size``; a negative slot (padding) writes nothing.

    Args:
        key (Tensor): The new keys, ``(num_tokens, kv_heads, head_dim)`` or any shape with
            ``num_tokens * kv_heads * head_dim`` elements in token order (mindformers passes
            ``(batch, seq, hidden)``).
        value (Tensor, optional): The new values, like ``key``. Default: ``None``.
        key_cache (Parameter): ``(num_blocks, block_size, kv_heads, head_dim)`` or
            ``(num_blocks, block_size, kv_heads * head_dim)``, updated in place.
        value_cache (Parameter, optional): Like ``key_cache``; with ``value``. Default: ``None``.
        slot_mapping (Tensor): int32 ``(num_tokens,)``, the slot of each token.

    Returns:
        Tensor, ``key`` (the caches are the result; MindSpore returns a Tensor like ``key``).

    Raises:
        TypeError: If a cache is not a Tensor or ``slot_mapping`` is not an integer Tensor.
        ValueError: If the shapes do not fit.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only); any float dtype.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import reshape_and_cache
        >>> cache = ms.Parameter(ms.ops.zeros((2, 2, 1, 1)), name="key_cache")
        >>> key = ms.Tensor(np.array([[[1.0]], [[2.0]]], np.float32))
        >>> _ = reshape_and_cache(key, None, cache, None, ms.Tensor([3, 0], ms.int32))
        >>> print(cache.asnumpy().ravel())
        [2. 0. 0. 1.]
    """
    api = "reshape_and_cache"
    if key_cache is None or slot_mapping is None:
        raise ValueError(f"For '{api}', 'key_cache' and 'slot_mapping' are required.")
    if (value is None) != (value_cache is None):
        raise ValueError(f"For '{api}', 'value' and 'value_cache' must be given together.")
    slots = arr(slot_mapping, api, "slot_mapping", tensor=True).reshape(-1)
    if not jnp.issubdtype(slots.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'slot_mapping' must be an integer Tensor.")
    slots = slots.astype(jnp.int32)
    new_key = _cached(api, "key_cache", key_cache, key, slots)
    new_value = None if value is None else _cached(api, "value_cache", value_cache, value, slots)
    _write(api, "key_cache", key_cache, new_key)
    if new_value is not None:
        _write(api, "value_cache", value_cache, new_value)
    return key


ReshapeAndCache = primitive(
    "ReshapeAndCache",
    None,
    None,
    lambda self, key, value=None, key_cache=None, value_cache=None, slot_mapping=None: (
        reshape_and_cache(key, value, key_cache, value_cache, slot_mapping)
    ),
    """Primitive form of :func:`reshape_and_cache`: ``ReshapeAndCache()(key, value, key_cache,
    value_cache, slot_mapping)`` writes the caches in place.

    Examples:
        >>> import cellax as ms
        >>> cache = ms.Parameter(ms.ops.zeros((1, 4, 2)), name="k")
        >>> _ = ms.ops.ReshapeAndCache()(ms.ops.ones((1, 2)), None, cache, None,
        ...                              ms.Tensor([2], ms.int32))
        >>> print(cache.asnumpy()[0, 2])
        [1. 1.]
    """,
)


def kv_cache_scatter_update(var, indices, updates, axis, reduce="none"):
    r"""Write new tokens into a per-batch key/value cache along its sequence axis, in place.

    ``var`` is ``(B, H, S, D)``. With ``axis=-2`` ``updates`` is ``(B, H, u, D)`` and batch
    ``b`` is written at sequence positions ``indices[b] .. indices[b] + u - 1``; with
    ``axis=-1`` the sequence is the last axis (``var`` ``(B, H, D, S)``, ``updates``
    ``(B, H, D, u)``). Positions outside ``[0, S)`` are not written.

    Args:
        var (Parameter): The 4-D cache, updated in place.
        indices (Tensor): int ``(B,)``, the first position written in each batch.
        updates (Tensor): 4-D, like ``var`` except ``u`` positions along ``axis``.
        axis (int): The sequence axis, ``-1`` or ``-2`` (``3``/``2`` are accepted too).
        reduce (str): ``"none"`` or ``"update"``; both overwrite. Default: ``"none"``.

    Returns:
        Tensor, ``var`` after the write.

    Raises:
        TypeError: If ``var`` is not a Tensor or ``indices`` not an integer Tensor.
        ValueError: If ``axis``, ``reduce`` or the shapes are not as above.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only); positions past
    the cache or negative are dropped rather than undefined.
    MindSpore: https://www.mindspore.cn/docs/en/r2.7.0/api_python/ops/mindspore.ops.kv_cache_scatter_update.html

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import kv_cache_scatter_update
        >>> cache = ms.Parameter(ms.ops.zeros((2, 1, 4, 1)), name="key_cache")
        >>> updates = ms.Tensor(np.array([1.0, 2.0]).reshape(2, 1, 1, 1), ms.float32)
        >>> _ = kv_cache_scatter_update(cache, ms.Tensor([3, 0], ms.int64), updates, -2)
        >>> print(cache.asnumpy()[:, 0, :, 0])
        [[0. 0. 0. 1.]
         [2. 0. 0. 0.]]
    """
    api = "kv_cache_scatter_update"
    data = arr(var, api, "var", tensor=True)
    new = arr(updates, api, "updates", tensor=True)
    starts = arr(indices, api, "indices", tensor=True)
    if reduce not in ("none", "update"):
        raise ValueError(f"For '{api}', 'reduce' must be 'none' or 'update', but got {reduce!r}.")
    axis = check_ints(api, "axis", axis)
    if axis not in (-1, -2, 2, 3):
        raise ValueError(f"For '{api}', 'axis' must be -1 or -2, but got {axis}.")
    axis = axis % 4
    others = [i for i in range(4) if i != axis]
    fits = data.ndim == 4 and new.ndim == 4 and new.shape[axis] <= data.shape[axis]
    if not fits or [new.shape[i] for i in others] != [data.shape[i] for i in others]:
        raise ValueError(
            f"For '{api}', 'var' and 'updates' must be 4-D and equal except along axis {axis} "
            f"(at most var's length there), but got var {tuple(data.shape)} and updates "
            f"{tuple(new.shape)}."
        )
    if not jnp.issubdtype(starts.dtype, jnp.integer) or starts.shape != (data.shape[0],):
        raise TypeError(
            f"For '{api}', 'indices' must be an integer Tensor of shape ({data.shape[0]},) "
            f"(one start per batch), but got {starts.dtype} {tuple(starts.shape)}."
        )
    length = data.shape[axis]
    where = starts.astype(jnp.int32)[:, None] + jnp.arange(new.shape[axis])  # (B, u)
    where = jnp.where((where < 0) | (where >= length), length, where)  # past the end: dropped
    seq_data, seq_new = jnp.moveaxis(data, axis, 1), jnp.moveaxis(new, axis, 1)
    batch = jnp.arange(data.shape[0])[:, None]
    seq_data = seq_data.at[batch, where].set(seq_new.astype(data.dtype), mode="drop")
    return _overwrite(api, var, jnp.moveaxis(seq_data, 1, axis))


KVCacheScatterUpdate = primitive(
    "KVCacheScatterUpdate",
    None,
    None,
    lambda self, var, indices, updates, axis, reduce="none": kv_cache_scatter_update(
        var, indices, updates, axis, reduce
    ),
    """Primitive form of :func:`kv_cache_scatter_update`: ``KVCacheScatterUpdate()(var,
    indices, updates, axis, reduce)`` writes ``var`` in place and returns it.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import KVCacheScatterUpdate
        >>> cache = ms.Parameter(ms.ops.zeros((1, 1, 2, 3)), name="v")
        >>> _ = KVCacheScatterUpdate()(cache, ms.Tensor([1], ms.int64),
        ...                            ms.ops.ones((1, 1, 2, 1)), -1, "update")
        >>> print(cache.asnumpy()[0, 0])
        [[0. 1. 0.]
         [0. 1. 0.]]
    """,
    module="cellax.ops.auto_generate",
)


def _dense(cache, table, kv_heads):
    """The cached tokens of each batch, ``(B, max_blocks * block_size, kv_heads, D)``."""
    blocks = cache[jnp.clip(table, 0, cache.shape[0] - 1)]  # (B, M, block_size, ...)
    b, m, size = blocks.shape[:3]
    return blocks.reshape(b, m * size, kv_heads, -1)


def _paged(api, attrs, query, key_cache, value_cache, block_tables, context_lens,
           antiquant_scale, antiquant_offset, attn_mask, q_seq_lens, alibi_mask):  # fmt: skip
    if antiquant_scale is not None or antiquant_offset is not None:
        raise NotImplementedError(
            f"For '{api}', cellax runs float caches only; 'antiquant_scale'/'antiquant_offset' "
            "(int8 caches) are not supported. Pass None."
        )
    heads = check_ints(api, "head_num", attrs["head_num"])
    kv_heads = check_ints(api, "kv_head_num", attrs.get("kv_head_num") or heads) or heads
    v_dim = check_ints(api, "mla_v_dim", attrs.get("mla_v_dim", 0))
    mode = attrs.get("mask_mode", "MASK_DEFAULT")
    if mode not in ("MASK_DEFAULT", "TRAPEZOIDAL"):
        raise ValueError(
            f"For '{api}', 'mask_mode' must be 'MASK_DEFAULT' or 'TRAPEZOIDAL', but got {mode!r}."
        )
    if attrs.get("kv_cache_quant_mode", "DEFAULT") not in ("DEFAULT", "PERTOKEN"):
        raise ValueError(f"For '{api}', 'kv_cache_quant_mode' must be 'DEFAULT' or 'PERTOKEN'.")
    if heads <= 0 or heads % kv_heads:
        raise ValueError(
            f"For '{api}', 'head_num' ({heads}) must be positive and a multiple of "
            f"'kv_head_num' ({kv_heads})."
        )
    q = arr(query, api, "query", tensor=True)
    k_cache = arr(key_cache, api, "key_cache", tensor=True)
    v_cache = k_cache if value_cache is None else arr(value_cache, api, "value_cache", tensor=True)
    table = arr(block_tables, api, "block_tables", tensor=True).astype(jnp.int32)
    lengths = arr(context_lens, api, "context_lens", tensor=True).reshape(-1).astype(jnp.int32)
    if k_cache.ndim not in (3, 4) or table.ndim != 2 or lengths.shape[0] != table.shape[0]:
        raise ValueError(
            f"For '{api}', the caches must be 3-D or 4-D, 'block_tables' (batch, max_blocks) "
            f"and 'context_lens' (batch,), but got {tuple(k_cache.shape)}, "
            f"{tuple(table.shape)} and {tuple(lengths.shape)}."
        )
    d = k_cache.shape[-1] if k_cache.ndim == 4 else k_cache.shape[-1] // kv_heads
    if q.size % (heads * d):
        raise ValueError(
            f"For '{api}', 'query' must hold head_num * head_dim = {heads} * {d} values per "
            f"token, but got shape {tuple(q.shape)}."
        )
    tokens = q.size // (heads * d)
    batch = table.shape[0]
    if q_seq_lens is None:
        if tokens != batch:
            raise ValueError(
                f"For '{api}', without 'q_seq_lens' there is one query token per batch "
                f"({batch}), but 'query' {tuple(q.shape)} holds {tokens}."
            )
        owner = jnp.arange(batch)
        position = lengths - 1
    else:  # the tokens of batch b are the last q_seq_lens[b] positions of its context
        counts = arr(q_seq_lens, api, "q_seq_lens", tensor=True).reshape(-1).astype(jnp.int32)
        ends = jnp.cumsum(counts)
        t = jnp.arange(tokens)
        owner = jnp.minimum(jnp.searchsorted(ends, t, side="right"), batch - 1)
        position = lengths[owner] - (ends[owner] - t)
    keys = _dense(k_cache, table, kv_heads)[owner]  # (T, S, kv_heads, D)
    values = _dense(v_cache, table, kv_heads)[owner]
    if v_dim:
        values = values[..., :v_dim]
    s = keys.shape[1]
    qg = q.reshape(tokens, kv_heads, heads // kv_heads, d)
    scores = jnp.einsum("thgd,tshd->thgs", qg, keys, preferred_element_type=jnp.float32)
    scores = scores.reshape(tokens, heads, s) * attrs["scale_value"]
    if alibi_mask is not None:
        bias = arr(alibi_mask, api, "alibi_mask", tensor=True).astype(jnp.float32)
        scores = scores + bias.reshape(tokens, heads, -1)[..., :s]
    if attn_mask is not None:
        mask = arr(attn_mask, api, "attn_mask", tensor=True).astype(jnp.float32)
        scores = scores + mask.reshape(tokens, 1, -1)[..., :s]
    j = jnp.arange(s)[None, None, :]
    keep = j < lengths[owner][:, None, None]
    if mode == "TRAPEZOIDAL":
        keep = keep & (j <= position[:, None, None])
    scores = jnp.where(keep, scores, -jnp.inf)
    top = jnp.max(scores, -1, keepdims=True)
    weights = jnp.exp(scores - jnp.where(jnp.isfinite(top), top, 0.0))
    total = jnp.sum(weights, -1, keepdims=True)
    probs = (weights / jnp.where(total > 0, total, 1.0)).reshape(tokens, kv_heads, -1, s)
    out = jnp.einsum(
        "thgs,tshd->thgd", probs.astype(values.dtype), values, preferred_element_type=jnp.float32
    )
    out_shape = q.shape[:-1] + (q.shape[-1] // d * values.shape[-1],)
    if q.ndim >= 2 and q.shape[-2:] == (heads, d):
        out_shape = q.shape[:-1] + (values.shape[-1],)
    return wrap(out.reshape(out_shape).astype(q.dtype))


_PAGED_DOC = r"""Attention of each query token over its batch's cached tokens, read from
a block-wise key/value cache (Ascend's PagedAttention{mask_title}): token ``t`` of batch ``b``
sees the first ``context_lens[b]`` positions of the blocks ``block_tables[b]``, softmax of
``scale_value * q k^T`` {bias} taken in float32, grouped key/value heads.

Built with ``{init}``; called with ``{call}``.

``query`` is ``(tokens, head_num, head_dim)``, ``(tokens, head_num * head_dim)`` or
``(batch, seq, head_num * head_dim)`` (mindformers' layout); the output has its shape
(``mla_v_dim`` per head for multi-latent attention, whose value cache is the key cache's
first ``mla_v_dim`` columns) and dtype. {extra}

Raises:
    NotImplementedError: For int8 caches (``antiquant_scale``/``antiquant_offset``).
    ValueError: If the shapes or heads do not fit.

Differences from MindSpore: runs on every device (MindSpore: Ascend only) and is
differentiable with respect to the query and the caches.

Examples:
    >>> import numpy as np
    >>> import cellax as ms
    >>> cache = ms.Tensor(np.arange(8, dtype=np.float32).reshape(4, 2, 1, 1))
    >>> q = ms.Tensor(np.zeros((2, 1, 1), np.float32))
    >>> pa = ms.ops.{name}(1, 1.0, 1)
    >>> out = pa(q, cache, cache, ms.Tensor([[1, 3], [0, 2]], ms.int32),
    ...          ms.Tensor([2, 1], ms.int32))
    >>> print(out.asnumpy().ravel())
    [2.5 0. ]
"""


def _paged_call(self, query, key_cache, value_cache=None, block_tables=None, context_lens=None,
                antiquant_scale=None, antiquant_offset=None, attn_mask=None, q_seq_lens=None,
                alibi_mask=None):  # fmt: skip
    return _paged("PagedAttention", self.attrs, query, key_cache, value_cache, block_tables,
                  context_lens, antiquant_scale, antiquant_offset, attn_mask, q_seq_lens,
                  alibi_mask)  # fmt: skip


def _paged_mask_call(self, query, key_cache, value_cache, block_tables, context_lens,
                     antiquant_scale=None, antiquant_offset=None, alibi_mask=None):  # fmt: skip
    return _paged("PagedAttentionMask", self.attrs, query, key_cache, value_cache, block_tables,
                  context_lens, antiquant_scale, antiquant_offset, None, None, alibi_mask)  # fmt: skip


PagedAttention = primitive(
    "PagedAttention",
    None,
    {
        "head_num": None,
        "scale_value": 1.0,
        "kv_head_num": None,
        "kv_cache_quant_mode": "DEFAULT",
        "mask_mode": "MASK_DEFAULT",
        "mla_v_dim": 0,
    },
    _paged_call,
    _PAGED_DOC.format(
        mask_title="",
        bias="plus ``attn_mask`` (additive, ``(tokens, max_context)``; mindformers passes "
        "``-10000`` where a key is hidden)",
        init="head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT', "
        "mask_mode='MASK_DEFAULT', mla_v_dim=0",
        call="(query, key_cache, value_cache, block_tables, context_lens, antiquant_scale, "
        "antiquant_offset, attn_mask, q_seq_lens, alibi_mask)",
        extra="With ``q_seq_lens`` (parallel decoding, chunked prefill) the tokens are packed "
        "by batch, batch ``b``'s ``q_seq_lens[b]`` tokens being the last positions of its "
        "context; ``mask_mode='TRAPEZOIDAL'`` then makes them causal without a mask.",
        name="PagedAttention",
    ),
)
PagedAttentionMask = primitive(
    "PagedAttentionMask",
    None,
    {"head_num": None, "scale_value": 1.0, "kv_head_num": None, "kv_cache_quant_mode": "DEFAULT"},
    _paged_mask_call,
    _PAGED_DOC.format(
        mask_title="Mask, with an ALiBi bias",
        bias="plus ``alibi_mask`` (``(tokens, head_num, 1, max_context)``)",
        init="head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT'",
        call="(query, key_cache, value_cache, block_tables, context_lens, antiquant_scale, "
        "antiquant_offset, alibi_mask)",
        extra="",
        name="PagedAttentionMask",
    ),
)
