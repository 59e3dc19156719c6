"""ONNX rules for the jaxpr primitives of elementwise math, comparisons, reductions and shapes
(``RULES``, filled by ``@_rule``); ``_onnx_nn`` adds the network ones (matmuls, convolutions,
pooling, gathers, scatters) and ``_onnx`` the calls and control flow."""

from __future__ import annotations


import numpy as np


from ._onnx_graph import INT64_MAX, INT64_MIN, _DimValue, _Unsupported, _is_static, _same


# -- primitive rules ---------------------------------------------------------------------------
#
# A rule gets ``(g, eqn, ins)`` (``ins``: the ONNX names of the equation's inputs) and returns
# the ONNX names of its outputs (a list).

RULES: dict = {}


def _rule(*names):
    def register(fn):
        for name in names:
            RULES[name] = fn
        return fn

    return register


def _aval(v):
    return v.aval


def _onnx_dtype(dtype) -> int:
    from onnx import helper

    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def _simple(op):
    def rule(g, eqn, ins):
        return [g.node(op, ins)]

    return rule


for _name, _op in {
    "add": "Add", "sub": "Sub", "mul": "Mul", "max": "Max", "min": "Min", "pow": "Pow",
    "eq": "Equal", "lt": "Less", "le": "LessOrEqual", "gt": "Greater", "ge": "GreaterOrEqual",
    "neg": "Neg", "exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid",
    "erf": "Erf", "sqrt": "Sqrt", "abs": "Abs", "sign": "Sign", "floor": "Floor",
    "ceil": "Ceil", "sin": "Sin", "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos",
    "atan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh",
    "atanh": "Atanh", "is_finite": None,
}.items():  # fmt: skip
    if _op is not None:
        RULES[_name] = _simple(_op)


@_rule("div")
def _div(g, eqn, ins):
    return [g.node("Div", ins)]


@_rule("rem")
def _rem(g, eqn, ins):  # C fmod: the result has the dividend's sign, as XLA's rem
    return [g.node("Mod", ins, fmod=1)]


@_rule("ne")
def _ne(g, eqn, ins):
    return [g.node("Not", [g.node("Equal", ins)])]


@_rule("and", "or", "xor", "not")
def _logical(g, eqn, ins):
    if np.dtype(_aval(eqn.invars[0]).dtype) != np.bool_:
        raise _Unsupported("bitwise operations on integers")
    op = {"and": "And", "or": "Or", "xor": "Xor", "not": "Not"}[eqn.primitive.name]
    return [g.node(op, ins)]


@_rule("is_finite")
def _is_finite(g, eqn, ins):
    bad = g.node("Or", [g.node("IsNaN", ins), g.node("IsInf", ins)])
    return [g.node("Not", [bad])]


@_rule("rsqrt")
def _rsqrt(g, eqn, ins):
    return [g.node("Reciprocal", [g.node("Sqrt", ins)])]


@_rule("square")
def _square(g, eqn, ins):
    return [g.node("Mul", [ins[0], ins[0]])]


@_rule("exp2")
def _exp2(g, eqn, ins):
    two = g.const(np.array(2, _aval(eqn.outvars[0]).dtype))
    return [g.node("Pow", [two, ins[0]])]


@_rule("log1p")
def _log1p(g, eqn, ins):
    one = g.const(np.array(1, _aval(eqn.outvars[0]).dtype))
    return [g.node("Log", [g.node("Add", [ins[0], one])])]


@_rule("expm1")
def _expm1(g, eqn, ins):
    one = g.const(np.array(1, _aval(eqn.outvars[0]).dtype))
    return [g.node("Sub", [g.node("Exp", ins), one])]


@_rule("erfc")
def _erfc(g, eqn, ins):
    one = g.const(np.array(1, _aval(eqn.outvars[0]).dtype))
    return [g.node("Sub", [one, g.node("Erf", ins)])]


@_rule("round")
def _round(g, eqn, ins):
    method = int(eqn.params.get("rounding_method", 0))
    if method == 1:  # to nearest even, as ONNX's Round
        return [g.node("Round", ins)]
    half = g.const(np.array(0.5, _aval(eqn.outvars[0]).dtype))
    magnitude = g.node("Floor", [g.node("Add", [g.node("Abs", ins), half])])
    return [g.node("Mul", [g.node("Sign", ins), magnitude])]


@_rule("integer_pow")
def _integer_pow(g, eqn, ins):
    y = int(eqn.params["y"])
    if y == 1:
        return [ins[0]]
    if y == 2:
        return [g.node("Mul", [ins[0], ins[0]])]
    exponent = g.const(np.array(y, _aval(eqn.outvars[0]).dtype))
    return [g.node("Pow", [ins[0], exponent])]


@_rule(
    "stop_gradient", "copy", "copy_p", "optimization_barrier", "reduce_precision",
    "sharding_constraint", "device_put",
)  # fmt: skip
def _identity(g, eqn, ins):
    return list(ins)


@_rule("convert_element_type")
def _convert(g, eqn, ins):
    src, dst = np.dtype(_aval(eqn.invars[0]).dtype), np.dtype(eqn.params["new_dtype"])
    if src == dst:
        return [ins[0]]
    return [g.node("Cast", ins, to=_onnx_dtype(dst))]


@_rule("select_n")
def _select_n(g, eqn, ins):
    which, cases = ins[0], ins[1:]
    if len(cases) == 1:
        return [cases[0]]
    if np.dtype(_aval(eqn.invars[0]).dtype) == np.bool_:
        return [g.node("Where", [which, cases[1], cases[0]])]
    out = cases[0]
    index_dtype = _aval(eqn.invars[0]).dtype
    for i, case in enumerate(cases[1:], start=1):
        is_i = g.node("Equal", [which, g.const(np.array(i, index_dtype))])
        out = g.node("Where", [is_i, case, out])
    return [out]


@_rule("clamp")
def _clamp(g, eqn, ins):
    low, x, high = ins
    return [g.node("Min", [g.node("Max", [x, low]), high])]


def _reduce(op):
    def rule(g, eqn, ins):
        axes = [int(a) for a in eqn.params["axes"]]
        if not axes:
            return [ins[0]]
        x = ins[0]
        dtype = np.dtype(_aval(eqn.invars[0]).dtype)
        if dtype == np.bool_:
            x = g.node("Cast", [x], to=_onnx_dtype(np.int32))
        if op == "ReduceSum":  # axes are an input from opset 13, an attribute elsewhere
            out = g.node(op, [x, g.int64s(axes)], keepdims=0)
        else:
            out = g.node(op, [x], axes=axes, keepdims=0)
        if dtype == np.bool_:
            out = g.node("Cast", [out], to=_onnx_dtype(np.bool_))
        return [out]

    return rule


RULES["reduce_sum"] = _reduce("ReduceSum")
RULES["reduce_max"] = _reduce("ReduceMax")
RULES["reduce_min"] = _reduce("ReduceMin")
RULES["reduce_prod"] = _reduce("ReduceProd")
RULES["reduce_and"] = _reduce("ReduceMin")
RULES["reduce_or"] = _reduce("ReduceMax")


@_rule("argmax", "argmin")
def _argmax(g, eqn, ins):
    (axis,) = eqn.params["axes"]
    op = "ArgMax" if eqn.primitive.name == "argmax" else "ArgMin"
    out = g.node(op, ins, axis=int(axis), keepdims=0)
    return [g.node("Cast", [out], to=_onnx_dtype(eqn.params["index_dtype"]))]


@_rule("cumsum")
def _cumsum(g, eqn, ins):
    axis = g.const(np.array(int(eqn.params["axis"]), np.int64))
    return [g.node("CumSum", [ins[0], axis], reverse=int(bool(eqn.params.get("reverse"))))]


@_rule("top_k")
def _top_k(g, eqn, ins):
    k = int(eqn.params["k"])
    values, indices = g.node("TopK", [ins[0], g.int64s([k])], outputs=2, axis=-1, largest=1)
    index_dtype = _aval(eqn.outvars[1]).dtype
    return [values, g.node("Cast", [indices], to=_onnx_dtype(index_dtype))]


@_rule("reshape")
def _reshape(g, eqn, ins):
    if eqn.params.get("dimensions") is not None:
        raise _Unsupported("reshape with 'dimensions'")
    new = tuple(eqn.params["new_sizes"])
    old = tuple(_aval(eqn.invars[0]).shape)
    if new == old:
        return [ins[0]]
    attrs = {"allowzero": 1} if any(_is_static(d) and d == 0 for d in new) else {}
    keep = None if attrs else old
    return [g.node("Reshape", [ins[0], g.shape_tensor(new, keep_from=keep)], **attrs)]


@_rule("dim_as_value")
def _dim_as_value(g, eqn, ins):  # a symbolic dimension used as a number (a mean's divisor)
    value = g.dim(eqn.params["dim"])
    dtype = np.dtype(_aval(eqn.outvars[0]).dtype)
    if not isinstance(value, _DimValue):
        return [g.const(np.array(value, dtype))]
    scalar = g.node("Squeeze", [value.name, g.int64s([0])])
    return [g.node("Cast", [scalar], to=_onnx_dtype(dtype))]


@_rule("transpose")
def _transpose(g, eqn, ins):
    perm = [int(p) for p in eqn.params["permutation"]]
    if perm == sorted(perm):
        return [ins[0]]
    return [g.node("Transpose", ins, perm=perm)]


@_rule("broadcast_in_dim")
def _broadcast_in_dim(g, eqn, ins):
    shape = tuple(eqn.params["shape"])
    kept = [int(d) for d in eqn.params["broadcast_dimensions"]]
    operand = tuple(_aval(eqn.invars[0]).shape)
    new_axes = [i for i in range(len(shape)) if i not in kept]
    x = ins[0]
    if new_axes:
        x = g.node("Unsqueeze", [x, g.int64s(new_axes)])
    # Expand broadcasts bidirectionally: an axis the operand already has at full size can be 1
    target = list(shape)
    for axis, src in zip(kept, operand):
        if _same(src, shape[axis]):
            target[axis] = 1
    if all(_is_static(t) and t == 1 for t in target):
        return [x]
    return [g.node("Expand", [x, g.shape_tensor(target)])]


@_rule("squeeze")
def _squeeze(g, eqn, ins):
    axes = [int(a) for a in eqn.params["dimensions"]]
    if not axes:
        return [ins[0]]
    return [g.node("Squeeze", [ins[0], g.int64s(axes)])]


@_rule("expand_dims")
def _expand_dims(g, eqn, ins):
    return [g.node("Unsqueeze", [ins[0], g.int64s(eqn.params["dimensions"])])]


@_rule("concatenate")
def _concatenate(g, eqn, ins):
    return [g.node("Concat", ins, axis=int(eqn.params["dimension"]))]


@_rule("split")
def _split(g, eqn, ins):
    sizes = [int(s) for s in eqn.params["sizes"]]
    outs = g.node(
        "Split", [ins[0], g.int64s(sizes)], outputs=len(sizes), axis=int(eqn.params["axis"])
    )
    return [outs] if len(sizes) == 1 else list(outs)


@_rule("stack")
def _stack(g, eqn, ins):
    axis = int(eqn.params["axis"])
    parts = [g.node("Unsqueeze", [x, g.int64s([axis])]) for x in ins]
    return [parts[0] if len(parts) == 1 else g.node("Concat", parts, axis=axis)]


@_rule("unstack")
def _unstack(g, eqn, ins):
    axis, n = int(eqn.params["axis"]), len(eqn.outvars)
    parts = g.node("Split", [ins[0], g.int64s([1] * n)], outputs=n, axis=axis)
    parts = [parts] if n == 1 else parts
    return [g.node("Squeeze", [x, g.int64s([axis])]) for x in parts]


@_rule("tile")
def _tile(g, eqn, ins):
    reps = tuple(eqn.params["reps"])
    return [g.node("Tile", [ins[0], g.shape_tensor(reps)])]


def _slice(g, x, shape, starts, limits, steps):
    axes, begin, end, stride = [], [], [], []
    for axis, (d, s, e, k) in enumerate(zip(shape, starts, limits, steps)):
        if _is_static(s) and s == 0 and _same(e, d) and k == 1:
            continue
        if not (_is_static(s) and _is_static(k)):
            raise _Unsupported("a slice starting at a symbolic index")
        axes.append(axis)
        begin.append(int(s))
        stride.append(int(k))
        end.append(INT64_MAX if _same(e, d) else e)
    if not axes:
        return x
    if all(_is_static(e) for e in end):
        ends = g.int64s(end)
    else:
        ends = g.shape_tensor(end)
    return g.node("Slice", [x, g.int64s(begin), ends, g.int64s(axes), g.int64s(stride)])


@_rule("slice")
def _slice_rule(g, eqn, ins):
    shape = tuple(_aval(eqn.invars[0]).shape)
    strides = eqn.params.get("strides") or (1,) * len(shape)
    return [
        _slice(g, ins[0], shape, eqn.params["start_indices"], eqn.params["limit_indices"], strides)
    ]


@_rule("rev")
def _rev(g, eqn, ins):
    axes = [int(a) for a in eqn.params["dimensions"]]
    n = len(axes)
    return [
        g.node(
            "Slice",
            [ins[0], g.int64s([-1] * n), g.int64s([INT64_MIN] * n), g.int64s(axes),
             g.int64s([-1] * n)],
        )
    ]  # fmt: skip


@_rule("dynamic_slice")
def _dynamic_slice(g, eqn, ins):
    shape = tuple(_aval(eqn.invars[0]).shape)
    sizes = tuple(eqn.params["slice_sizes"])
    index_names = ins[1 : 1 + len(shape)]
    if all(name in g.constants for name in index_names) and all(map(_is_static, shape)):
        starts = []
        for name, d, size in zip(index_names, shape, sizes):
            start = int(np.asarray(g.constants[name]))
            starts.append(min(max(start, 0), int(d) - int(size)))  # XLA clamps the start
        limits = [s + int(z) for s, z in zip(starts, sizes)]
        return [_slice(g, ins[0], shape, starts, limits, (1,) * len(shape))]
    if not all(map(_is_static, shape)):
        raise _Unsupported("dynamic_slice with a run-time start on a symbolic shape")
    starts = []
    for name, d, size in zip(index_names, shape, sizes):
        start = g.node("Cast", [g.node("Reshape", [name, g.int64s([1])])], to=_onnx_dtype(np.int64))
        start = g.node(
            "Max", [g.node("Min", [start, g.int64s([int(d) - int(size)])]), g.int64s([0])]
        )
        starts.append(start)
    begin = g.node("Concat", starts, axis=0)
    end = g.node("Add", [begin, g.int64s(sizes)])
    return [g.node("Slice", [ins[0], begin, end])]


@_rule("pad")
def _pad(g, eqn, ins):
    config = eqn.params["padding_config"]
    if any(int(interior) != 0 for _, _, interior in config):
        raise _Unsupported("pad with interior padding")
    x, value = ins
    lows = [int(lo) for lo, _, _ in config]
    highs = [int(hi) for _, hi, _ in config]
    shape = tuple(_aval(eqn.invars[0]).shape)
    if any(p < 0 for p in lows + highs):  # negative padding crops
        starts = [max(-lo, 0) for lo in lows]
        limits = [d if hi >= 0 else d + hi for d, hi in zip(shape, highs)]
        x = _slice(g, x, shape, starts, limits, (1,) * len(shape))
        lows, highs = [max(p, 0) for p in lows], [max(p, 0) for p in highs]
    if not any(lows + highs):
        return [x]
    return [g.node("Pad", [x, g.int64s(lows + highs), value], mode="constant")]


@_rule("iota")
def _iota(g, eqn, ins):
    shape, dimension = tuple(eqn.params["shape"]), int(eqn.params["dimension"])
    dtype = np.dtype(eqn.params["dtype"])
    if all(map(_is_static, shape)):
        line = np.arange(shape[dimension], dtype=dtype)
        index = [None] * len(shape)
        index[dimension] = slice(None)
        return [g.const(np.ascontiguousarray(np.broadcast_to(line[tuple(index)], shape)))]
    n = g.dim(shape[dimension])
    limit = n.name if isinstance(n, _DimValue) else g.int64s([n])
    zero, one = g.const(np.array(0, np.int64)), g.const(np.array(1, np.int64))
    limit = g.node("Squeeze", [limit, g.int64s([0])])
    line = g.node("Cast", [g.node("Range", [zero, limit, one])], to=_onnx_dtype(dtype))
    others = [i for i in range(len(shape)) if i != dimension]
    if others:
        line = g.node("Unsqueeze", [line, g.int64s(others)])
    target = [1 if i == dimension else d for i, d in enumerate(shape)]
    return [g.node("Expand", [line, g.shape_tensor(target)])]
