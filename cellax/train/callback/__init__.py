"""``mindspore.train.callback``: training callbacks (``Callback``, ``RunContext``,
``LossMonitor``, ``ModelCheckpoint``...).

Examples:
    >>> from cellax.train.callback import Callback, LossMonitor
    >>> issubclass(LossMonitor, Callback)
    True
"""

from .._callback import *  # noqa: F403
from .._callback_schedule import *  # noqa: F403
from .._callback_exit import *  # noqa: F403
from .._callback_checkpoint import *  # noqa: F403
from .._summary_collector import *  # noqa: F403
from .._callback import __all__ as _base_all
from .._callback_schedule import __all__ as _schedule_all
from .._callback_exit import __all__ as _exit_all
from .._callback_checkpoint import __all__ as _checkpoint_all
from .._summary_collector import __all__ as _summary_all

__all__ = [*_base_all, *_checkpoint_all, *_schedule_all, *_exit_all, *_summary_all]
from .._callback import _CallbackManager as _CallbackManager  # noqa: E402
from .._callback import _InternalCallbackParam as _InternalCallbackParam  # noqa: E402
