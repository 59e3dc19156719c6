"""``mindspore.train.callback._checkpoint``: the module where MindSpore defines
``ModelCheckpoint`` and ``CheckpointConfig``."""

from .._callback_checkpoint import CheckpointConfig, ModelCheckpoint

__all__ = ["CheckpointConfig", "ModelCheckpoint"]
