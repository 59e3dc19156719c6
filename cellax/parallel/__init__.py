"""``mindspore.parallel``: the sharding-layout description :class:`Layout`.

cellax runs in one process on one device, so a Layout describes a plan that nothing executes;
code builds layouts at import or construction time (``Layout((2, 4), ("dp", "mp"))``) and
passes them to ``Cell.shard``, which cellax accepts as a single-device no-op.
"""

from __future__ import annotations

from ._layout import Layout

__all__ = ["Layout"]
