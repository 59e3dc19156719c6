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

# MindSpore's module-level lists and private passes, which zoo code imports from here
from ..amp import AMP_BLACK_LIST as AMP_BLACK_LIST
from ..amp import AMP_WHITE_LIST as AMP_WHITE_LIST
from ..amp import _auto_black_list as _auto_black_list
from ..amp import _auto_mixed_precision_rewrite as _auto_mixed_precision_rewrite
