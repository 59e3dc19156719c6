"""``mindspore.runtime.stream``: streams, the current stream and :func:`synchronize`.

XLA schedules device streams itself; see :class:`Stream` for what a cellax stream is.
"""

from ._streams import CtxBase as CtxBase
from ._streams import Event as Event
from ._streams import Stream as Stream
from ._streams import StreamCtx as StreamCtx
from ._streams import communication_stream as communication_stream
from ._streams import current_stream as current_stream
from ._streams import default_stream as default_stream
from ._streams import set_cur_stream as set_cur_stream
from ._streams import synchronize as synchronize

__all__ = [
    "CtxBase",
    "Event",
    "Stream",
    "StreamCtx",
    "synchronize",
    "set_cur_stream",
    "current_stream",
    "default_stream",
    "communication_stream",
]
