"""Gradient hooks and custom bprop: ``jax.custom_vjp`` at Cell, Tensor and op boundaries.

Every backward-side hook is an identity whose backward rule calls the user's function:

* Cell backward (pre) hooks: identities on the Cell's floating inputs and outputs
  (:func:`run_with_backward_hooks`). The output identity sees ``grad_output`` first (pre hooks
  may replace it), the input identity then sees ``grad_input`` (backward hooks may replace it).
* ``Tensor.register_hook``: an identity on that Tensor's value (:func:`apply_tensor_hooks`).
* ``ops.HookBackward``: an identity on the op's inputs (:func:`hook_backward`). Inside
  ``cellax.jit`` / GRAPH_MODE it is left out, as MindSpore 2.10 leaves it out of a graph,
  unless ``set_context(jit_hook_backward=True)`` (:func:`hook_backward_in_jit`).
* ``ops.InsertGradientOf``: an identity on one Tensor whose backward rule returns
  ``f(grad)`` (:func:`insert_gradient_of`), eagerly and compiled.
* ``Cell.bprop``: a ``jax.custom_vjp`` around the Cell's pure function (:func:`run_with_bprop`).

How a user function is called (:func:`call_user_hook`):

* eagerly (PyNative, also inside ``grad``): directly, with concrete values, as in MindSpore;
* inside ``cellax.jit`` / GRAPH_MODE the values are abstract. The hook is first called once at
  trace time with traced Tensors and its printing captured. If it returns new values, they are
  compiled into the program and the captured text is printed (trace-time printing, as in JAX).
  If it returns None (it only observes) or fails on the abstract values, the captured text is
  dropped and the hook runs again at every execution through ``jax.debug.callback`` with the real
  values; returning new values there is an error (it can not change a compiled program).
"""

from __future__ import annotations

import contextlib
import io
import sys

import jax
import jax.numpy as jnp
import numpy as np

from .. import _context, _core, _dtype
from .._core import HookDict, add_hook, concrete, is_array
from .._errors import check_bools
from .._tensor import Tensor, wrap, wrap_tree
from . import _trace
from ._trace import call_converted  # Tensor control flow in user hooks

__all__ = [
    "call_user_hook",
    "run_forward_pre_hooks",
    "run_forward_hooks",
    "add_cell_hook",
    "run_with_backward_hooks",
    "run_with_bprop",
    "apply_tensor_hooks",
    "hook_backward",
    "hook_backward_in_jit",
    "insert_gradient_of",
    "tensor_register_hook",
    "is_abstract",
]


# --------------------------------------------------------------------------------------------
# helpers


def _is_float(x) -> bool:
    return is_array(x) and _dtype.is_inexact(x.dtype)


def is_abstract(arrays) -> bool:
    """True when some array is a compile-time (jit) tracer without a concrete value."""
    return any(isinstance(a, jax.core.Tracer) and concrete(a) is None for a in arrays)


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", None) or type(hook).__name__


class HookReturnError(TypeError):
    """A hook returned gradients of the wrong structure (never swallowed by the jit probe)."""


def _check_grads(api: str, owner: str, hook, result, expected: list) -> list:
    """Validate a hook's replacement gradients against ``expected`` arrays; return arrays."""
    n = len(expected)
    if isinstance(result, (Tensor, jax.Array)) and n == 1:
        result = (result,)
    if not isinstance(result, (tuple, list)):
        raise HookReturnError(
            f"For '{api}', the hook '{_hook_name(hook)}' of {owner} must return None or a tuple "
            f"of {n} gradient Tensor(s), but got {type(result).__name__}."
        )
    if len(result) != n:
        raise HookReturnError(
            f"For '{api}', the hook '{_hook_name(hook)}' of {owner} must return None or a tuple "
            f"of {n} gradient Tensor(s), but got a {type(result).__name__} of {len(result)}."
        )
    arrays = []
    for i, (grad, ref) in enumerate(zip(result, expected)):
        value = grad._value if isinstance(grad, Tensor) else grad
        if not is_array(value):
            value = jnp.asarray(value)
        if tuple(value.shape) != tuple(ref.shape):
            raise HookReturnError(
                f"For '{api}', the hook '{_hook_name(hook)}' of {owner} must return gradient {i} "
                f"with shape {tuple(ref.shape)}, but got shape {tuple(value.shape)}."
            )
        arrays.append(jnp.asarray(value, ref.dtype))
    return arrays


def call_user_hook(fn, tree, describe: str):
    """Call ``fn(tree) -> None | new values``: eagerly, or under a trace as described above.

    ``tree`` is a pytree of arrays/Tensors and static leaves (numbers, Cells, ...).
    """
    arrays, static = _core.partition(tree)
    _core.LOCAL.user_hooks += 1
    if not is_abstract(arrays):
        return fn(tree)
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured):
            result = fn(tree)
    except HookReturnError:
        raise
    except Exception:  # noqa: BLE001 - abstract values: run it on real values instead
        result = None
    if result is not None:
        sys.stdout.write(captured.getvalue())
        return result

    def at_run_time(*values):
        if fn(_core.combine(values, static)) is not None:
            raise RuntimeError(
                f"For {describe}, the hook returned new values inside cellax.jit / GRAPH_MODE "
                f"but could not be traced with abstract values, so they can not be used. Write "
                f"the hook with cellax ops only, or call the network outside jit."
            )

    jax.debug.callback(at_run_time, *arrays, ordered=True)
    return None


class KwargsHook:
    """A forward (pre) hook registered with ``with_kwargs=True``."""

    __slots__ = ("fn", "__weakref__")

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


def run_forward_pre_hooks(cell, hooks, args: tuple, kwargs: dict):
    """Run forward pre hooks: ``hook(cell, args)`` or (with_kwargs) ``hook(cell, args, kwargs)``."""
    for hook in hooks:
        with_kwargs = isinstance(hook, KwargsHook)

        def call(tree, hook=hook, with_kwargs=with_kwargs):
            call_args, call_kwargs = tree
            if with_kwargs:
                return call_converted(hook.fn, cell, call_args, call_kwargs)
            return call_converted(hook, cell, call_args)

        result = call_user_hook(
            call, (args, kwargs), f"'register_forward_pre_hook' of {_cell_owner(cell)}"
        )
        if result is None:
            continue
        if with_kwargs:
            if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict)):
                raise TypeError(
                    f"For 'register_forward_pre_hook', the hook '{_hook_name(hook.fn)}' of "
                    f"{_cell_owner(cell)} was registered with with_kwargs=True and must return "
                    f"None or a tuple (args, kwargs), but got {type(result).__name__}."
                )
            args, kwargs = result
            args = args if isinstance(args, tuple) else (args,)
        else:
            args = result if isinstance(result, tuple) else (result,)
    return args, kwargs


def run_forward_hooks(cell, hooks, args: tuple, kwargs: dict, out):
    """Run forward hooks: ``hook(cell, args, out)`` or ``hook(cell, args, kwargs, out)``."""
    for hook in hooks:
        with_kwargs = isinstance(hook, KwargsHook)

        def call(tree, hook=hook, with_kwargs=with_kwargs):
            call_args, call_kwargs, output = tree
            if with_kwargs:
                return call_converted(hook.fn, cell, call_args, call_kwargs, output)
            return call_converted(hook, cell, call_args, output)

        result = call_user_hook(
            call, (args, kwargs, out), f"'register_forward_hook' of {_cell_owner(cell)}"
        )
        if result is not None:
            out = result
    return out


def add_cell_hook(hooks: HookDict, hook_fn, api: str, prepend: bool, with_kwargs: bool):
    """Register a forward (pre) hook with MindSpore's ``prepend``/``with_kwargs`` options."""
    check_bools(api, prepend=prepend, with_kwargs=with_kwargs)
    if with_kwargs and callable(hook_fn):
        hook_fn = KwargsHook(hook_fn)
    handle = add_hook(hooks, hook_fn, api)
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks.update([items[-1]] + items[:-1])
    return handle


def _identity(arrays: list, on_cotangent) -> list:
    """Identity on ``arrays``; backward: ``on_cotangent(cts) -> new cts | None``."""

    @jax.custom_vjp
    def ident(*xs):
        return xs

    def fwd(*xs):
        return xs, None

    def bwd(_, cts):
        new = on_cotangent(list(cts))
        return tuple(cts) if new is None else tuple(new)

    ident.defvjp(fwd, bwd)
    return list(ident(*arrays))


# --------------------------------------------------------------------------------------------
# Cell backward hooks


def _cell_owner(cell) -> str:
    return f"Cell '{type(cell).__name__}'"


def _run_pre_hooks(cell, cts: list):
    hooks = list(cell._backward_pre_hooks.values())
    if not hooks:
        return None
    owner = _cell_owner(cell)

    grads, changed = list(cts), False
    for hook in hooks:

        def run(arrays, hook=hook):
            result = call_converted(hook, cell, tuple(wrap(g) for g in arrays))
            if result is None:
                return None
            return _check_grads("register_backward_pre_hook", owner, hook, result, arrays)

        new = call_user_hook(run, grads, f"'register_backward_pre_hook' of {owner}")
        if new is not None:
            grads, changed = new, True
    return grads if changed else None


def _run_backward_hooks(cell, cts: list, grad_output: list):
    hooks = list(cell._backward_hooks.values())
    if not hooks:
        return None
    owner = _cell_owner(cell)
    n = len(cts)

    grads, changed = list(cts), False
    for hook in hooks:

        def run(arrays, hook=hook):
            grads_in, outs = list(arrays[:n]), tuple(wrap(g) for g in arrays[n:])
            result = call_converted(hook, cell, tuple(wrap(g) for g in grads_in), outs)
            if result is None:
                return None
            return _check_grads("register_backward_hook", owner, hook, result, grads_in)

        new = call_user_hook(run, grads + list(grad_output), f"'register_backward_hook' of {owner}")
        if new is not None:
            grads, changed = new, True
    return grads if changed else None


def run_with_backward_hooks(cell, construct_call, args, kwargs):
    """Call the Cell's construct between gradient identities that run its backward hooks.

    Only the Cell's own computation lies between the identities: ops added by forward (pre)
    hooks are outside, so backward hooks see the Cell's own ``grad_input``/``grad_output``.
    """
    box: dict = {}
    if cell._backward_hooks:
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and _is_float(a._value)]
        if positions:

            def on_grad_input(cts):
                return _run_backward_hooks(cell, cts, box.get("grad_output", []))

            values = _identity([args[i]._value for i in positions], on_grad_input)
            args = list(args)
            for i, value in zip(positions, values):
                args[i] = wrap(value)
            args = tuple(args)
    out = construct_call(*args, **kwargs)
    leaves, treedef = jax.tree_util.tree_flatten(out)
    positions = [i for i, leaf in enumerate(leaves) if _is_float(leaf)]
    if not positions:
        return out

    def on_grad_output(cts):
        new = _run_pre_hooks(cell, cts)
        box["grad_output"] = cts if new is None else new
        return new

    values = _identity([leaves[i] for i in positions], on_grad_output)
    for i, value in zip(positions, values):
        leaves[i] = value
    return jax.tree_util.tree_unflatten(treedef, leaves)


# --------------------------------------------------------------------------------------------
# Tensor.register_hook and ops.HookBackward


def apply_tensor_hooks(value, hooks: HookDict):
    """``value`` behind an identity whose backward rule runs the Tensor hooks in ``hooks``."""
    if not _is_float(value) or not hooks:
        return value

    def on_cotangent(cts):
        grads, changed = list(cts), False
        for hook in list(hooks.values()):

            def run(arrays, hook=hook):
                result = call_converted(hook, wrap(arrays[0]))
                if result is None:
                    return None
                return _check_grads("Tensor.register_hook", "a Tensor", hook, result, arrays)

            new = call_user_hook(run, grads, "'Tensor.register_hook'")
            if new is not None:
                grads, changed = new, True
        return grads if changed else None

    return _identity([value], on_cotangent)[0]


def tensor_register_hook(self, hook):
    """Register a backward hook on this Tensor (``Tensor.register_hook``).

    ``hook(grad) -> None or new grad`` is called with the gradient flowing into this Tensor
    during ``grad``/``value_and_grad``; a returned Tensor replaces that gradient. Works on
    intermediate Tensors (register inside the differentiated function, before the Tensor is
    used), on Tensors passed to ``grad`` as differentiated inputs and on Parameters passed as
    ``weights``. Inside ``cellax.jit`` see ``docs/hooks.md``: observing hooks run at every call
    with real values, replacing hooks are traced.

    Args:
        hook (function): ``hook(grad) -> Tensor or None``.

    Returns:
        A handle; ``handle.remove()`` unregisters the hook.

    Raises:
        TypeError: If ``hook`` is not callable.

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     y = x * 2
        ...     y.register_hook(lambda g: g * 3)
        ...     return y * y
        >>> print(ms.grad(f)(ms.Tensor([1.0, 1.0])))
        [24. 24.]
    """
    hooks = getattr(self, "_hooks", None)
    if hooks is None:
        hooks = HookDict(_core.PARAM_HOOKS)
        self._hooks = hooks
    handle = add_hook(hooks, hook, "Tensor.register_hook")
    if isinstance(self, _core.Slot):
        return handle  # Parameters: applied where grad reads its weights
    value = self._value
    if isinstance(value, jax.core.Tracer) and getattr(hooks, "applied", None) != id(value):
        value = apply_tensor_hooks(value, hooks)
        hooks.applied = id(value)
        self._value = value
    return handle


def hook_backward_in_jit() -> bool:
    """Whether ``ops.HookBackward`` runs inside a compiled trace (cellax's extension); by
    default it does not, as in MindSpore 2.10 (``set_context(jit_hook_backward=...)``)."""
    return bool(_context._settings.get("jit_hook_backward", False))


def _in_graph_code() -> bool:
    """True in what MindSpore runs as a graph: a ``cellax.jit`` body (compiled, or inline in
    another transform) and anything under GRAPH_MODE (there ``grad`` compiles too)."""
    local = _core.LOCAL
    return (
        local.compiling is not None
        or local.inline_jit > 0
        or _context.get_mode() == _context.GRAPH_MODE
    )


def hook_backward(hook_fn, inputs: tuple, api: str = "HookBackward"):
    """Identity on ``inputs``; the backward rule calls ``hook_fn(grads) -> None or new grads``."""
    positions = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and _is_float(x._value)]
    if not positions or (_in_graph_code() and not hook_backward_in_jit()):
        return inputs
    owner = f"'{api}'"

    def on_cotangent(cts):
        def run(arrays):
            result = call_converted(hook_fn, tuple(wrap(g) for g in arrays))
            if result is None:
                return None
            return _check_grads(api, "the operator", hook_fn, result, arrays)

        return call_user_hook(run, cts, owner)

    values = _identity([inputs[i]._value for i in positions], on_cotangent)
    outputs = list(inputs)
    for i, value in zip(positions, values):
        outputs[i] = wrap(value)
    return tuple(outputs)


def insert_gradient_of(fn, x):
    """Identity on ``x``; the backward rule replaces its gradient ``g`` with ``fn(g)``."""
    if not (isinstance(x, Tensor) and _is_float(x._value)):
        return x

    def on_cotangent(cts):
        def run(arrays):
            result = call_converted(fn, wrap(arrays[0]))
            if result is None:
                return None
            return _check_grads("InsertGradientOf", "the operator", fn, result, arrays)

        return call_user_hook(run, cts, "'InsertGradientOf'")

    return wrap(_identity([x._value], on_cotangent)[0])


# --------------------------------------------------------------------------------------------
# custom bprop


def _cell_slots(cell) -> list:
    slots: dict = {}
    cell._cellax_collect(slots, {})
    return list(slots.values())


def _zero_cotangent(x):
    if _is_float(x):
        return jnp.zeros(x.shape, x.dtype)
    return np.zeros(x.shape, jax.dtypes.float0)


def _dout_value(ct, primal):
    """The cotangent handed to bprop: integer/bool outputs get zeros of their own dtype."""
    if ct is None or (hasattr(ct, "dtype") and ct.dtype == jax.dtypes.float0):
        return jnp.zeros(primal.shape, primal.dtype)
    return ct


def run_with_bprop(cell, args, kwargs):
    """Run ``cell.construct`` as a ``jax.custom_vjp`` whose backward rule is ``cell.bprop``.

    ``bprop(*inputs, out, dout)`` returns one gradient per positional input. The Cell's
    Parameters get zero gradients, except those listed in ``cell.internal_params`` when bprop
    returns ``(input_grads, {param: grad})`` (the extended form).
    """
    name = type(cell).__name__
    slots = _cell_slots(cell)
    values = [_core.read(slot) for slot in slots]
    dynamic, static = _core.partition((args, kwargs))
    dyn = [i for i, leaf in enumerate(jax.tree_util.tree_leaves((args, kwargs))) if is_array(leaf)]
    forward = _trace.functionalize(cell.construct, slots, arrays_out=True)
    backward = _trace.functionalize(cell.bprop, slots, convert=True)  # writes dropped

    def run_forward(values, dynamic):
        call_args, call_kwargs = _core.combine(dynamic, static)
        return forward(values, *call_args, **call_kwargs)

    @jax.custom_vjp
    def pure(values, dynamic):
        return run_forward(values, dynamic)

    def fwd(values, dynamic):
        result = run_forward(values, dynamic)
        return result, (values, dynamic, result[0])

    def bwd(residuals, cts):
        values, dynamic, out = residuals
        dout = jax.tree_util.tree_map(_dout_value, cts[0], out)
        call_args, _ = _core.combine(dynamic, static)
        result, _ = backward(values, *call_args, wrap_tree(out), wrap_tree(dout))
        param_grads: dict = {}
        if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict):
            result, param_grads = result
        if isinstance(result, Tensor) and len(call_args) == 1:
            result = (result,)
        if not isinstance(result, (tuple, list, int, float, Tensor)):  # MindSpore's TypeError
            raise TypeError(
                f"For 'bprop' of Cell '{name}', bprop must return Tensors, but got "
                f"{type(result).__name__}."
            )
        if not isinstance(result, (tuple, list)) or len(result) < len(call_args):
            got = len(result) if isinstance(result, (tuple, list)) else type(result).__name__
            raise RuntimeError(
                f"For 'bprop' of Cell '{name}', bprop must return one gradient per positional "
                f"input ({len(call_args)}), but got {got}."
            )
        result = result[: len(call_args)]  # MindSpore ignores extra gradients
        input_cts = _input_cotangents(name, args, dyn, dynamic, result)
        slot_cts = []
        internal = {id(p) for p in getattr(cell, "internal_params", None) or ()}
        by_id = {id(p): g for p, g in param_grads.items()}
        for slot, value in zip(slots, values):
            grad = by_id.get(id(slot)) if id(slot) in internal else None
            if grad is None or not _is_float(value):
                slot_cts.append(_zero_cotangent(value))
            else:
                grad = grad._value if isinstance(grad, Tensor) else jnp.asarray(grad)
                slot_cts.append(jnp.broadcast_to(grad, value.shape).astype(value.dtype))
        return slot_cts, input_cts

    pure.defvjp(fwd, bwd)
    out, new_values = pure(values, dynamic)
    forward.commit(new_values)
    return wrap_tree(out)


def _input_cotangents(name, args, dyn, dynamic, grads) -> list:
    """Cotangents of the dynamic leaves from bprop's per-positional-input gradients."""
    per_leaf: dict = {}
    offset = 0
    for j, (arg, grad) in enumerate(zip(args, grads)):
        count = len(jax.tree_util.tree_leaves(arg))
        if count == 1:
            per_leaf[offset] = (j, grad)
        offset += count
    cts = []
    for i, value in zip(dyn, dynamic):
        j, grad = per_leaf.get(i, (None, None))
        if grad is None or not _is_float(value):
            cts.append(_zero_cotangent(value))
            continue
        if not isinstance(grad, (Tensor, int, float, bool, np.ndarray, jax.Array)):
            raise TypeError(
                f"For 'bprop' of Cell '{name}', the gradient of input {j} must be a Tensor, but "
                f"got {type(grad).__name__}: {grad!r}."
            )
        grad = grad._value if isinstance(grad, Tensor) else jnp.asarray(grad)
        if tuple(grad.shape) != tuple(value.shape):  # MindSpore: a RuntimeError
            raise RuntimeError(
                f"For 'bprop' of Cell '{name}', the gradient of input {j} must have shape "
                f"{tuple(value.shape)}, but got {tuple(grad.shape)}."
            )
        cts.append(grad.astype(value.dtype))
    return cts
