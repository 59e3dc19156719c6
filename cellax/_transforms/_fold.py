"""Constant folding during a compiled trace, limited to small results (``FOLD_LIMIT``).

Inside ``jax.jit`` even ``jnp.asarray(np_const)`` is staged, so a condition computed only from
constants (a Cell's Tensor attribute) would become a traced ``lax.cond``. cellax's compiled
traces therefore run under JAX's eager constant folding: an op whose inputs are all concrete runs
at once and stays concrete. A folded result is embedded into the program as a literal, so a large
one (``tril(ones((2048, 2048)))``: a 33 MB module, 20x the compile time) is staged instead: an
op whose result has more than ``FOLD_LIMIT`` elements is recorded like any traced op.

JAX internals. JAX's public API turns folding on (``jax.ensure_compile_time_eval``, used by
:func:`concrete`) but has no way to turn it off for a scope (:func:`staged`: backward passes)
or to fold per op. So this module uses two private names, looked up once and guarded:

* ``jax._src.config.eager_constant_folding``, the flag behind ``ensure_compile_time_eval``,
  set on by :func:`folding` and off by :func:`staged` (``FLAG``);
* ``DynamicJaxprTrace.process_primitive`` (``jax._src.interpreters.partial_eval``), where JAX
  decides per primitive whether to fold; it is wrapped once, on the first compiled trace, to
  add the size check while :func:`folding` is active on the thread (``HOOKED``). Nothing else
  changes, eager code and plain ``jax.jit`` included.

pyproject.toml puts no upper bound on jax, so a JAX release may move either name. The
lookups then give None and no result changes: without ``HOOKED`` compiled traces fold every
size (large constants become literals: slower compiles); without ``FLAG`` they do not fold at
all, as plain ``jax.jit`` (a Tensor condition on constants becomes a ``lax.cond``, so one whose
branches differ in shape raises the error a traced condition raises). ``tests/test_fold.py``
fails, naming the missing internal, so that this module is updated.
"""

from __future__ import annotations

import contextlib
import threading

import jax

__all__ = ["FOLD_LIMIT", "folding", "staged", "concrete"]

FOLD_LIMIT = 1024  # elements


def _find_flag():
    """The private folding flag, or None where this JAX has moved or changed it."""
    try:
        from jax._src import config as jax_config
    except ImportError:
        return None
    flag = getattr(jax_config, "eager_constant_folding", None)
    if flag is None or not callable(flag) or not hasattr(flag, "value"):
        return None
    with jax.ensure_compile_time_eval():  # the public switch must drive this flag
        if flag.value is not True:
            return None
    return flag


def _find_hooked():
    """The class whose ``process_primitive`` decides folding per op, or None where moved."""
    try:
        from jax._src.interpreters import partial_eval
    except ImportError:
        return None
    trace = getattr(partial_eval, "DynamicJaxprTrace", None)
    return trace if callable(getattr(trace, "process_primitive", None)) else None


FLAG = _find_flag()
HOOKED = _find_hooked()
_typeof = getattr(jax, "typeof", None) or getattr(jax.core, "get_aval")  # jax < 0.4.36
_Tracer = jax.core.Tracer


class _Local(threading.local):
    depth: int = 0


_local = _Local()
_original = []  # [HOOKED.process_primitive] once wrapped


def _too_big(primitive, inputs, params) -> bool:
    try:
        out, _ = primitive.abstract_eval(*[_typeof(x) for x in inputs], **params)
    except Exception:  # a primitive without a plain abstract rule: fold as JAX would
        return False
    outs = out if isinstance(out, (list, tuple)) else (out,)
    return any(getattr(aval, "size", 0) > FOLD_LIMIT for aval in outs)


def _process_primitive(self, primitive, tracers, params, /):
    original = _original[0]
    if (
        _local.depth
        and FLAG.value
        and not any(isinstance(x, _Tracer) for x in tracers)
        and _too_big(primitive, tracers, params)
    ):
        with FLAG(False):
            return original(self, primitive, tracers, params)
    return original(self, primitive, tracers, params)


def _install() -> bool:
    """Wrap ``HOOKED.process_primitive`` once; False where it can not be (fold every size)."""
    if HOOKED is None:
        return False
    if not _original:
        _original.append(HOOKED.process_primitive)
        HOOKED.process_primitive = _process_primitive
    return True


@contextlib.contextmanager
def folding():
    """Fold ops on constants (results of at most ``FOLD_LIMIT`` elements) while tracing."""
    if FLAG is None:  # see the module docstring: trace as plain jax.jit does
        yield
        return
    limited = _install()
    if limited:
        _local.depth += 1
    try:
        with FLAG(True):
            yield
    finally:
        if limited:
            _local.depth -= 1


@contextlib.contextmanager
def staged():
    """Suspend constant folding (a backward pass: gradient hooks must see staged values)."""
    if FLAG is None:  # nothing folds
        yield
        return
    with FLAG(False):
        yield


def concrete(fn, *args):
    """``fn(*args)`` computed at once (a concrete result, any size) even inside a trace."""
    depth, _local.depth = _local.depth, 0
    try:
        with jax.ensure_compile_time_eval():
            return fn(*args)
    finally:
        _local.depth = depth
