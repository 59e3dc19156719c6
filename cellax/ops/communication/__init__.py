"""``cellax.ops.communication``: MindSpore 2.10's torch-style communication functions
(also ``mindspore.mint.distributed``).

The process-group functions run on :mod:`cellax.communication` (processes joined by
``jax.distributed``); the collectives on the ``cellax.ops`` collective primitives, eagerly
across processes (MindSpore's ranks). ``all_reduce``, ``all_gather_into_tensor``,
``broadcast`` and ``barrier`` also work over a mesh axis inside ``jax.shard_map``; the
functions that depend on the rank (``reduce``, ``gather``, ``scatter``, the all-to-alls,
...) are eager only. As in MindSpore they work in place by default (results written into
the given tensors; they return None, or a handle with ``wait()`` when ``async_op=True``;
the work is done by then); after ``set_comm_ops_inplace(False)`` they return
``(result, handle)`` and write nothing. Point-to-point, object and uneven-gather
collectives raise NotImplementedError naming what to use instead.

Examples:
    >>> import cellax as ms
    >>> from cellax.ops import communication as dist
    >>> dist.init_process_group()
    >>> x = ms.Tensor([1.0, 2.0])
    >>> dist.all_reduce(x)
    >>> print(x, dist.get_rank(), dist.get_world_size())
    [1. 2.] 0 1
"""

from __future__ import annotations

from ..._errors import unavailable
from ._collectives import (
    all_gather,
    all_gather_into_tensor,
    all_reduce,
    all_to_all,
    all_to_all_single,
    barrier,
    broadcast,
    gather,
    gather_into_tensor,
    reduce,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
    scatter_tensor,
    set_comm_ops_inplace,
)
from ._groups import (
    destroy_process_group,
    get_backend,
    get_global_rank,
    get_group_rank,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    init_process_group,
    is_available,
    is_initialized,
    new_group,
)

__all__ = [
    "P2POp", "TCPStore", "all_gather", "all_gather_into_tensor",
    "all_gather_into_tensor_uneven", "all_gather_object", "all_reduce", "all_to_all",
    "all_to_all_single", "barrier", "batch_isend_irecv", "broadcast", "broadcast_object_list",
    "destroy_process_group", "gather", "gather_object", "get_backend", "get_global_rank",
    "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size",
    "init_process_group", "irecv", "is_available", "is_initialized", "isend", "new_group",
    "recv", "recv_object_list", "reduce", "reduce_scatter", "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven", "scatter", "scatter_object_list", "send",
    "send_object_list", "set_comm_ops_inplace", "all_to_all_v_c", "gather_into_tensor",
    "scatter_tensor",
]  # fmt: skip
# mindspore.mint.distributed: the same functions, without the last four
MINT_NAMES = __all__[:-4]


def _unavailable(name: str):
    return unavailable(
        name,
        f"For '{name}', point-to-point, object and uneven collectives are "
        f"not mapped in cellax, but it was called. Use all_reduce, all_gather, broadcast, "
        f"... of ops.communication, or the cellax.ops collectives inside jax.shard_map.",
        f"MindSpore's ``{name}``; raises NotImplementedError in cellax.\n\n"
        f"    Raises:\n        NotImplementedError: Always (not mapped onto JAX).\n",
        __name__,
    )


P2POp = _unavailable("P2POp")
TCPStore = _unavailable("TCPStore")
all_gather_into_tensor_uneven = _unavailable("all_gather_into_tensor_uneven")
all_gather_object = _unavailable("all_gather_object")
batch_isend_irecv = _unavailable("batch_isend_irecv")
broadcast_object_list = _unavailable("broadcast_object_list")
gather_object = _unavailable("gather_object")
irecv = _unavailable("irecv")
isend = _unavailable("isend")
recv = _unavailable("recv")
recv_object_list = _unavailable("recv_object_list")
reduce_scatter_tensor_uneven = _unavailable("reduce_scatter_tensor_uneven")
scatter_object_list = _unavailable("scatter_object_list")
send = _unavailable("send")
send_object_list = _unavailable("send_object_list")
all_to_all_v_c = _unavailable("all_to_all_v_c")
