"""One compiled dispatch for an op built from several ``jnp`` calls, when it runs eagerly.

An eager cellax op written as a few ``jnp`` calls (a NaN rule around ``argmax``, softmax's
all-``-inf`` rule) dispatches each of them separately: several times the cost of its ``jnp``
twin. :func:`fused` runs such a pure function through one cached ``jax.jit`` when every
argument is concrete, and calls it directly (inlining it into the trace, exactly as before)
when any argument is a tracer, so compiled programs and gradients are unchanged.
"""

from __future__ import annotations

import functools as ft

import jax

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
    jitted = jax.jit(fn, static_argnums=static_argnums)
    static = frozenset(static_argnums)

    @ft.wraps(fn)
    def run(*args):
        for i, arg in enumerate(args):
            if isinstance(arg, _Tracer) and i not in static:
                return fn(*args)
        return jitted(*args)

    return run
