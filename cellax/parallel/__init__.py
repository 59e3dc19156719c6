"""``mindspore.parallel``: operator-parallel layouts, ``shard`` and ``AutoParallel`` on JAX.

Strategies and Layouts become ``jax.sharding`` shardings (docs/distributed.md); XLA's
sharding propagation and partitioner do the rest.

Examples:
    >>> from cellax.parallel import Layout
    >>> Layout((2, 4), ("dp", "mp"))("dp", "None").to_dict()["tensor_map"]
    (1, -1)
"""

from .._serialization import load_distributed_checkpoint
from ..ops._layout import Layout
from ._shard import shard
from .function import reshard

__all__ = ["Layout", "shard", "reshard", "load_distributed_checkpoint"]
