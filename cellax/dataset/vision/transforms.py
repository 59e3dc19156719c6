"""``mindspore.dataset.vision.transforms``: the module where MindSpore defines the vision
transform classes (the same classes as ``dataset.vision``)."""

from ._color import *  # noqa: F401,F403
from ._color import __all__ as _color_all
from ._geometry import *  # noqa: F401,F403
from ._geometry import __all__ as _geometry_all
from ._transforms import *  # noqa: F401,F403
from ._transforms import __all__ as _transforms_all
from ._utils import Border, ImageBatchFormat, Inter

__all__ = [*_transforms_all, *_color_all, *_geometry_all, "Border", "ImageBatchFormat", "Inter"]
