"""Ascend's training grouped matmul ``gmm`` (``ops.function.math_func``) and its generated
primitives ``Gmm``/``GmmV2`` with their backward kernels (``ops.auto_generate``), next to the
inference ``grouped_matmul`` of ``grouped_matmul.py``.

``group_type=0`` groups the rows of ``x`` (one weight per group, ``jax.lax.ragged_dot``);
``group_type=2`` groups the contracted axis ``K`` and gives one product per group, the shape of
a weight gradient. XLA's ragged-contracting dot has no transpose rule, so that mode carries its
own VJP, written with two row-grouped ``ragged_dot``s. ``group_list`` may be traced: shapes
never depend on its values.
"""

from __future__ import annotations

import functools as ft

import jax
import jax.numpy as jnp
import numpy as np

from ..._errors import check_int_arg
from .grouped_matmul import _HALF, _concrete, _generated, _tensor_list
from .utils import arr, wrap

__all__: list = []  # gmm is only in ops.function.math_func, the classes in ops.auto_generate

AUTO_GENERATE = [
    "Gmm",
    "GmmV2",
    "GmmBackward",
    "GmmBackwardFusion",
    "GmmV2Backward",
    "GmmV2BackwardFusion",
]


def _accumulator(dtype):
    return jnp.float32 if dtype in _HALF else None


def _one(api, name, value, optional=False):
    """The single Tensor of a one-element TensorList (None when absent and optional)."""
    items = _tensor_list(api, name, value, optional=optional)
    if items is None:
        return None
    if len(items) != 1 or items[0] is None:
        raise ValueError(
            f"For '{api}', '{name}' must be a tuple of exactly one Tensor, but got {len(items)}."
        )
    return items[0]


def _sizes(api, group_list, group_list_type, extent, axis, *, tensor_only=False):
    """The size of each group as an int32 array, from ``group_list`` (a list or tuple of ints
    is cumulative whatever ``group_list_type`` says, as in MindSpore)."""
    check_int_arg(api, "group_list_type", group_list_type)
    if group_list_type not in (0, 1):
        raise ValueError(
            f"For '{api}', 'group_list_type' must be 0 (cumulative) or 1 (sizes), but got "
            f"{group_list_type}."
        )
    if group_list is None:
        raise ValueError(f"For '{api}', 'group_list' is required; pass the group ends or sizes.")
    if isinstance(group_list, (list, tuple)):
        if tensor_only:
            raise TypeError(
                f"For '{api}', 'group_list' must be a Tensor, but got {type(group_list).__name__}."
                " Wrap it: ms.Tensor(group_list, ms.int64)."
            )
        group_list_type = 0
        group_list = np.asarray(group_list, np.int64)
    counts = jnp.asarray(arr(group_list, api, "group_list"))
    if counts.ndim != 1 or not jnp.issubdtype(counts.dtype, jnp.integer) or counts.size == 0:
        raise TypeError(
            f"For '{api}', 'group_list' must be a non-empty 1-D int Tensor or list of ints, but "
            f"got shape {tuple(counts.shape)} and dtype {counts.dtype}."
        )
    cumulative = group_list_type == 0
    value = _concrete(counts)
    if value is not None:
        sizes = np.diff(value, prepend=0) if cumulative else value
        if (sizes < 0).any() or sizes.sum() > extent:
            wording = "non-decreasing group ends" if cumulative else "non-negative group sizes"
            raise ValueError(
                f"For '{api}', 'group_list' must hold {wording} that cover at most the {extent} "
                f"entries of axis {axis} of 'x', but got {value.tolist()}."
            )
    counts = counts.astype(jnp.int32)
    return jnp.diff(counts, prepend=0) if cumulative else counts


_K_GROUPED = jax.lax.RaggedDotDimensionNumbers(
    dot_dimension_numbers=(([1], [0]), ([], [])),
    lhs_ragged_dimensions=[1],
    rhs_group_dimensions=[],
)


@ft.partial(jax.custom_vjp, nondiff_argnums=(3,))
def _k_grouped(x, w, sizes, accumulate):
    """``out[g] = x[:, K_g] @ w[K_g]`` for consecutive column groups ``K_g`` of ``x``."""
    out = jax.lax.ragged_dot_general(x, w, sizes, _K_GROUPED, preferred_element_type=accumulate)
    return out.astype(x.dtype)


def _k_grouped_forward(x, w, sizes, accumulate):
    return _k_grouped(x, w, sizes, accumulate), (x, w, sizes)


def _k_grouped_backward(accumulate, residuals, grad):
    x, w, sizes = residuals
    # column k of x met group g(k) only: both gradients are row-grouped dots over K
    dx = jax.lax.ragged_dot(w, grad.swapaxes(1, 2), sizes, preferred_element_type=accumulate)
    dw = jax.lax.ragged_dot(x.T, grad, sizes, preferred_element_type=accumulate)
    no_grad = np.zeros(sizes.shape, jax.dtypes.float0)
    return dx.T.astype(x.dtype), dw.astype(w.dtype), no_grad


_k_grouped.defvjp(_k_grouped_forward, _k_grouped_backward)


def _row_grouped(x, w, sizes):
    """``out[M_e] = x[M_e] @ w[e]`` for consecutive row groups ``M_e``; later rows are zero."""
    out = jax.lax.ragged_dot(x, w, sizes, preferred_element_type=_accumulator(x.dtype))
    return out.astype(x.dtype)


def _gmm(api, x, weight, bias, group_list, group_type, group_list_type, tensor_only=False):
    check_int_arg(api, "group_type", group_type)
    if group_type not in (0, 2):
        raise ValueError(
            f"For '{api}', 'group_type' must be 0 (group the rows of x) or 2 (group K), but got "
            f"{group_type}."
        )
    a = _one(api, "x", x)
    b = _one(api, "weight", weight)
    bias = _one(api, "bias", bias, optional=True)
    rank = 3 if group_type == 0 else 2
    if a.ndim != 2 or b.ndim != rank or a.shape[1] != b.shape[-2]:
        expected = "(E, k, n)" if group_type == 0 else "(k, n)"
        raise ValueError(
            f"For '{api}', with group_type={group_type} 'x' must be (m, k) and 'weight' "
            f"{expected}, but got x {tuple(a.shape)} and weight {tuple(b.shape)}."
        )
    axis = 0 if group_type == 0 else 1
    sizes = _sizes(api, group_list, group_list_type, a.shape[axis], axis, tensor_only=tensor_only)
    groups = b.shape[0] if group_type == 0 else sizes.shape[0]
    if sizes.shape[0] != groups:
        raise ValueError(
            f"For '{api}', 'group_list' must have one entry per group of 'weight' "
            f"({groups}), but got {sizes.shape[0]}."
        )
    if bias is not None and tuple(bias.shape) != (groups, b.shape[-1]):
        raise ValueError(
            f"For '{api}', each 'bias' must be (groups, n) = {(groups, b.shape[-1])}, but got "
            f"{tuple(bias.shape)}."
        )
    if group_type == 0:
        out = _row_grouped(a, b, sizes)
        if bias is not None:
            group = jnp.searchsorted(jnp.cumsum(sizes), jnp.arange(a.shape[0]), side="right")
            valid = (group < groups)[:, None]
            rows = jnp.where(valid, bias[jnp.minimum(group, groups - 1)], 0)
            out = (out + rows.astype(out.dtype)).astype(a.dtype)
    else:
        out = _k_grouped(a, b, sizes, _accumulator(a.dtype))
        if bias is not None:
            out = (out + bias[:, None, :].astype(out.dtype)).astype(a.dtype)
    return (wrap(out),)


def gmm(x, weight, bias=None, group_list=None, group_type=0, group_list_type=0):
    r"""Grouped matrix multiplication, as MindSpore's training MoE layers call it.

    With ``group_type=0`` the rows of ``x`` ``(m, k)`` are split into consecutive groups and
    group ``e`` is multiplied by ``weight[e]`` (``weight`` is ``(E, k, n)``; the result is
    ``(m, n)``). With ``group_type=2`` the shared axis ``k`` is split instead: ``weight`` is
    ``(k, n)`` and the result ``(G, m, n)`` holds one product ``x[:, K_g] @ weight[K_g]`` per
    group (the weight gradient of the first mode has this form).

    Args:
        x (tuple[Tensor]): One ``(m, k)`` Tensor.
        weight (tuple[Tensor]): One ``(E, k, n)`` (``group_type=0``) or ``(k, n)``
            (``group_type=2``) Tensor.
        bias (tuple[Tensor], optional): One ``(groups, n)`` Tensor added to each group's
            product. Default: ``None``.
        group_list (Union[Tensor, list[int], tuple[int]]): int64 ``(groups,)``: the cumulative
            group ends (``group_list_type=0``) or the group sizes (``1``) along the grouped
            axis. A list or tuple is always the cumulative ends. Default: ``None``.
        group_type (int): 0 (group the rows ``m``) or 2 (group ``k``). Default: ``0``.
        group_list_type (int): 0 (cumulative ends) or 1 (sizes) for a Tensor ``group_list``.
            Default: ``0``.

    Returns:
        tuple[Tensor], one result: ``(m, n)`` for ``group_type=0``, ``(G, m, n)`` for 2.

    Raises:
        TypeError: If ``group_list`` is not 1-D integers, or an int argument is not an int.
        ValueError: If ``group_type``/``group_list_type`` are out of range, ``group_list`` is
            missing, decreasing or past the grouped axis, or the shapes do not fit.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only); the gradient is
    defined for ``group_type=2`` and with ``bias`` too; entries of the grouped axis past the
    last group contribute zeros (MindSpore requires the groups to cover it).
    MindSpore: https://www.mindspore.cn/docs/en/r2.7.0/api_python/ops/mindspore.ops.function.math_func.gmm.html

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.function.math_func import gmm
        >>> x = ms.Tensor(np.arange(6.0).reshape(3, 2), ms.float32)
        >>> w = ms.Tensor(np.stack([np.eye(2), 2 * np.eye(2)]), ms.float32)
        >>> print(gmm([x], [w], group_list=[1, 3])[0])
        [[ 0.  1.]
         [ 4.  6.]
         [ 8. 10.]]
        >>> print(gmm([x], [ms.ops.ones((2, 1))], group_list=[1, 2], group_type=2)[0].shape)
        (2, 3, 1)
    """
    return _gmm("gmm", x, weight, bias, group_list, group_type, group_list_type)


def _gmm_v2(x, weight, bias=None, group_list=None, group_type=0, group_list_type=0):
    return _gmm("GmmV2", x, weight, bias, group_list, group_type, group_list_type, True)


def _backward(api, grad, x, weight, group_list, group_list_type, tensor_only=False):
    """``(dx, dw)`` of the row-grouped ``gmm`` for the cotangent ``grad``."""
    g = _one(api, "grad", grad)
    if x is None:  # the fused form needs only dx: it does not depend on x's values
        b = _one(api, "weight", weight)
        a = jnp.zeros((g.shape[0], b.shape[-2]), g.dtype)
    else:
        a, b = _one(api, "x", x), _one(api, "weight", weight)
    if (
        a.ndim != 2
        or b.ndim != 3
        or a.shape[1] != b.shape[1]
        or g.shape != (a.shape[0], b.shape[2])
    ):
        raise ValueError(
            f"For '{api}', 'grad' must be (m, n), 'x' (m, k) and 'weight' (E, k, n), but got "
            f"grad {tuple(g.shape)}, x {tuple(a.shape)} and weight {tuple(b.shape)}."
        )
    sizes = _sizes(api, group_list, group_list_type, a.shape[0], 0, tensor_only=tensor_only)
    if sizes.shape[0] != b.shape[0]:
        raise ValueError(
            f"For '{api}', 'group_list' must have one entry per expert ({b.shape[0]}), but got "
            f"{sizes.shape[0]}."
        )
    _, vjp = jax.vjp(lambda a, b: _row_grouped(a, b, sizes), a, b)
    dx, dw = vjp(g.astype(a.dtype))
    return wrap(dx), wrap(dw)


def gmm_backward(grad, x, weight, group_list=None, group_list_type=0):
    """The gradients of the row-grouped :func:`gmm` (``group_type=0``, no bias) for the
    cotangent ``grad``: ``(dx, dw, db)``, tuples of one Tensor each and an empty ``db``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.function.math_func import gmm_backward
        >>> dx, dw, db = gmm_backward([ms.ops.ones((3, 1))], [ms.ops.ones((3, 2))],
        ...                           [ms.ops.ones((2, 2, 1))], [1, 3])
        >>> print(dx[0].shape, dw[0].asnumpy().ravel(), db)
        (3, 2) [1. 1. 2. 2.] []
    """
    dx, dw = _backward("gmm_backward", grad, x, weight, group_list, group_list_type)
    return (dx,), (dw,), []


def gmm_backward_fusion(grad, weight, group_list=None, group_list_type=0):
    """The input gradient of the row-grouped :func:`gmm` alone: ``((dx,), [], [])``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.function.math_func import gmm_backward_fusion
        >>> dx, dw, db = gmm_backward_fusion([ms.ops.ones((3, 1))], [ms.ops.ones((2, 2, 1))],
        ...                                  [1, 3])
        >>> print(dx[0].shape, dw, db)
        (3, 2) [] []
    """
    dx, _ = _backward("gmm_backward_fusion", grad, None, weight, group_list, group_list_type)
    return (dx,), [], []


def _backward_primitive(name, tensor_only):
    def call(grad, x, weight, group_list=None, group_list_type=0):
        return _backward(name, grad, x, weight, group_list, group_list_type, tensor_only)

    return call


def _fusion_primitive(name, tensor_only):
    def call(grad, weight, group_list=None, group_list_type=0):
        args = (grad, None, weight, group_list, group_list_type, tensor_only)
        return _backward(name, *args)[:1]

    return call


Gmm = _generated("Gmm", gmm, "Primitive form of :func:`gmm`: ``Gmm()(x, weight, bias, ...)``.")
GmmV2 = _generated(
    "GmmV2",
    _gmm_v2,
    """:func:`gmm` whose ``group_list`` must be a Tensor (``group_list_type`` says whether it
    holds the cumulative ends or the sizes).

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import GmmV2
        >>> y = GmmV2()([ms.ops.ones((3, 2))], [ms.ops.ones((2, 2, 4))],
        ...             group_list=ms.Tensor([1, 2], ms.int64), group_list_type=1)
        >>> print(y[0].shape)
        (3, 4)
    """,
)
GmmBackward = _generated(
    "GmmBackward",
    _backward_primitive("GmmBackward", False),
    "``GmmBackward()(grad, x, weight, group_list, group_list_type)``: ``(dx, dw)`` of :func:`gmm`.",
)
GmmBackwardFusion = _generated(
    "GmmBackwardFusion",
    _fusion_primitive("GmmBackwardFusion", False),
    "``GmmBackwardFusion()(grad, weight, group_list, group_list_type)``: ``(dx,)`` of :func:`gmm`.",
)
GmmV2Backward = _generated(
    "GmmV2Backward",
    _backward_primitive("GmmV2Backward", True),
    "``GmmV2Backward()(grad, x, weight, group_list, group_list_type)``: ``(dx, dw)`` of "
    "``GmmV2`` (a Tensor ``group_list``).",
)
GmmV2BackwardFusion = _generated(
    "GmmV2BackwardFusion",
    _fusion_primitive("GmmV2BackwardFusion", True),
    "``GmmV2BackwardFusion()(grad, weight, group_list, group_list_type)``: ``(dx,)`` of ``GmmV2``.",
)
