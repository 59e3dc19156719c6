"""``cellax.mint.distributed``: the names of MindSpore 2.10's ``mindspore.mint.distributed``.

The torch-style process-group API is not mapped yet: every function raises
:class:`NotImplementedError` naming its MindSpore-style equivalent in ``cellax.communication``
(``init``, ``get_rank``, ``get_group_size``) and the ``cellax.ops`` collectives (``AllReduce``,
``AllGather``, ``ReduceScatter``, ``Broadcast``, ``AlltoAll``, ``Barrier``), which run on
``jax.distributed`` (the module imports fine, so code that only imports it keeps working).
"""

from __future__ import annotations

__all__ = [
    "P2POp", "TCPStore", "all_gather", "all_gather_into_tensor",
    "all_gather_into_tensor_uneven", "all_gather_object", "all_reduce", "all_to_all",
    "all_to_all_single", "barrier", "batch_isend_irecv", "broadcast", "broadcast_object_list",
    "destroy_process_group", "gather", "gather_object", "get_backend", "get_global_rank",
    "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size",
    "init_process_group", "irecv", "is_available", "is_initialized", "isend", "new_group",
    "recv", "recv_object_list", "reduce", "reduce_scatter", "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven", "scatter", "scatter_object_list", "send",
    "send_object_list",
]  # fmt: skip


def _unavailable(name: str):
    def call(*args, **kwargs):
        raise NotImplementedError(
            f"For 'mint.distributed.{name}', the torch-style process-group API is not mapped "
            f"in cellax.mint yet, but it was called. Use cellax.communication (init, get_rank, "
            f"get_group_size) and the cellax.ops collectives (AllReduce, AllGather, ...)."
        )

    call.__name__ = call.__qualname__ = name
    call.__doc__ = (
        f"MindSpore's ``mint.distributed.{name}``; raises NotImplementedError in cellax.\n\n"
        f"    Raises:\n        NotImplementedError: Always (no distributed backend yet).\n"
    )
    return call


P2POp = _unavailable("P2POp")
TCPStore = _unavailable("TCPStore")
all_gather = _unavailable("all_gather")
all_gather_into_tensor = _unavailable("all_gather_into_tensor")
all_gather_into_tensor_uneven = _unavailable("all_gather_into_tensor_uneven")
all_gather_object = _unavailable("all_gather_object")
all_reduce = _unavailable("all_reduce")
all_to_all = _unavailable("all_to_all")
all_to_all_single = _unavailable("all_to_all_single")
barrier = _unavailable("barrier")
batch_isend_irecv = _unavailable("batch_isend_irecv")
broadcast = _unavailable("broadcast")
broadcast_object_list = _unavailable("broadcast_object_list")
destroy_process_group = _unavailable("destroy_process_group")
gather = _unavailable("gather")
gather_object = _unavailable("gather_object")
get_backend = _unavailable("get_backend")
get_global_rank = _unavailable("get_global_rank")
get_group_rank = _unavailable("get_group_rank")
get_process_group_ranks = _unavailable("get_process_group_ranks")
get_rank = _unavailable("get_rank")
get_world_size = _unavailable("get_world_size")
init_process_group = _unavailable("init_process_group")
irecv = _unavailable("irecv")
is_available = _unavailable("is_available")
is_initialized = _unavailable("is_initialized")
isend = _unavailable("isend")
new_group = _unavailable("new_group")
recv = _unavailable("recv")
recv_object_list = _unavailable("recv_object_list")
reduce = _unavailable("reduce")
reduce_scatter = _unavailable("reduce_scatter")
reduce_scatter_tensor = _unavailable("reduce_scatter_tensor")
reduce_scatter_tensor_uneven = _unavailable("reduce_scatter_tensor_uneven")
scatter = _unavailable("scatter")
scatter_object_list = _unavailable("scatter_object_list")
send = _unavailable("send")
send_object_list = _unavailable("send_object_list")
