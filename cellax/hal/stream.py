"""``mindspore.hal.stream``: the older spelling of ``runtime``'s streams (same objects)."""

from ..runtime._streams import Event as Event
from ..runtime._streams import Stream as Stream
from ..runtime._streams import StreamCtx as StreamCtx
from ..runtime._streams import communication_stream as communication_stream
from ..runtime._streams import current_stream as current_stream
from ..runtime._streams import default_stream as default_stream
from ..runtime._streams import set_cur_stream as set_cur_stream
from ..runtime._streams import synchronize as synchronize

__all__ = [
    "Event",
    "Stream",
    "StreamCtx",
    "communication_stream",
    "current_stream",
    "default_stream",
    "set_cur_stream",
    "synchronize",
]
