"""``mindspore.runtime.event``: :class:`Event`, a point in the device's work."""

from ._streams import Event as Event

__all__ = ["Event"]
