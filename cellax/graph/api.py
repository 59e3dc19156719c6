"""``mindspore.graph.api``: the graph-mode helpers of ``mindspore.common.api`` under their
2.10 path (``_no_grad``...)."""

from ..common.api import _no_grad as _no_grad
from ..common.api import jit as jit
from ..common.api import jit_class as jit_class

__all__ = ["jit", "jit_class"]
