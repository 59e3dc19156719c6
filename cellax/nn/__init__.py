"""cellax.nn: Cell, layers, losses, optimizers and training wrappers.

Each family module defines ``__all__``; this package re-exports them.
"""

from .._parameter import Buffer as Buffer
from ._cell import Cell as Cell
from ._container import *  # noqa: F403
from ._dense import *  # noqa: F403
from ._activation import *  # noqa: F403
