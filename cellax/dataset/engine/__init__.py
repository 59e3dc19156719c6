"""``mindspore.dataset.engine``: the package where MindSpore defines the dataset classes (the
same classes as ``dataset``)."""

from . import datasets as datasets
from .datasets import *  # noqa: F401,F403
from .datasets import __all__ as _datasets_all

__all__ = ["datasets", *_datasets_all]
