"""``cellax.dataset.audio.transforms``: MindSpore's ``mindspore.dataset.audio.transforms``
module (the same transforms as ``cellax.dataset.audio``)."""

from ._effects import *  # noqa: F401,F403
from ._filters import *  # noqa: F401,F403
from ._pending import *  # noqa: F401,F403
from ._spectral import *  # noqa: F401,F403
