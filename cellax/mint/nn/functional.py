"""``cellax.mint.nn.functional``: MindSpore 2.10's ``mindspore.mint.nn.functional``.

Thin adapters over :mod:`cellax.ops` with PyTorch-style argument names (``dim``, ``input``,
``inplace``); the math lives in cellax.ops.
"""

from ._functional_activation import *  # noqa: F403
from ._functional_activation import __all__ as _act_all
from ._functional_layers import *  # noqa: F403
from ._functional_layers import __all__ as _layer_all

__all__ = sorted(_act_all + _layer_all)
