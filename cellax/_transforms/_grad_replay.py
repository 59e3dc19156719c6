"""PyNative gradients replayed from a compiled program: ``set_context(pynative_grad_replay=True)``.

In PyNative mode every call of a ``grad``/``value_and_grad`` function runs ``jax.vjp`` op by
op: JAX linearizes the forward pass again on each step (docs/performance.md, W2). With the
switch on, a gradient function is watched on its first call, which runs eagerly as always; if
that call wrote nothing to stdout, called no user hook and raised nothing, later calls run one
compiled program (``cellax.jit`` of the same gradient function: state, Parameters and random
keys go in and out as under jit) instead of re-deriving the gradient.

The switch is the user's statement that the function has no other Python-visible effects: no
Python state read or written that the result depends on, no data-dependent Python control flow
beyond what jit converts. When a later trace (new input shapes, a changed network) prints, the
printed text is passed on and the function runs eagerly from then on; an error from the
compiled call re-runs the step eagerly, so the error points at the user's line.
"""

from __future__ import annotations

import contextlib
import io
import sys

from .. import _context
from .. import _core
from ._jit import jit

__all__ = ["Replay", "wanted"]

_WATCH, _REPLAY, _EAGER = 0, 1, 2


def wanted() -> bool:
    """Replay is on, the call is eager (PyNative, not inside another transform)."""
    return (
        _core.LOCAL.frame is None
        and bool(_context._settings.get("pynative_grad_replay"))
        and _context.get_mode() == _context.PYNATIVE_MODE
    )


class _Tee(io.TextIOBase):
    """Passes writes on to ``target`` and remembers that there were some."""

    def __init__(self, target) -> None:
        self.target, self.wrote = target, False

    def write(self, text: str) -> int:
        self.wrote = self.wrote or bool(text)
        return self.target.write(text)

    def flush(self) -> None:
        self.target.flush()


class Replay:
    """The state of one gradient function: watching, replaying, or eager for good."""

    __slots__ = ("eager", "compiled", "state")

    def __init__(self, eager) -> None:
        self.eager = eager
        self.compiled = None
        self.state = _WATCH

    def __call__(self, args, kwargs):
        if self.state == _REPLAY:
            return self._replay(args, kwargs)
        if self.state == _EAGER:
            return self.eager(*args, **kwargs)
        tee = _Tee(sys.stdout)
        hooks = _core.LOCAL.user_hooks
        try:
            with contextlib.redirect_stdout(tee):
                out = self.eager(*args, **kwargs)
        except BaseException:
            self.state = _EAGER
            raise
        quiet = not tee.wrote and _core.LOCAL.user_hooks == hooks
        self.state = _REPLAY if quiet else _EAGER
        return out

    def _replay(self, args, kwargs):
        if self.compiled is None:
            self.compiled = jit(self.eager)
        traces = self.compiled.trace_count
        captured = io.StringIO()
        try:
            with contextlib.redirect_stdout(captured):
                out = self.compiled(*args, **kwargs)
        except Exception:  # noqa: BLE001 - the eager step raises the user's own error
            sys.stdout.write(captured.getvalue())
            self.state = _EAGER
            return self.eager(*args, **kwargs)
        printed = captured.getvalue()
        if printed:
            sys.stdout.write(printed)  # run-time prints (hooks, ops.Print), or a new trace's
            if self.compiled.trace_count != traces:
                self.state = _EAGER
        return out
