"""``cellax.dataset.vision``: image transforms for ``Dataset.map`` (MindSpore's
``mindspore.dataset.vision``), on NumPy and Pillow."""

from ._transforms import *  # noqa: F401,F403
from ._transforms import __all__ as _transforms_all
from ._color import *  # noqa: F401,F403
from ._color import __all__ as _color_all
from ._geometry import *  # noqa: F401,F403
from ._geometry import __all__ as _geometry_all
from ._utils import Border, ImageBatchFormat, Inter
from . import transforms as transforms  # MindSpore's modules, reached as attributes
from . import utils as utils

__all__ = [
    *_transforms_all,
    "Inter",
    "Border",
    "ImageBatchFormat",
    *_color_all,
    *_geometry_all,
]
