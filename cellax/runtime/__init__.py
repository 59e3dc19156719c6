"""``mindspore.runtime``: device runtime settings, memory statistics, streams and events.

What each group does on cellax (docs/running_mindspore_code.md, "Device settings"):

- :func:`synchronize`, :class:`Stream`, :class:`Event`: wait for and time the work
  dispatched to the XLA device (XLA schedules its own streams; a Stream is a handle).
- :func:`memory_stats` and friends: XLA allocator statistics where the backend keeps them,
  the live arrays' bytes on CPU.
- :func:`launch_blocking`: every eager op waits for its result.
- :func:`set_memory`: ``max_size`` caps GPU memory before JAX starts; the rest is checked and
  warns once.
- Ascend and MindSpore-runtime switches (core limits, launch groups, dispatch threads,
  pluggable allocators): arguments are checked as MindSpore checks them, then one
  ``UserWarning`` says the setting has no effect (``PluggableAllocator`` / ``MemPool`` /
  ``use_mem_pool`` raise ``NotImplementedError`` when used).

Examples:
    >>> import cellax as ms
    >>> ms.runtime.synchronize()
    >>> sorted(ms.runtime.memory_stats())[:2]
    ['common_mem_pool_stats', 'max_allocated_memory']
"""

from . import device as device
from . import device_limit as device_limit
from . import event as event
from . import executor as executor
from . import memory as memory
from . import stream as stream
from . import stream_limit as stream_limit
from . import thread_bind_core as thread_bind_core
from .device_limit import get_device_limit as get_device_limit
from .device_limit import set_device_limit as set_device_limit
from .event import Event as Event
from .executor import dispatch_threads_num as dispatch_threads_num
from .executor import launch_blocking as launch_blocking
from .executor import set_cpu_affinity as set_cpu_affinity
from .executor import set_kernel_launch_capture as set_kernel_launch_capture
from .executor import set_kernel_launch_group as set_kernel_launch_group
from .memory import MemPool as MemPool
from .memory import PluggableAllocator as PluggableAllocator
from .memory import empty_cache as empty_cache
from .memory import max_memory_allocated as max_memory_allocated
from .memory import max_memory_reserved as max_memory_reserved
from .memory import memory_allocated as memory_allocated
from .memory import memory_replay as memory_replay
from .memory import memory_reserved as memory_reserved
from .memory import memory_stats as memory_stats
from .memory import memory_summary as memory_summary
from .memory import reset_max_memory_allocated as reset_max_memory_allocated
from .memory import reset_max_memory_reserved as reset_max_memory_reserved
from .memory import reset_peak_memory_stats as reset_peak_memory_stats
from .memory import set_memory as set_memory
from .memory import use_mem_pool as use_mem_pool
from .stream import Stream as Stream
from .stream import StreamCtx as StreamCtx
from .stream import communication_stream as communication_stream
from .stream import current_stream as current_stream
from .stream import default_stream as default_stream
from .stream import set_cur_stream as set_cur_stream
from .stream import synchronize as synchronize
from .stream_limit import StreamLimitCtx as StreamLimitCtx
from .stream_limit import get_stream_limit as get_stream_limit
from .stream_limit import reset_stream_limit as reset_stream_limit
from .stream_limit import set_stream_limit as set_stream_limit

__all__ = [
    "Event",
    "MemPool",
    "PluggableAllocator",
    "Stream",
    "StreamCtx",
    "StreamLimitCtx",
    "communication_stream",
    "current_stream",
    "default_stream",
    "dispatch_threads_num",
    "empty_cache",
    "get_device_limit",
    "get_stream_limit",
    "launch_blocking",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_replay",
    "memory_reserved",
    "memory_stats",
    "memory_summary",
    "reset_max_memory_allocated",
    "reset_max_memory_reserved",
    "reset_peak_memory_stats",
    "reset_stream_limit",
    "set_cpu_affinity",
    "set_cur_stream",
    "set_device_limit",
    "set_kernel_launch_capture",
    "set_kernel_launch_group",
    "set_memory",
    "set_stream_limit",
    "synchronize",
    "use_mem_pool",
]
