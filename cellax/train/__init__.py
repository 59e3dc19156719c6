"""``mindspore.train``: Model, callbacks and metrics."""

from ._callback import *  # noqa: F403
from ._callback_schedule import *  # noqa: F403
from ._callback_exit import *  # noqa: F403
from ._callback_checkpoint import *  # noqa: F403
from ._summary_collector import *  # noqa: F403
from ..nn._metrics import *  # noqa: F403
from ._model import Model as Model
from ._data_sink import data_sink as data_sink
from . import callback as callback  # noqa: E402
from . import serialization as serialization  # noqa: E402
from . import loss_scale_manager as loss_scale_manager  # noqa: E402
from .serialization import *  # noqa: E402,F403
from .loss_scale_manager import *  # noqa: E402,F403
from .summary import SummaryRecord as SummaryRecord  # noqa: E402

from . import metrics as metrics  # noqa: E402

# Every public name, as ``from cellax.train import *`` gave before ``__all__`` existed (code
# such as tinyms extends its own ``__all__`` with MindSpore's ``train.__all__``).
__all__ = sorted(name for name in globals() if not name.startswith("_"))
