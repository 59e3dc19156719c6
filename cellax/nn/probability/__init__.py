"""``mindspore.nn.probability``: probability distributions (:mod:`.distribution`)."""

from . import distribution as distribution

__all__ = ["distribution"]
