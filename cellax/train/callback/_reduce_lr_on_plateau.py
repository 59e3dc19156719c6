"""``mindspore.train.callback._reduce_lr_on_plateau``: the module where MindSpore defines
``ReduceLROnPlateau``."""

from .._callback_schedule import ReduceLROnPlateau

__all__ = ["ReduceLROnPlateau"]
