"""``mindspore.common.dtype``: the dtype objects (``mstype.float32`` ...)."""

from .._dtype import *  # noqa: F401,F403
from .._dtype import Type as Type  # noqa: F401
from .._dtype import _ALL

all_types = _ALL  # every dtype (MindSpore's ``all_types``)
