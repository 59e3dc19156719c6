"""``mindspore.runtime.stream_limit``: Ascend core limits per stream (no XLA counterpart)."""

from __future__ import annotations

from .._device import warn_once
from ._streams import CtxBase, Stream

__all__ = ["get_stream_limit", "set_stream_limit", "reset_stream_limit", "StreamLimitCtx"]


def _check(api: str, stream) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(
            f"For '{api}', the argument 'stream' should be Stream, but got {type(stream)}."
        )


def _warn() -> None:
    warn_once(
        "runtime.set_stream_limit",
        "cube and vector core limits are Ascend settings with no XLA counterpart; the "
        "setting has no effect.",
        stacklevel=4,
    )


def get_stream_limit(stream: Stream) -> dict:
    """The core limits of ``stream``: ``-1`` (no limit) on XLA.

    Raises:
        TypeError: If ``stream`` is not a Stream.

    Examples:
        >>> import cellax as ms
        >>> ms.runtime.get_stream_limit(ms.runtime.current_stream())
        {'cube_core_num': -1, 'vector_core_num': -1}
    """
    _check("get_stream_limit", stream)
    return {"cube_core_num": -1, "vector_core_num": -1}


def set_stream_limit(stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
    """Limit the cores of ``stream``: checked, then one ``UserWarning``, no effect.

    Raises:
        TypeError: If ``stream`` is not a Stream.
    """
    _check("set_stream_limit", stream)
    _warn()


def reset_stream_limit(stream: Stream) -> None:
    """Remove the core limits of ``stream`` (there are none on XLA).

    Raises:
        TypeError: If ``stream`` is not a Stream.
    """
    _check("set_stream_limit", stream)  # MindSpore's message names set_stream_limit too


class StreamLimitCtx(CtxBase):
    """``with StreamLimitCtx(stream, cube_num, vector_num):`` limits cores inside the block.

    Raises:
        TypeError: If ``stream`` is not a Stream.

    Differences from MindSpore: no XLA counterpart; entering gives one ``UserWarning``.
    """

    def __init__(self, stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
        _check("StreamLimitCtx", stream)
        self.stream = stream
        self.cube_num = cube_num
        self.vector_num = vector_num
        self.prev_cube_num = -1
        self.prev_vector_num = -1

    def __enter__(self) -> None:
        _warn()

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        pass
