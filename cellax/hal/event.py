"""``mindspore.hal.event``: the older spelling of ``runtime``'s :class:`Event` (same class)."""

from ..runtime._streams import Event as Event

__all__ = ["Event"]
