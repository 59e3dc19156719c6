"""Streams and events (``mindspore.runtime.stream`` and ``mindspore.runtime.event``).

XLA schedules device streams itself (compute, copies, collectives) and JAX exposes none of
them. A cellax :class:`Stream` is a handle with MindSpore's interface: creating, selecting
and waiting on streams is accepted and ordered as MindSpore orders it, and its
:meth:`~Stream.synchronize` / :meth:`~Stream.query` act on all work dispatched to the device.
"""

from __future__ import annotations

import itertools
import time

from .. import _device
from .._checkparam import check_is_int

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

_DEFAULT_ID, _COMMUNICATION_ID = 0, 1
_ids = itertools.count(2)
_current: list = [None]


def _check_stream(api: str, stream) -> None:
    if stream is not None and not isinstance(stream, Stream):
        raise TypeError(
            f"For '{api}', the argument 'stream' should be Stream, but got {type(stream)}."
        )


def _check_bool(name: str, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(
            f"For 'Event', the '{name}' must be a bool, but got {type(value).__name__}."
        )


class Event:
    """A marker recorded into a stream: wait for it, ask whether it passed, time between two.

    XLA schedules its own device streams, so an event stands for *all* work dispatched before
    :meth:`record`. With ``enable_timing=True``, :meth:`record` first waits for that work
    to finish and then reads the host clock (``time.perf_counter``); :meth:`elapsed_time`
    is the host wall time between two such records, in milliseconds. It therefore includes
    the device time of everything dispatched between the two records, plus host-side
    overhead, and nothing that was still running at the first record.

    Args:
        enable_timing (bool): Whether the event keeps a time for :meth:`elapsed_time`.
            Default: ``False``.
        blocking (bool): Accepted for MindSpore (waiting is always a blocking wait here).
            Default: ``False``.

    Raises:
        TypeError: If ``enable_timing`` or ``blocking`` is not a bool.

    Examples:
        >>> import cellax as ms
        >>> start = ms.runtime.Event(enable_timing=True)
        >>> end = ms.runtime.Event(enable_timing=True)
        >>> start.record()
        >>> y = ms.ops.matmul(ms.ops.ones((64, 64)), ms.ops.ones((64, 64)))
        >>> end.record()
        >>> end.synchronize()
        >>> end.query(), end.elapsed_time(start) <= 0 <= start.elapsed_time(end)
        (True, True)

    Differences from MindSpore: events mark all pending work rather than one stream's, and
    their times are host wall times measured after waiting for the device (see above).
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False) -> None:
        _check_bool("enable_timing", enable_timing)
        _check_bool("blocking", blocking)
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._recorded = False
        self._time: float | None = None

    def record(self, stream=None) -> None:
        """Mark the work dispatched so far (on ``stream``, default the current stream)."""
        _check_stream("record", stream)
        if self.enable_timing:
            _device.synchronize()
            self._time = time.perf_counter()
        self._recorded = True

    def wait(self, stream=None) -> None:
        """Make ``stream`` wait for this event.

        Nothing to do on XLA: work dispatched later already runs after the work it reads.
        """
        _check_stream("wait", stream)

    def synchronize(self) -> None:
        """Wait until the work marked by :meth:`record` has finished."""
        if self._recorded:
            _device.synchronize()

    def query(self) -> bool:
        """Whether the marked work has finished (``True`` for an event never recorded).

        It answers for all work dispatched so far, so it may say ``False`` while only later
        work is still running.
        """
        return _device.all_ready() if self._recorded else True

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds of host wall time from this event's record to ``end_event``'s.

        Raises:
            TypeError: If ``end_event`` is not an Event.
            RuntimeError: If either event was created without ``enable_timing`` or not
                recorded yet.
        """
        if not isinstance(end_event, Event):
            raise TypeError(
                "For 'elapsed_time', the argument 'end_event' should be Event, but got "
                f"{type(end_event)}."
            )
        start, end = self._time, end_event._time
        if start is None or end is None:
            raise RuntimeError(
                "For 'elapsed_time', both events must be created with enable_timing=True "
                "and recorded before their elapsed time is asked."
            )
        return (end - start) * 1000.0


class Stream:
    """A device stream handle (``mindspore.runtime.Stream``).

    Args:
        priority (int): Accepted for MindSpore; XLA orders its streams itself. Default: ``0``.
        **kwargs: ``stream_id`` (int) names an existing stream (0 is the default stream,
            1 the communication stream).

    Raises:
        TypeError: If ``priority`` or ``stream_id`` is not an int.

    Examples:
        >>> import cellax as ms
        >>> s = ms.runtime.Stream()
        >>> with ms.runtime.StreamCtx(s):
        ...     y = ms.ops.ones((2, 2)) * 2
        ...     ms.runtime.current_stream() == s
        True
        >>> s.synchronize()
        >>> s.query()
        True

    Differences from MindSpore: work is not bound to a stream (XLA chooses), so
    :meth:`synchronize` and :meth:`query` cover all work dispatched to the device.
    """

    def __init__(self, priority: int = 0, **kwargs) -> None:
        check_is_int(priority, "priority", "Stream")
        self.priority = priority
        if isinstance(kwargs.get("stream"), Stream):
            self.id = kwargs["stream"].id
        elif "stream_id" in kwargs:
            self.id = check_is_int(kwargs["stream_id"], "stream_id", "Stream")
        else:
            self.id = next(_ids)
        self.device_id = 0

    def stream_id(self) -> int:
        """The stream's number."""
        return self.id

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new Event if ``None``) on this stream and return it."""
        if event is None:
            event = Event()
        if not isinstance(event, Event):
            raise TypeError(
                f"For 'record_event', the argument 'event' should be Event, but got {type(event)}."
            )
        event.record(self)
        return event

    def wait_event(self, event: Event) -> None:
        """Make later work on this stream wait for ``event`` (already so on XLA)."""
        if not isinstance(event, Event):
            raise TypeError(
                f"For 'wait_event', the argument 'event' should be Event, but got {type(event)}."
            )
        event.wait(self)

    def wait_stream(self, stream: Stream) -> None:
        """Make later work on this stream wait for ``stream``'s work (already so on XLA)."""
        if not isinstance(stream, Stream):
            raise TypeError(
                "For 'wait_stream', the argument 'stream' should be Stream, but got "
                f"{type(stream)}."
            )
        self.wait_event(stream.record_event())

    def synchronize(self) -> None:
        """Wait until all work dispatched to the device has finished."""
        _device.synchronize()

    def query(self) -> bool:
        """Whether all work dispatched to the device has finished, without waiting."""
        return _device.all_ready()

    def __eq__(self, other) -> bool:
        if not isinstance(other, Stream):
            raise TypeError(
                f"For '__eq__', the argument 'other' should be Stream, but got {type(other)}."
            )
        return (self.id, self.device_id) == (other.id, other.device_id)

    def __hash__(self) -> int:
        return hash((self.id, self.device_id))

    def __repr__(self) -> str:
        target = _device.running_target()
        return f"Stream(device_name={target}, device_id:{self.device_id}, stream id:{self.id})"


def synchronize() -> None:
    """Wait until every computation dispatched to the device so far has finished.

    It waits for JAX's pending effects (``jax.effects_barrier``) and for every live array.

    Examples:
        >>> import cellax as ms
        >>> y = ms.ops.ones((128, 128)) @ ms.ops.ones((128, 128))
        >>> ms.runtime.synchronize()
    """
    _device.synchronize()


def set_cur_stream(stream: Stream | None) -> None:
    """Make ``stream`` the current stream (``None`` leaves it unchanged).

    Raises:
        TypeError: If ``stream`` is not a Stream.
    """
    if stream is None:
        return
    if not isinstance(stream, Stream):
        raise TypeError(
            f"For 'set_cur_stream', the argument 'stream' should be Stream, but got {type(stream)}."
        )
    _current[0] = stream


def current_stream() -> Stream:
    """The current stream (the default stream unless :func:`set_cur_stream` or
    :class:`StreamCtx` chose another)."""
    return _current[0] if _current[0] is not None else default_stream()


def default_stream() -> Stream:
    """The default stream (number 0)."""
    return Stream(stream_id=_DEFAULT_ID)


def communication_stream() -> Stream:
    """The stream collectives run on in MindSpore (number 1); XLA schedules them itself."""
    return Stream(stream_id=_COMMUNICATION_ID)


class CtxBase:
    """Base of MindSpore's stream context managers."""

    ctx_attr = True


class StreamCtx(CtxBase):
    """``with StreamCtx(stream):`` makes ``stream`` current inside the block.

    Args:
        ctx_stream (Stream): The stream, or ``None`` (the block changes nothing).

    Raises:
        TypeError: If ``ctx_stream`` is neither a Stream nor ``None``.
    """

    def __init__(self, ctx_stream: Stream | None) -> None:
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(
                "For 'StreamCtx', the argument 'ctx_stream' should be Stream, but got "
                f"{type(ctx_stream)}."
            )
        self.stream = ctx_stream
        self.prev_stream: Stream | None = None

    def __enter__(self) -> None:
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        if self.stream is not None:
            set_cur_stream(self.prev_stream)
