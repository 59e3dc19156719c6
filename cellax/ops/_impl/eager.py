"""One compiled dispatch for an op built from several ``jnp`` calls, when it runs eagerly.

An eager cellax op written as a few ``jnp`` calls (a NaN rule around ``argmax``, softmax's
all-``-inf`` rule) dispatches each of them separately: several times the cost of its ``jnp``
twin. :func:`fused` runs such a pure function through one cached ``jax.jit`` when every
argument is concrete, as one cached kernel and one recorded node when an argument is a value
on PyNative's gradient tape (``cellax/_transforms/_tape.py``), and calls it directly
(inlining it into the trace, exactly as before) when any argument is staged (jit, vmap,
``jax.vjp``), so compiled programs are unchanged.
"""

from __future__ import annotations

import functools as ft

import jax

from ..._transforms import call_op, kernel_jit, staged

__all__ = [
    "fused",
]

_Tracer = jax.core.Tracer


def fused(fn=None, *, static_argnums=()):
    """Decorator: ``fn`` as one compiled call when eager (see the module docstring).

    ``static_argnums`` name the hashable non-array arguments (axes, flags, fill values).
    """
    if fn is None:
        return ft.partial(fused, static_argnums=static_argnums)
    jitted = None  # made at the first eager call: kernel_jit asks JAX for the backend
    static = frozenset(static_argnums)

    @ft.wraps(fn)
    def run(*args):
        nonlocal jitted
        for arg in args:
            if isinstance(arg, _Tracer):
                break
        else:  # all concrete: the common eager case, one isinstance per argument
            if jitted is None:
                jitted = kernel_jit(fn, static_argnums=static_argnums)
            return jitted(*args)
        for i, arg in enumerate(args):
            if i not in static and staged(arg):
                return fn(*args)
        return call_op(fn, static_argnums, args)

    return run
