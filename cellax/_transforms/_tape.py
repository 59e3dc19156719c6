"""The eager tape: PyNative reverse mode on compiled per-op kernels (``jax.vjp``'s contract).

``jax.vjp`` of a function that runs eagerly linearizes it in Python on every call: each
primitive goes through its JVP rule and partial evaluation before anything runs, and the
backward pass evaluates the linear program primitive by primitive. A PyNative training step
pays that on every step (docs/performance.md, W2). :func:`vjp` runs the same function on a
tape instead, as PyTorch's eager autograd does:

* Forward. The inputs become :class:`TapeTracer` s, tracers that carry their concrete value
  (``primal``), so the user's Python sees real values (prints, Python branches on a Tensor's
  value, hooks). Each primitive applied to a tape value runs one cached compiled *kernel*,
  ``jax.jit(jax.vjp(primitive))``, which returns the outputs and the VJP as a pytree of
  residuals; the tape records (inputs, outputs, VJP). Primitives on values not on the tape run
  as they do eagerly, unrecorded. ``jax.jit``-wrapped functions (most ``jnp`` functions,
  cellax's fused ops) reach the tape as one primitive, so one kernel covers the whole op.
* Backward. The recorded VJPs run in reverse order, each as one cached compiled call
  (each kernel's ``pull`` program), accumulating the cotangent of every tape value. A new
  kernel's ``pull`` compiles on a second thread while the forward pass goes on
  (``_tape_compile``).

Kernels are cached by primitive, parameters (static arguments, the traced program of a jitted
function), which inputs are on the tape, and the input avals (shape, dtype, weak type); the
cache is bounded (``KERNEL_CACHE_SIZE``, least recently used out first).

What the tape cannot cache falls back to JAX's own eager linearization for that one call,
recorded as a node like any other: a primitive whose parameters are not hashable, a
``custom_jvp`` function applied directly (its rule functions are fresh objects on each call),
``shard_map``. ``custom_vjp`` calls (gradient hooks, Cell ``bprop``, cellax's own rules) run
their forward rule eagerly and keep their backward rule as a Python node, which runs with the
concrete cotangents during the backward pass. Anything inside a compiled trace (``cellax.jit``,
GRAPH_MODE, a derivative transform) keeps ``jax.vjp``: the tape is only for eager calls.
"""

from __future__ import annotations

import collections
import functools as ft

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core
from jax._src.interpreters import ad

from .. import _dtype
from . import _tape_compile

__all__ = [
    "vjp",
    "usable",
    "staged",
    "call_op",
    "kernel_jit",
    "TapeTracer",
    "KERNEL_CACHE_SIZE",
    "kernel_cache_info",
    "clear_kernel_cache",
]

KERNEL_CACHE_SIZE = 4096


def usable() -> bool:
    """The current JAX trace is the eager one: no jit, vmap or derivative trace around us."""
    return isinstance(core.trace_ctx.trace, core.EvalTrace)


def staged(x) -> bool:
    """``x`` is a tracer whose operations are staged into a program or a linearization (jit,
    vmap, ``jax.vjp``): not a concrete array, not a value on the eager tape. Eager code that
    compiles a pure function per call (``ops._impl.eager.fused``) inlines it for these and runs
    it compiled otherwise; on the tape a compiled call is one primitive, so one kernel."""
    return isinstance(x, core.Tracer) and type(x) is not TapeTracer


class TapeTracer(core.Tracer):
    """A value on the tape: its concrete array (``primal``) and its slot number."""

    __slots__ = ("primal", "slot")

    def __init__(self, trace, primal, slot: int, aval=None) -> None:
        self._trace = trace
        self.aval = core.typeof(primal) if aval is None else aval
        self.primal = primal
        self.slot = slot

    def to_concrete_value(self):
        return core.to_concrete_value(self.primal)

    def full_lower(self):
        return self

    def cur_qdd(self):
        return core.cur_qdd(self.primal)

    def get_referent(self):
        return core.get_referent(self.primal)

    def _short_repr(self):
        return f"TapeTracer({self.aval.str_short()})"


# ---------------------------------------------------------------------------------------------
# kernels

# XLA:CPU options for the small per-op programs PyNative compiles at each new shape: the loop
# emitters of XLA's older elemental backend instead of its MLIR fusion emitters compile a
# convolution's vjp in a quarter of the time and the others in about 3/4, and the programs run
# as fast (an op's program is a fusion or two around one library call). Compiled steps
# (``cellax.jit``, GRAPH_MODE) keep XLA's defaults.
_CPU_KERNEL_OPTIONS = {"xla_cpu_use_fusion_emitters": False}


def kernel_jit(fn, **kwargs):
    """``jax.jit(fn, **kwargs)`` for a per-op program (a tape kernel, a fused eager op), with
    the compile options above where the default backend is the CPU. Call it when the program
    is first needed, not at import: it asks JAX for the backend."""
    options = _CPU_KERNEL_OPTIONS if jax.default_backend() == "cpu" else None
    return jax.jit(fn, compiler_options=options, **kwargs)


def _differentiable(bind, mask, const, floats: list):
    """``bind`` as a function of the tape inputs alone, returning (inexact outputs, others);
    ``floats`` receives which outputs are inexact."""

    def primal(*diff):
        di, ci = iter(diff), iter(const)
        outs = bind(*[next(di) if m else next(ci) for m in mask])
        floats[:] = [_dtype.is_inexact(o.dtype) for o in outs]
        return (
            [o for o, f in zip(outs, floats) if f],
            [o for o, f in zip(outs, floats) if not f],
        )

    return primal


def _split(vals, mask) -> tuple:
    """``(the values on the tape, the others)``."""
    return [v for v, m in zip(vals, mask) if m], [v for v, m in zip(vals, mask) if not m]


def _interleave(floats, diff_out, other) -> list:
    di, oi = iter(diff_out), iter(other)
    return [next(di) if f else next(oi) for f in floats]


class _Kernel:
    """One compiled ``vjp`` of a primitive (or a pure op function) at fixed parameters, tape
    mask and avals.

    ``floats`` says which outputs are differentiated (the inexact ones); the first call, which
    traces the kernel, fills it in. The other outputs come back beside the VJP's residuals,
    which ``pull`` applies to cotangents: its own compiled function, so that a kernel leaving
    the cache takes its backward program with it."""

    __slots__ = ("call", "floats", "pull", "avals", "residuals", "job")

    def __init__(self, bind, mask) -> None:
        self.floats: list = []
        self.avals = None  # of the differentiated outputs, after the first call
        self.residuals = None  # the VJP's pytree structure, set when the kernel is traced
        self.job = None  # pull's compile on the second thread until the first backward call

        def run(diff, const):
            primal = _differentiable(bind, mask, const, self.floats)
            diff_out, pull, other = jax.vjp(primal, *diff, has_aux=True)
            # the VJP leaves as a flat list: rebuilding its pytree (a Partial) in Python on
            # every call and flattening it again for the pull would cost more than the call
            leaves, self.residuals = jax.tree_util.tree_flatten(pull)
            return diff_out, other, leaves

        def apply(residuals, leaves, cts):
            return jax.tree_util.tree_unflatten(residuals, leaves)(cts)

        self.call = kernel_jit(run)
        self.pull = kernel_jit(apply, static_argnums=0)


def _first_pull(kernel, pull, cts):
    """A kernel's backward call while its compile may be queued or running (see
    ``_tape_compile``)."""
    job = kernel.job
    if job is not None:
        _tape_compile.claim(job)
        kernel.job = None
    return pull(cts)


class _OpKernel(_Kernel):
    """A kernel of a pure function of arrays (an op's ``fused`` body): ``tree`` is the
    structure of its output, known after the first call."""

    __slots__ = ("tree",)

    def __init__(self, fn, static: dict, nargs: int, mask) -> None:
        self.tree = None

        def bind(*dynamic):
            it = iter(dynamic)
            args = [static[i] if i in static else next(it) for i in range(nargs)]
            leaves, self.tree = jax.tree_util.tree_flatten(fn(*args))
            return leaves

        super().__init__(bind, mask)


_KERNELS: collections.OrderedDict = collections.OrderedDict()
_STATS = {"hits": 0, "misses": 0, "uncached": 0}


def kernel_cache_info() -> dict:
    """The kernel cache's figures: hits, misses, uncached (linearized) calls and size."""
    return dict(_STATS, size=len(_KERNELS))


def clear_kernel_cache() -> None:
    """Drop every compiled kernel (and its backward program); the next calls compile anew."""
    _tape_compile.settle()
    _KERNELS.clear()
    _ZEROS.clear()
    _ONES.clear()


def _binder(prim, params):
    if prim.multiple_results:
        return lambda *args: list(prim.bind(*args, **params))
    return lambda *args: [prim.bind(*args, **params)]


def _signature(value):
    """What of an argument selects a kernel: shape, dtype and weak type of an array (the
    kernel's ``jax.jit`` sees anything else itself), the type of a Python number, else the
    value (None, a hashable static)."""
    if isinstance(value, jax.Array):
        return value.shape, value.dtype, value.weak_type
    if isinstance(value, np.ndarray):
        return value.shape, value.dtype
    if type(value) in (int, float, bool, complex):
        return type(value)
    return value


def _cached(key, make):
    """The kernel cached under ``key``, made by ``make()`` on a miss; None where ``key`` is
    not hashable (an unhashable parameter or argument)."""
    try:
        kernel = _KERNELS.get(key)
    except TypeError:
        return None
    if kernel is not None:
        _STATS["hits"] += 1
        _KERNELS.move_to_end(key)
        return kernel
    _STATS["misses"] += 1
    kernel = _KERNELS[key] = make()
    if len(_KERNELS) > KERNEL_CACHE_SIZE:
        _KERNELS.popitem(last=False)
    return kernel


def _kernel(prim, params, mask, vals):
    """The cached kernel of this call, or None where the parameters are not hashable."""
    key = (prim, tuple(params.items()), mask, tuple(map(_signature, vals)))
    return _cached(key, lambda: _Kernel(_binder(prim, params), mask))


def call_op(fn, static_argnums, args):
    """``fn(*args)`` for a pure function of arrays (``static_argnums`` name its hashable
    non-array arguments) some of whose arguments are on the tape: one cached kernel and one
    recorded node for the whole function, instead of one per primitive inside it."""
    trace = next(a._trace for a in args if type(a) is TapeTracer)
    static = {i: args[i] for i in static_argnums if i < len(args)}
    dynamic = [a for i, a in enumerate(args) if i not in static]
    vals, mask = trace._unbox(dynamic)
    key = (fn, tuple(static.items()), mask, tuple(map(_signature, vals)))
    kernel = _cached(key, lambda: _OpKernel(fn, static, len(args), mask))
    if kernel is None:  # an unhashable argument: the primitives inside go on the tape one by one
        with core.set_current_trace(trace):
            return fn(*args)
    outs = trace._run(kernel, dynamic, vals, mask)  # the first call sets kernel.tree
    return jax.tree_util.tree_unflatten(kernel.tree, outs)


# ---------------------------------------------------------------------------------------------
# the tape


class _Node:
    """One recorded call: tape slots in and out, the outputs' avals, and ``pull(cts)``, which
    maps the cotangents of ``outs`` (all of them, zeros filled in) to those of ``ins``."""

    __slots__ = ("ins", "outs", "avals", "pull")

    def __init__(self, ins, outs, avals, pull) -> None:
        self.ins, self.outs, self.avals, self.pull = ins, outs, avals, pull


class TapeTrace(core.Trace):
    """The JAX trace of one :func:`vjp` call: records what applies to its tracers."""

    __slots__ = ("parent", "nodes", "count")

    def __init__(self, parent) -> None:
        super().__init__()
        self.parent = parent
        self.nodes: list = []
        self.count = 0

    def new(self, value, aval=None) -> TapeTracer:
        tracer = TapeTracer(self, value, self.count, aval)
        self.count += 1
        return tracer

    def _unbox(self, tracers):
        vals, mask = [], []
        for t in tracers:
            if type(t) is TapeTracer and t._trace is self:
                vals.append(t.primal)
                mask.append(True)
            else:
                vals.append(t)
                mask.append(False)
        return vals, tuple(mask)

    def _record(self, tracers, mask, outs, floats, pull, avals=None) -> list:
        """Tracers for the inexact outputs and one node for them; the others as they are.
        ``avals``: those outputs' avals where the caller knows them."""
        result, slots, node_avals = [], [], []
        known = iter(avals) if avals is not None else None
        for out, diff in zip(outs, floats):
            if diff:
                tracer = self.new(out, None if known is None else next(known))
                result.append(tracer)
                slots.append(tracer.slot)
                node_avals.append(tracer.aval)
            else:
                result.append(out)
        if slots:
            ins = [t.slot for t, m in zip(tracers, mask) if m]
            self.nodes.append(_Node(ins, slots, node_avals, pull))
        return result

    def _run(self, kernel, tracers, vals, mask) -> list:
        """Call a cached kernel on the unboxed ``vals`` and record it."""
        diff, const = _split(vals, mask)
        with core.set_current_trace(self.parent):
            diff_out, other, leaves = kernel.call(diff, const)
        outs = _interleave(kernel.floats, diff_out, other)
        pull = ft.partial(kernel.pull, kernel.residuals, leaves)
        if kernel.avals is None:  # traced just now: compile pull while the forward pass goes on
            kernel.avals = [core.typeof(o) for o in diff_out]
            kernel.job = _tape_compile.submit(kernel, leaves)
        if kernel.job is not None:
            pull = ft.partial(_first_pull, kernel, pull)
        return self._record(tracers, mask, outs, kernel.floats, pull, kernel.avals)

    def _eager(self, prim, vals, params):
        """``prim`` applied to values none of which is on the tape: as eagerly, unrecorded."""
        return prim.bind_with_trace(self.parent, vals, [core.typeof(v) for v in vals], params)

    def _linearized(self, bind, tracers, vals, mask) -> list:
        """One call under JAX's own eager linearization: what the tape cannot cache."""
        _STATS["uncached"] += 1
        floats: list = []
        diff, const = _split(vals, mask)
        primal = _differentiable(bind, mask, const, floats)
        with core.set_current_trace(self.parent):
            diff_out, pull, other = jax.vjp(primal, *diff, has_aux=True)
        outs = _interleave(floats, diff_out, other)
        return self._record(tracers, mask, outs, floats, pull)

    def process_primitive(self, prim, tracers, params):
        vals, mask = self._unbox(tracers)
        if not any(mask):
            return self._eager(prim, vals, params)
        kernel = _kernel(prim, params, mask, vals)
        if kernel is None:
            outs = self._linearized(_binder(prim, params), tracers, vals, mask)
        else:
            outs = self._run(kernel, tracers, vals, mask)
        return outs if prim.multiple_results else outs[0]

    def process_call(self, prim, fun, tracers, params):
        return fun.call_wrapped(*tracers)  # inlined: its primitives reach the tape one by one

    def process_custom_jvp_call(self, prim, fun, jvp, tracers, *, symbolic_zeros):
        vals, mask = self._unbox(tracers)
        params = dict(subfuns=(fun, jvp), symbolic_zeros=symbolic_zeros)
        if not any(mask):
            return self._eager(prim, vals, params)

        def bind(*args):
            trace = core.trace_ctx.trace
            return list(prim.bind_with_trace(trace, args, [core.typeof(a) for a in args], params))

        return self._linearized(bind, tracers, vals, mask)

    def process_shard_map(self, prim, fun, tracers, **params):
        vals, mask = self._unbox(tracers)
        if not any(mask):
            return self._eager(prim, vals, dict(params, subfuns=(fun,)))

        def bind(*args):
            trace = core.trace_ctx.trace
            return list(trace.process_shard_map(prim, fun, args, **params))

        return self._linearized(bind, tracers, vals, mask)

    def process_custom_vjp_call(self, prim, fun, fwd, bwd, tracers, *, out_trees, symbolic_zeros):
        """The forward rule runs now; the backward rule runs in the backward pass, in Python,
        with the concrete cotangents (as JAX's own linearization of custom_vjp does)."""
        vals, mask = self._unbox(tracers)
        if not any(mask):
            params = dict(
                subfuns=(fun, fwd, bwd), out_trees=out_trees, symbolic_zeros=symbolic_zeros
            )
            return self._eager(prim, vals, params)
        fwd_in = [x for v, m in zip(vals, mask) for x in (v, m)]
        with core.set_current_trace(self.parent):
            res_and_outs = fwd.call_wrapped(*fwd_in)
        _, res_tree, input_fwds = out_trees()
        n_res = res_tree.num_leaves - sum(f is not None for f in input_fwds)
        res_out, outs = res_and_outs[:n_res], res_and_outs[n_res:]
        res_iter = iter(res_out)
        res = [next(res_iter) if f is None else vals[f] for f in input_fwds]
        out_avals = [core.typeof(o) for o in outs]
        floats = [_dtype.is_inexact(a.dtype) for a in out_avals]

        def pull(cts):
            cts = iter(cts)
            full = [
                next(cts) if f else np.zeros(a.shape, jax.dtypes.float0)
                for a, f in zip(out_avals, floats)
            ]
            with core.set_current_trace(self.parent):
                if symbolic_zeros:
                    full = [ad.replace_internal_symbolic_zeros(c) for c in full]
                cts_in = bwd.call_wrapped(*res, *full)
                cts_in = [ad.replace_rule_output_symbolic_zeros(c) for c in cts_in]
            return [
                ad.instantiate_zeros(c) if type(c) is ad.Zero else c
                for c, m in zip(cts_in, mask)
                if m
            ]

        return self._record(tracers, mask, outs, floats, pull)

    def cur_qdd(self, x):
        return core.cur_qdd(x.primal if type(x) is TapeTracer else x)

    def stage_value(self, val):
        if type(val) is TapeTracer and val._trace is self:
            return val
        return self.parent.stage_value(val)


# ---------------------------------------------------------------------------------------------
# vjp


_ZEROS: dict = {}
_ONES: dict = {}


def _shared(table: dict, fill, shape, dtype):
    key = (shape, dtype)
    array = table.get(key)
    if array is None or array.is_deleted():  # made again if a caller donated it
        if len(table) > 256:
            table.clear()
        array = table[key] = jnp.full(shape, fill, dtype)
    return array


def _zeros(aval):
    """A shared zero cotangent for the backward pass."""
    return _shared(_ZEROS, 0, aval.shape, aval.dtype)


def ones(shape, dtype):
    """A shared array of ones: the cotangent a gradient is seeded with (``grad``'s default
    sensitivity), made once per shape and dtype instead of on every call."""
    return _shared(_ONES, 1, shape, dtype)


def _is_shared(g) -> bool:
    key = (g.shape, g.dtype)
    return _ZEROS.get(key) is g or _ONES.get(key) is g


def _own(g, aval):
    """An input's gradient as the caller gets it: zeros of its own where there is none (or
    where a backward rule passed a shared zero cotangent through), as under ``jax.vjp``. A
    shared one would be the same buffer in every call: kept in a Parameter that a compiled step
    then donates (``cellax.jit`` donates the slots it writes), it breaks that step ("buffer
    previously donated") or, deleted, every later gradient of its shape."""
    if g is None:
        return jnp.zeros(aval.shape, aval.dtype)
    return jnp.array(g) if _is_shared(g) else g  # a copy: never the shared buffer


def _value(x):
    return x.primal if type(x) is TapeTracer else x


def vjp(fun, *primals, has_aux: bool = False):
    """``jax.vjp(fun, *primals, has_aux=has_aux)`` on the tape (see the module docstring).

    Call only where :func:`usable` says so. Inexact leaves of ``primals`` are differentiated;
    other leaves get ``float0`` gradients, as under ``jax.vjp``."""
    parent = core.trace_ctx.trace
    flat, tree = jax.tree_util.tree_flatten(primals)
    trace = TapeTrace(parent)
    ins = [trace.new(v) if _dtype.is_inexact(v.dtype) else v for v in flat]
    try:
        with core.set_current_trace(trace):
            result = fun(*jax.tree_util.tree_unflatten(tree, ins))
    finally:
        trace.invalidate()
    out, aux = result if has_aux else (result, None)
    out_flat, out_tree = jax.tree_util.tree_flatten(out)
    out_vals = jax.tree_util.tree_unflatten(out_tree, [_value(o) for o in out_flat])
    nodes = trace.nodes

    def pullback(cotangent):
        cts: dict = {}

        def add(slot, c):
            cts[slot] = cts[slot] + c if slot in cts else c

        for o, c in zip(out_flat, jax.tree_util.tree_leaves(cotangent)):
            if type(o) is TapeTracer:
                add(o.slot, c)
        for node in reversed(nodes):
            got = [cts.pop(s, None) for s in node.outs]
            if all(g is None for g in got):
                continue
            got = [_zeros(a) if g is None else g for g, a in zip(got, node.avals)]
            for s, c in zip(node.ins, node.pull(got)):
                add(s, c)
        grads = []
        for x, v in zip(ins, flat):
            if type(x) is TapeTracer:
                grads.append(_own(cts.get(x.slot), x.aval))
            else:
                grads.append(np.zeros(np.shape(v), jax.dtypes.float0))
        return jax.tree_util.tree_unflatten(tree, grads)

    if has_aux:
        aux = jax.tree_util.tree_map(_value, aux)
        return out_vals, pullback, aux
    return out_vals, pullback
