"""``mindspore.ops.function.linalg_func``: the functional ops MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "function.linalg_func")
