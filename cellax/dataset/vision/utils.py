"""``mindspore.dataset.vision.utils``: the enums of the vision transforms."""

from ._utils import Border, ImageBatchFormat, Inter

__all__ = ["Border", "ImageBatchFormat", "Inter"]
