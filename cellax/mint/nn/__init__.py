"""``cellax.mint.nn``: MindSpore 2.10's ``mindspore.mint.nn`` layers as ordinary Cells.

They work with grad, jit, hooks, recompute, amp and checkpoints like every cellax Cell.
"""

from ...nn import Cell as Cell
from . import functional as functional
from . import functional as F  # noqa: F401
from ._layers import *  # noqa: F403
from ._layers import __all__ as _layers_all
from ._stateless import *  # noqa: F403
from ._stateless import __all__ as _stateless_all

__all__ = sorted(["Cell", "functional"] + _layers_all + _stateless_all)
