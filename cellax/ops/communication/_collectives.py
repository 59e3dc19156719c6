"""The collectives of ``cellax.ops.communication`` (in place by default)."""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from .._impl import communication
from ._groups import _done, _group, _put, _tensor, get_rank, get_world_size

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
    value = communication.AllReduce(op, _group(group))(tensor)
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
    value = communication.AllGather(_group(group))(input_tensor)
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
    value = communication.ReduceScatter(op, _group(group))(input)
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
    value = communication.ReduceScatter(op, _group(group))(stacked)
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
    value = communication.Broadcast(src, _group(group))((tensor,))[0]
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
    value = communication.AllReduce(op, _group(group))(tensor)
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
    value = communication.AllGather(_group(group))(input_tensor)
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
    every = communication.Broadcast(src, _group(group))((Tensor(stacked),))[0]
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
    every = communication.Broadcast(src, _group(group))((input_tensor,))[0]
    size = every.shape[0] // get_world_size(group)
    start = get_rank(group) * size
    return _finish("scatter_tensor", async_op, [(output_tensor, every[start : start + size])])


def all_to_all_single(
    output, input, output_split_sizes=None, input_split_sizes=None, group=None, async_op=False
):
    """Cut ``input`` on dimension 0 into one block per rank (``input_split_sizes`` rows each,
    default equal), send block ``j`` to rank ``j``, and concatenate the blocks received, in
    rank order, into ``output``.

    Raises:
        TypeError: If an argument is not a Tensor.
        ValueError: If the split sizes do not add up to the input's rows, or ``output`` has
            another shape than the received blocks.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = ms.Tensor([0.0, 0.0])
        >>> dist.all_to_all_single(out, ms.Tensor([1.0, 2.0]))
        >>> print(out)
        [1. 2.]

    Differences from MindSpore: eager (across processes) only; inside a compiled program use
    ``ops.AlltoAll`` within ``jax.shard_map``.
    """
    api = "all_to_all_single"
    output = _tensor(api, "output", output)
    input = _tensor(api, "input", input)
    size, rank = get_world_size(group), get_rank(group)
    rows = input.shape[0] if input.ndim else 0
    splits = [rows // size] * size if input_split_sizes is None else list(input_split_sizes)
    if len(splits) != size or sum(splits) != rows:
        raise ValueError(
            f"For '{api}', 'input_split_sizes' {splits} must give one block per rank ({size}) "
            f"adding up to the input's {rows} rows."
        )
    every_splits = _gathered(Tensor(np.asarray(splits, np.int64)), group)
    width = max(int(np.max(t.asnumpy())) for t in every_splits) * size
    padded = np.zeros((width,) + tuple(input.shape[1:]), np.dtype(input.asnumpy().dtype))
    start = np.cumsum([0] + splits[:-1])
    source = input.asnumpy()
    for j, (begin, count) in enumerate(zip(start, splits)):  # block j at a fixed offset
        block = width // size
        padded[j * block : j * block + count] = source[begin : begin + count]
    every = _gathered(Tensor(padded), group)
    block = width // size
    pieces = [
        every[j].asnumpy()[rank * block : rank * block + int(every_splits[j].asnumpy()[rank])]
        for j in range(size)
    ]
    value = Tensor(np.concatenate(pieces))
    if output_split_sizes is not None and [len(p) for p in pieces] != list(output_split_sizes):
        raise ValueError(
            f"For '{api}', 'output_split_sizes' {list(output_split_sizes)} differ from the "
            f"blocks received {[len(p) for p in pieces]}."
        )
    return _finish_plain(api, async_op, output, value)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Send ``input_tensor_list[j]`` to rank ``j``; ``output_tensor_list[j]`` receives rank
    ``j``'s tensor for this rank.

    Raises:
        TypeError: If the lists do not hold Tensors.
        ValueError: If a list does not hold one tensor per rank.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops import communication as dist
        >>> out = [ms.Tensor([0.0])]
        >>> dist.all_to_all(out, [ms.Tensor([4.0])])
        >>> print(out[0])
        [4.]

    Differences from MindSpore: eager (across processes) only, and the tensors sent to one
    rank must have the same shape on every rank.
    """
    api = "all_to_all"
    size, rank = get_world_size(group), get_rank(group)
    _check_list(api, "input_tensor_list", input_tensor_list, size)
    _check_list(api, "output_tensor_list", output_tensor_list, size)
    received = []
    for target in range(size):  # every rank's tensor for rank `target`
        every = _gathered(input_tensor_list[target], group)
        if target == rank:
            received = every
    for out, value in zip(output_tensor_list, received):
        _put(api, out, value)
    return _done(async_op)


def _finish_plain(api: str, async_op, target, value):
    """In place (the torch-style functions without a set_comm_ops_inplace switch)."""
    _put(api, target, value)
    return _done(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank reaches this point.

    Examples:
        >>> from cellax.ops import communication as dist
        >>> dist.barrier()
    """
    communication.Barrier(_group(group))()
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
    stacked = communication.AllGather(_group(group))(tensor.reshape((1,) + tuple(tensor.shape)))
    return [stacked[i] for i in range(stacked.shape[0])]
