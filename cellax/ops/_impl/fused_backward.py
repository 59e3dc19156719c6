"""The backward kernels of Ascend's fused ops, which MindSpore 2.10 exposes as primitives of
``ops.auto_generate`` and some model code calls directly: ``RmsNormGrad``,
``AddLayerNormGrad``, ``RotaryPositionEmbeddingGrad``, ``MoeTokenPermuteGrad``,
``MoeTokenUnpermuteGrad`` and ``InplaceGroupedMatmulAdd`` (``grouped_matmul_add_``, the
weight gradient of a row-grouped matmul). Each is its closed form in plain JAX (the tests
check it against ``jax.vjp`` of the forward op). Every name here is only in
``ops.auto_generate`` (``ext_primitives`` exports them there).
"""

from __future__ import annotations

import jax.numpy as jnp

from ..._errors import check_bool, check_int_arg
from .elementwise import _rotated
from .inplace import _overwrite
from .primitive import primitive
from .utils import arr, wrap

__all__: list = []

AUTO_GENERATE = [
    "RmsNormGrad",
    "AddLayerNormGrad",
    "RotaryPositionEmbeddingGrad",
    "MoeTokenPermuteGrad",
    "MoeTokenUnpermuteGrad",
    "InplaceGroupedMatmulAdd",
    "add_layer_norm_grad",
    "moe_token_permute_grad",
    "moe_token_unpermute_grad",
    "grouped_matmul_add_",
]

_AUTO = "cellax.ops.auto_generate"


def _f32(x):
    return x.astype(jnp.promote_types(x.dtype, jnp.float32))


def _sum_to(x, shape):
    """``x`` summed over the axes broadcasting added or stretched to reach it from ``shape``."""
    lead = x.ndim - len(shape)
    x = jnp.sum(x, tuple(range(lead))) if lead else x
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and x.shape[i] != 1)
    return jnp.sum(x, axes, keepdims=True) if axes else x


def _rms_norm_grad(self, dy, x, rstd, gamma):
    api = "RmsNormGrad"
    g, data = _f32(arr(dy, api, "dy", tensor=True)), arr(x, api, "x", tensor=True)
    scale, weight = _f32(arr(rstd, api, "rstd", tensor=True)), arr(gamma, api, "gamma")
    axes = tuple(range(data.ndim - weight.ndim, data.ndim)) or (-1,)
    work = _f32(data)
    gw = g * _f32(weight)
    dot = jnp.mean(gw * work, axes, keepdims=True)
    dx = scale * (gw - work * jnp.square(scale) * dot)
    dgamma = jnp.sum(g * work * scale, tuple(range(data.ndim - weight.ndim)))
    return wrap(dx.astype(arr(dy).dtype)), wrap(dgamma.astype(jnp.float32))


RmsNormGrad = primitive(
    "RmsNormGrad",
    None,
    None,
    _rms_norm_grad,
    """The gradient of ``RmsNorm`` (``y = x * rstd * gamma`` over the trailing
    ``gamma.ndim`` axes): ``RmsNormGrad()(dy, x, rstd, gamma)`` returns ``(dx, dgamma)``,
    ``dx`` in ``dy``'s dtype and ``dgamma`` float32, from the saved ``rstd``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import RmsNormGrad
        >>> x = ms.Tensor(np.array([[3.0, 4.0]], np.float32))
        >>> y, rstd = ms.ops.rms_norm(x, ms.ops.ones(2))
        >>> dx, dgamma = RmsNormGrad()(ms.ops.ones((1, 2)), x, rstd, ms.ops.ones(2))
        >>> print(dgamma.asnumpy().round(4))
        [0.8485 1.1314]
    """,
    module=_AUTO,
)


def add_layer_norm_grad(dy, x1, x2, rstd, mean, gamma, dsumOptional=None):  # noqa: N803
    """The gradient of :func:`add_layer_norm` over the last axis: ``(dx, dgamma, dbeta)``,
    where ``dx`` (the gradient of ``x1`` and of ``x2``) adds ``dsumOptional``, the gradient
    flowing into the ``x1 + x2`` output, when given; ``dgamma``/``dbeta`` are float32.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import add_layer_norm_grad
        >>> x = ms.Tensor(np.array([[1.0, 3.0]], np.float32))
        >>> y, mean, rstd, _ = ms.ops.add_layer_norm(x, x, ms.ops.ones(2), ms.ops.zeros(2))
        >>> dx, dgamma, dbeta = add_layer_norm_grad(ms.ops.ones((1, 2)), x, x, rstd, mean,
        ...                                         ms.ops.ones(2), None)
        >>> print(dx.asnumpy(), dbeta.asnumpy())
        [[0. 0.]] [1. 1.]
    """
    api = "AddLayerNormGrad"
    g = _f32(arr(dy, api, "dy", tensor=True))
    x = _f32(arr(x1, api, "x1", tensor=True) + arr(x2, api, "x2", tensor=True))
    inv, mu = _f32(arr(rstd, api, "rstd")), _f32(arr(mean, api, "mean"))
    xhat = (x - mu) * inv
    gw = g * _f32(arr(gamma, api, "gamma"))
    dx = inv * (
        gw - jnp.mean(gw, -1, keepdims=True) - xhat * jnp.mean(gw * xhat, -1, keepdims=True)
    )
    if dsumOptional is not None:
        dx = dx + _f32(arr(dsumOptional, api, "dsumOptional"))
    lead = tuple(range(x.ndim - 1))
    dgamma, dbeta = jnp.sum(g * xhat, lead), jnp.sum(g, lead)
    return wrap(dx.astype(arr(dy).dtype)), wrap(dgamma), wrap(dbeta)


AddLayerNormGrad = primitive(
    "AddLayerNormGrad",
    add_layer_norm_grad,
    doc="Primitive form of :func:`add_layer_norm_grad`.",
    module=_AUTO,
)


def _rotary_grad(self, dy, cos, sin, dx=None, mode=0):
    api = "RotaryPositionEmbeddingGrad"
    check_int_arg(api, "mode", mode)
    if mode not in (0, 1):
        raise ValueError(f"For '{api}', 'mode' must be 0 or 1, but got {mode}.")
    grad = arr(dy, api, "dy", tensor=True)
    c, s = arr(cos, api, "cos", tensor=True), arr(sin, api, "sin", tensor=True)
    g = _f32(grad)
    # rotating is antisymmetric, so its transpose is minus itself
    dx_out = g * _f32(c) - _rotated(g * _f32(s), mode == 1)
    if dx is None:
        dcos, dsin = jnp.zeros(c.shape, c.dtype), jnp.zeros(s.shape, s.dtype)
    else:
        x = _f32(arr(dx, api, "dx", tensor=True))
        dcos = _sum_to(g * x, c.shape).astype(c.dtype)
        dsin = _sum_to(g * _rotated(x, mode == 1), s.shape).astype(s.dtype)
    return wrap(dx_out.astype(grad.dtype)), wrap(dcos), wrap(dsin)


RotaryPositionEmbeddingGrad = primitive(
    "RotaryPositionEmbeddingGrad",
    None,
    None,
    _rotary_grad,
    """The gradient of ``ops.rotary_position_embedding(x, cos, sin, mode)``:
    ``RotaryPositionEmbeddingGrad()(dy, cos, sin, dx=None, mode=0)``, where ``dx`` is the
    forward input ``x``, returns ``(dx, dcos, dsin)``; ``dcos``/``dsin`` (summed to the shapes
    of ``cos``/``sin``) are zeros when the forward input is not given.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import RotaryPositionEmbeddingGrad
        >>> dy = ms.Tensor(np.array([[1.0, 2.0, 3.0, 4.0]], np.float32))
        >>> dx, _, _ = RotaryPositionEmbeddingGrad()(dy, ms.ops.zeros((1, 4)),
        ...                                          ms.ops.ones((1, 4)))
        >>> print(dx)
        [[ 3.  4. -1. -2.]]
    """,
    module=_AUTO,
)


def moe_token_permute_grad(permuted_tokens_grad, sorted_indices, num_topk=1, padded_mode=False):
    """The gradient of :func:`moe_token_permute` with respect to its tokens: token ``t``'s row
    is ``sum_k permuted_tokens_grad[sorted_indices[t * num_topk + k]]`` (rows dropped by
    ``num_out_tokens`` contribute nothing).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import moe_token_permute_grad
        >>> grad = ms.Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))
        >>> print(moe_token_permute_grad(grad, ms.Tensor([2, 0, 1, 3], ms.int32), 2))
        [[4.]
         [2.]]
    """
    api = "MoeTokenPermuteGrad"
    grad = arr(permuted_tokens_grad, api, "permuted_tokens_grad", tensor=True)
    order = arr(sorted_indices, api, "sorted_indices", tensor=True).reshape(-1)
    topk = check_int_arg(api, "num_topk", num_topk, 1)
    check_bool(api, "padded_mode", padded_mode)
    if padded_mode:
        raise ValueError(f"For '{api}', 'padded_mode' can only be False, but got True.")
    if grad.ndim != 2 or order.shape[0] % topk:
        raise ValueError(
            f"For '{api}', 'permuted_tokens_grad' must be 2-D and 'sorted_indices' hold "
            f"num_tokens * num_topk entries, but got shapes {grad.shape} and {order.shape}."
        )
    rows = jnp.take(grad, order, axis=0, mode="fill", fill_value=0)
    return wrap(jnp.sum(rows.reshape(-1, topk, grad.shape[1]), axis=1).astype(grad.dtype))


MoeTokenPermuteGrad = primitive(
    "MoeTokenPermuteGrad",
    moe_token_permute_grad,
    doc="Primitive form of :func:`moe_token_permute_grad`.",
    module=_AUTO,
)


def moe_token_unpermute_grad(
    permuted_tokens,
    unpermuted_tokens_grad,
    sorted_indices,
    probs=None,
    padded_mode=False,
    restore_shape=None,
):
    """The gradient of :func:`moe_token_unpermute`: returns ``(permuted_tokens_grad,
    probs_grad)``, where row ``sorted_indices[t * topk + k]`` of the first is
    ``probs[t, k] * unpermuted_tokens_grad[t]`` and ``probs_grad[t, k]`` is that row of
    ``permuted_tokens`` dotted with ``unpermuted_tokens_grad[t]`` (zeros of shape ``(1,)``
    without ``probs``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import moe_token_unpermute_grad
        >>> rows = ms.Tensor(np.array([[1.0], [2.0]], np.float32))
        >>> grad = ms.Tensor(np.array([[3.0]], np.float32))
        >>> dx, dp = moe_token_unpermute_grad(rows, grad, ms.Tensor([1, 0], ms.int32),
        ...                                   ms.Tensor(np.array([[0.5, 0.25]], np.float32)))
        >>> print(dx.asnumpy().ravel(), dp.asnumpy().ravel())
        [0.75 1.5 ] [6. 3.]
    """
    api = "MoeTokenUnpermuteGrad"
    values = arr(permuted_tokens, api, "permuted_tokens", tensor=True)
    grad = arr(unpermuted_tokens_grad, api, "unpermuted_tokens_grad", tensor=True)
    order = arr(sorted_indices, api, "sorted_indices", tensor=True).reshape(-1)
    check_bool(api, "padded_mode", padded_mode)
    if padded_mode:
        raise ValueError(f"For '{api}', 'padded_mode' can only be False, but got True.")
    weights = None if probs is None else arr(probs, api, "probs", tensor=True)
    topk = 1 if weights is None else weights.shape[-1]
    if grad.ndim != 2 or order.shape[0] != grad.shape[0] * topk:
        raise ValueError(
            f"For '{api}', 'unpermuted_tokens_grad' must be (num_tokens, H) and "
            f"'sorted_indices' hold num_tokens * topk entries, but got shapes {grad.shape} and "
            f"{order.shape}."
        )
    per_slot = jnp.repeat(_f32(grad), topk, axis=0)  # slot t * topk + k
    if weights is not None:
        per_slot = per_slot * _f32(weights).reshape(-1, 1)
    dx = jnp.zeros(values.shape, per_slot.dtype).at[order].add(per_slot, mode="drop")
    if weights is None:
        return wrap(dx.astype(values.dtype)), wrap(jnp.zeros((1,), grad.dtype))
    picked = jnp.take(_f32(values), order, axis=0, mode="fill", fill_value=0)
    dprobs = jnp.sum(picked * jnp.repeat(_f32(grad), topk, axis=0), -1).reshape(weights.shape)
    return wrap(dx.astype(values.dtype)), wrap(dprobs.astype(weights.dtype))


MoeTokenUnpermuteGrad = primitive(
    "MoeTokenUnpermuteGrad",
    moe_token_unpermute_grad,
    doc="Primitive form of :func:`moe_token_unpermute_grad`.",
    module=_AUTO,
)


def grouped_matmul_add_(x, weight, group_list, out):
    r"""``out[g] += x[rows_g]^T @ weight[rows_g]`` for the row groups ``rows_g`` of ``x``
    ``(m, k)`` and ``weight`` ``(m, n)`` that ``group_list`` (cumulative ends) marks, in
    float32, written into ``out`` (``(groups, k, n)`` or ``(groups * k, n)``) in place: the
    weight gradient of a row-grouped :func:`grouped_matmul`.

    Raises:
        ValueError: If the shapes do not fit.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import grouped_matmul_add_
        >>> out = ms.Parameter(ms.ops.zeros((2, 1, 1)), name="out")
        >>> x = ms.Tensor(np.array([[1.0], [2.0], [3.0]], np.float16))
        >>> w = ms.Tensor(np.array([[1.0], [1.0], [2.0]], np.float16))
        >>> _ = grouped_matmul_add_(x, w, ms.Tensor([2, 3], ms.int64), out)
        >>> print(out.asnumpy().ravel())
        [3. 6.]
    """
    api = "grouped_matmul_add_"
    a = arr(x, api, "x", tensor=True)
    b = arr(weight, api, "weight", tensor=True)
    ends = arr(group_list, api, "group_list", tensor=True).reshape(-1).astype(jnp.int32)
    target = arr(out, api, "out", tensor=True)
    groups, k, n = ends.shape[0], a.shape[-1], b.shape[-1]
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0] or target.size != groups * k * n:
        raise ValueError(
            f"For '{api}', 'x' must be (m, k), 'weight' (m, n) and 'out' hold "
            f"len(group_list) * k * n values, but got {a.shape}, {b.shape} and {target.shape}."
        )
    group = jnp.searchsorted(ends, jnp.arange(a.shape[0]), side="right")
    member = (group[None, :] == jnp.arange(groups)[:, None]).astype(jnp.float32)  # (G, m)
    update = jnp.einsum("gm,mk,mn->gkn", member, a.astype(jnp.float32), b.astype(jnp.float32))
    new = (target.astype(jnp.float32) + update.reshape(target.shape)).astype(target.dtype)
    return _overwrite(api, out, new)


InplaceGroupedMatmulAdd = primitive(
    "InplaceGroupedMatmulAdd",
    grouped_matmul_add_,
    doc="Primitive form of :func:`grouped_matmul_add_`: ``(x, weight, group_list, out)``.",
    module=_AUTO,
)
