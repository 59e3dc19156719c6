"""``mindspore.common.dtype``: the dtype objects (``mstype.float32`` ...)."""

from .._dtype import *  # noqa: F401,F403
from .._dtype import Type as Type  # noqa: F401
