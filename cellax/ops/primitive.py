"""``mindspore.ops.primitive``: the Primitive base classes and their decorators.

Examples:
    >>> from cellax.ops.primitive import Primitive, constexpr, prim_attr_register
    >>> class Scale(Primitive):
    ...     @prim_attr_register
    ...     def __init__(self, factor=2.0):
    ...         pass
    ...     def __call__(self, x):
    ...         return x * self.factor
    >>> Scale(3.0)(2.0), Scale().attrs
    (6.0, {'factor': 2.0})
    >>> @constexpr
    ... def double(n):
    ...     return 2 * n
    >>> double(4)
    8
"""

from __future__ import annotations

from ._impl.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

__all__ = [
    "Primitive",
    "PrimitiveWithInfer",
    "PrimitiveWithCheck",
    "prim_attr_register",
    "prim_arg_register",
    "constexpr",
]

PrimitiveWithCheck = Primitive
prim_arg_register = prim_attr_register


def constexpr(fn=None, *, get_instance=True, reuse_result=True, check=True):
    """Mark a function evaluated on Python constants at graph-compile time.

    cellax runs Python eagerly and traces with JAX, where plain Python already runs on
    constants, so the function is returned unchanged; both ``@constexpr`` and
    ``@constexpr(reuse_result=False)`` work.

    Args:
        fn (function): The function. Default: ``None`` (decorator with arguments).
        get_instance (bool): Accepted for compatibility. Default: ``True``.
        reuse_result (bool): Accepted for compatibility. Default: ``True``.
        check (bool): Accepted for compatibility. Default: ``True``.

    Returns:
        The function itself, or a decorator that returns it.

    Examples:
        >>> from cellax import ops
        >>> @ops.constexpr(reuse_result=False)
        ... def shape_size(shape):
        ...     return len(shape)
        >>> shape_size((2, 3))
        2
    """
    if fn is None:
        return lambda f: f
    return fn


_primexpr = constexpr
