"""``mindspore.dataset.transforms.transforms``: the module where MindSpore defines the
general transform classes (the same classes as ``dataset.transforms``)."""

from ._transforms import *  # noqa: F401,F403
from ._transforms import __all__ as __all__
