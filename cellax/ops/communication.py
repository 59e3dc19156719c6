"""``cellax.ops.communication``: MindSpore 2.10's torch-style communication functions
(also ``mindspore.mint.distributed``).

The process-group functions run on :mod:`cellax.communication` (processes joined by
``jax.distributed``); the collectives (``all_reduce``, ``all_gather``,
``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``reduce_scatter``, ``broadcast``,
``reduce``, ``gather``, ``gather_into_tensor``, ``scatter``, ``scatter_tensor``,
``barrier``) on the ``cellax.ops`` collective primitives: eagerly across processes, or over
a mesh axis inside ``jax.shard_map``. As in MindSpore they work in place by default
(results written into the given tensors; they return None, or a handle with ``wait()`` when
``async_op=True``; the work is done by then); after ``set_comm_ops_inplace(False)`` they
return ``(result, handle)`` and write nothing. Point-to-point, object and uneven
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

import numpy as np

from .. import _parallel_state
from .. import communication as _comm
from .._tensor import Tensor
from . import _comm as _ops

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
        raise TypeError(f"For '{api}', '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value


def _put(api: str, target: Tensor, value: Tensor) -> None:
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(
            f"For '{api}', the output tensor must have shape "
            f"{tuple(value.shape)}, but got {tuple(target.shape)}."
        )
    target.assign_value(value.astype(target.dtype))


def is_available() -> bool:
    """Whether distributed communication is available: always True (``jax.distributed``).

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.is_available()
        True
    """
    return True


def is_initialized() -> bool:
    """Whether :func:`init_process_group` (or ``communication.init``) ran.

    Examples:
        >>> from cellax.ops import communication as dist
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
        >>> from cellax.ops import communication as dist
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
        >>> from cellax.ops import communication as dist
        >>> dist.destroy_process_group()
    """
    if group is None or group == _WORLD:
        _comm.release()
    else:
        _comm.destroy_group(group)


def get_rank(group=None) -> int:
    """This process's rank in ``group`` (0 before initialisation).

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.get_rank()
        0
    """
    return _comm.get_rank(_group(group))


def get_world_size(group=None) -> int:
    """The number of ranks in ``group`` (1 before initialisation).

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.get_world_size()
        1
    """
    return _comm.get_group_size(_group(group))


def get_backend(group=None) -> str:
    """The backend name given at initialisation (``"hccl"`` by default).

    Examples:
        >>> from cellax.ops import communication as dist
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
        >>> from cellax.ops import communication as dist
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
        >>> from cellax.ops import communication as dist
        >>> dist.init_process_group()
        >>> dist.get_global_rank("hccl_world_group", 0)
        0
    """
    return _comm.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank) -> int:
    """The rank in ``group`` of world rank ``global_rank``.

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.init_process_group()
        >>> dist.get_group_rank("hccl_world_group", 0)
        0
    """
    return _comm.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None) -> list:
    """The world ranks of ``group``.

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.init_process_group()
        >>> dist.get_process_group_ranks()
        [0]
    """
    return _comm.get_process_group_ranks(_group(group))


_COMM_FUNCS = (
    "all_reduce", "all_gather_into_tensor", "all_gather", "reduce_scatter_tensor",
    "reduce_scatter", "broadcast", "reduce", "gather", "gather_into_tensor", "scatter",
    "scatter_tensor",
)  # fmt: skip
_INPLACE = dict.fromkeys(_COMM_FUNCS, True)


def set_comm_ops_inplace(is_enable, func_list=None) -> None:
    """Whether the collectives write their results into the given tensors (the default) or
    return ``(result, handle)`` and write nothing.

    Args:
        is_enable (bool): In place or not.
        func_list (list[str]): The functions to set. Default: ``None`` (all of them).

    Raises:
        TypeError: If ``is_enable`` is not a bool or ``func_list`` not a list.
        ValueError: If ``func_list`` names an unknown function.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> dist.set_comm_ops_inplace(False, ["all_reduce"])
        >>> out, handle = dist.all_reduce(ms.Tensor([1.0]))
        >>> print(out, handle)
        [1.] None
        >>> dist.set_comm_ops_inplace(True)
    """
    if not isinstance(is_enable, bool):
        raise TypeError(
            "For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, but got "
            f"'is_enable' type : {type(is_enable)}."
        )
    if func_list is not None and not isinstance(func_list, list):
        raise TypeError(
            "For 'set_comm_ops_inplace', the argument 'func_list' must be None or a list, but "
            f"got {type(func_list)}."
        )
    for name in func_list if func_list is not None else _COMM_FUNCS:
        if name not in _INPLACE:
            raise ValueError(
                f"For 'set_comm_ops_inplace', '{name}' is not a communication function; "
                f"choose from {list(_COMM_FUNCS)}."
            )
        _INPLACE[name] = is_enable


def _finish(api: str, async_op, writes):
    """In place: write each (target, value) of ``writes`` and return the handle; otherwise
    return (the value, or the list of values, handle)."""
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    if _INPLACE[api]:
        for target, value in writes:
            if target is not None:
                _put(api, target, value)
        return _done(async_op)
    values = [value for _, value in writes]
    return (values[0] if len(values) == 1 else values), _done(async_op)


def all_reduce(tensor, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks; every rank receives the result.

    Args:
        tensor (Tensor): This rank's tensor; overwritten with the result (in place).
        op (str): ``"sum"``, ``"max"``, ``"min"``, ``"prod"`` or ``"avg"``. Default: ``"sum"``.
        group (str): The group. Default: ``None`` (the world).
        async_op (bool): Return a handle to wait on. Default: ``False``.

    Returns:
        In place: a handle with ``wait()`` if ``async_op``, else None. Otherwise
        ``(result, handle)``.

    Raises:
        TypeError: If ``tensor`` is not a Tensor, ``op`` not a str or ``async_op`` no bool.
        ValueError: If ``op`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> x = ms.Tensor([3.0])
        >>> dist.all_reduce(x, op="max", async_op=True).wait()
        >>> print(x)
        [3.]
    """
    tensor = _tensor("all_reduce", "tensor", tensor)
    value = _ops.AllReduce(op, _group(group))(tensor)
    return _finish("all_reduce", async_op, [(tensor, value)])


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Gather every rank's ``tensor`` into ``tensor_list`` (one entry per rank, in order).

    Raises:
        TypeError: If ``tensor`` is not a Tensor or ``tensor_list`` not a list of them.
        ValueError: If ``tensor_list`` does not hold one tensor per rank of ``tensor``'s shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = [ms.Tensor([0.0, 0.0])]
        >>> dist.all_gather(out, ms.Tensor([1.0, 2.0]))
        >>> print(out[0])
        [1. 2.]
    """
    tensor = _tensor("all_gather", "tensor", tensor)
    _check_list("all_gather", "tensor_list", tensor_list, get_world_size(group))
    gathered = _gathered(tensor, group)
    return _finish("all_gather", async_op, list(zip(tensor_list, gathered)))


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Concatenate every rank's ``input_tensor`` on dimension 0 into ``output_tensor``.

    Raises:
        TypeError: If an argument is not a Tensor.
        ValueError: If ``output_tensor`` does not have the gathered shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.all_gather_into_tensor(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]
    """
    output_tensor = _tensor("all_gather_into_tensor", "output_tensor", output_tensor)
    input_tensor = _tensor("all_gather_into_tensor", "input_tensor", input_tensor)
    value = _ops.AllGather(_group(group))(input_tensor)
    return _finish("all_gather_into_tensor", async_op, [(output_tensor, value)])


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    """Reduce every rank's ``input`` and give rank ``i`` block ``i`` of dimension 0.

    Raises:
        TypeError: If an argument is not a Tensor.
        ValueError: If ``output`` does not have the block's shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.reduce_scatter_tensor(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]
    """
    output = _tensor("reduce_scatter_tensor", "output", output)
    input = _tensor("reduce_scatter_tensor", "input", input)
    value = _ops.ReduceScatter(op, _group(group))(input)
    return _finish("reduce_scatter_tensor", async_op, [(output, value)])


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """Reduce every rank's ``input_list`` (one tensor per rank) and give rank ``i`` the
    reduced entry ``i``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0])
        >>> dist.reduce_scatter(out, [ms.Tensor([4.0])])
        >>> print(out)
        [4.]
    """
    output = _tensor("reduce_scatter", "output", output)
    _check_list("reduce_scatter", "input_list", input_list, get_world_size(group))
    stacked = Tensor(np.concatenate([np.asarray(t.asnumpy()) for t in input_list]))
    value = _ops.ReduceScatter(op, _group(group))(stacked)
    return _finish("reduce_scatter", async_op, [(output, value)])


def broadcast(tensor, src, group=None, async_op=False):
    """Give every rank rank ``src``'s ``tensor``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> x = ms.Tensor([5.0])
        >>> dist.broadcast(x, 0)
        >>> print(x)
        [5.]
    """
    tensor = _tensor("broadcast", "tensor", tensor)
    value = _ops.Broadcast(src, _group(group))((tensor,))[0]
    return _finish("broadcast", async_op, [(tensor, value)])


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """Reduce ``tensor`` over the ranks into rank ``dst``'s ``tensor``; the others keep
    theirs.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> x = ms.Tensor([2.0])
        >>> dist.reduce(x, 0)
        >>> print(x)
        [2.]
    """
    tensor = _tensor("reduce", "tensor", tensor)
    value = _ops.AllReduce(op, _group(group))(tensor)
    target = tensor if get_rank() == dst else None
    return _finish("reduce", async_op, [(target, value if target is not None else tensor)])


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """Collect every rank's ``tensor`` into rank ``dst``'s ``gather_list``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = [ms.Tensor([0.0])]
        >>> dist.gather(ms.Tensor([7.0]), out)
        >>> print(out[0])
        [7.]
    """
    tensor = _tensor("gather", "tensor", tensor)
    gathered = _gathered(tensor, group)
    if get_rank() != dst:
        return _finish("gather", async_op, [(None, g) for g in gathered])
    _check_list("gather", "gather_list", gather_list, get_world_size(group))
    return _finish("gather", async_op, list(zip(gather_list, gathered)))


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """Concatenate every rank's ``input_tensor`` on dimension 0 into rank ``dst``'s
    ``output_tensor``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0])
        >>> dist.gather_into_tensor(out, ms.Tensor([7.0]))
        >>> print(out)
        [7.]
    """
    input_tensor = _tensor("gather_into_tensor", "input_tensor", input_tensor)
    value = _ops.AllGather(_group(group))(input_tensor)
    target = output_tensor if get_rank() == dst else None
    if target is not None:
        _tensor("gather_into_tensor", "output_tensor", target)
    return _finish("gather_into_tensor", async_op, [(target, value)])


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """Give rank ``i`` entry ``i`` of rank ``src``'s ``scatter_list``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0])
        >>> dist.scatter(out, [ms.Tensor([3.0])])
        >>> print(out)
        [3.]
    """
    tensor = _tensor("scatter", "tensor", tensor)
    size = get_world_size(group)
    if get_rank() == src:
        _check_list("scatter", "scatter_list", scatter_list, size)
        stacked = np.stack([np.asarray(t.asnumpy()) for t in scatter_list])
    else:
        stacked = np.zeros((size,) + tuple(tensor.shape), np.dtype(tensor.asnumpy().dtype))
    every = _ops.Broadcast(src, _group(group))((Tensor(stacked),))[0]
    return _finish("scatter", async_op, [(tensor, every[get_rank(group)])])


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """Give rank ``i`` block ``i`` (dimension 0) of rank ``src``'s ``input_tensor``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.scatter_tensor(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]
    """
    output_tensor = _tensor("scatter_tensor", "output_tensor", output_tensor)
    input_tensor = _tensor("scatter_tensor", "input_tensor", input_tensor)
    every = _ops.Broadcast(src, _group(group))((input_tensor,))[0]
    size = every.shape[0] // get_world_size(group)
    start = get_rank(group) * size
    return _finish("scatter_tensor", async_op, [(output_tensor, every[start : start + size])])


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank reaches this point.

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.barrier()
    """
    _ops.Barrier(_group(group))()
    return _done(async_op)


def _check_list(api: str, name: str, tensors, size: int) -> None:
    if not isinstance(tensors, list) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"For '{api}', '{name}' must be a list of Tensors, but got {tensors!r}.")
    if len(tensors) != size:
        raise ValueError(
            f"For '{api}', '{name}' must hold {size} tensors (one per rank), but got "
            f"{len(tensors)}."
        )


def _gathered(tensor, group) -> list:
    """Every rank's ``tensor``, in rank order."""
    stacked = _ops.AllGather(_group(group))(tensor.reshape((1,) + tuple(tensor.shape)))
    return [stacked[i] for i in range(stacked.shape[0])]


def _unavailable(name: str):
    def call(*args, **kwargs):
        raise NotImplementedError(
            f"For '{name}', point-to-point, object and uneven collectives are "
            f"not mapped in cellax, but it was called. Use all_reduce, all_gather, broadcast, "
            f"... of ops.communication, or the cellax.ops collectives inside jax.shard_map."
        )

    call.__name__ = call.__qualname__ = name
    call._cellax_unavailable = True  # docs/gen_mint_coverage.py lists these
    call.__doc__ = (
        f"MindSpore's ``{name}``; raises NotImplementedError in cellax.\n\n"
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
