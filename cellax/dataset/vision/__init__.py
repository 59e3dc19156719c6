"""``cellax.dataset.vision``: image transforms for ``Dataset.map`` (MindSpore's
``mindspore.dataset.vision``), on NumPy and Pillow."""

from ._transforms import *  # noqa: F401,F403
from ._transforms import __all__ as _transforms_all
from ._utils import Border, ImageBatchFormat, Inter

__all__ = [*_transforms_all, "Inter", "Border", "ImageBatchFormat"]
