"""The ONNX graph under construction for cellax's ONNX export (``_onnx``): nodes, constants,
names, and symbolic dimensions as ONNX shape arithmetic on the inputs' runtime shapes."""

from __future__ import annotations

import itertools
import operator

import numpy as np


OPSET = 17
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
