"""cellax.nn: Cell, layers, losses, optimizers and training wrappers.

Each family module defines ``__all__``; this package re-exports them.
"""

from .._parameter import Buffer as Buffer
from ._cell import Cell as Cell
from ._container import *  # noqa: F403
from ._dense import *  # noqa: F403
from ._activation import *  # noqa: F403
from ._conv import *  # noqa: F403
from ._pooling import *  # noqa: F403
from ._padding import *  # noqa: F403
from ._normalization import *  # noqa: F403
from ._dropout import *  # noqa: F403
from ._embedding import *  # noqa: F403
from ._rnn import *  # noqa: F403
from ._attention import *  # noqa: F403
from ._transformer import *  # noqa: F403
from ._loss import *  # noqa: F403
from ._optim import *  # noqa: F403
from ._lr_schedule import *  # noqa: F403
from ._wrap import *  # noqa: F403
from ._grad_reducer import *  # noqa: F403
from ._pipeline import *  # noqa: F403
from ._scan import *  # noqa: F403
from ._hook_cells import *  # noqa: F403
from ._loss_scale import *  # noqa: F403
from ._compat_layers import *  # noqa: F403
from ._graph_cell import GraphCell as GraphCell
from ._metrics import *  # noqa: F403
from . import metrics as metrics
from ._lr_schedule import LearningRateSchedule as LearningRateSchedule
from . import _layer_prims

from . import _aliases

_aliases.register(globals(), __name__)
_layer_prims.install(Conv2d, Conv3d, Dense, LayerNorm)  # noqa: F405
del _aliases
