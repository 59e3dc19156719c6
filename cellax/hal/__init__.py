"""``mindspore.hal``: devices, memory statistics and streams (MindSpore's older API).

Device queries answer from JAX's devices (``hal.device_count("GPU")`` is
``len(jax.devices("gpu"))``; the CPU counts as 1, Ascend is never available). Streams, events
and memory statistics are those of :mod:`cellax.runtime`.

Examples:
    >>> import cellax as ms
    >>> ms.hal.is_available("CPU"), ms.hal.get_device_name(0, "CPU")
    (True, 'CPU')
"""

from . import device as device
from . import event as event
from . import memory as memory
from . import stream as stream
from .device import device_count as device_count
from .device import get_arch_list as get_arch_list
from .device import get_device_capability as get_device_capability
from .device import get_device_name as get_device_name
from .device import get_device_properties as get_device_properties
from .device import is_available as is_available
from .device import is_initialized as is_initialized
from .event import Event as Event
from .memory import empty_cache as empty_cache
from .memory import max_memory_allocated as max_memory_allocated
from .memory import max_memory_reserved as max_memory_reserved
from .memory import memory_allocated as memory_allocated
from .memory import memory_reserved as memory_reserved
from .memory import memory_stats as memory_stats
from .memory import memory_summary as memory_summary
from .memory import reset_max_memory_allocated as reset_max_memory_allocated
from .memory import reset_max_memory_reserved as reset_max_memory_reserved
from .memory import reset_peak_memory_stats as reset_peak_memory_stats
from .stream import Stream as Stream
from .stream import StreamCtx as StreamCtx
from .stream import communication_stream as communication_stream
from .stream import current_stream as current_stream
from .stream import default_stream as default_stream
from .stream import set_cur_stream as set_cur_stream
from .stream import synchronize as synchronize

__all__ = [
    "Event",
    "Stream",
    "StreamCtx",
    "communication_stream",
    "current_stream",
    "default_stream",
    "device_count",
    "empty_cache",
    "get_arch_list",
    "get_device_capability",
    "get_device_name",
    "get_device_properties",
    "is_available",
    "is_initialized",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "memory_stats",
    "memory_summary",
    "reset_max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_peak_memory_stats",
    "set_cur_stream",
    "synchronize",
]
