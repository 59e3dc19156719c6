"""``mindspore.ops.composite`` (usually imported as ``C``): gradient and mapping helpers.

Examples:
    >>> from cellax.ops import composite as C
    >>> C.HyperMap()(lambda a: a + 1, (1, (2, 3)))
    (2, (3, 4))
"""

from .._transforms import GradOperation
from ._impl.composite import HyperMap, Map, MultitypeFuncGraph, clip_by_global_norm
from .primitive import constexpr

__all__ = [
    "GradOperation",
    "HyperMap",
    "Map",
    "MultitypeFuncGraph",
    "clip_by_global_norm",
    "constexpr",
    "add_flags",
]


def add_flags(fn=None, **flags):
    """Record graph-compiler flags on ``fn`` (a function or Cell) in ``fn._func_graph_flags``;
    a decorator when ``fn`` is None. cellax's compiler (XLA) reads none of them.

    Examples:
        >>> from cellax.ops import composite as C
        >>> @C.add_flags(has_effect=True)
        ... def f(x):
        ...     return x
        >>> f._func_graph_flags
        {'has_effect': True}

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/ops/mindspore.ops.add_flags.html
    """

    def mark(target):
        flags_dict = getattr(target, "_func_graph_flags", None)
        if flags_dict is None:
            target._func_graph_flags = flags_dict = {}
        flags_dict.update(flags)
        return target

    return mark if fn is None else mark(fn)


def _bind_ops_functions() -> None:
    ops = __import__("cellax.ops", fromlist=["*"])
    for name in (
        "zeros_like ones_like clip_by_value batch_dot dot matmul mm count_nonzero cummin gamma "
        "laplace multinomial normal poisson uniform repeat_elements repeat_interleave "
        "sequence_mask tensor_dot vecdot"
    ).split():
        if hasattr(ops, name):
            globals()[name] = getattr(ops, name)
            __all__.append(name)


_bind_ops_functions()
