"""``mindspore.train.amp``: the older home of the mixed-precision helpers (the same objects
as ``cellax.amp``).

Examples:
    >>> import cellax as ms
    >>> from cellax.train.amp import build_train_network
    >>> build_train_network is ms.amp.build_train_network
    True
"""

from ..amp import *  # noqa: F403
from ..amp import __all__ as __all__
