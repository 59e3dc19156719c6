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
import os

import jax
import numpy as np

from .. import _core
from .._transforms import functional_call, state
from ..ops._impl.cpu_kernels import portable_convolutions
from ._common import _atomic_write, _check_file_name, _input_spec

from . import _onnx_nn  # noqa: F401  (registers the network primitives' rules)
from ._onnx_graph import OPSET, _Graph, _Unsupported, _import_onnx, _is_static
from ._onnx_ops import RULES, _aval, _onnx_dtype

_MAX_UNROLL = 1024  # the longest scan unrolled into the graph


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
            with _NameCells(), portable_convolutions():
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
