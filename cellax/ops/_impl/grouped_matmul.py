"""Ascend's grouped matmul on XLA: ``grouped_matmul`` and its ``V2``/``V4`` forms, with their
primitive classes, as ``mindspore.ops.auto_generate`` has them (mindformers' MoE layers call
``GroupedMatmul(split_item=3, group_type=0)``). Row groups are ``jax.lax.ragged_dot``, so the
product is differentiable and ``group_list`` may be traced; shapes never depend on its values.
``moe.py`` lists these names in its ``AUTO_GENERATE``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import _core
from ..._errors import check_bool, check_int_arg
from .primitive import primitive
from .utils import arr, np_dtype, wrap

__all__: list = []  # every name here is only in ops.auto_generate

_AUTO = "cellax.ops.auto_generate"
_HALF = (jnp.float16, jnp.bfloat16)


def _concrete(x):
    """The NumPy value of ``x``, or None while it is traced."""
    if isinstance(x, jax.core.Tracer):
        x = _core.concrete(x)
        if x is None:
            return None
    return np.asarray(x)


def _tensor_list(api, name, value, *, optional=True):
    """A TensorList argument as a list of arrays (a single Tensor is a list of one); None
    when absent."""
    if value is None:
        if optional:
            return None
        raise TypeError(f"For '{api}', '{name}' must be a list of Tensors, but got None.")
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items:
        raise ValueError(f"For '{api}', '{name}' must not be an empty list.")
    if all(item is None for item in items):
        return None
    return [None if item is None else arr(item, api, name, tensor=True) for item in items]


def _matmul(x, w):
    """``x @ w`` accumulated in float32 for half inputs and int32 for int8 ones."""
    if x.dtype == jnp.int8:
        return jnp.matmul(x, w, preferred_element_type=jnp.int32)
    out = jnp.matmul(x, w, preferred_element_type=jnp.float32 if x.dtype in _HALF else None)
    return out.astype(x.dtype)


def _dequantised(api, w, x_dtype, scale, offset):
    """An int8 weight as ``(w + offset) * scale`` in ``x``'s dtype (MindSpore's antiquant)."""
    if scale is None or offset is None:
        raise ValueError(
            f"For '{api}', an int8 'weight' with a floating 'x' needs both 'antiquant_scale' "
            "and 'antiquant_offset', but got only one of them or neither."
        )
    # scale/offset hold one value per output column: (N,) for (K, N), (E, N) for (E, K, N)
    return ((w.astype(x_dtype) + offset[..., None, :]) * scale[..., None, :]).astype(x_dtype)


def _group_sizes(api, group_list, rows, experts, cumulative):
    counts = arr(group_list, api, "group_list", tensor=False)
    counts = jnp.asarray(counts)
    if counts.ndim != 1 or counts.shape[0] != experts:
        raise ValueError(
            f"For '{api}', 'group_list' must be 1-D with one entry per expert "
            f"({experts}, weight.shape[0]), but got shape {tuple(counts.shape)}."
        )
    if not jnp.issubdtype(counts.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'group_list' must be an int Tensor, but got {counts.dtype}.")
    value = _concrete(counts)
    if value is not None:
        sizes = np.diff(value, prepend=0) if cumulative else value
        total = value[-1] if cumulative else value.sum()
        if (sizes < 0).any() or total > rows:
            wording = "non-decreasing cumulative sizes" if cumulative else "non-negative sizes"
            raise ValueError(
                f"For '{api}', 'group_list' must hold {wording} that total at most the {rows} "
                f"rows of 'x', but got {value.tolist()}."
            )
    counts = counts.astype(jnp.int32)
    return jnp.diff(counts, prepend=0) if cumulative else counts


def _check_modes(api, split_item, group_type, group_list):
    check_int_arg(api, "split_item", split_item)
    check_int_arg(api, "group_type", group_type)
    if split_item not in (0, 3):
        raise TypeError(f"For '{api}', 'split_item' must be 0 or 3, but got {split_item}.")
    if group_type not in (-1, 0):
        raise TypeError(f"For '{api}', 'group_type' must be -1 or 0, but got {group_type}.")
    if split_item == 0 and group_type != -1:
        raise TypeError(f"For '{api}', 'group_type' must be -1 when 'split_item' is 0.")
    if split_item == 3 and group_type != 0:
        raise TypeError(f"For '{api}', 'group_type' must be 0 when 'split_item' is 3.")
    if split_item == 3 and group_list is None:
        raise TypeError(f"For '{api}', 'group_list' is required when 'split_item' is 3.")


def _grouped(
    api,
    x,
    weight,
    bias,
    antiquant_scale,
    antiquant_offset,
    group_list,
    split_item,
    group_type,
    transpose_a,
    transpose_b,
    cumulative,
    scale=None,
    per_token_scale=None,
    output_dtype=None,
):
    _check_modes(api, split_item, group_type, group_list)
    check_bool(api, "transpose_a", transpose_a)
    check_bool(api, "transpose_b", transpose_b)
    xs = _tensor_list(api, "x", x, optional=False)
    ws = _tensor_list(api, "weight", weight, optional=False)
    lists = {"bias": bias, "antiquant_scale": antiquant_scale}
    lists.update(antiquant_offset=antiquant_offset, scale=scale)
    lists = {k: _tensor_list(api, k, v) for k, v in lists.items()}
    if transpose_a:
        xs = [x.swapaxes(-1, -2) for x in xs]
    if transpose_b:
        ws = [w.swapaxes(-1, -2) for w in ws]
    if len(ws) != len(xs) or any(v is not None and len(v) != len(ws) for v in lists.values()):
        raise ValueError(
            f"For '{api}', 'x', 'weight' and the given bias/scale lists must have the same "
            f"length, but got {len(xs)} and {len(ws)} (and "
            f"{ {k: len(v) for k, v in lists.items() if v is not None} })."
        )
    tokens = (
        None if per_token_scale is None else _tensor_list(api, "pre_token_scale", per_token_scale)
    )
    outputs = []
    for i, (xi, wi) in enumerate(zip(xs, ws)):
        item = {k: None if v is None else v[i] for k, v in lists.items()}
        quantised = xi.dtype == jnp.int8
        if quantised != (item["scale"] is not None) or quantised != (tokens is not None):
            raise NotImplementedError(
                f"For '{api}', cellax runs the float path, the int8-weight antiquant path and "
                "the int8 per-token-quant path (int8 'x' with 'scale' and 'pre_token_scale'); "
                "other quantisation combinations (A8W8 'offset', int4 weights) are not supported."
            )
        if wi.dtype == jnp.int8 and not quantised:
            wi = _dequantised(api, wi, xi.dtype, item["antiquant_scale"], item["antiquant_offset"])
        if split_item == 0:
            if wi.ndim != 2 or xi.ndim < 2 or xi.shape[-1] != wi.shape[0]:
                raise ValueError(
                    f"For '{api}', with split_item=0 each weight must be 2-D and match the last "
                    f"dimension of its x, but got x {tuple(xi.shape)} and weight "
                    f"{tuple(wi.shape)}."
                )
            out = _matmul(xi, wi)
            if item["bias"] is not None:
                out = out + item["bias"].astype(out.dtype)
            row_scale = None if item["scale"] is None else item["scale"]
        else:
            if xi.ndim != 2 or wi.ndim != 3 or xi.shape[1] != wi.shape[1]:
                raise ValueError(
                    f"For '{api}', with split_item=3 'x' must be one 2-D (M, K) Tensor and "
                    f"'weight' one 3-D (E, K, N) Tensor, but got x {tuple(xi.shape)} and weight "
                    f"{tuple(wi.shape)}."
                )
            sizes = _group_sizes(api, group_list, xi.shape[0], wi.shape[0], cumulative)
            accumulate = jnp.float32 if xi.dtype in _HALF else None
            if quantised:
                accumulate = jnp.int32
            out = jax.lax.ragged_dot(xi, wi, sizes, preferred_element_type=accumulate)
            if not quantised:
                out = out.astype(xi.dtype)
            # the expert of each row; rows past the last group (MindSpore leaves them unset)
            # are zero
            ends = jnp.cumsum(sizes)
            expert = jnp.searchsorted(ends, jnp.arange(xi.shape[0]), side="right")
            valid = (expert < wi.shape[0])[:, None]
            expert = jnp.minimum(expert, wi.shape[0] - 1)
            if item["bias"] is not None:
                out = out + jnp.where(valid, item["bias"][expert], 0).astype(out.dtype)
            row_scale = None if item["scale"] is None else item["scale"][expert]
        if quantised:
            out = out.astype(jnp.float32) * row_scale.astype(jnp.float32)
            out = out * tokens[i].astype(jnp.float32)[:, None]
            out = out.astype(output_dtype or jnp.bfloat16)
        outputs.append(wrap(out))
    return tuple(outputs)


def grouped_matmul(
    x,
    weight,
    bias=None,
    scale=None,
    offset=None,
    antiquant_scale=None,
    antiquant_offset=None,
    group_list=None,
    split_item=0,
    group_type=-1,
    transpose_a=False,
    transpose_b=False,
):
    r"""Matrix products of groups: ``y_i = x_i @ weight_i + bias_i``.

    With ``split_item=0, group_type=-1`` ``x`` and ``weight`` are lists of the same length and
    each pair is multiplied (``x_i`` of shape ``(..., M, K)``, ``weight_i`` ``(K, N)``). With
    ``split_item=3, group_type=0`` ``x`` is one ``(M, K)`` Tensor whose rows are split into
    consecutive groups by ``group_list`` (cumulative ends: group ``e`` is rows
    ``group_list[e-1]:group_list[e]``), ``weight`` one ``(E, K, N)`` Tensor and row group ``e``
    is multiplied by ``weight[e]``. An int8 weight with ``antiquant_scale`` and
    ``antiquant_offset`` is dequantised as ``(weight + antiquant_offset) * antiquant_scale``.

    Args:
        x (list[Tensor]): The left matrices.
        weight (list[Tensor]): The right matrices, ``(K, N)`` or ``(E, K, N)``.
        bias (list[Tensor], optional): ``(N,)`` or ``(E, N)`` added to the products.
        scale (list[Tensor], optional): A8W8 quantisation scales (not supported, as in
            MindSpore 2.10).
        offset (list[Tensor], optional): A8W8 quantisation offsets (not supported).
        antiquant_scale (list[Tensor], optional): Scales of int8 weights, ``(N,)``/``(E, N)``.
        antiquant_offset (list[Tensor], optional): Offsets of int8 weights.
        group_list (Tensor, optional): int64 ``(E,)`` cumulative group ends (``split_item=3``).
        split_item (int): 0 (lists in, lists out) or 3 (one Tensor in, one out). Default: ``0``.
        group_type (int): -1 (no grouping) or 0 (group the rows of ``x``). Default: ``-1``.
        transpose_a (bool): Transpose each ``x`` first. Default: ``False``.
        transpose_b (bool): Transpose each ``weight`` first. Default: ``False``.

    Returns:
        tuple[Tensor], the products ``(..., M, N)`` (MindSpore's TensorList).

    Raises:
        TypeError: If ``split_item``/``group_type`` are not a supported pair, or
            ``group_list`` is missing with ``split_item=3``.
        ValueError: If the shapes do not fit or ``group_list`` is not non-decreasing and at
            most ``M``.
        NotImplementedError: For the A8W8 quantised variants (``scale``/``offset``).

    Differences from MindSpore: rows of ``x`` past ``group_list[-1]`` give zeros (Ascend
    leaves them unset); the gradient with respect to ``x``, ``weight`` and ``bias`` is
    defined for every mode, not only ``split_item=3``.
    MindSpore: https://www.mindspore.cn/docs/en/r2.7.0/api_python/ops/mindspore.ops.grouped_matmul.html

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import grouped_matmul
        >>> x = ms.Tensor(np.repeat([[0.], [1.], [2.], [2.], [1.], [1.]], 4, 1), ms.float32)
        >>> w = ms.Tensor(np.arange(32).reshape(4, 4, 2), ms.float32)
        >>> group_list = ms.Tensor([1, 3, 4, 6], ms.int64)
        >>> print(grouped_matmul([x], [w], group_list=group_list, split_item=3, group_type=0)[0])
        [[  0.   0.]
         [ 44.  48.]
         [ 88.  96.]
         [152. 160.]
         [108. 112.]
         [108. 112.]]
    """
    api = "GroupedMatmul"
    if scale is not None or offset is not None:
        raise NotImplementedError(
            f"For '{api}', the A8W8 quantised form ('scale'/'offset') is not supported (MindSpore "
            "2.10 documents it as unsupported too); use grouped_matmul_v4 with 'pre_token_scale' "
            "for int8 per-token quantisation."
        )
    return _grouped(
        api,
        x,
        weight,
        bias,
        antiquant_scale,
        antiquant_offset,
        group_list,
        split_item,
        group_type,
        transpose_a,
        transpose_b,
        cumulative=True,
    )


def grouped_matmul_v2(
    x,
    weight,
    bias=None,
    scale=None,
    offset=None,
    antiquant_scale=None,
    antiquant_offset=None,
    group_list=None,
    split_item=0,
    group_type=-1,
):
    """:func:`grouped_matmul` with ``group_list`` given as a list of cumulative ints and
    no transposes.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import grouped_matmul_v2
        >>> y = grouped_matmul_v2([ms.ops.ones((3, 2))], [ms.ops.ones((2, 2, 4))],
        ...                       group_list=[1, 3], split_item=3, group_type=0)
        >>> print(y[0].shape)
        (3, 4)
    """
    if isinstance(group_list, (list, tuple)):
        group_list = jnp.asarray(group_list, jnp.int32)
    return grouped_matmul(
        x,
        weight,
        bias,
        scale,
        offset,
        antiquant_scale,
        antiquant_offset,
        group_list,
        split_item,
        group_type,
    )


def grouped_matmul_v4(
    x,
    weight,
    bias=None,
    scale=None,
    offset=None,
    antiquant_scale=None,
    antiquant_offset=None,
    pre_token_scale=None,
    group_list=None,
    activation_input=None,
    activation_quant_scale=None,
    activation_quant_offset=None,
    split_item=0,
    group_type=-1,
    group_list_type=0,
    act_type=0,
    output_dtype=None,
):
    """:func:`grouped_matmul` with ``group_list_type`` (0: cumulative ends, 1: the size of
    each group) and int8 per-token quantisation: with an int8 ``x`` and ``weight``, ``scale``
    ``(N,)``/``(E, N)`` and ``pre_token_scale`` ``(M,)``, the result is
    ``(x @ weight + bias) * scale * pre_token_scale`` in ``output_dtype`` (bfloat16 by
    default), accumulated in int32.

    Raises:
        NotImplementedError: For ``offset``, the activation arguments or ``act_type`` other
            than 0 (MindSpore 2.10 does not support them either).

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import grouped_matmul_v4
        >>> group_list = ms.Tensor([1, 2], ms.int64)
        >>> y = grouped_matmul_v4([ms.ops.ones((3, 2))], [ms.ops.ones((2, 2, 4))],
        ...                       group_list=group_list, split_item=3, group_type=0,
        ...                       group_list_type=1)
        >>> print(y[0])
        [[2. 2. 2. 2.]
         [2. 2. 2. 2.]
         [2. 2. 2. 2.]]
    """
    api = "GroupedMatmulV4"
    check_int_arg(api, "group_list_type", group_list_type)
    if group_list_type not in (0, 1):
        raise TypeError(
            f"For '{api}', 'group_list_type' must be 0 or 1, but got {group_list_type}."
        )
    unsupported = {
        "offset": offset,
        "activation_input": activation_input,
        "activation_quant_scale": activation_quant_scale,
        "activation_quant_offset": activation_quant_offset,
    }
    given = [k for k, v in unsupported.items() if v is not None]
    if given or act_type != 0:
        raise NotImplementedError(
            f"For '{api}', {given or ['act_type']} are not supported (MindSpore 2.10 documents "
            "them as unsupported too); pass None and act_type=0."
        )
    dtype = np_dtype(output_dtype)
    return _grouped(
        api,
        x,
        weight,
        bias,
        antiquant_scale,
        antiquant_offset,
        group_list,
        split_item,
        group_type,
        False,
        False,
        cumulative=group_list_type == 0,
        scale=scale,
        per_token_scale=pre_token_scale,
        output_dtype=dtype,
    )


def _generated(name, fn, doc):
    # model code passes the inputs by keyword too (``GroupedMatmulV4()(..., split_item=3)``)
    return primitive(name, None, None, lambda self, *a, **k: fn(*a, **k), doc, module=_AUTO)


def _grouped_matmul_call(self, x, weight, bias=None, scale=None, offset=None,
                         antiquant_scale=None, antiquant_offset=None, group_list=None):  # fmt: skip
    return grouped_matmul(
        x,
        weight,
        bias,
        scale,
        offset,
        antiquant_scale,
        antiquant_offset,
        group_list,
        **self.attrs,
    )


GroupedMatmul = primitive(
    "GroupedMatmul",
    grouped_matmul,
    {"split_item": 0, "group_type": -1, "transpose_a": False, "transpose_b": False},
    _grouped_matmul_call,
    "Primitive form of :func:`grouped_matmul` (``split_item``, ``group_type`` and the "
    "transposes are attributes); returns a tuple of Tensors.",
    module=_AUTO,
)
GroupedMatmulV2 = _generated(
    "GroupedMatmulV2", grouped_matmul_v2, "Primitive form of :func:`grouped_matmul_v2`."
)
GroupedMatmulV4 = _generated(
    "GroupedMatmulV4", grouped_matmul_v4, "Primitive form of :func:`grouped_matmul_v4`."
)
