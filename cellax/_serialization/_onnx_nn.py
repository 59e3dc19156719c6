"""ONNX rules for the network primitives: ``dot_general``, convolutions, pooling windows,
gathers and scatters (registered in ``_onnx_ops.RULES``)."""

from __future__ import annotations


import numpy as np


from ._onnx_graph import INT64_MIN, _Unsupported, _is_static, _same
from ._onnx_ops import _aval, _onnx_dtype, _rule, _slice


@_rule("dot_general")
def _dot_general(g, eqn, ins):
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    lc, rc, lb, rb = (list(map(int, d)) for d in (lc, rc, lb, rb))
    lhs_rank, rhs_rank = len(_aval(eqn.invars[0]).shape), len(_aval(eqn.invars[1]).shape)
    lf = [i for i in range(lhs_rank) if i not in lc and i not in lb]
    rf = [i for i in range(rhs_rank) if i not in rc and i not in rb]
    lhs, rhs = ins
    in_dtype = np.dtype(_aval(eqn.invars[0]).dtype)
    out_dtype = np.dtype(_aval(eqn.outvars[0]).dtype)
    if np.dtype(_aval(eqn.invars[1]).dtype) != in_dtype:
        rhs = g.node("Cast", [rhs], to=_onnx_dtype(in_dtype))

    def permuted(x, perm):
        return x if perm == list(range(len(perm))) else g.node("Transpose", [x], perm=perm)

    if len(lc) == 1 and len(rf) <= 1 and (lb or len(lf) >= 1) and (not lb or len(lf) <= 1):
        # MatMul: lhs (batch..., free..., K) @ rhs (batch..., K, N)
        a = permuted(lhs, lb + lf + lc)
        b = permuted(rhs, rb + rc + rf)
        squeeze = []
        if not rf:
            b = g.node("Unsqueeze", [b, g.int64s([-1])])
            squeeze.append(-1)
        if lb and not lf:
            a = g.node("Unsqueeze", [a, g.int64s([-2])])
            squeeze.append(-2 if rf else -2)
        out = g.node("MatMul", [a, b])
        if squeeze:
            out = g.node("Squeeze", [out, g.int64s(sorted(squeeze))])
    else:
        letters = iter("abcdefghijklmnopqrstuvwxyz")
        lhs_sub, rhs_sub = [""] * lhs_rank, [""] * rhs_rank
        for i, j in zip(lb, rb):
            lhs_sub[i] = rhs_sub[j] = next(letters)
        for i, j in zip(lc, rc):
            lhs_sub[i] = rhs_sub[j] = next(letters)
        for i in lf:
            lhs_sub[i] = next(letters)
        for j in rf:
            rhs_sub[j] = next(letters)
        out_sub = [lhs_sub[i] for i in lb] + [lhs_sub[i] for i in lf] + [rhs_sub[j] for j in rf]
        equation = f"{''.join(lhs_sub)},{''.join(rhs_sub)}->{''.join(out_sub)}"
        out = g.node("Einsum", [lhs, rhs], equation=equation)
    if out_dtype != in_dtype:
        out = g.node("Cast", [out], to=_onnx_dtype(out_dtype))
    return [out]


def _to_layout(g, x, spec):
    """Transpose ``x`` so that the axes listed in ``spec`` come first, in that order."""
    perm = [int(a) for a in spec]
    return x if perm == sorted(perm) else g.node("Transpose", [x], perm=perm)


@_rule("conv_general_dilated")
def _conv(g, eqn, ins):
    p = eqn.params
    if int(p["batch_group_count"]) != 1:
        raise _Unsupported("conv_general_dilated with batch_group_count > 1")
    dn = p["dimension_numbers"]
    lhs = _to_layout(g, ins[0], dn.lhs_spec)
    rhs = _to_layout(g, ins[1], dn.rhs_spec)
    rhs_shape = tuple(_aval(eqn.invars[1]).shape)
    kernel = [int(rhs_shape[a]) for a in dn.rhs_spec[2:]]
    strides = [int(s) for s in p["window_strides"]]
    dilations = [int(d) for d in p["rhs_dilation"]]
    lhs_dilation = [int(d) for d in p["lhs_dilation"]]
    padding = [(int(lo), int(hi)) for lo, hi in p["padding"]]
    groups = int(p["feature_group_count"])
    if any(d != 1 for d in lhs_dilation):  # a transposed convolution
        if any(s != 1 for s in strides):
            raise _Unsupported("conv_general_dilated with both lhs_dilation and window_strides")
        span = [d * (k - 1) + 1 for d, k in zip(dilations, kernel)]
        pads = [(s - 1 - lo, s - 1 - hi) for s, (lo, hi) in zip(span, padding)]
        if any(a < 0 or b < 0 for a, b in pads):
            raise _Unsupported("conv_general_dilated with lhs_dilation and large padding")
        out_ch, in_per_group = int(rhs_shape[dn.rhs_spec[0]]), int(rhs_shape[dn.rhs_spec[1]])
        n = len(kernel)
        # (O, I/g, k...) -> ConvTranspose's (I, O/g, k...), flipped in space
        w = g.node("Reshape", [rhs, g.int64s([groups, out_ch // groups, in_per_group] + kernel)])
        w = g.node("Transpose", [w], perm=[0, 2, 1] + list(range(3, 3 + n)))
        w = g.node("Reshape", [w, g.int64s([groups * in_per_group, out_ch // groups] + kernel)])
        w = g.node(
            "Slice",
            [w, g.int64s([-1] * n), g.int64s([INT64_MIN] * n), g.int64s(range(2, 2 + n)),
             g.int64s([-1] * n)],
        )  # fmt: skip
        out = g.node(
            "ConvTranspose", [lhs, w], strides=lhs_dilation, dilations=dilations, group=groups,
            pads=[a for a, _ in pads] + [b for _, b in pads], kernel_shape=kernel,
        )  # fmt: skip
    else:
        if any(lo < 0 or hi < 0 for lo, hi in padding):
            raise _Unsupported("conv_general_dilated with negative padding")
        out = g.node(
            "Conv", [lhs, rhs], strides=strides, dilations=dilations, group=groups,
            pads=[lo for lo, _ in padding] + [hi for _, hi in padding], kernel_shape=kernel,
        )  # fmt: skip
    inverse = np.argsort([int(a) for a in dn.out_spec]).tolist()
    if inverse != sorted(inverse):
        out = g.node("Transpose", [out], perm=inverse)
    return [out]


def _pool(kind):
    def rule(g, eqn, ins):
        p = eqn.params
        shape = tuple(_aval(eqn.invars[0]).shape)
        out_shape = tuple(_aval(eqn.outvars[0]).shape)
        window = [int(w) for w in p["window_dimensions"]]
        strides = [int(s) for s in p["window_strides"]]
        padding = [(int(lo), int(hi)) for lo, hi in p["padding"]]
        dilation = [int(d) for d in p.get("window_dilation", (1,) * len(shape))]
        if any(int(d) != 1 for d in p.get("base_dilation", ())):
            raise _Unsupported(f"{eqn.primitive.name} with base_dilation")
        if kind == "sum" and any(d != 1 for d in dilation):
            raise _Unsupported("reduce_window_sum with window_dilation")
        pooled = [i for i in range(len(shape)) if (window[i], strides[i], padding[i],
                  dilation[i]) != (1, 1, (0, 0), 1)]  # fmt: skip
        if not pooled:
            return [ins[0]]
        passed = [i for i in range(len(shape)) if i not in pooled]
        perm = passed + pooled
        x = ins[0] if perm == sorted(perm) else g.node("Transpose", [ins[0]], perm=perm)
        lead = [shape[i] for i in passed]
        if len(passed) != 2:  # NC... layout: fold the passed axes into two
            first = 1
            for d in lead[:-1]:
                first = first * d
            last = lead[-1] if lead else 1
            x = g.node("Reshape", [x, g.shape_tensor([first, last] + [shape[i] for i in pooled])])
        attrs = dict(
            kernel_shape=[window[i] for i in pooled],
            strides=[strides[i] for i in pooled],
            pads=[padding[i][0] for i in pooled] + [padding[i][1] for i in pooled],
        )
        if kind == "sum":
            out = g.node("AveragePool", [x], count_include_pad=1, **attrs)
            size = int(np.prod([window[i] for i in pooled]))
            dtype = _aval(eqn.outvars[0]).dtype
            out = g.node("Mul", [out, g.const(np.array(size, dtype))])
        elif kind == "max":
            out = g.node("MaxPool", [x], dilations=[dilation[i] for i in pooled], **attrs)
        else:  # min: -max(-x)
            neg = g.node("Neg", [x])
            out = g.node("MaxPool", [neg], dilations=[dilation[i] for i in pooled], **attrs)
            out = g.node("Neg", [out])
        if len(passed) != 2:
            permuted = [out_shape[i] for i in perm]
            out = g.node("Reshape", [out, g.shape_tensor(permuted)])
        if perm != sorted(perm):
            out = g.node("Transpose", [out], perm=np.argsort(perm).tolist())
        return [out]

    return rule


_rule("reduce_window_max")(_pool("max"))
_rule("reduce_window_min")(_pool("min"))
_rule("reduce_window_sum")(_pool("sum"))


def _clamped_indices(g, eqn, indices, size):
    """Indices clamped into ``[0, size)`` unless the gather promises they are in bounds (ONNX's
    Gather rejects out-of-range indices; XLA clamps them, or fills, which this clamps too)."""
    mode = str(eqn.params.get("mode", ""))
    if "PROMISE_IN_BOUNDS" in mode:
        return indices
    dtype = _aval(eqn.invars[1]).dtype
    if _is_static(size):
        high = g.const(np.array(int(size) - 1, dtype))
    else:
        high = g.node("Sub", [g.node("Cast", [g.dim(size).name], to=_onnx_dtype(dtype)),
                              g.const(np.array([1], dtype))])  # fmt: skip
    return g.node("Max", [g.node("Min", [indices, high]), g.const(np.array(0, dtype))])


def _gather_elements(g, eqn, x, indices, axis):
    """A batched gather (``take_along_axis``, possibly broadcasting over trailing axes) as
    ``GatherElements``: the indices are laid out in the operand's axis order first."""
    dn = eqn.params["dimension_numbers"]
    operand_shape = tuple(_aval(eqn.invars[0]).shape)
    index_rank = len(_aval(eqn.invars[1]).shape) - 1
    slice_sizes = tuple(eqn.params["slice_sizes"])
    operand_batching = [int(d) for d in dn.operand_batching_dims]
    index_batching = [int(d) for d in dn.start_indices_batching_dims]
    offset_dims = [int(d) for d in dn.offset_dims]
    rank = len(operand_shape)
    offset_axes = [i for i in range(rank) if i != axis and i not in operand_batching]
    free = [j for j in range(index_rank) if j not in index_batching]
    if (
        [int(d) for d in dn.collapsed_slice_dims] != [axis]
        or len(free) != 1
        or any(not _same(slice_sizes[i], operand_shape[i]) for i in offset_axes)
    ):
        raise _Unsupported("this form of batched gather")
    # the operand axis each index axis addresses; the offset axes are added (size 1)
    index_axes = [axis if j in free else operand_batching[index_batching.index(j)]
                  for j in range(index_rank)]  # fmt: skip
    idx = indices
    if offset_axes:
        idx = g.node("Unsqueeze", [idx, g.int64s(range(index_rank, rank))])
    order = index_axes + offset_axes  # idx's axes, as operand axes
    perm = [order.index(i) for i in range(rank)]
    if perm != sorted(perm):
        idx = g.node("Transpose", [idx], perm=perm)
    if offset_axes:
        target = [operand_shape[i] if i in offset_axes else 1 for i in range(rank)]
        idx = g.node("Expand", [idx, g.shape_tensor(target)])
    out = g.node("GatherElements", [x, idx], axis=axis)
    # XLA's output: offset axes at offset_dims, the index axes (in order) elsewhere
    out_axes: list = [None] * (index_rank + len(offset_axes))
    for pos, i in zip(offset_dims, offset_axes):
        out_axes[pos] = i
    rest = iter(index_axes)
    out_axes = [i if i is not None else next(rest) for i in out_axes]
    if out_axes != sorted(out_axes):
        out = g.node("Transpose", [out], perm=out_axes)
    return out


@_rule("gather")
def _gather(g, eqn, ins):
    dn = eqn.params["dimension_numbers"]
    operand_shape = tuple(_aval(eqn.invars[0]).shape)
    index_shape = tuple(_aval(eqn.invars[1]).shape)
    slice_sizes = tuple(eqn.params["slice_sizes"])
    offset_dims = [int(d) for d in dn.offset_dims]
    collapsed = [int(d) for d in dn.collapsed_slice_dims]
    start_map = [int(d) for d in dn.start_index_map]
    operand_batching = [int(d) for d in getattr(dn, "operand_batching_dims", ())]
    if len(start_map) != 1 or index_shape[-1:] != (1,):
        raise _Unsupported("gather indexing more than one axis at a time")
    (axis,) = start_map
    rank = len(operand_shape)
    others = [i for i in range(rank) if i != axis]
    indices = g.node("Squeeze", [ins[1], g.int64s([-1])])
    indices = _clamped_indices(g, eqn, indices, operand_shape[axis])
    if operand_batching:  # take_along_axis: GatherElements
        return [_gather_elements(g, eqn, ins[0], indices, axis)]
    if collapsed != [axis]:
        raise _Unsupported("gather keeping the indexed axis")
    # the other axes are taken whole, or from 0 (slice them first)
    limits = [operand_shape[i] if i == axis else slice_sizes[i] for i in range(rank)]
    x = _slice(g, ins[0], operand_shape, [0] * rank, limits, (1,) * rank)
    out = g.node("Gather", [x, indices], axis=axis)
    # ONNX's order: operand axes before `axis`, the index's batch axes, operand axes after;
    # XLA's: offset_dims are the output positions of the operand's remaining axes
    n_batch = len(index_shape) - 1
    onnx_order = [("o", i) for i in others if i < axis] + [("b", j) for j in range(n_batch)]
    onnx_order += [("o", i) for i in others if i > axis]
    xla_order: list = [None] * (len(others) + n_batch)
    for pos, i in zip(offset_dims, others):
        xla_order[pos] = ("o", i)
    batch = iter(range(n_batch))
    xla_order = [e if e is not None else ("b", next(batch)) for e in xla_order]
    perm = [onnx_order.index(e) for e in xla_order]
    if perm != sorted(perm):
        out = g.node("Transpose", [out], perm=perm)
    return [out]


@_rule("scatter", "scatter-add", "scatter_add")
def _scatter(g, eqn, ins):
    """The two simple forms of ``scatter`` (``.at[...].set/add``, ``x[a:b] = y``) as ONNX's
    ``ScatterND``: a block written at a known start, or whole rows at run-time indices."""
    dn = eqn.params["dimension_numbers"]
    operand, indices, updates = ins
    operand_shape = tuple(_aval(eqn.invars[0]).shape)
    index_shape = tuple(_aval(eqn.invars[1]).shape)
    update_shape = tuple(_aval(eqn.invars[2]).shape)
    window = [int(d) for d in dn.update_window_dims]
    inserted = [int(d) for d in dn.inserted_window_dims]
    to_operand = [int(d) for d in dn.scatter_dims_to_operand_dims]
    if getattr(dn, "operand_batching_dims", ()) or not all(
        map(_is_static, operand_shape + index_shape + update_shape)
    ):
        raise _Unsupported("this form of scatter")
    reduction = {"scatter": "none"}.get(eqn.primitive.name, "add")
    rank = len(operand_shape)
    if index_shape == (len(to_operand),) and not inserted and window == list(range(rank)):
        # one block of `updates` written at the start `indices` (others axes from 0)
        if indices not in g.constants:
            raise _Unsupported("scatter of a block at a run-time start")
        start = [0] * rank
        for k, axis in enumerate(to_operand):
            start[axis] = int(np.asarray(g.constants[indices])[k])
        if any(s < 0 or s + u > d for s, u, d in zip(start, update_shape, operand_shape)):
            raise _Unsupported("scatter of a block reaching out of bounds")
        grid = np.stack(np.indices(update_shape), axis=-1) + np.asarray(start)
        nd_indices = g.const(grid.astype(np.int64))
        return [g.node("ScatterND", [operand, nd_indices, updates], reduction=reduction)]
    k = len(to_operand)
    if (
        to_operand == list(range(k))
        and inserted == to_operand
        and index_shape[-1:] == (k,)
        and window == list(range(len(update_shape) - (rank - k), len(update_shape)))
        and update_shape[: len(index_shape) - 1] == index_shape[:-1]
        and update_shape[len(index_shape) - 1 :] == operand_shape[k:]
    ):  # whole trailing slices at run-time indices of the leading axes: ScatterND's own form
        nd_indices = g.node("Cast", [indices], to=_onnx_dtype(np.int64))
        return [g.node("ScatterND", [operand, nd_indices, updates], reduction=reduction)]
    raise _Unsupported("this form of scatter")
