"""``cellax.mint.distributed``: MindSpore 2.10's torch-style process-group API, the
functions of :mod:`cellax.ops.communication` (see there: ranks and groups on
``cellax.communication``, in-place collectives across processes or inside
``jax.shard_map``; point-to-point, object and uneven collectives raise
NotImplementedError).

Examples:
    >>> import cellax as ms
    >>> from cellax.mint import distributed as dist
    >>> dist.init_process_group()
    >>> x = ms.Tensor([1.0, 2.0])
    >>> dist.all_reduce(x)
    >>> print(x, dist.get_rank(), dist.get_world_size())
    [1. 2.] 0 1
"""

from __future__ import annotations

from ..ops import communication as _communication

__all__ = list(_communication.MINT_NAMES)
globals().update({name: getattr(_communication, name) for name in __all__})
