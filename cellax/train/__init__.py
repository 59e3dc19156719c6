"""``mindspore.train``: Model, callbacks and metrics."""

from ._callback import *  # noqa: F403
from ._metrics import *  # noqa: F403
from ._model import Model as Model
from . import callback as callback  # noqa: E402
from . import serialization as serialization  # noqa: E402
from . import loss_scale_manager as loss_scale_manager  # noqa: E402
from .serialization import *  # noqa: E402,F403
from .loss_scale_manager import *  # noqa: E402,F403
from .summary import SummaryRecord as SummaryRecord  # noqa: E402

# MindSpore 2.10 still reaches the metrics through ``mindspore.nn`` (``nn.Accuracy``,
# ``nn.Top1CategoricalAccuracy``); nn sits below train, so train binds them there.
from .. import nn as _nn  # noqa: E402
from . import _metrics  # noqa: E402

for _name in _metrics.__all__:
    setattr(_nn, _name, getattr(_metrics, _name))
from . import metrics as metrics  # noqa: E402
from ..nn import metrics as _nn_metrics  # noqa: E402  (binds cellax.nn.metrics)

del _nn, _name, _nn_metrics
