"""``mindspore.common.api``: ``jit``, ``jit_class`` and the private helpers real code imports
from here (``_no_grad``, ``_pynative_executor``).

Examples:
    >>> import cellax as ms
    >>> from cellax.common.api import jit, jit_class
    >>> @jit_class
    ... class Scale:
    ...     def __init__(self, k):
    ...         self.k = k
    >>> print(jit(lambda x: x * Scale(2.0).k)(ms.Tensor([1.0])))
    [2.]
"""

from __future__ import annotations

import contextlib

from .._jit_config import JitConfig
from .._transforms import jit

__all__ = ["jit", "jit_class", "JitConfig", "set_recursion_limit"]


def jit_class(cls):
    """Mark a class whose instances may be used inside compiled functions.

    cellax traces Python with JAX, where any Python object may be used, so the class is
    returned unchanged.

    Args:
        cls (type): The class.

    Returns:
        The class itself.

    Raises:
        TypeError: If ``cls`` is not a class.

    Examples:
        >>> import cellax as ms
        >>> @ms.jit_class
        ... class Config:
        ...     pass
        >>> Config.__name__
        'Config'
    """
    if not isinstance(cls, type):
        raise TypeError(
            f"For 'jit_class', the decorated object must be a class, but got {type(cls).__name__}."
        )
    return cls


class _no_grad(contextlib.ContextDecorator):
    """MindSpore's private context manager that stops PyNative from recording operations.

    Differences from MindSpore: cellax computes gradients by transforming functions
    (``cellax.grad``), not by recording operations, so there is no recording to stop; code
    under ``_no_grad`` outside a gradient transform runs as in MindSpore. Wrap values in
    ``ops.stop_gradient`` to block gradients inside a transform.
    """

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _PynativeExecutor:
    """Stand-in for MindSpore's private executor object, with the queries real code makes."""

    def sync(self) -> None:
        """Wait for every pending computation (JAX dispatch is asynchronous)."""
        import jax

        jax.effects_barrier()

    def set_grad_flag(self, flag: bool) -> None:
        """Accepted; cellax has no recording flag."""

    def grad_flag(self) -> bool:
        return False


_pynative_executor = _PynativeExecutor()


def _function_forbid_reuse(func):
    """Mark a function so MindSpore's graph compiler never reuses its compiled graph; cellax
    keeps the mark (``__function_forbid_reuse__``) and traces each call as usual.

    Examples:
        >>> from cellax.common.api import _function_forbid_reuse
        >>> @_function_forbid_reuse
        ... def f(x):
        ...     return x
        >>> f.__function_forbid_reuse__
        True
    """
    import inspect

    if not inspect.isfunction(func):
        raise TypeError(
            f"Decorator _function_forbid_reuse can only be used for function type, but got {func}."
        )
    func.__function_forbid_reuse__ = True
    return func


def set_recursion_limit(recursion_limit=1000):
    """``mindspore.set_recursion_limit``: the call depth MindSpore's graph compiler allows.

    cellax traces with Python itself, so there is no separate limit to raise: the value is
    validated as MindSpore 2.10 does (a positive int; a bool or a float is a TypeError, 0 or
    less a ValueError) and otherwise ignored; ``get_context("max_call_depth")`` is unchanged,
    as in MindSpore. mindyolo's ``set_default`` calls it.

    Examples:
        >>> import cellax as ms
        >>> ms.set_recursion_limit(2000)
    """
    from .._checkparam import check_positive_int

    check_positive_int(recursion_limit)


from .._errors import unavailable as _unavailable  # noqa: E402

flops_collection = _unavailable(
    "flops_collection",
    "For 'flops_collection', the FLOP count comes from MindSpore's graph executor, which "
    "cellax does not have; use jax.jit(f).lower(*args).compile().cost_analysis() instead.",
    "The FLOPs of the compiled graphs (MindSpore's graph executor); not available on JAX.",
    __name__,
)
