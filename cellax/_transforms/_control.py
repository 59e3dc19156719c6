"""Calls with a changed view of the state: cast Parameters (amp) and conditional updates."""

from __future__ import annotations


import jax.numpy as jnp
import numpy as np

from .. import _core
from .._core import CastFrame, read_master
from .._tensor import unwrap
from . import _trace

__all__ = ["call_with_param_dtype", "call_if"]


def call_with_param_dtype(fn, dtype, args, kwargs):
    """Call ``fn`` with every floating Parameter/buffer it reads cast to ``dtype``.

    ``dtype`` None means the master values (float32 islands inside a low-precision network).
    The casts are differentiable, so gradients reach the master Parameters in their own
    dtype; values written inside are cast back to the master dtype when committed.
    """
    parent = _core.current_frame()
    np_dtype = np.dtype(dtype) if dtype is not None else None
    stateful = _trace.functionalize(
        fn, frame=lambda slots, values, parent: CastFrame(np_dtype, parent)
    )
    out, new_values = stateful((), *args, **kwargs)

    def to_master(slot, new, old):
        master = read_master(parent, slot)
        return new.astype(master.dtype) if new.dtype != master.dtype else new

    stateful.commit(new_values, how=to_master)
    return out


def call_if(cond, fn, *args, **kwargs):
    """Run ``fn`` for its state updates only where ``cond`` holds; return its output.

    Under a trace the updates become ``where(cond, new, old)`` selects (no Python control flow
    on traced values); eagerly, with a concrete ``cond``, ``fn`` simply runs or not (returning
    None when skipped).
    """
    condition = unwrap(cond)
    if not _core.is_tracer(condition) and _core.current_frame() is None:
        return fn(*args, **kwargs) if bool(np.asarray(condition)) else None
    stateful = _trace.functionalize(fn)
    out, new_values = stateful((), *args, **kwargs)
    condition = jnp.asarray(condition).reshape(())
    stateful.commit(new_values, how=lambda slot, new, old: jnp.where(condition, new, old))
    return out
