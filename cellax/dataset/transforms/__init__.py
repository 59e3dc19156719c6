"""``cellax.dataset.transforms``: general transforms for ``Dataset.map`` (MindSpore's
``mindspore.dataset.transforms``). ``vision`` is re-exported, as in MindSpore."""

from .. import vision
from ._transforms import *  # noqa: F401,F403
from ._transforms import __all__ as _all
from . import transforms as transforms  # MindSpore's module, reached as an attribute

__all__ = [*_all, "vision"]
