"""``mindspore.nn.metrics``: MindSpore 2.10 keeps its metrics importable from ``nn``
(``nn.metrics.Loss()``); they are ``cellax.train.metrics``'s classes.

This module sits above ``nn`` in the layering (it imports ``cellax.train``); ``cellax.nn``
does not import it, ``cellax.train`` binds it as ``cellax.nn.metrics``.

Examples:
    >>> from cellax import nn
    >>> nn.metrics.Loss is nn.Loss
    True
"""

from ..train.metrics import *  # noqa: F403
from ..train.metrics import __all__ as __all__
