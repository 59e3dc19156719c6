"""Constant folding during a compiled trace, limited to small results (``FOLD_LIMIT``).

Inside ``jax.jit`` even ``jnp.asarray(np_const)`` is staged, so a condition computed only from
constants (a Cell's Tensor attribute) would become a traced ``lax.cond``. cellax's compiled
traces therefore run under JAX's eager constant folding: an op whose inputs are all concrete runs
at once and stays concrete. A folded result is embedded into the program as a literal, so a large
one (``tril(ones((2048, 2048)))``: a 33 MB module, 20x the compile time) is staged instead: an
op whose result has more than ``FOLD_LIMIT`` elements is recorded like any traced op.

JAX decides folding per primitive in ``DynamicJaxprTrace.process_primitive``; this module wraps
that method once (on the first compiled trace) to add the size check while :func:`folding` is
active on the thread. Nothing else changes, eager code and plain ``jax.jit`` included.
"""

from __future__ import annotations

import contextlib
import threading

from jax._src import config as jax_config
from jax._src import core as jax_core
from jax._src.interpreters import partial_eval as pe

__all__ = ["FOLD_LIMIT", "folding", "staged", "concrete"]

FOLD_LIMIT = 1024  # elements


class _Local(threading.local):
    depth: int = 0


_local = _Local()
_original = []  # [DynamicJaxprTrace.process_primitive] once wrapped


def _too_big(primitive, inputs, params) -> bool:
    try:
        out, _ = primitive.abstract_eval(*[jax_core.typeof(x) for x in inputs], **params)
    except Exception:  # a primitive without a plain abstract rule: fold as JAX would
        return False
    outs = out if isinstance(out, (list, tuple)) else (out,)
    return any(getattr(aval, "size", 0) > FOLD_LIMIT for aval in outs)


def _process_primitive(self, primitive, tracers, params, /):
    original = _original[0]
    if (
        _local.depth
        and jax_config.eager_constant_folding.value
        and not any(isinstance(x, jax_core.Tracer) for x in tracers)
        and _too_big(primitive, tracers, params)
    ):
        with jax_config.eager_constant_folding(False):
            return original(self, primitive, tracers, params)
    return original(self, primitive, tracers, params)


def _install() -> None:
    if not _original:
        _original.append(pe.DynamicJaxprTrace.process_primitive)
        pe.DynamicJaxprTrace.process_primitive = _process_primitive


@contextlib.contextmanager
def folding():
    """Fold ops on constants (results of at most ``FOLD_LIMIT`` elements) while tracing."""
    _install()
    _local.depth += 1
    try:
        with jax_config.eager_constant_folding(True):
            yield
    finally:
        _local.depth -= 1


@contextlib.contextmanager
def staged():
    """Suspend constant folding (a backward pass: gradient hooks must see staged values)."""
    with jax_config.eager_constant_folding(False):
        yield


def concrete(fn, *args):
    """``fn(*args)`` computed at once (a concrete result, any size) even inside a trace."""
    depth, _local.depth = _local.depth, 0
    try:
        with jax_config.eager_constant_folding(True):
            return fn(*args)
    finally:
        _local.depth = depth
