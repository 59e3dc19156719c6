"""``mindspore.device_context.cpu``: the CPU device and its operator threads."""

from . import device as device
from . import op_tuning as op_tuning
from .device import device_count as device_count
from .device import is_available as is_available
from .op_tuning import threads_num as threads_num

__all__ = ["device_count", "is_available", "threads_num"]
