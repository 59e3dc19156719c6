"""``mindspore.train``: Model, callbacks and metrics."""

from ._callback import *  # noqa: F403
from ._metrics import *  # noqa: F403
from ._model import Model as Model
