"""``onnx.export`` and ``export(..., file_format="ONNX")``: cellax's own lowering of a network's jaxpr onto ONNX.

The network runs in inference mode as a pure function of its parameter values and inputs
(the function ``export(file_format="MINDIR")`` serializes), traced with ``jax.make_jaxpr``.
Each equation of that jaxpr becomes one or a few ONNX nodes built with the ``onnx`` package's
helper API; the parameter values become the graph's initializers (named after the
parameters), the inputs its inputs. Calls (``jit``, ``custom_jvp_call``, ``custom_vjp_call``,
``closed_call``, ``remat``) are inlined; a ``scan`` of a fixed length is unrolled. A dimension
given as ``None`` (``Tensor(shape=[None, ...])``) or named in ``dynamic_axes`` is traced as a ``jax.export`` symbolic dimension, so every
shape the jaxpr computes with it is an expression of that symbol; the converter turns those
expressions into ONNX shape arithmetic on the input's runtime shape, and names the dimension in
the graph's input and output types (``batch`` for axis 0).

A primitive without a rule raises ``RuntimeError`` naming it and the Cells that emitted it
(each Cell call is traced inside a ``jax.named_scope`` of its class name, so the equation's
name stack is the chain of Cells).
"""

from __future__ import annotations

import itertools
import operator
import os

import jax
import numpy as np

from .. import _core
from .._transforms import functional_call, state
from ._common import _atomic_write

OPSET = 17
_MAX_UNROLL = 1024  # the longest scan unrolled into the graph
INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def _import_onnx():
    try:
        import onnx
    except ImportError as error:
        raise ImportError(
            "For 'export', file_format='ONNX' needs the 'onnx' package. Install it with: "
            "pip install 'cellax[onnx]'."
        ) from error
    return onnx


class _Unsupported(Exception):
    """A primitive (or a form of one) the converter has no rule for."""


# -- symbolic dimensions as ONNX shape arithmetic ------------------------------------------------


class _DimValue:
    """A dimension computed at run time: the name of an int64 tensor of shape ``[1]``.

    ``jax.export`` evaluates a symbolic dimension expression over these (its ``_evaluate``
    with variables bound to ``_DimValue``), so ``+``, ``*`` and ``divmod`` emit ONNX nodes.
    """

    def __init__(self, graph, name):
        self.graph, self.name = graph, name

    def _other(self, other):
        if isinstance(other, _DimValue):
            return other.name
        return self.graph.const(np.array([operator.index(other)], np.int64))

    def _op(self, op, other, swap=False):
        a, b = self.name, self._other(other)
        return _DimValue(self.graph, self.graph.node(op, [b, a] if swap else [a, b]))

    def __add__(self, other):
        return self._op("Add", other)

    def __radd__(self, other):
        return self._op("Add", other, swap=True)

    def __mul__(self, other):
        return self._op("Mul", other)

    def __rmul__(self, other):
        return self._op("Mul", other, swap=True)

    def __sub__(self, other):
        return self._op("Sub", other)

    def __rsub__(self, other):
        return self._op("Sub", other, swap=True)

    def __divmod__(self, other):  # dimensions are >= 0, so truncation is floor division
        return self._op("Div", other), self._op("Mod", other)

    def __rdivmod__(self, other):
        return self._op("Div", other, swap=True), self._op("Mod", other, swap=True)


def _is_static(d) -> bool:
    return isinstance(d, (int, np.integer))


def _same(a, b) -> bool:
    """Whether two dimensions (ints or symbolic expressions) are the same."""
    if _is_static(a) != _is_static(b):
        return False
    return bool(a == b)


# -- the graph under construction --------------------------------------------------------------


class _Graph:
    def __init__(self, onnx, net_name: str):
        self.onnx = onnx
        self.helper = onnx.helper
        self.net_name = net_name
        self.nodes: list = []
        self.initializers: list = []
        self.names: set = set()
        self.counter = itertools.count()
        self.constants: dict = {}  # value name -> numpy value, for names known at export time
        self._const_cache: dict = {}
        self.dim_env: dict = {}  # dimension variable -> _DimValue (filled lazily)
        self.dim_sources: dict = {}  # dimension variable -> (input name, axis)

    # names, nodes, constants
    def fresh(self, hint: str) -> str:
        while True:
            name = f"{hint}_{next(self.counter)}"
            if name not in self.names:
                self.names.add(name)
                return name

    def node(self, op: str, inputs, outputs=1, **attrs):
        outs = (
            [self.fresh(op.lower()) for _ in range(outputs)]
            if isinstance(outputs, int)
            else outputs
        )
        self.nodes.append(self.helper.make_node(op, list(inputs), outs, **attrs))
        return outs[0] if len(outs) == 1 else outs

    def initializer(self, name: str, value: np.ndarray, known: bool = True) -> str:
        """An initializer; ``known`` ones (not parameters, which a runtime may replace) are
        constants the converter may fold and read (indices, predicates)."""
        from onnx import numpy_helper

        self.names.add(name)
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        if known:
            self.constants[name] = np.asarray(value)
        return name

    def const(self, value) -> str:
        value = np.asarray(value)
        key = (value.dtype.str, value.shape, value.tobytes())
        if key not in self._const_cache:
            self._const_cache[key] = self.initializer(self.fresh("const"), value)
        return self._const_cache[key]

    def int64s(self, values) -> str:
        return self.const(np.asarray(list(values), np.int64))

    # shapes
    def dim(self, d):
        """An int, or a ``_DimValue`` for a symbolic dimension expression."""
        if _is_static(d):
            return int(d)
        for var in d._get_vars():
            if var not in self.dim_env:
                if var not in self.dim_sources:
                    raise _Unsupported(f"the dimension variable '{var}' is not an input dimension")
                source, axis = self.dim_sources[var]
                name = self.node("Shape", [source], start=axis, end=axis + 1)
                self.dim_env[var] = _DimValue(self, name)
        value = d._evaluate(self.dim_env)
        return int(value) if _is_static(value) else value

    def shape_tensor(self, dims, keep_from=None) -> str:
        """An int64 shape tensor for ``dims``. Where ``keep_from`` (a tuple of the input's
        dimensions, for Reshape) has the same symbolic dimension at the same axis, that axis is
        0 (ONNX's copy-the-input-dimension); one remaining symbolic dimension becomes -1."""
        entries: list = []
        for axis, d in enumerate(dims):
            if _is_static(d):
                entries.append(int(d))
            elif keep_from is not None and axis < len(keep_from) and _same(keep_from[axis], d):
                entries.append(0)
            else:
                entries.append(d)
        symbolic = [i for i, e in enumerate(entries) if not isinstance(e, int)]
        if keep_from is not None and len(symbolic) == 1:
            entries[symbolic[0]] = -1
            symbolic = []
        if not symbolic:
            return self.int64s(entries)
        parts = []
        for e in entries:
            value = self.dim(e) if not isinstance(e, int) else e
            parts.append(value.name if isinstance(value, _DimValue) else self.int64s([value]))
        return self.node("Concat", parts, axis=0)


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


RULES["reduce_window_max"] = _pool("max")
RULES["reduce_window_min"] = _pool("min")
RULES["reduce_window_sum"] = _pool("sum")


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


# -- calls: inlined ----------------------------------------------------------------------------

_CALLS = {
    "pjit": "jaxpr", "jit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
    "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr",
    "custom_vjp_call_jaxpr": "fun_jaxpr", "remat": "jaxpr", "checkpoint": "jaxpr",
    "remat2": "jaxpr", "composite": "jaxpr",
}  # fmt: skip


def _split_closed(jaxpr):
    if hasattr(jaxpr, "consts"):
        return jaxpr.jaxpr, list(jaxpr.consts)
    return jaxpr, []


def _cond(g, eqn, ins, scope):
    branches = eqn.params["branches"]
    index, operands = ins[0], ins[1:]
    if index in g.constants:  # known at export time: only that branch
        i = int(np.clip(int(np.asarray(g.constants[index])), 0, len(branches) - 1))
        jaxpr, consts = _split_closed(branches[i])
        return _lower(g, jaxpr, consts, operands, scope)
    # both branches are side-effect free: compute all, select the result
    results = [
        _lower(g, *_split_closed(branch), operands, scope) for branch in branches
    ]  # fmt: skip
    outs = []
    index_dtype = _aval(eqn.invars[0]).dtype
    for k in range(len(eqn.outvars)):
        out = results[0][k]
        for i in range(1, len(branches)):
            is_i = g.node("Equal", [index, g.const(np.array(i, index_dtype))])
            out = g.node("Where", [is_i, results[i][k], out])
        outs.append(out)
    return outs


def _scan(g, eqn, ins, scope):
    """``scan`` of a static length, unrolled: the body is emitted once per step, each step
    reading its slice of the scanned inputs; the per-step outputs are stacked."""
    p = eqn.params
    length = p["length"]
    if not _is_static(length):
        raise _Unsupported("scan over a symbolic length")
    length = int(length)
    n_consts, n_carry = int(p["num_consts"]), int(p["num_carry"])
    if length > _MAX_UNROLL:
        raise _Unsupported(f"scan of {length} steps (unrolled up to {_MAX_UNROLL})")
    body, body_consts = _split_closed(p["jaxpr"])
    consts, carry, xs = (
        ins[:n_consts],
        ins[n_consts : n_consts + n_carry],
        ins[n_consts + n_carry :],
    )
    n_ys = len(eqn.outvars) - n_carry
    steps = range(length - 1, -1, -1) if p.get("reverse") else range(length)
    ys: list = [[None] * length for _ in range(n_ys)]
    for i in steps:
        x_i = [
            g.node("Gather", [x, g.const(np.array(i, np.int64))], axis=0) for x in xs
        ]  # fmt: skip
        outs = _lower(g, body, body_consts, list(consts) + list(carry) + x_i, scope)
        carry = outs[:n_carry]
        for k, y in enumerate(outs[n_carry:]):
            ys[k][i] = g.node("Unsqueeze", [y, g.int64s([0])])
    stacked = []
    for k in range(n_ys):
        if length == 0:
            raise _Unsupported("scan of 0 steps")
        stacked.append(ys[k][0] if length == 1 else g.node("Concat", ys[k], axis=0))
    return list(carry) + stacked


_FOLD_LIMIT = 4096  # the most elements a folded constant may have


def _folded(g, eqn, ins):
    """Constant folding: an equation whose inputs are all known constants (literals, the
    jaxpr's constants, results folded before) and whose outputs are small is evaluated now
    and becomes initializers (index arithmetic such as ``broadcast_in_dim 0``)."""
    if not all(name in g.constants for name in ins):
        return None
    if any(not all(map(_is_static, v.aval.shape)) for v in eqn.outvars):
        return None
    if any(int(np.prod(v.aval.shape)) > _FOLD_LIMIT for v in eqn.outvars):
        return None
    try:
        values = eqn.primitive.bind(*[g.constants[name] for name in ins], **eqn.params)
    except Exception:  # noqa: BLE001 - not foldable here: the rule converts it
        return None
    values = values if eqn.primitive.multiple_results else [values]
    return [g.const(np.asarray(v)) for v in values]


def _lower(g, jaxpr, consts, args, scope: str):
    """Emit ``jaxpr`` applied to ONNX names ``args``; return the names of its outputs."""
    from jax.extend import core as jcore

    env: dict = {}

    def read(v):
        if isinstance(v, jcore.Literal):
            return g.const(np.asarray(v.val, dtype=v.aval.dtype))
        return env[v]

    for v, c in zip(jaxpr.constvars, consts):
        env[v] = g.const(np.asarray(c))
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        stack = str(eqn.source_info.name_stack)
        where = "/".join(s for s in (scope, stack) if s)
        ins = [read(v) for v in eqn.invars]
        try:
            if name in _CALLS and _CALLS[name] in eqn.params:
                sub, sub_consts = _split_closed(eqn.params[_CALLS[name]])
                outs = _lower(g, sub, sub_consts, ins, where)
            elif name == "cond":
                outs = _cond(g, eqn, ins, where)
            elif name == "scan":
                outs = _scan(g, eqn, ins, where)
            elif name in RULES:
                outs = _folded(g, eqn, ins) or RULES[name](g, eqn, ins)
            else:
                raise _Unsupported("")
        except _Unsupported as error:
            raise _unsupported_error(g, name, str(error), where, eqn) from None
        for v, o in zip(eqn.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def _construct_line(eqn) -> str:
    """``file:line`` of the innermost ``construct`` that emitted ``eqn``, or ``""``."""
    from jax._src import source_info_util

    try:
        frames = list(source_info_util.user_frames(eqn.source_info.traceback))
    except Exception:  # noqa: BLE001 - the location is a courtesy
        return ""
    for frame in frames:
        if frame.function_name == "construct":
            return f" (at {frame.file_name}:{frame.start_line})"
    return ""


def _unsupported_error(g, primitive, detail, where, eqn) -> RuntimeError:
    form = f" ({detail})" if detail else ""
    cells = where or g.net_name
    return RuntimeError(
        f"For 'export', file_format='ONNX' cannot convert the JAX primitive '{primitive}'"
        f"{form}, emitted by Cell '{cells}'{_construct_line(eqn)}. cellax's ONNX converter "
        "covers the primitives of the usual layers; export with file_format='MINDIR' "
        "(StableHLO) instead, or rewrite that Cell with supported ops."
    )


# -- the export entry point --------------------------------------------------------------------


class _NameCells:
    """A call observer tracing each Cell call inside ``jax.named_scope(<class name>)``."""

    token = "cellax-onnx-export"

    def __init__(self):
        self.previous = _core.CALL_OBSERVERS[-1][1] if _core.CALL_OBSERVERS else None

    def __call__(self, cell, run, args, kwargs):
        with jax.named_scope(type(cell).__name__):
            if self.previous is not None:
                return self.previous(cell, run, args, kwargs)
            return run(*args, **kwargs)

    def __enter__(self):
        _core.watch_calls(self.token, self)
        return self

    def __exit__(self, *exc):
        _core.unwatch_calls(self.token, self)


def _trace(net, specs):
    def forward(params, *inputs):
        return functional_call(net, params, *inputs)[0]

    for rng in (False, True):
        values = state(net, rng=True) if rng else state(net)
        try:
            with _NameCells():
                closed = jax.make_jaxpr(forward)(values, *specs)
        except KeyError as error:
            if rng or "'rng'" not in str(error):
                raise
            continue
        return closed, values
    raise AssertionError("unreachable")


def _input_names(net, count: int) -> list:
    import inspect

    try:
        params = [
            p.name for p in inspect.signature(net.construct).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]  # fmt: skip
    except (TypeError, ValueError):
        params = []
    if len(params) >= count and len(set(params[:count])) == count:
        return params[:count]
    return [f"input_{i}" for i in range(count)]


def _dim_param(d):
    return int(d) if _is_static(d) else str(d)


def to_onnx(net, specs, input_names=None, output_names=None, params="initializers", opset=OPSET):
    """The ONNX ``ModelProto`` of ``net`` (in inference mode) on inputs ``specs``
    (``jax.ShapeDtypeStruct``, possibly with symbolic dimensions). ``params``:
    ``"initializers"``, ``"both"`` (initializers also listed as graph inputs) or ``"inputs"``
    (graph inputs only, no values)."""
    onnx = _import_onnx()
    helper = onnx.helper
    net_name = type(net).__name__
    closed, values = _trace(net, specs)
    g = _Graph(onnx, net_name)
    names = sorted(values)  # the order jax flattens the params dict in
    jaxpr = closed.jaxpr
    param_vars, input_vars = jaxpr.invars[: len(names)], jaxpr.invars[len(names) :]
    input_names = input_names or _input_names(net, len(input_vars))
    if output_names is not None and len(output_names) != len(jaxpr.outvars):
        raise ValueError(
            f"For 'onnx.export', 'output_names' must name each of the network's "
            f"{len(jaxpr.outvars)} outputs, but got {len(output_names)} names."
        )
    from jax.extend import core as jcore

    used = {
        v for v in itertools.chain(jaxpr.outvars, *(e.invars for e in jaxpr.eqns))
        if not isinstance(v, jcore.Literal)
    }  # fmt: skip
    args, param_inputs, data_inputs = [], [], []
    for name, v in zip(names, param_vars):
        value = values[name]
        if v not in used:
            args.append(None)
        elif jax.dtypes.issubdtype(value.dtype, jax.dtypes.extended):  # a random key
            args.append(name)  # read only by random primitives, which have no rule
        else:
            value = np.asarray(value)
            if params == "inputs":
                g.names.add(name)
                args.append(name)
            else:
                args.append(g.initializer(name, value, known=False))
            if params != "initializers":
                info = helper.make_tensor_value_info(name, _onnx_dtype(value.dtype), value.shape)
                param_inputs.append(info)
    for name, v, spec in zip(input_names, input_vars, specs):
        name = g.fresh(name) if name in g.names else name
        g.names.add(name)
        args.append(name)
        for axis, d in enumerate(spec.shape):
            if not _is_static(d):
                var = d._to_var()
                if var is not None and var not in g.dim_sources:
                    g.dim_sources[var] = (name, axis)
        dims = [_dim_param(d) for d in spec.shape]
        data_inputs.append(helper.make_tensor_value_info(name, _onnx_dtype(spec.dtype), dims))
    outs = _lower(g, jaxpr, closed.consts, args, "")
    graph_outputs = []
    for i, (name, v) in enumerate(zip(outs, jaxpr.outvars)):
        if output_names is not None:
            out_name = str(output_names[i])
        else:
            out_name = f"output_{i}" if len(outs) > 1 else "output"
        out_name = g.fresh(out_name) if out_name in g.names else out_name
        g.names.add(out_name)
        g.node("Identity", [name], outputs=[out_name])
        dims = [_dim_param(d) for d in v.aval.shape]
        graph_outputs.append(
            helper.make_tensor_value_info(out_name, _onnx_dtype(v.aval.dtype), dims)
        )
    graph_inputs = data_inputs + param_inputs
    graph = helper.make_graph(g.nodes, net_name, graph_inputs, graph_outputs, g.initializers)
    return helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", opset)],
        producer_name="cellax",
        ir_version=min(onnx.IR_VERSION, 8),
    )


def write_onnx(path: str, model) -> None:
    data = model.SerializeToString()

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    _atomic_write(path, write)


def _specs(api, inputs, names, dynamic_axes):
    """The export specs of ``inputs``; ``dynamic_axes`` (``{input name: {axis: dim name}}``)
    makes those axes symbolic dimensions of the given names."""
    from ._mindir import _input_spec

    scope = jax.export.SymbolicScope()
    specs = [_input_spec(x, i, scope) for i, x in enumerate(inputs)]
    if not dynamic_axes:
        return specs
    if not isinstance(dynamic_axes, dict):
        raise TypeError(
            f"For '{api}', 'dynamic_axes' must be a dict {{input name: {{axis: name}}}}, but "
            f"got {type(dynamic_axes).__name__}."
        )
    unknown = sorted(set(dynamic_axes) - set(names))
    if unknown:
        raise ValueError(
            f"For '{api}', 'dynamic_axes' names inputs {unknown} the graph does not have; its "
            f"inputs are {list(names)}."
        )
    out = []
    for name, spec in zip(names, specs):
        axes = dynamic_axes.get(name)
        if not axes:
            out.append(spec)
            continue
        if isinstance(axes, (list, tuple)):  # [axis, ...]: named after the input and axis
            axes = {a: f"{name}_dim{a}" if a else "batch" for a in axes}
        dims = [str(d) for d in spec.shape]
        for axis, dim_name in axes.items():
            if not isinstance(axis, int) or not -len(dims) <= axis < len(dims):
                raise ValueError(
                    f"For '{api}', 'dynamic_axes' gives input '{name}' of rank {len(dims)} the "
                    f"axis {axis!r}."
                )
            if not isinstance(dim_name, str) or not dim_name.isidentifier():
                raise ValueError(
                    f"For '{api}', a dynamic axis name must be an identifier such as "
                    f"'batch_size', but input '{name}' axis {axis} is named {dim_name!r}."
                )
            dims[axis] = dim_name
        shape = jax.export.symbolic_shape(", ".join(dims), scope=scope)
        out.append(jax.ShapeDtypeStruct(shape, spec.dtype))
    return out


def export(
    net,
    *inputs,
    file_name,
    input_names=None,
    output_names=None,
    export_params=True,
    keep_initializers_as_inputs=False,
    dynamic_axes=None,
) -> None:
    """Export a network to an ONNX file (``mindspore.onnx.export``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/onnx/mindspore.onnx.export.html

    The network runs in inference mode (``set_train(False)``, restored afterwards) and is
    converted by cellax's own jaxpr-to-ONNX lowering (opset 17; see the "Deploy" guide for
    what converts). ``mindspore.export(net, *inputs, file_name=..., file_format="ONNX")`` is
    the same with the defaults below.

    Args:
        net (Cell): The network.
        *inputs (Union[Tensor, numpy.ndarray, Number]): Example inputs fixing the exported
            shapes and dtypes; ``Tensor(shape=[None, ...], dtype=...)`` makes a dimension
            dynamic (``batch`` on axis 0).
        file_name (str): The output file; ``.onnx`` is appended when missing.
        input_names (list[str]): The graph's input names. Default: ``None``, ``construct``'s
            argument names.
        output_names (list[str]): The graph's output names, one per (flattened) output.
            Default: ``None``, ``output`` or ``output_0``, ``output_1``, ...
        export_params (bool): ``False`` makes the parameters graph inputs without values.
            Default: ``True``.
        keep_initializers_as_inputs (bool): ``True`` also lists the parameters (with their
            values as initializers) among the graph's inputs, so a runtime may replace them.
            Default: ``False``.
        dynamic_axes (dict): ``{input name: {axis: dimension name}}`` (or ``{input name:
            [axis, ...]}``): those axes are dynamic, under those names. Default: ``None``.

    Raises:
        TypeError: If ``net`` is not a Cell, or ``dynamic_axes`` is not a dict.
        ValueError: If ``file_name`` is not a str, the number of ``input_names`` or
            ``output_names`` does not match, or ``dynamic_axes`` names an unknown input, an
            axis out of range or a dimension name that is not an identifier.
        RuntimeError: If the network uses a JAX primitive the converter has no rule for (the
            message names the primitive and the Cells that emitted it).
        ImportError: If the ``onnx`` package is not installed.

    Differences from MindSpore: the graph is converted from JAX primitives, so its operators
    and intermediate names differ from MindSpore's exporter; the file is one protobuf (no
    external data for networks over 2 GB).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import onnx
        >>> import cellax as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "dense")
        >>> x = ms.Tensor(np.ones((2, 3), np.float32))
        >>> ms.onnx.export(ms.nn.Dense(3, 4), x, file_name=path, input_names=["features"],
        ...                dynamic_axes={"features": {0: "batch_size"}})
        >>> graph = onnx.load(path + ".onnx").graph
        >>> print(graph.input[0].name, [d.dim_param or d.dim_value for d in
        ...       graph.input[0].type.tensor_type.shape.dim])
        features ['batch_size', 3]
    """
    from ..nn._cell import Cell
    from ._mindir import _check_file_name

    api = "onnx.export"
    _check_file_name(api, file_name)
    if not isinstance(net, Cell):
        raise TypeError(f"For '{api}', 'net' must be a Cell, but got {type(net).__name__}.")
    _import_onnx()
    if input_names is not None:
        input_names = [str(n) for n in input_names]
        if len(input_names) != len(inputs) or len(set(input_names)) != len(input_names):
            raise ValueError(
                f"For '{api}', 'input_names' must give {len(inputs)} distinct names (one per "
                f"input), but got {input_names}."
            )
    names = input_names or _input_names(net, len(inputs))
    specs = _specs(api, inputs, names, dynamic_axes)
    params = (
        "inputs" if not export_params
        else "both" if keep_initializers_as_inputs else "initializers"
    )  # fmt: skip
    if not file_name.endswith(".onnx"):
        file_name += ".onnx"
    was_training = bool(getattr(net, "training", False))
    net.set_train(False)
    try:
        model = to_onnx(net, specs, names, output_names, params)
    finally:
        net.set_train(was_training)
    write_onnx(os.path.realpath(file_name), model)
