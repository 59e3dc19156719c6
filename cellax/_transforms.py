"""grad, value_and_grad, jit, vmap and checkpointed calls, built only on the state frame.

Each transform turns a stateful callable into ``pure(slot_values, *args) -> (out, new_values)``
by running it inside a frame (see ``_state.py``), hands ``pure`` to the JAX transform, then
commits the new slot values one level up.
"""

from __future__ import annotations

import functools as ft
import types

import jax
import jax.numpy as jnp
import numpy as np

from . import _control_flow, _state
from ._parameter import Parameter
from ._state import DiscoveringFrame, Frame, Slot, SlotDiscovered
from ._tensor import Tensor, unwrap, wrap

__all__ = ["grad", "value_and_grad", "jit", "vmap", "checkpoint_call", "recompute", "GradOperation"]


# --------------------------------------------------------------------------------------------
# helpers


def _is_array(x) -> bool:
    return isinstance(x, (jax.Array, jax.core.Tracer, np.ndarray))


def _to_arrays(tree):
    """Tensors -> arrays, Python numbers -> arrays; keeps the structure."""
    return jax.tree_util.tree_map(
        lambda x: x if _is_array(x) else jnp.asarray(x), tree, is_leaf=lambda x: x is None
    )


def _to_tensors(tree):
    return jax.tree_util.tree_map(
        lambda x: wrap(x) if _is_array(x) else x, tree, is_leaf=lambda x: isinstance(x, Tensor)
    )


def _ones_cotangent(x):
    dtype = np.dtype(x.dtype)
    if dtype.kind in "biu":
        return np.zeros(x.shape, jax.dtypes.float0)
    return jnp.ones(x.shape, x.dtype)


def _is_slot(x) -> bool:
    return isinstance(x, Slot)


# --------------------------------------------------------------------------------------------
# grad / value_and_grad


def _normalize_positions(api: str, grad_position, nargs: int):
    if grad_position is None:
        return None, False
    single = isinstance(grad_position, int) and not isinstance(grad_position, bool)
    positions = (grad_position,) if single else grad_position
    if not isinstance(positions, (tuple, list)) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in positions
    ):
        raise TypeError(
            f"For '{api}', 'grad_position' must be an int, a tuple of ints or None, but got "
            f"{grad_position!r}."
        )
    if not positions:
        raise ValueError(f"For '{api}', 'grad_position' must not be an empty tuple.")
    normalized = []
    for p in positions:
        if not -nargs <= p < nargs:
            raise IndexError(
                f"For '{api}', 'grad_position' {p} is out of range: the function was called "
                f"with {nargs} positional input(s)."
            )
        normalized.append(p % nargs)
    return tuple(normalized), single


def _normalize_weights(api: str, weights):
    if weights is None:
        return None, False
    if isinstance(weights, Parameter):
        return [weights], True
    if isinstance(weights, types.GeneratorType):
        weights = list(weights)
    if not isinstance(weights, (list, tuple)):
        raise TypeError(
            f"For '{api}', 'weights' must be a Parameter, a list/tuple of Parameters or a "
            f"ParameterTuple, but got {type(weights).__name__}."
        )
    for w in weights:
        if not isinstance(w, Parameter):
            raise TypeError(
                f"For '{api}', every element of 'weights' must be a Parameter, but got "
                f"{w!r} of type {type(w).__name__}."
            )
    return list(weights), False


def _diff_input(api: str, value, position: int):
    array = unwrap(value)
    if not _is_array(array):
        array = jnp.asarray(np.asarray(array, np.float32 if isinstance(value, float) else None))
    if np.dtype(array.dtype).kind not in "fcV" and array.dtype != jnp.bfloat16:
        raise TypeError(
            f"For '{api}', the input at grad_position {position} must be a floating point "
            f"Tensor to be differentiated, but got dtype {np.dtype(array.dtype)}. Cast it with "
            f".astype(cellax.float32) or leave it out of grad_position."
        )
    return array


def _with_tensor_hooks(tensor, value):
    """``value`` behind the gradient hooks registered on ``tensor`` (Tensor.register_hook)."""
    hooks = getattr(tensor, "_hooks", None)
    if not hooks:
        return value
    from ._hook_ops import apply_tensor_hooks

    return apply_tensor_hooks(value, hooks)


def _differentiate(api, fn, args, kwargs, positions, weights, has_aux, sens=None):
    """Run fn under jax.vjp; return (output arrays, input grads, weight grads)."""
    parent = _state.current_frame()
    weights = weights or []
    positions = positions or ()
    weight_values = [w._value for w in weights]
    diff_inputs = [_diff_input(api, args[i], i) for i in positions]
    written: list = []

    def inner(weight_values, diff_inputs):
        call_args = list(args)
        for i, value in zip(positions, diff_inputs):
            call_args[i] = wrap(_with_tensor_hooks(args[i], value))
        hooked = [_with_tensor_hooks(w, v) for w, v in zip(weights, weight_values)]
        frame = Frame(weights, hooked, parent)
        with frame:
            out = _control_flow.call_converted(fn, *call_args, **kwargs)
        out_arrays = _to_arrays(out)
        if has_aux:
            diff_part = out_arrays[0] if isinstance(out_arrays, (tuple, list)) else out_arrays
        else:
            diff_part = out_arrays
        items = frame.written_items()
        written[:] = [slot for slot, _ in items]
        return diff_part, (out_arrays, [value for _, value in items])

    _state._local.differentiating += 1
    try:
        diff_out, vjp_fn, (out_arrays, new_values) = jax.vjp(
            inner, weight_values, diff_inputs, has_aux=True
        )
    finally:
        _state._local.differentiating -= 1
    with _control_flow.staged():  # the backward pass is staged, as before constant folding
        if sens is None:
            cotangent = jax.tree_util.tree_map(_ones_cotangent, diff_out)
        else:
            cotangent = jax.tree_util.tree_map(
                lambda s, o: jnp.broadcast_to(jnp.asarray(s, o.dtype), o.shape),
                _to_arrays(sens),
                diff_out,
            )
        weight_grads, input_grads = vjp_fn(cotangent)
    _state.commit(zip(written, new_values))
    return out_arrays, input_grads, weight_grads


def _format_grads(input_grads, weight_grads, positions, single_pos, weights, single_w, return_ids):
    ig = tuple(wrap(g) for g in input_grads)
    wg = tuple(wrap(g) for g in weight_grads)
    if return_ids:
        ig = tuple((p, g) for p, g in zip(positions or (), ig))
        wg = tuple((w.name, g) for w, g in zip(weights or (), wg))
    ig_out = ig[0] if single_pos else ig
    wg_out = wg[0] if single_w else wg
    if positions is None:
        return wg_out
    if weights is None:
        return ig_out
    return ig_out, wg_out


def _aux_of(out):
    if isinstance(out, (tuple, list)):
        return tuple(out[1:])
    return ()


def _make_grad(fn, grad_position, weights, has_aux, return_ids, with_value, api):
    if not callable(fn):
        raise TypeError(f"For '{api}', 'fn' must be callable, but got {type(fn).__name__}.")
    if grad_position is None and weights is None:
        raise ValueError(
            f"For '{api}', 'grad_position' and 'weights' can not both be None: say what to "
            f"differentiate with respect to."
        )
    weight_list, single_w = _normalize_weights(api, weights)

    @ft.wraps(fn)
    def grad_fn(*args, **kwargs):
        positions, single_pos = _normalize_positions(api, grad_position, len(args))
        out_arrays, input_grads, weight_grads = _differentiate(
            api, fn, args, kwargs, positions, weight_list, has_aux
        )
        grads = _format_grads(
            input_grads, weight_grads, positions, single_pos, weight_list, single_w, return_ids
        )
        out = _to_tensors(out_arrays)
        if with_value:
            return out, grads
        if has_aux:
            return grads, _aux_of(out)
        return grads

    return grad_fn


def grad(fn, grad_position=0, weights=None, has_aux: bool = False, return_ids: bool = False):
    """Return a function computing the gradient of ``fn`` (``mindspore.grad``).

    Args:
        fn (Union[Cell, Function]): The function or Cell to differentiate.
        grad_position (Union[int, tuple[int], None]): Which positional inputs to differentiate.
            An int gives one gradient, a tuple a tuple. ``None`` differentiates only
            ``weights``. Default: ``0``.
        weights (Union[Parameter, ParameterTuple, list[Parameter], None]): Parameters to
            differentiate, e.g. ``net.trainable_params()``. Default: ``None``.
        has_aux (bool): If True, only the first output is differentiated and the other outputs
            are returned as a tuple: ``grads, (aux,) = grad_fn(...)``. Default: ``False``.
        return_ids (bool): Pair each gradient with its position or Parameter name.
            Default: ``False``.

    Returns:
        Function. Without ``has_aux``, a function with several outputs is differentiated as the
        sum of all outputs (each seeded with ones). With both ``grad_position`` and ``weights``
        the result is ``(input_grads, weight_grads)``.

    Raises:
        ValueError: If ``grad_position`` and ``weights`` are both None.
        TypeError: If ``weights`` holds non-Parameters or a differentiated input is not float.
        IndexError: If ``grad_position`` is out of range.

    Examples:
        >>> import cellax as ms
        >>> def f(x, y):
        ...     return x * x * y
        >>> x, y = ms.Tensor(3.0), ms.Tensor(2.0)
        >>> print(ms.grad(f)(x, y))
        12.0
        >>> print(ms.grad(f, grad_position=(0, 1))(x, y))
        (Tensor(shape=[], dtype=Float32, value= 12), Tensor(shape=[], dtype=Float32, value= 9))

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.grad.html
    """
    return _make_grad(fn, grad_position, weights, has_aux, return_ids, False, "grad")


def value_and_grad(
    fn, grad_position=0, weights=None, has_aux: bool = False, return_ids: bool = False
):
    """Like :func:`grad` but returns ``(value, grads)``, ``value`` being all of fn's output.

    Examples:
        >>> import cellax as ms
        >>> value, g = ms.value_and_grad(lambda x: (x * x).sum())(ms.Tensor([1.0, 2.0]))
        >>> print(value, g)
        5.0 [2. 4.]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.value_and_grad.html
    """
    return _make_grad(fn, grad_position, weights, has_aux, return_ids, True, "value_and_grad")


class GradOperation:
    """The class form of grad (``ops.GradOperation``).

    Args:
        get_all (bool): Differentiate all positional inputs (a tuple); otherwise only the
            first. Default: ``False``.
        get_by_list (bool): Differentiate the ``weights`` given when applying the operation.
            Default: ``False``.
        sens_param (bool): The last input of the returned function is the sensitivity
            (output cotangent). Default: ``False``.

    Examples:
        >>> import cellax as ms
        >>> grad_all = ms.ops.GradOperation(get_all=True)
        >>> print(grad_all(lambda x, y: x * y)(ms.Tensor(2.0), ms.Tensor(3.0)))
        (Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 2))
    """

    def __init__(
        self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False
    ) -> None:
        for name, value in (
            ("get_all", get_all),
            ("get_by_list", get_by_list),
            ("sens_param", sens_param),
        ):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', '{name}' must be a bool, but got {value!r}.")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn, weights=None):
        api = "GradOperation"
        if self.get_by_list:
            weight_list, _ = _normalize_weights(api, weights)
            if weight_list is None:
                raise ValueError(f"For '{api}', get_by_list=True needs 'weights'.")
        else:
            weight_list = None

        @ft.wraps(fn)
        def grad_fn(*args, **kwargs):
            sens = None
            if self.sens_param:
                if not args:
                    raise ValueError(f"For '{api}', sens_param=True needs the sens input last.")
                args, sens = args[:-1], args[-1]
            if self.get_all:
                positions = tuple(range(len(args)))
            elif self.get_by_list:
                positions = None
            else:
                positions = (0,) if args else ()
            _, input_grads, weight_grads = _differentiate(
                api, fn, args, kwargs, positions, weight_list, False, sens
            )
            ig = tuple(wrap(g) for g in input_grads)
            wg = tuple(wrap(g) for g in weight_grads)
            if self.get_by_list and self.get_all:
                return ig, wg
            if self.get_by_list:
                return wg
            if self.get_all:
                return ig
            return ig[0]

        return grad_fn


# --------------------------------------------------------------------------------------------
# jit


def _scan_roots(fn, slots: dict, cells: dict, refs: list, seen: set) -> None:
    """Find slots and Cells reachable from ``fn`` through closures, globals and bound self.

    ``refs`` collects (namespace, name) / (closure cell, None) pairs whose identity guards the
    result: if one of them is rebound, the scan must run again.
    """
    if id(fn) in seen:
        return
    seen.add(id(fn))
    if isinstance(fn, Slot):
        slots.setdefault(id(fn), fn)
        return
    collect = getattr(type(fn), "_cellax_collect", None)
    if collect is not None:
        collect(fn, slots, cells)
        return
    if isinstance(fn, (types.MethodType,)):
        _scan_roots(fn.__self__, slots, cells, refs, seen)
        _scan_roots(fn.__func__, slots, cells, refs, seen)
        return
    if isinstance(fn, ft.partial):
        for item in (fn.func, *fn.args, *fn.keywords.values()):
            _scan_roots(item, slots, cells, refs, seen)
        return
    if isinstance(fn, _JitFunction):
        _scan_roots(fn.fn, slots, cells, refs, seen)
        return
    if isinstance(fn, (list, tuple)):
        for item in fn:
            _scan_roots(item, slots, cells, refs, seen)
        return
    if isinstance(fn, dict):
        for item in fn.values():
            _scan_roots(item, slots, cells, refs, seen)
        return
    if not isinstance(fn, types.FunctionType):
        return
    for cell in fn.__closure__ or ():
        try:
            content = cell.cell_contents
        except ValueError:
            continue
        if isinstance(content, _INERT):
            continue
        refs.append((cell, None))
        _scan_roots(content, slots, cells, refs, seen)
    namespace = fn.__globals__
    if namespace.get("__name__", "").partition(".")[0] in _LIBRARY_MODULES:
        return  # library code reaches user state only through its closures and arguments
    for name in _global_names(fn.__code__):
        if name in namespace:
            value = namespace[name]
            if isinstance(value, _INERT) or not _may_hold_state(value):
                continue
            refs.append((namespace, name))
            _scan_roots(value, slots, cells, refs, seen)


_INERT = (types.ModuleType, type, str, bytes, int, float, complex, bool, type(None))
_LIBRARY_MODULES = frozenset({"cellax", "jax", "jaxlib", "optax", "numpy", "functools"})


def _may_hold_state(value) -> bool:
    return isinstance(
        value,
        (Slot, types.FunctionType, types.MethodType, ft.partial, list, tuple, dict, _JitFunction),
    ) or hasattr(type(value), "_cellax_collect")


@ft.lru_cache(maxsize=4096)
def _global_names(code: types.CodeType) -> tuple:
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.extend(_global_names(const))
    return tuple(dict.fromkeys(names))


def _guard_ids(refs) -> tuple:
    ids = []
    for holder, name in refs:
        if name is None:
            try:
                ids.append(id(holder.cell_contents))
            except ValueError:
                ids.append(0)
        else:
            ids.append(id(holder.get(name)))
    return tuple(ids)


def _guard_objects(refs) -> list:
    objects = []
    for holder, name in refs:
        if name is None:
            try:
                objects.append(holder.cell_contents)
            except ValueError:
                objects.append(None)
        else:
            objects.append(holder.get(name))
    return objects


class _Plan:
    """What the roots of a jitted function hold: its slots and Cells (per guard + version).

    ``keepalive`` holds the guarded objects so that their ids can not be reused by new objects
    while the plan exists.
    """

    __slots__ = ("slots", "cells", "groups", "version", "keepalive")

    def __init__(self, slots: dict, cells: dict, version: int, keepalive: list) -> None:
        self.slots = slots
        self.cells = cells
        self.version = version
        self.keepalive = keepalive
        self.groups: dict = {}


class _Group:
    """All compiled entries for one argument signature (tree structure + static leaves).

    ``leaves`` keeps the static leaves (dynamic positions hold None) to rebuild the call.
    """

    __slots__ = ("slots", "cells", "entries", "treedef", "leaves")

    def __init__(self, slots: list, cells: list, treedef, leaves: list) -> None:
        self.slots = slots
        self.cells = cells
        self.treedef = treedef
        self.leaves = leaves
        self.entries: dict = {}


class _Static:
    """A positional argument marked static with ``static_argnums`` (a pytree leaf)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __hash__(self) -> int:
        key = _static_key(self.value)
        return hash(key)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Static) and _static_key(self.value) == _static_key(other.value)


def _static_key(leaf):
    try:
        hash(leaf)
        return leaf
    except TypeError:
        return ("id", id(leaf))


class _WritesChanged(BaseException):
    """A retrace (new shapes) wrote slots the compiled program does not return."""


class _Entry:
    """One compiled program: written slots are donated and returned, the others only read.

    The first call learns which slots the function writes with an abstract trace
    (``jax.eval_shape``), then compiles ``pure(donated, others, dynamic)``: the written slots
    that may be donated, then the other written (shared, e.g. the random key) and read slots.
    """

    __slots__ = (
        "owner",
        "group",
        "written",
        "donated",
        "others",
        "jitted",
        "also_written",
        "raises",
    )

    def __init__(self, owner, group: _Group, also_written=None) -> None:
        self.owner = owner
        self.group = group
        self.written: list | None = None
        self.donated: list = []
        self.others: list = []
        self.jitted = None
        self.also_written = {id(s) for s in also_written or ()}
        self.raises = False

    def _trace(self, slots, values, dynamic):
        """Run the user function in a discovering frame; return (out, frame)."""
        group = self.group
        it = iter(dynamic)
        call_leaves = [next(it) if leaf is None else leaf for leaf in group.leaves]
        args, kwargs = jax.tree_util.tree_unflatten(group.treedef, call_leaves)
        args = tuple(a.value if isinstance(a, _Static) else a for a in _to_tensors(args))
        kwargs = _to_tensors(kwargs)
        frame = DiscoveringFrame(slots, values)
        with frame, _control_flow.compiled_trace(self.owner):
            out = _control_flow.call_converted(self.owner.fn, *args, **kwargs)
            # a returned Parameter is its value at the end of this trace, not its eager data
            out = jax.tree_util.tree_map(
                lambda x: wrap(_state.read(x)) if isinstance(x, Slot) else x, out, is_leaf=_is_slot
            )
        if frame.missed:
            raise SlotDiscovered(frame.missed)
        _check_outputs(out)
        return out, frame

    def _learn(self, dynamic) -> None:
        slots = self.group.slots

        def learn(values, dynamic):
            _, frame = self._trace(slots, values, dynamic)
            return [id(slot) in frame.written for slot in slots]

        values = [jax.ShapeDtypeStruct(s._data.shape, s._data.dtype) for s in slots]
        dyn = [jax.ShapeDtypeStruct(np.shape(d), d.dtype) for d in dynamic]
        flags = []
        jax.eval_shape(lambda v, d: flags.extend(learn(v, d)) or 0, values, dyn)
        flags = [w or id(s) in self.also_written for s, w in zip(slots, flags)]
        written = [s for s, w in zip(slots, flags) if w]
        read = [s for s, w in zip(slots, flags) if not w]
        written_ids = {id(s) for s in written}
        # donated: written slots whose buffers XLA updates in place; the rest are plain inputs
        donated = [s for s in written if s.donatable]
        kept = [s for s in written if not s.donatable]
        others = kept + read
        returned = donated + kept

        def pure(donated_values, other_values, dynamic):
            self.owner.trace_count += 1
            out, frame = self._trace(
                donated + others, list(donated_values) + list(other_values), dynamic
            )
            if any(key not in written_ids and key not in frame.born for key in frame.written):
                raise _WritesChanged()
            new_values = [frame.value_of(slot) for slot in returned]
            if id(_control_flow.ERROR) in written_ids:  # a run-time error commits nothing
                old = list(donated_values) + list(other_values)
                error = frame.value_of(_control_flow.ERROR)
                new_values = _control_flow.select_on_error(error, returned, new_values, old)
            return out, new_values

        pure.__name__ = getattr(self.owner.fn, "__name__", "jitted")
        self.written, self.donated, self.others = returned, donated, others
        self.raises = any(slot is _control_flow.ERROR for slot in returned)
        self.jitted = jax.jit(pure, donate_argnums=(0,) if self.owner.donate else ())

    def __call__(self, dynamic):
        if self.jitted is None:
            self._learn(dynamic)
        out, new_values = self.jitted(
            [slot._data for slot in self.donated], [slot._data for slot in self.others], dynamic
        )
        for slot, value in zip(self.written, new_values):
            slot._data = value
        if self.raises:
            error = _control_flow.pending_error()
            if error is not None:
                raise error
        return out

    def lower(self, dynamic):
        if self.jitted is None:
            self._learn(dynamic)
        return self.jitted.lower(
            [slot._data for slot in self.donated], [slot._data for slot in self.others], dynamic
        )


class _JitFunction:
    """A function compiled with XLA on first call per signature; see :func:`jit`."""

    def __init__(
        self, fn, static_argnums=(), static_argnames=(), donate: bool = True, control=None
    ):
        self.fn = fn
        self.control_flow, self.max_loop_iterations, self.loop_grad = control or (
            "auto",
            1024,
            "bounded",
        )
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self.static_argnums = tuple(static_argnums)
        self.static_argnames = tuple(static_argnames)
        self.donate = donate
        self.trace_count = 0
        self._plans: dict = {}
        self._refs: list | None = None
        self._discovered: dict = {}
        ft.update_wrapper(self, fn, updated=())

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self) -> str:
        return f"<cellax.jit of {getattr(self.fn, '__qualname__', self.fn)!r}>"

    # -- the hot path ------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _state._local.frame is not None:
            if self.control_flow == "python":
                return self.fn(*args, **kwargs)
            return _control_flow.call_converted(self.fn, *args, **kwargs)
        plan = self._plan()
        if not kwargs:
            # fast path: positional Tensors only; the group was built by the general path
            group = plan.groups.get(len(args))
            if group is not None:
                for arg in args:
                    if type(arg) is not Tensor:
                        break
                else:
                    entry = group.entries.get(tuple([cell.training for cell in group.cells]))
                    if entry is not None:
                        return self._execute(
                            plan, len(args), group, entry, [arg._value for arg in args]
                        )
        return self._call_general(plan, args, kwargs)

    def _call_general(self, plan, args, kwargs):
        leaves, treedef, static, dynamic = self._flatten(args, kwargs)
        key = (treedef, tuple(static))
        group = plan.groups.get(key)
        if group is None:
            group = plan.groups[key] = self._make_group(plan, leaves, static, treedef)
            if self._is_fast_signature(args, kwargs):
                plan.groups[len(args)] = group
        flags = tuple([cell.training for cell in group.cells])
        entry = group.entries.get(flags)
        if entry is None:
            entry = group.entries[flags] = _Entry(self, group)
        return self._execute(plan, key, group, entry, dynamic)

    def _is_fast_signature(self, args, kwargs) -> bool:
        return not kwargs and not self.static_argnums and all(type(arg) is Tensor for arg in args)

    def _flatten(self, args, kwargs):
        if self.static_argnums:
            args = tuple(_Static(a) if i in self.static_argnums else a for i, a in enumerate(args))
        if self.static_argnames and kwargs:
            kwargs = {k: _Static(v) if k in self.static_argnames else v for k, v in kwargs.items()}
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
        dynamic = []
        static = []
        for leaf in leaves:
            if _is_array(leaf):
                dynamic.append(leaf)
                static.append(None)
            else:
                static.append(_static_key(leaf))
        return leaves, treedef, static, dynamic

    def _execute(self, plan, key, group, entry, dynamic):
        for _ in range(64):
            try:
                return entry(dynamic)
            except SlotDiscovered as discovered:
                for slot in discovered.slots:
                    self._discovered[id(slot)] = slot
                # only this signature is rebuilt; other programs did not touch the slots
                new_group = self._make_group(plan, group.leaves, None, group.treedef)
                for group_key, old in list(plan.groups.items()):
                    if old is group:
                        plan.groups[group_key] = new_group
                group = new_group
                entry = _Entry(self, group)
            except _WritesChanged:
                entry = _Entry(self, group, also_written=entry.written)
            group.entries[tuple([cell.training for cell in group.cells])] = entry
        raise RuntimeError(f"For 'jit', tracing {self!r} did not settle on a set of Parameters.")

    # -- building ----------------------------------------------------------------------------
    def _plan(self) -> _Plan:
        refs = self._refs
        if refs is None:
            refs = self._refs = self._scan()[2]
        ids = _guard_ids(refs)
        version = _state.structure_version()
        plan = self._plans.get(ids)
        if plan is None or plan.version != version:
            slots, cells, refs = self._scan()
            self._refs = refs
            ids = _guard_ids(refs)
            plan = _Plan(slots, cells, version, _guard_objects(refs))
            # one plan per guard: programs compiled for an older structure are dropped
            self._plans[ids] = plan
        return plan

    def _scan(self):
        slots: dict = {}
        cells: dict = {}
        refs: list = []
        _scan_roots(self.fn, slots, cells, refs, set())
        return slots, cells, refs

    def _make_group(self, plan: _Plan, leaves, static, treedef) -> _Group:
        slots = dict(plan.slots)
        cells = dict(plan.cells)
        seen: set = set()
        for leaf in leaves:
            if leaf is not None and not _is_array(leaf):
                _scan_roots(
                    leaf.value if isinstance(leaf, _Static) else leaf, slots, cells, [], seen
                )
        for key, slot in self._discovered.items():
            slots.setdefault(key, slot)
        group_slots = list(slots.values())
        _separate_shared_buffers(group_slots)
        kept = [None if _is_array(leaf) else leaf for leaf in leaves]
        return _Group(group_slots, list(cells.values()), treedef, kept)

    # -- introspection -----------------------------------------------------------------------
    def lower(self, *args, **kwargs):
        """Lower for these inputs without running (``jax.stages.Lowered``)."""
        plan = self._plan()
        leaves, treedef, static, dynamic = self._flatten(args, kwargs)
        for _ in range(8):
            group = self._make_group(plan, leaves, static, treedef)
            try:
                return _Entry(self, group).lower(dynamic)
            except SlotDiscovered as discovered:
                for slot in discovered.slots:
                    self._discovered[id(slot)] = slot
        raise RuntimeError(f"For 'jit', tracing {self!r} did not settle on a set of Parameters.")


def _is_leaf(x) -> bool:
    return isinstance(x, (Slot, _Static))


def _check_outputs(out) -> None:
    for leaf in jax.tree_util.tree_leaves(out):
        if not _is_array(leaf) and not isinstance(leaf, (bool, int, float, complex)):
            raise TypeError(
                f"For 'jit', a compiled function can return only Tensors, numbers and "
                f"tuples/lists/dicts of them, but it returned {type(leaf).__name__}: {leaf!r}."
            )


def _separate_shared_buffers(slots) -> None:
    """Donation needs one owner per buffer: give slots that share an array their own copy."""
    owners: set = set()
    for slot in slots:
        if id(slot._data) in owners:
            slot._data = jnp.array(slot._data, copy=True)
        owners.add(id(slot._data))


def jit(function=None, *, static_argnums=(), static_argnames=(), donate: bool = True, **options):
    """Compile a function, Cell or Cell method with XLA (``mindspore.jit``).

    The compiled program takes every Parameter, buffer and random key the function touches as
    (donated) inputs and returns their new values, which are written back after each call:
    a train step that closes over a network and an optimizer updates them in place. Programs
    are cached by argument structure, shapes and dtypes, non-Tensor arguments (by value, Cells
    by identity), the Parameters involved and the Cells' training flags. ``fn.trace_count``
    counts traces.

    Args:
        function (Callable): The function. Used as ``@jit`` or ``@jit(...)``.
        static_argnums, static_argnames: Accepted for JAX users; Python numbers, strings and
            Cells are always static (compiled in as constants), as in MindSpore.
        donate (bool): Donate the state buffers to the program (no copies). Default: ``True``.
        **options: MindSpore's options (``mode``, ``input_signature``, ``jit_config``,
            ``capture_mode``, ``jit_level``, ``backend``, ...), accepted; XLA decides. cellax's
            own (also read from ``jit_config``): ``control_flow`` (``"auto"``: Python
            ``if``/``while``/``for`` on Tensors compile to ``lax.cond``/``lax.while_loop``, see
            :func:`cellax.autograph_source`; ``"python"``: trace the code as written, a
            Tensor condition raising ``TypeError``), ``max_loop_iterations`` (int, default
            1024: the bound of a Tensor ``while`` differentiated in reverse mode; a longer loop
            raises ``RuntimeError`` after the run and commits nothing) and ``loop_grad``
            (``"bounded"``).

    Returns:
        The compiled callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> b = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0]), name="b")
        >>> @ms.jit
        ... def modify():
        ...     ops.assign(b, ms.Tensor([7.0, 8.0, 9.0]))
        ...     return True
        >>> _ = modify()
        >>> print(b.asnumpy())
        [7. 8. 9.]
        >>> @ms.jit
        ... def absolute(x):
        ...     if x.sum() < 0:
        ...         x = -x
        ...     return x
        >>> print(absolute(ms.Tensor([-1.0, -2.0])), absolute(ms.Tensor([3.0])))
        [1. 2.] [3.]

    Differences from MindSpore: Python numbers passed in are compile-time constants (a new
    value compiles again); Tensor shapes are static per compiled program.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.jit.html
    """
    options.pop("fn", None)
    if function is None:
        return ft.partial(
            jit,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            donate=donate,
            **options,
        )
    if isinstance(function, _JitFunction):
        return function
    if not callable(function):
        raise TypeError(f"For 'jit', 'function' must be callable, but got {function!r}.")
    control = _control_flow.jit_options(options)
    return _JitFunction(function, static_argnums, static_argnames, donate, control)


# --------------------------------------------------------------------------------------------
# vmap and recompute


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorize ``fn`` over a batch axis (``mindspore.vmap``), also over Cells and grads.

    Parameters read inside are shared across the batch; a function that writes state must
    write unbatched values.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(ms.vmap(lambda row: (row * row).sum())(x))
        [ 5. 25.]
    """

    @ft.wraps(fn)
    def batched(*args):
        parent = _state.current_frame()
        written: list = []

        def pure(*call_args):
            frame = Frame(parent=parent)
            with frame:
                out = _control_flow.call_converted(fn, *_to_tensors(call_args))
            items = frame.written_items()
            written[:] = [slot for slot, _ in items]
            return _to_arrays(out), [value for _, value in items]

        axes = in_axes if isinstance(in_axes, (tuple, list)) else in_axes
        out, new_values = jax.vmap(pure, in_axes=axes, out_axes=(out_axes, None))(
            *[unwrap(a) if isinstance(a, Tensor) else a for a in args]
        )
        _state.commit(zip(written, new_values))
        return _to_tensors(out)

    return batched


def checkpoint_call(fn, slots, args, kwargs, policy=None):
    """Call ``fn(*args, **kwargs)`` as ``jax.checkpoint`` of its pure function over ``slots``.

    Intermediate values are recomputed in the backward pass instead of stored.
    """
    parent = _state.current_frame()
    values = [_state.read(slot) for slot in slots]
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    is_dynamic = [_is_array(leaf) for leaf in leaves]
    dynamic = [leaf for leaf, d in zip(leaves, is_dynamic) if d]
    written: list = []

    @ft.partial(jax.checkpoint, policy=policy, prevent_cse=True)
    def pure(values, dynamic):
        it = iter(dynamic)
        call_leaves = [next(it) if d else leaf for d, leaf in zip(is_dynamic, leaves)]
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, call_leaves)
        frame = Frame(slots, values, parent)
        with frame:
            out = _control_flow.call_converted(fn, *call_args, **call_kwargs)
        items = frame.written_items()
        written[:] = [slot for slot, _ in items]
        return _to_arrays(out), [value for _, value in items]

    out, new_values = pure(values, dynamic)
    _state.commit(zip(written, new_values))
    return _to_tensors(out)


# --------------------------------------------------------------------------------------------
# mixed precision: run a Cell with its floating Parameters seen in a low precision


class _CastFrame(Frame):
    """A frame whose floating slots read as ``dtype`` copies of their master values."""

    __slots__ = ("dtype",)

    def __init__(self, dtype, parent) -> None:
        super().__init__(parent=parent)
        self.dtype = dtype

    def _miss(self, slot):
        master = _read_master(self.parent, slot)
        value = master
        if (
            self.dtype is not None
            and jnp.issubdtype(master.dtype, jnp.floating)
            and master.dtype != self.dtype
        ):
            value = master.astype(self.dtype)
        self.values[id(slot)] = (slot, value)
        return value


def _read_master(frame, slot):
    while isinstance(frame, _CastFrame):
        frame = frame.parent
    return frame.read(slot) if frame is not None else slot._data


def call_with_param_dtype(fn, dtype, args, kwargs):
    """Call ``fn`` with every floating Parameter/buffer it reads cast to ``dtype``.

    ``dtype`` None means the master values (float32 islands inside a low-precision network).
    The casts are differentiable, so gradients reach the master Parameters in their own
    dtype; values written inside are cast back to the master dtype when committed.
    """
    parent = _state.current_frame()
    frame = _CastFrame(np.dtype(dtype) if dtype is not None else None, parent)
    with frame:
        out = fn(*args, **kwargs)
    for slot, value in frame.written_items():
        master = _read_master(parent, slot)
        _state.write(slot, value.astype(master.dtype) if value.dtype != master.dtype else value)
    return out


def recompute(
    block,
    *args,
    use_reentrant=True,
    output_recompute=False,
    early_stop=True,
    context_fn=None,
    **kwargs,
):
    """Call ``block(*args, **kwargs)`` recomputing its activations in the backward pass
    (``mindspore.recompute``), as ``jax.checkpoint`` of its pure function.

    Args:
        block (Union[Cell, Callable]): The Cell or function to run.
        *args: Its inputs.
        use_reentrant, output_recompute, early_stop, context_fn: Accepted for compatibility.
        **kwargs: Its keyword inputs.

    Returns:
        The output of ``block``.

    Raises:
        TypeError: If ``block`` is not callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        >>> x = ms.Tensor([[1.0, 2.0]])
        >>> print(ms.grad(lambda x: ms.recompute(net, x))(x))
        [[2. 2.]]
    """
    if not callable(block):
        raise TypeError(
            f"For 'recompute', 'block' must be a Cell or a function, but got {block!r}."
        )
    slots: dict = {}
    collect = getattr(type(block), "_cellax_collect", None)
    if collect is not None:
        collect(block, slots, {})
    else:
        _scan_roots(block, slots, {}, [], set())
    return checkpoint_call(block, list(slots.values()), args, kwargs)


# --------------------------------------------------------------------------------------------
# conditional state updates


def call_if(cond, fn, *args, **kwargs):
    """Run ``fn`` for its state updates only where ``cond`` holds; return its output.

    Under a trace the updates become ``where(cond, new, old)`` selects (no Python control flow
    on traced values); eagerly, with a concrete ``cond``, ``fn`` simply runs or not (returning
    None when skipped).
    """
    condition = unwrap(cond)
    if not _state.is_tracer(condition) and _state.current_frame() is None:
        return fn(*args, **kwargs) if bool(np.asarray(condition)) else None
    frame = Frame(parent=_state.current_frame())
    with frame:
        out = fn(*args, **kwargs)
    condition = jnp.asarray(condition).reshape(())
    for slot, new in frame.written_items():
        old = _state.read(slot)
        _state.write(slot, jnp.where(condition, new, old))
    return out
