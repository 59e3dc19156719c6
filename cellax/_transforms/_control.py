"""Calls with a changed view of the state: cast Parameters (amp) and conditional updates."""

from __future__ import annotations


import jax.numpy as jnp
import numpy as np

from .. import _core as _state
from .._core import Frame
from .._tensor import unwrap
from .._core import CastFrame as _CastFrame
from .._core import read_master as _read_master

__all__ = ["call_with_param_dtype", "call_if"]


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
