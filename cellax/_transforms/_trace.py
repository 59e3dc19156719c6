"""The set-up every transform gives the user code it traces, around ``_core.functionalize``.

``functionalize`` runs user code in a frame. Each transform also needs some of:

* conversion: inside a compiled trace (``cellax.jit``, GRAPH_MODE) the user's Python runs
  converted for Tensor control flow (``if``/``while`` on Tensors, see ``cellax/_autograph``);
  outside one it runs as written;
* the boundary: Tensors on the user's side, arrays on JAX's (``wrap_tree``, ``to_arrays``);
* the differentiating mode (``_core.LOCAL.differentiating``) while a derivative transform
  (grad, jvp, vjp, jacfwd, ...) traces: a Tensor ``while`` then lowers to a bounded
  ``lax.scan``, which reverse mode can differentiate (``_control_flow_loops``);
* a staged backward pass (:func:`backward`): inside a compiled trace constant folding is on
  (``_fold``), and cotangents folded to constants would make gradient hooks run once at
  trace time instead of with each run's values.

:func:`functionalize` is ``_core.functionalize`` with that set-up chosen by keywords, and the
only way ``_transforms/`` builds a pure function of user code (``tests/test_trace_setup.py``
checks that); :func:`user_code` is the same set-up without a frame.
"""

from __future__ import annotations

import contextlib
import types

from .. import _autograph, _core
from .._core import to_arrays
from .._tensor import wrap_tree
from . import _fold

__all__ = ["functionalize", "user_code", "call_converted", "converted", "backward"]


def converted(fn):
    """``fn`` converted for Tensor control flow where it is user code (a function, a method, or
    an object whose type has ``_cellax_convertible``); anything else unchanged."""
    if type(fn) is types.FunctionType:
        return _autograph.convert(fn) or fn
    if type(fn) is types.MethodType and type(fn.__func__) is types.FunctionType:
        method = _autograph.convert(fn.__func__)
        return types.MethodType(method, fn.__self__) if method is not None else fn
    inner = getattr(type(fn), "_cellax_convertible", None)
    if inner is not None:
        return inner(fn)
    return fn


def call_converted(fn, *args, **kwargs):
    """Call a user callable converted when a compiled trace with control flow is active."""
    options = _core.compiling()
    if options is not None and getattr(options, "control_flow", "auto") != "python":
        fn = converted(fn)
    return fn(*args, **kwargs)


@contextlib.contextmanager
def _differentiating():
    _core.LOCAL.differentiating += 1
    try:
        yield
    finally:
        _core.LOCAL.differentiating -= 1


def user_code(
    fn,
    *,
    convert: bool = False,
    tensors_in: bool = False,
    arrays_out: bool = False,
    differentiating: bool = False,
):
    """``fn`` as a transform calls it: ``convert``: converted (see :func:`call_converted`);
    ``tensors_in``: array arguments wrapped as Tensors; ``arrays_out``: its output as arrays;
    ``differentiating``: the differentiating mode on while it runs."""

    def call(*args, **kwargs):
        if tensors_in:
            args, kwargs = wrap_tree(args), wrap_tree(kwargs)
        with _differentiating() if differentiating else contextlib.nullcontext():
            out = call_converted(fn, *args, **kwargs) if convert else fn(*args, **kwargs)
        return to_arrays(out) if arrays_out else out

    return call


def functionalize(fn, slots=(), frame=None, returns=None, **setup) -> _core.Stateful:
    """``_core.functionalize`` of :func:`user_code` ``(fn, **setup)`` (``fn`` itself without
    ``setup``). With ``arrays_out`` the output becomes arrays inside the frame: a returned
    Parameter gives its value in this trace."""
    if setup:
        fn = user_code(fn, **setup)
    return _core.functionalize(fn, slots, frame, returns)


def backward():
    """Context of a backward pass (building the cotangents and running the pullback): staged,
    not folded, so that gradient hooks in a compiled trace see traced cotangents."""
    return _fold.staged()
