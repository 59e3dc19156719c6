"""Ascend's mixture-of-experts kernels on XLA: token routing (``moe_token_permute`` and
``moe_token_unpermute``, ``MoeInitRouting``/``V2``, ``MoeFinalizeRouting``,
``MoeComputeExpertTokens``) and the gating softmax (``MoeGatingTopKSoftmax``), which
mindformers' MoE layers call, next to the grouped matmul of ``grouped_matmul.py``.

MindSpore runs them on Ascend only; here each is plain JAX (a stable sort and gathers),
differentiable with respect to its floating inputs and usable under ``jit``. Expert ids may be
traced: shapes never depend on their values.

``__all__`` holds the names MindSpore 2.10 has in ``mindspore.ops``; ``AUTO_GENERATE`` the
ones only ``mindspore.ops.auto_generate`` has (``ext_primitives`` exports them there, with the
grouped matmul's).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._errors import check_bool, check_int_arg
from .grouped_matmul import _AUTO, _generated
from .primitive import primitive
from .utils import arr, wrap

__all__ = ["moe_token_permute", "moe_token_unpermute", "moe_init_routing_v2"]

AUTO_GENERATE = [
    "grouped_matmul",
    "grouped_matmul_v2",
    "grouped_matmul_v4",
    "moe_init_routing",
    "moe_finalize_routing",
    "moe_compute_expert_tokens",
    "GroupedMatmul",
    "GroupedMatmulV2",
    "GroupedMatmulV4",
    "MoeInitRouting",
    "MoeInitRoutingV2",
    "MoeFinalizeRouting",
    "MoeComputeExpertTokens",
    "MoeGatingTopKSoftmax",
    "MoeTokenPermute",
    "MoeTokenUnpermute",
    "FusedAddTopKDiv",
    "fused_add_topk_div",
]


def _flat_experts(api, indices, rows):
    experts = arr(indices, api, "indices", tensor=True)
    if not jnp.issubdtype(experts.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'indices' must be an int Tensor, but got {experts.dtype}.")
    if experts.ndim not in (1, 2) or experts.shape[0] != rows:
        raise ValueError(
            f"For '{api}', 'indices' must be (num_tokens,) or (num_tokens, topk) with "
            f"num_tokens={rows}, but got shape {tuple(experts.shape)}."
        )
    topk = 1 if experts.ndim == 1 else experts.shape[1]
    return experts.reshape(-1), topk


def _rank(order):
    """The inverse permutation of ``order``: where each slot went."""
    return jnp.zeros_like(order).at[order].set(jnp.arange(order.shape[0], dtype=order.dtype))


def moe_token_permute(tokens, indices, num_out_tokens=None, padded_mode=False):
    """Group the rows of ``tokens`` by expert: each token is copied once per expert in
    ``indices`` (``(num_tokens,)`` or ``(num_tokens, topk)``), the copies ordered by expert
    id (stably). Returns ``(permuted_tokens, sorted_indices)``, where ``sorted_indices[s]`` is
    the output row of slot ``s = token * topk + k``; ``num_out_tokens`` keeps the first rows.

    Raises:
        TypeError: If ``tokens``/``indices`` are not Tensors or ``indices`` is not int.
        ValueError: If the shapes do not fit, or ``padded_mode`` is True.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> tokens = ms.Tensor(np.array([[1.], [7.], [2.], [1.], [2.], [3.]], np.float32))
        >>> out, order = ms.ops.moe_token_permute(tokens, ms.Tensor([5, 0, 3, 1, 2, 4], ms.int32))
        >>> print(out.asnumpy().ravel(), order)
        [7. 1. 2. 2. 3. 1.] [5 0 3 1 2 4]
    """
    api = "moe_token_permute"
    values = arr(tokens, api, "tokens", tensor=True)
    check_bool(api, "padded_mode", padded_mode)
    if padded_mode:
        raise ValueError(f"For '{api}', 'padded_mode' can only be False, but got True.")
    if values.ndim != 2:
        raise ValueError(f"For '{api}', 'tokens' must be 2-D, but got shape {values.shape}.")
    experts, topk = _flat_experts(api, indices, values.shape[0])
    order = jnp.argsort(experts, stable=True).astype(jnp.int32)
    permuted = values[order // topk]
    if num_out_tokens is not None:
        check_int_arg(api, "num_out_tokens", num_out_tokens, 0)
        permuted = permuted[:num_out_tokens]
    return wrap(permuted), wrap(_rank(order))


def moe_token_unpermute(
    permuted_tokens, sorted_indices, probs=None, padded_mode=False, restore_shape=None
):
    """Undo :func:`moe_token_permute`: token ``t``'s row is
    ``sum_k probs[t, k] * permuted_tokens[sorted_indices[t * topk + k]]`` (``topk`` from
    ``probs``, 1 without it).

    Raises:
        ValueError: If the shapes do not fit, or ``padded_mode`` is True.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> rows = ms.Tensor(np.array([[7.], [1.], [2.], [2.], [3.], [1.]], np.float32))
        >>> order = ms.Tensor([5, 0, 3, 1, 2, 4], ms.int32)
        >>> print(ms.ops.moe_token_unpermute(rows, order).asnumpy().ravel())
        [1. 7. 2. 1. 2. 3.]
    """
    api = "moe_token_unpermute"
    values = arr(permuted_tokens, api, "permuted_tokens", tensor=True)
    order = arr(sorted_indices, api, "sorted_indices", tensor=True)
    check_bool(api, "padded_mode", padded_mode)
    if padded_mode:
        raise ValueError(f"For '{api}', 'padded_mode' can only be False, but got True.")
    if values.ndim != 2 or order.ndim != 1:
        raise ValueError(
            f"For '{api}', 'permuted_tokens' must be 2-D and 'sorted_indices' 1-D, but got "
            f"shapes {values.shape} and {order.shape}."
        )
    if probs is None:
        return wrap(values[order])
    weights = arr(probs, api, "probs", tensor=True)
    if weights.ndim != 2 or weights.size != order.shape[0]:
        raise ValueError(
            f"For '{api}', 'probs' must be (num_tokens, topk) with num_tokens * topk = "
            f"{order.shape[0]}, but got shape {weights.shape}."
        )
    gathered = values[order].reshape(weights.shape + values.shape[1:])
    merged = jnp.sum(gathered * weights[..., None].astype(values.dtype), axis=1)
    return wrap(merged.astype(values.dtype))


def _routing_inputs(api, x, expert_idx):
    values = arr(x, api, "x", tensor=True)
    experts = arr(expert_idx, api, "expert_idx", tensor=True)
    if values.ndim != 2 or experts.ndim != 2 or experts.shape[0] != values.shape[0]:
        raise ValueError(
            f"For '{api}', 'x' must be (NUM_ROWS, H) and 'expert_idx' (NUM_ROWS, K), but got "
            f"shapes {values.shape} and {experts.shape}."
        )
    return values, experts


def moe_init_routing(x, row_idx, expert_idx, active_num):
    """Expand the rows of ``x`` to one per (row, selected expert), ordered by expert:
    returns ``(expanded_x, expanded_row_idx, expanded_expert_idx)``. The slots of
    ``expert_idx`` ``(N, K)`` are sorted stably by expert, carrying ``row_idx`` (normally
    ``row_idx[i, k] = k * N + i``); ``expanded_x[j] = x[sorted_row[j] % N]`` for the first
    ``min(N, active_num) * K`` of them, ``expanded_row_idx[sorted_row[j]] = j`` and
    ``expanded_expert_idx`` is the sorted experts.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import moe_init_routing
        >>> x = ms.Tensor(np.array([[1.], [2.]], np.float32))
        >>> row_idx = ms.Tensor([[0, 2], [1, 3]], ms.int32)
        >>> out, rows, experts = moe_init_routing(x, row_idx, ms.Tensor([[1, 0], [0, 1]], ms.int32), 2)
        >>> print(out.asnumpy().ravel(), rows, experts)
        [1. 2. 1. 2.] [2 1 0 3] [0 0 1 1]
    """
    api = "MoeInitRouting"
    values, experts = _routing_inputs(api, x, expert_idx)
    rows_in = arr(row_idx, api, "row_idx", tensor=True)
    if rows_in.shape != experts.shape:
        raise ValueError(
            f"For '{api}', 'row_idx' must have the shape of 'expert_idx' {experts.shape}, but "
            f"got {rows_in.shape}."
        )
    check_int_arg(api, "active_num", active_num, 0)
    n, k = experts.shape
    order = jnp.argsort(experts.reshape(-1), stable=True)
    sorted_rows = rows_in.reshape(-1)[order].astype(jnp.int32)
    expanded = values[(sorted_rows % n)[: min(n, active_num) * k]]
    positions = jnp.arange(n * k, dtype=jnp.int32)
    expanded_row_idx = jnp.zeros(n * k, jnp.int32).at[sorted_rows].set(positions)
    return wrap(expanded), wrap(expanded_row_idx), wrap(experts.reshape(-1)[order])


def moe_init_routing_v2(
    x,
    expert_idx,
    active_num,
    expert_capacity,
    expert_num,
    drop_pad_mode,
    expert_tokens_count_or_cumsum_flag,
    expert_tokens_before_capacity_flag,
):
    """Expand the rows of ``x`` ``(N, H)`` to one per (row, selected expert) of
    ``expert_idx`` ``(N, K)``, ordered stably by expert; ``expanded_row_idx[s]`` is the output
    row of slot ``s = row * K + k`` (-1 if dropped).

    ``drop_pad_mode=0``: ``expanded_x`` is ``(N*K, H)``, or its first ``active_num`` rows when
    ``active_num > 0``. ``drop_pad_mode=1``: ``expanded_x`` is
    ``(expert_num, expert_capacity, H)``, each expert's first ``expert_capacity`` rows, zero
    padded, the others dropped. ``expert_tokens_count_or_cumsum_flag`` 1/2 adds the cumulative
    / plain number of rows of each expert (mode 0); ``expert_tokens_before_capacity_flag`` adds
    each expert's count before dropping (mode 1).

    Returns:
        tuple: ``(expanded_x, expanded_row_idx)``, plus the requested count Tensor.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.1, 0.2], [0.2, 0.7], [0.3, 0.5]], np.float32))
        >>> experts = ms.Tensor([[0, 1, 1], [2, 1, 1], [0, 0, 0]], ms.int32)
        >>> out, rows = ms.ops.moe_init_routing_v2(x, experts, 3, 2, 3, 1, 0, False)
        >>> print(out.shape, rows)
        (3, 2, 2) [ 0  2  3  4 -1 -1  1 -1 -1]
    """
    outputs = _moe_init_routing_v2(
        x,
        expert_idx,
        active_num,
        expert_capacity,
        expert_num,
        drop_pad_mode,
        expert_tokens_count_or_cumsum_flag,
        expert_tokens_before_capacity_flag,
    )
    if drop_pad_mode == 1 and expert_tokens_before_capacity_flag:
        return outputs[0], outputs[1], outputs[3]
    if drop_pad_mode == 0 and expert_tokens_count_or_cumsum_flag != 0:
        return outputs[0], outputs[1], outputs[2]
    return outputs[0], outputs[1]


def _moe_init_routing_v2(
    x,
    expert_idx,
    active_num,
    expert_capacity,
    expert_num,
    drop_pad_mode,
    expert_tokens_count_or_cumsum_flag,
    expert_tokens_before_capacity_flag,
):
    api = "MoeInitRoutingV2"
    values, experts = _routing_inputs(api, x, expert_idx)
    active_num = check_int_arg(api, "active_num", active_num, 0)
    capacity = check_int_arg(api, "expert_capacity", expert_capacity, 0)
    expert_num = check_int_arg(api, "expert_num", expert_num, 0)
    check_int_arg(api, "drop_pad_mode", drop_pad_mode)
    flag = check_int_arg(
        api, "expert_tokens_count_or_cumsum_flag", expert_tokens_count_or_cumsum_flag
    )
    check_bool(api, "expert_tokens_before_capacity_flag", expert_tokens_before_capacity_flag)
    if drop_pad_mode not in (0, 1) or flag not in (0, 1, 2):
        raise ValueError(
            f"For '{api}', 'drop_pad_mode' must be 0 or 1 and "
            f"'expert_tokens_count_or_cumsum_flag' 0, 1 or 2, but got {drop_pad_mode} and {flag}."
        )
    if (drop_pad_mode == 1 or flag) and expert_num <= 0:
        raise ValueError(f"For '{api}', 'expert_num' must be positive here, but got {expert_num}.")
    if drop_pad_mode == 1 and not 0 < capacity <= values.shape[0]:
        raise ValueError(
            f"For '{api}', 'expert_capacity' must be in (0, {values.shape[0]}] when "
            f"'drop_pad_mode' is 1, but got {capacity}."
        )
    n, k = experts.shape
    flat = experts.reshape(-1).astype(jnp.int32)
    order = jnp.argsort(flat, stable=True).astype(jnp.int32)
    sorted_experts = flat[order]
    counts = jnp.zeros(max(expert_num, 1), jnp.int32).at[flat].add(1, mode="drop")[:expert_num]
    if drop_pad_mode == 0:
        keep = n * k if active_num == 0 else min(active_num, n * k)
        expanded = values[order[:keep] // k]
        rank = _rank(order)
        expanded_row_idx = jnp.where(rank < keep, rank, -1) if keep < n * k else rank
    else:
        starts = jnp.searchsorted(sorted_experts, sorted_experts, side="left")
        within = jnp.arange(n * k, dtype=jnp.int32) - starts.astype(jnp.int32)
        kept = (within < capacity) & (sorted_experts >= 0) & (sorted_experts < expert_num)
        destination = jnp.where(kept, sorted_experts * capacity + within, expert_num * capacity)
        rows = values[order // k]
        expanded = jnp.zeros((expert_num * capacity + 1, values.shape[1]), values.dtype)
        expanded = expanded.at[destination].set(rows)[:-1].reshape(expert_num, capacity, -1)
        expanded_row_idx = (
            jnp.zeros(n * k, jnp.int32).at[order].set(jnp.where(kept, destination, -1))
        )
    tokens = jnp.cumsum(counts) if flag == 1 else counts
    return wrap(expanded), wrap(expanded_row_idx), wrap(tokens), wrap(counts)


def moe_finalize_routing(
    expanded_x,
    x1,
    x2=None,
    bias=None,
    scales=None,
    expanded_row_idx=None,
    expanded_expert_idx=None,
):
    r"""Merge the expert outputs back into token order:
    ``out[i] = x1[i] + x2[i] + sum_k scales[i, k] * (expanded_x[expanded_row_idx[i + k*N]]
    + bias[expanded_expert_idx[i, k]])`` (``N`` tokens, ``K`` experts each; missing ``x2``,
    ``bias`` count as zero and missing ``scales`` as one).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import moe_finalize_routing
        >>> expanded = ms.Tensor(np.array([[0.1], [0.2], [0.3], [0.1], [0.2], [0.3]], np.float32))
        >>> x1 = ms.Tensor(np.array([[1.0], [0.2], [0.3]], np.float32))
        >>> bias = ms.Tensor(np.array([[0.1], [0.2], [0.3], [0.4]], np.float32))
        >>> scales = ms.Tensor(np.array([[0.7, 0.3], [0.8, 0.2], [0.8, 0.2]], np.float32))
        >>> rows = ms.Tensor([2, 3, 1, 0, 5, 4], ms.int32)
        >>> experts = ms.Tensor([[0, 1], [0, 2], [1, 3]], ms.int32)
        >>> out = moe_finalize_routing(expanded, x1, None, bias, scales, rows, experts)
        >>> print(out.asnumpy().ravel().round(4))
        [1.37 0.48 0.74]
    """
    api = "MoeFinalizeRouting"
    values = arr(expanded_x, api, "expanded_x", tensor=True)
    base = arr(x1, api, "x1", tensor=True)
    if values.ndim != 2 or base.ndim != 2 or values.shape[0] % max(base.shape[0], 1):
        raise ValueError(
            f"For '{api}', 'expanded_x' must be (K*N, H) and 'x1' (N, H), but got shapes "
            f"{values.shape} and {base.shape}."
        )
    n = base.shape[0]
    k = values.shape[0] // n if n else 0
    rows = (
        jnp.arange(n * k, dtype=jnp.int32)
        if expanded_row_idx is None
        else arr(expanded_row_idx, api, "expanded_row_idx", tensor=True)
    )
    picked = values[rows].reshape(k, n, -1)  # slot i + k*N is token i's k-th expert
    if bias is not None:
        if expanded_expert_idx is None:
            raise ValueError(f"For '{api}', 'bias' needs 'expanded_expert_idx'.")
        experts = arr(expanded_expert_idx, api, "expanded_expert_idx", tensor=True)
        picked = picked + arr(bias, api, "bias", tensor=True)[experts.T]
    if scales is not None:
        picked = picked * arr(scales, api, "scales", tensor=True).T[..., None]
    out = base + jnp.sum(picked, axis=0).astype(base.dtype)
    if x2 is not None:
        out = out + arr(x2, api, "x2", tensor=True)
    return wrap(out.astype(values.dtype))


def moe_compute_expert_tokens(sorted_experts, num_expert):
    """The end of each expert's rows in ``sorted_experts`` (sorted expert ids): entry ``e``
    is the number of ids ``<= e``, for ``e`` in ``range(num_expert)``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import moe_compute_expert_tokens
        >>> print(moe_compute_expert_tokens(ms.Tensor([0, 0, 1, 2, 2], ms.int32), 3))
        [2 3 5]
    """
    api = "MoeComputeExpertTokens"
    experts = arr(sorted_experts, api, "sorted_experts", tensor=True)
    if experts.ndim != 1:
        raise ValueError(f"For '{api}', 'sorted_experts' must be 1-D, but got {experts.shape}.")
    check_int_arg(api, "num_expert", num_expert, 1)
    ends = jnp.searchsorted(experts, jnp.arange(num_expert, dtype=experts.dtype), side="right")
    return wrap(ends.astype(experts.dtype))


def _gating_top_k_softmax(self, x, finished=None, k=1):
    api = "MoeGatingTopKSoftmax"
    logits = arr(x, api, "x", tensor=True)
    if logits.ndim not in (2, 3):
        raise ValueError(f"For '{api}', 'x' must be 2-D or 3-D, but got shape {logits.shape}.")
    check_int_arg(api, "k", k, 0)
    if k > logits.shape[-1]:
        raise ValueError(
            f"For '{api}', 'k' must be at most the size of the last axis ({logits.shape[-1]}), "
            f"but got {k}."
        )
    probs = jax.nn.softmax(logits.astype(jnp.float32), axis=-1)
    values, experts = jax.lax.top_k(probs, k)
    experts = experts.astype(jnp.int32)
    if finished is not None:
        done = arr(finished, api, "finished", tensor=True)
        experts = jnp.where(done[..., None], logits.shape[-1], experts)
    rows = int(np.prod(logits.shape[:-1]))
    row_idx = jnp.arange(rows, dtype=jnp.int32).reshape(logits.shape[:-1])[..., None]
    row_idx = row_idx + rows * jnp.arange(k, dtype=jnp.int32)
    return wrap(values.astype(logits.dtype)), wrap(experts), wrap(row_idx)


MoeInitRouting = _generated(
    "MoeInitRouting", moe_init_routing, "Primitive form of :func:`moe_init_routing`."
)
MoeInitRoutingV2 = primitive(
    "MoeInitRoutingV2",
    None,
    None,
    lambda self, *args, **kwargs: _moe_init_routing_v2(*args, **kwargs),
    "Primitive form of :func:`moe_init_routing_v2`; always returns four Tensors: "
    "``expanded_x``, ``expanded_row_idx``, ``expert_tokens_count_or_cumsum`` and "
    "``expert_tokens_before_capacity``.",
    module=_AUTO,
)
MoeFinalizeRouting = _generated(
    "MoeFinalizeRouting", moe_finalize_routing, "Primitive form of :func:`moe_finalize_routing`."
)
MoeComputeExpertTokens = _generated(
    "MoeComputeExpertTokens",
    moe_compute_expert_tokens,
    "Primitive form of :func:`moe_compute_expert_tokens`.",
)
MoeGatingTopKSoftmax = primitive(
    "MoeGatingTopKSoftmax",
    None,
    None,
    _gating_top_k_softmax,
    "The ``k`` largest softmax probabilities of each row of ``x`` (2-D or 3-D, softmax over "
    "the last axis in float32): returns ``(y, expert_idx, row_idx)`` with "
    "``row_idx[..., j] = j * rows + row``; a row whose ``finished`` is True gets expert index "
    "``x.shape[-1]`` (no expert).",
    module=_AUTO,
)
MoeTokenPermute = _generated(
    "MoeTokenPermute", moe_token_permute, "Primitive form of :func:`moe_token_permute`."
)
MoeTokenUnpermute = _generated(
    "MoeTokenUnpermute", moe_token_unpermute, "Primitive form of :func:`moe_token_unpermute`."
)


def fused_add_topk_div(
    x,
    add_num,
    group_num,
    group_topk,
    n,
    k,
    activate_type=0,
    is_norm=True,
    scale=2.5,
    mapping_num=None,
    mapping_table=None,
    enable_expert_mapping=False,
):
    """DeepSeek-V3-style grouped expert routing in one kernel (Ascend's FusedAddTopKDiv):
    ``s = sigmoid(x)`` ``(tokens, experts)``; the experts are split into ``group_num`` groups,
    each group scored by the sum of its ``n`` largest ``s + add_num``; the experts outside the
    ``group_topk`` best groups get 0, and the ``k`` largest biased scores that remain pick the
    experts (ties to the lower index). Returns ``(weight, indices)``: float32 ``s`` of the
    picked experts (divided by their sum and multiplied by ``scale`` when ``is_norm``) and
    their int32 ids. With ``enable_expert_mapping`` each id ``e`` becomes
    ``mapping_table[e, j]``, ``j = floor(mapping_num[e] * r)`` for a per-token ``r`` drawn as
    the kernel does (from the id at position ``group_topk * experts / group_num - 1``).

    Raises:
        ValueError: If the experts do not split into groups or the counts do not fit, or
            ``activate_type`` is not 0 (sigmoid).

    Differences from MindSpore: runs on every device (MindSpore: Ascend only); ``weight`` is
    differentiable with respect to ``x``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import fused_add_topk_div
        >>> x = ms.Tensor(np.array([[0.0, 1.0, 2.0, 3.0]], np.float32))
        >>> weight, ids = fused_add_topk_div(x, ms.ops.zeros(4), 2, 1, 1, 2, scale=1.0)
        >>> print(ids, weight.asnumpy().round(4))
        [[3 2]] [[0.5196 0.4804]]
    """
    api = "FusedAddTopKDiv"
    scores = arr(x, api, "x", tensor=True)
    bias = arr(add_num, api, "add_num", tensor=True)
    for name, value in (("group_num", group_num), ("group_topk", group_topk), ("n", n)):
        check_int_arg(api, name, value, 1)
    check_int_arg(api, "k", k, 1)
    check_int_arg(api, "activate_type", activate_type)
    check_bool(api, "is_norm", is_norm)
    check_bool(api, "enable_expert_mapping", enable_expert_mapping)
    if activate_type != 0:
        raise ValueError(
            f"For '{api}', 'activate_type' must be 0 (sigmoid), but got {activate_type}."
        )
    if scores.ndim != 2 or bias.shape != scores.shape[1:]:
        raise ValueError(
            f"For '{api}', 'x' must be (tokens, experts) and 'add_num' (experts,), but got "
            f"shapes {scores.shape} and {bias.shape}."
        )
    tokens, experts = scores.shape
    per = experts // group_num
    if experts % group_num or group_topk > group_num or n > per or k > experts:
        raise ValueError(
            f"For '{api}', the {experts} experts must split into 'group_num' ({group_num}) "
            f"groups with group_topk <= group_num, n <= experts / group_num and k <= experts, "
            f"but got group_topk={group_topk}, n={n}, k={k}."
        )
    s = jax.nn.sigmoid(scores.astype(jnp.float32))
    grouped = (s + bias.astype(jnp.float32)).reshape(tokens, group_num, per)
    group_score = jnp.sum(jax.lax.top_k(grouped, n)[0], -1)
    best = jax.lax.top_k(group_score, group_topk)[1]
    kept = jnp.zeros((tokens, group_num), jnp.bool_).at[jnp.arange(tokens)[:, None], best].set(True)
    masked = jnp.where(kept[..., None], grouped, 0.0).reshape(tokens, experts)
    order = jax.lax.top_k(jax.lax.stop_gradient(masked), max(k, group_topk * per))[1]
    ids = order[:, :k]
    weight = jnp.take_along_axis(s, ids, axis=1)
    if is_norm:
        weight = weight / jnp.sum(weight, -1, keepdims=True) * scale
    ids = ids.astype(jnp.int32)
    if enable_expert_mapping:
        if mapping_num is None or mapping_table is None:
            raise ValueError(
                f"For '{api}', expert mapping needs 'mapping_num' and 'mapping_table'."
            )
        counts = arr(mapping_num, api, "mapping_num", tensor=True).astype(jnp.float32)
        table = arr(mapping_table, api, "mapping_table", tensor=True)
        offset = order[:, group_topk * per - 1].astype(jnp.int32) + 7
        r = (100000007 % offset).astype(jnp.float32) / offset.astype(jnp.float32)
        choice = jnp.floor(counts[ids] * r[:, None]).astype(jnp.int32)
        ids = table[ids, choice].astype(jnp.int32)
    return wrap(weight), wrap(ids)


FusedAddTopKDiv = _generated(
    "FusedAddTopKDiv", fused_add_topk_div, "Primitive form of :func:`fused_add_topk_div`."
)
