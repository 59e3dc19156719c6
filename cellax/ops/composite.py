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
]


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
