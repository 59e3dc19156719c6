"""``cellax.mint.distributed``: MindSpore 2.10's torch-style process-group API.

The core functions run on :mod:`cellax.communication` (processes joined by
``jax.distributed``) and the ``cellax.ops`` collectives: ``init_process_group``, ranks and
sizes, ``new_group`` (the group of all ranks), and the collectives ``all_reduce``,
``all_gather``, ``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``broadcast``,
``reduce`` and ``barrier``, which write their result into the given tensors in place, as
MindSpore does. They act eagerly across processes, or over a mesh axis inside
``jax.shard_map``. With ``async_op=True`` the work is already done when the returned handle
is waited on. Point-to-point, object and uneven collectives raise NotImplementedError
naming what to use instead.

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


from .. import _parallel_state
from .. import communication as _comm
from .._tensor import Tensor
from ..ops import _comm as _ops

_WORLD = _comm.GlobalComm.WORLD_COMM_GROUP


class _CommHandle:
    """What an ``async_op=True`` call returns: the work is already done."""

    def wait(self) -> None:
        """Wait for the communication (nothing left to wait for)."""


def _done(async_op):
    return _CommHandle() if async_op else None


def _group(group) -> str:
    return _WORLD if group is None else group


def _tensor(api: str, name: str, value) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"For 'mint.distributed.{api}', '{name}' must be a Tensor, but got "
            f"{type(value).__name__}."
        )
    return value


def _put(api: str, target: Tensor, value: Tensor) -> None:
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(
            f"For 'mint.distributed.{api}', the output tensor must have shape "
            f"{tuple(value.shape)}, but got {tuple(target.shape)}."
        )
    target.assign_value(value.astype(target.dtype))


def is_available() -> bool:
    """Whether distributed communication is available: always True (``jax.distributed``).

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.is_available()
        True
    """
    return True


def is_initialized() -> bool:
    """Whether :func:`init_process_group` (or ``communication.init``) ran.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> isinstance(dist.is_initialized(), bool)
        True
    """
    return bool(_parallel_state.COMM.inited)


def init_process_group(
    backend="hccl",
    init_method=None,
    timeout=None,
    world_size=-1,
    rank=-1,
    store=None,
    group_name="",
    pg_options=None,
    device_id=None,
) -> None:
    """Join the processes of the job (``communication.init``; the cluster comes from the
    launcher's environment).

    Args:
        backend (str): ``"hccl"``, ``"nccl"`` or ``"mccl"``; JAX picks its own collectives.
            Default: ``"hccl"``.
        init_method, timeout, store, group_name, pg_options, device_id: Accepted.
        world_size (int): If not -1, must equal the number of processes. Default: ``-1``.
        rank (int): If not -1, must equal this process's rank. Default: ``-1``.

    Raises:
        TypeError: If ``backend`` is not a str.
        ValueError: If ``world_size`` or ``rank`` differ from the launched job.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.init_process_group()
        >>> dist.is_initialized()
        True

    Differences from MindSpore: the job comes from the launcher's environment (``msrun``,
    ``python -m cellax.launch``, ``mpirun``); without one it is a single process.
    """
    if not isinstance(backend, str):
        raise TypeError(
            f"For 'init_process_group', 'backend' must be a str, but got {type(backend).__name__}."
        )
    _comm.init(backend)
    for name, value, actual in (
        ("world_size", world_size, _comm.get_group_size()),
        ("rank", rank, _comm.get_rank()),
    ):
        if value != -1 and value != actual:
            raise ValueError(
                f"For 'init_process_group', '{name}' is {value}, but the launched job has "
                f"{name} {actual}."
            )


def destroy_process_group(group=None) -> None:
    """Leave the job (``group=None`` or the world group), or remove a group.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.destroy_process_group()
    """
    if group is None or group == _WORLD:
        _comm.release()
    else:
        _comm.destroy_group(group)


def get_rank(group=None) -> int:
    """This process's rank in ``group`` (0 before initialisation).

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.get_rank()
        0
    """
    return _comm.get_rank(_group(group))


def get_world_size(group=None) -> int:
    """The number of ranks in ``group`` (1 before initialisation).

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.get_world_size()
        1
    """
    return _comm.get_group_size(_group(group))


def get_backend(group=None) -> str:
    """The backend name given at initialisation (``"hccl"`` by default).

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.get_backend()
        'hccl'
    """
    return _comm.GlobalComm.BACKEND


def new_group(
    ranks=None,
    timeout=None,
    backend=None,
    pg_options=None,
    use_local_synchronization=False,
    group_desc=None,
) -> str:
    """A group of ``ranks`` (default: all); returns its name.

    Raises:
        ValueError: If ``ranks`` is not every rank (a group is a mesh axis in cellax).

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.init_process_group()
        >>> dist.new_group() == "hccl_world_group"
        True
    """
    if ranks is None:
        return _WORLD
    name = group_desc or "group_" + "_".join(str(r) for r in ranks)
    _comm.create_group(name, list(ranks))
    return name


def get_global_rank(group, group_rank) -> int:
    """The world rank of rank ``group_rank`` of ``group``.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.init_process_group()
        >>> dist.get_global_rank("hccl_world_group", 0)
        0
    """
    return _comm.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank) -> int:
    """The rank in ``group`` of world rank ``global_rank``.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.init_process_group()
        >>> dist.get_group_rank("hccl_world_group", 0)
        0
    """
    return _comm.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None) -> list:
    """The world ranks of ``group``.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.init_process_group()
        >>> dist.get_process_group_ranks()
        [0]
    """
    return _comm.get_process_group_ranks(_group(group))


def all_reduce(tensor, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks; every rank's ``tensor`` receives the result.

    Args:
        tensor (Tensor): This rank's tensor; overwritten with the result.
        op (str): ``"sum"``, ``"max"``, ``"min"``, ``"prod"`` or ``"avg"``. Default: ``"sum"``.
        group (str): The group. Default: ``None`` (the world).
        async_op (bool): Return a handle to wait on. Default: ``False``.

    Returns:
        A handle with ``wait()`` if ``async_op``, else None.

    Raises:
        TypeError: If ``tensor`` is not a Tensor or ``op`` not a str.
        ValueError: If ``op`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> x = ms.Tensor([3.0])
        >>> dist.all_reduce(x, op="max", async_op=True).wait()
        >>> print(x)
        [3.]
    """
    tensor = _tensor("all_reduce", "tensor", tensor)
    _put("all_reduce", tensor, _ops.AllReduce(op, _group(group))(tensor))
    return _done(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Gather every rank's ``tensor`` into ``tensor_list`` (one entry per rank, in order).

    Raises:
        TypeError: If ``tensor`` is not a Tensor or ``tensor_list`` not a list of them.
        ValueError: If ``tensor_list`` does not hold one tensor per rank of ``tensor``'s shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> out = [ms.Tensor([0.0, 0.0])]
        >>> dist.all_gather(out, ms.Tensor([1.0, 2.0]))
        >>> print(out[0])
        [1. 2.]
    """
    tensor = _tensor("all_gather", "tensor", tensor)
    if not isinstance(tensor_list, list):
        raise TypeError(
            f"For 'mint.distributed.all_gather', 'tensor_list' must be a list of Tensors, but "
            f"got {type(tensor_list).__name__}."
        )
    size = get_world_size(group)
    if len(tensor_list) != size:
        raise ValueError(
            f"For 'mint.distributed.all_gather', 'tensor_list' must hold {size} tensors (one "
            f"per rank), but got {len(tensor_list)}."
        )
    gathered = _ops.AllGather(_group(group))(tensor.reshape((1,) + tuple(tensor.shape)))
    for index, target in enumerate(tensor_list):
        _put("all_gather", _tensor("all_gather", "tensor_list", target), gathered[index])
    return _done(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Concatenate every rank's ``input_tensor`` on dimension 0 into ``output_tensor``.

    Raises:
        TypeError: If an argument is not a Tensor.
        ValueError: If ``output_tensor`` does not have the gathered shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.all_gather_into_tensor(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]
    """
    output_tensor = _tensor("all_gather_into_tensor", "output_tensor", output_tensor)
    input_tensor = _tensor("all_gather_into_tensor", "input_tensor", input_tensor)
    _put("all_gather_into_tensor", output_tensor, _ops.AllGather(_group(group))(input_tensor))
    return _done(async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    """Reduce every rank's ``input`` and give rank ``i`` block ``i`` of dimension 0.

    Raises:
        TypeError: If an argument is not a Tensor.
        ValueError: If ``output`` does not have the block's shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.reduce_scatter_tensor(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]
    """
    output = _tensor("reduce_scatter_tensor", "output", output)
    input = _tensor("reduce_scatter_tensor", "input", input)
    _put("reduce_scatter_tensor", output, _ops.ReduceScatter(op, _group(group))(input))
    return _done(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """Give every rank rank ``src``'s ``tensor`` (in place).

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> x = ms.Tensor([5.0])
        >>> dist.broadcast(x, 0)
        >>> print(x)
        [5.]
    """
    tensor = _tensor("broadcast", "tensor", tensor)
    _put("broadcast", tensor, _ops.Broadcast(src, _group(group))((tensor,))[0])
    return _done(async_op)


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks into rank ``dst``'s ``tensor``; the others keep
    theirs.

    Examples:
        >>> import cellax as ms
        >>> from cellax.mint import distributed as dist
        >>> x = ms.Tensor([2.0])
        >>> dist.reduce(x, 0)
        >>> print(x)
        [2.]
    """
    tensor = _tensor("reduce", "tensor", tensor)
    result = _ops.AllReduce(op, _group(group))(tensor)
    if get_rank() == dst:
        _put("reduce", tensor, result)
    return _done(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank reaches this point.

    Examples:
        >>> from cellax.mint import distributed as dist
        >>> dist.barrier()
    """
    _ops.Barrier(_group(group))()
    return _done(async_op)


def _unavailable(name: str):
    def call(*args, **kwargs):
        raise NotImplementedError(
            f"For 'mint.distributed.{name}', point-to-point, object and uneven collectives are "
            f"not mapped in cellax, but it was called. Use all_reduce, all_gather, broadcast, "
            f"... of mint.distributed, or the cellax.ops collectives inside jax.shard_map."
        )

    call.__name__ = call.__qualname__ = name
    call._cellax_unavailable = True  # docs/gen_mint_coverage.py lists these
    call.__doc__ = (
        f"MindSpore's ``mint.distributed.{name}``; raises NotImplementedError in cellax.\n\n"
        f"    Raises:\n        NotImplementedError: Always (not mapped onto JAX).\n"
    )
    return call


P2POp = _unavailable("P2POp")
TCPStore = _unavailable("TCPStore")
all_gather_into_tensor_uneven = _unavailable("all_gather_into_tensor_uneven")
all_gather_object = _unavailable("all_gather_object")
all_to_all = _unavailable("all_to_all")
all_to_all_single = _unavailable("all_to_all_single")
batch_isend_irecv = _unavailable("batch_isend_irecv")
broadcast_object_list = _unavailable("broadcast_object_list")
gather = _unavailable("gather")
gather_object = _unavailable("gather_object")
irecv = _unavailable("irecv")
isend = _unavailable("isend")
recv = _unavailable("recv")
recv_object_list = _unavailable("recv_object_list")
reduce_scatter = _unavailable("reduce_scatter")
reduce_scatter_tensor_uneven = _unavailable("reduce_scatter_tensor_uneven")
scatter = _unavailable("scatter")
scatter_object_list = _unavailable("scatter_object_list")
send = _unavailable("send")
send_object_list = _unavailable("send_object_list")
