"""``mindspore.train.loss_scale_manager``: the loss-scale managers of ``Model``.

Examples:
    >>> from cellax.train.loss_scale_manager import FixedLossScaleManager
    >>> FixedLossScaleManager(128.0).get_loss_scale()
    128.0
"""

from ..amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
