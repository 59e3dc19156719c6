"""``mindspore.nn.metrics``: the metrics ``Model.eval`` computes (``nn.metrics.Loss()``); the
same classes as ``cellax.train.metrics`` and ``cellax.nn.Loss``...

Examples:
    >>> from cellax import nn
    >>> nn.metrics.Loss is nn.Loss
    True
"""

from ._metrics import *  # noqa: F403
from ._metrics import __all__ as __all__
