"""Collective communication: AllReduce, AllGather, ReduceScatter, Broadcast, AlltoAll, Barrier.

Where a collective runs decides what it means (docs/distributed.md):

* inside a per-rank program (``jax.shard_map`` over a mesh whose axis is the group: the world
  group is the ``'data'`` axis; a mesh axis name may also be given as ``group``): each device
  is a rank and the op is the matching ``jax.lax`` collective (``psum``, ``all_gather``...).
  A compiled step under DATA_PARALLEL over several processes is such a program too: each
  process is a rank (``_parallel_state.per_rank``);
* eagerly with several processes: a process is a rank, the values travel with
  ``multihost_utils.process_allgather`` (mindcv's ``AllReduce()(Tensor(count))``);
* anywhere else (one rank, or JAX's global view inside ``jit``): every rank holds the same
  value, so SUM is ``x * n``, AVG/MAX/MIN are ``x``, PROD is ``x ** n``, AllGather stacks
  ``n`` copies and Broadcast returns its input; ReduceScatter and AlltoAll, whose results
  differ per rank, raise there unless ``n`` is 1.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from ... import _core, _parallel_state
from ..._tensor import unwrap, wrap
from .primitive import Primitive

__all__ = [
    "ReduceOp",
    "AllReduce",
    "AllGather",
    "ReduceScatter",
    "Broadcast",
    "AlltoAll",
    "Barrier",
]

_WORLD = "hccl_world_group"


class ReduceOp:
    """Reduction kinds of the collectives (``mindspore.ops.ReduceOp``).

    Examples:
        >>> from cellax.ops import ReduceOp
        >>> ReduceOp.SUM
        'sum'
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD, ReduceOp.AVG)


def _axis(group: str):
    """The bound mesh axis a group maps to inside shard_map, or None outside one."""
    return _parallel_state.collective_axis(group)


def _eager_multi() -> bool:
    return _parallel_state.world_size() > 1 and _core.current_frame() is None


def _gather_processes(x):
    from jax.experimental import multihost_utils

    return jnp.asarray(multihost_utils.process_allgather(x))


def _check_group(api: str, group) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', 'group' must be a str, but got {type(group).__name__}.")
    return group


class AllReduce(Primitive):
    """Reduce a tensor over the ranks of ``group``; every rank gets the result.

    Args:
        op (str): ``ReduceOp.SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG``. Default: ``"sum"``.
        group (str): The group. Default: ``"hccl_world_group"``.

    Inputs:
        - **input_x** (Tensor) - This rank's tensor.

    Outputs:
        Tensor, same shape and dtype.

    Raises:
        TypeError: If ``op`` or ``group`` is not a str.
        ValueError: If ``op`` is unknown.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.AllReduce()(ms.Tensor([1.0, 2.0])))
        [1. 2.]

    Differences from MindSpore: see the module docstring for where it reduces over devices
    and where over processes.
    """

    def __init__(self, op=ReduceOp.SUM, group=_WORLD) -> None:
        super().__init__("AllReduce")
        if not isinstance(op, str):
            raise TypeError(f"For 'AllReduce', the 'op' must be str, but got {type(op).__name__}.")
        if op not in _OPS:
            raise ValueError(f"For 'AllReduce', 'op' must be one of {_OPS}, but got {op!r}.")
        self.add_prim_attr("op", op)
        self.add_prim_attr("group", _check_group("AllReduce", group))

    def __call__(self, x):
        x, op = unwrap(x), self.attrs["op"]
        axis = _axis(self.attrs["group"])
        if axis is not None:
            if op == ReduceOp.PROD:
                return wrap(jnp.prod(lax.all_gather(x, axis), axis=0))
            reduce = {"sum": lax.psum, "max": lax.pmax, "min": lax.pmin, "avg": lax.pmean}[op]
            return wrap(reduce(x, axis))
        if _eager_multi():
            every = _gather_processes(x)
            reduce = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min, "prod": jnp.prod}
            out = jnp.mean(every, 0) if op == ReduceOp.AVG else reduce[op](every, 0)
            return wrap(out.astype(x.dtype))
        n = _parallel_state.world_size()
        if op == ReduceOp.SUM:
            return wrap(x * n if n > 1 else x)
        if op == ReduceOp.PROD:
            return wrap(x**n if n > 1 else x)
        return wrap(x)


class AllGather(Primitive):
    """Concatenate the ranks' tensors on dimension 0 (rank order).

    Args:
        group (str): The group. Default: ``"hccl_world_group"``.

    Inputs:
        - **input_x** (Tensor) - This rank's tensor, shape ``(x1, ...)``.

    Outputs:
        Tensor of shape ``(n * x1, ...)`` for ``n`` ranks.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.AllGather()(ms.Tensor([[1.0, 2.0]])).shape)
        (1, 2)
    """

    def __init__(self, group=_WORLD) -> None:
        super().__init__("AllGather")
        self.add_prim_attr("group", _check_group("AllGather", group))

    def __call__(self, x):
        x = unwrap(x)
        axis = _axis(self.attrs["group"])
        if axis is not None:
            return wrap(lax.all_gather(x, axis, axis=0, tiled=True))
        if _eager_multi():
            every = _gather_processes(x)
            return wrap(every.reshape((-1,) + tuple(x.shape[1:])))
        n = _parallel_state.world_size()
        return wrap(jnp.concatenate([x] * n, 0) if n > 1 else x)


def _per_rank_only(api: str):
    if _parallel_state.world_size() > 1:
        raise ValueError(
            f"For '{api}', each rank gets a different result, which JAX's global view (one "
            f"program for all ranks) can not express. Call it inside jax.shard_map over the "
            f"mesh, or eagerly."
        )


class ReduceScatter(Primitive):
    """Reduce the ranks' tensors, then give rank ``i`` the ``i``-th block of dimension 0.

    Args:
        op (str): The reduction (``ReduceOp``). Default: ``"sum"``.
        group (str): The group. Default: ``"hccl_world_group"``.

    Inputs:
        - **input_x** (Tensor) - Shape ``(n * x1, ...)`` for ``n`` ranks.

    Outputs:
        Tensor of shape ``(x1, ...)``.

    Raises:
        ValueError: If ``op`` is unknown, or outside a per-rank program with several ranks.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.ReduceScatter()(ms.Tensor([1.0, 2.0])))
        [1. 2.]
    """

    def __init__(self, op=ReduceOp.SUM, group=_WORLD) -> None:
        super().__init__("ReduceScatter")
        if op not in _OPS:
            raise ValueError(f"For 'ReduceScatter', 'op' must be one of {_OPS}, but got {op!r}.")
        self.add_prim_attr("op", op)
        self.add_prim_attr("group", _check_group("ReduceScatter", group))

    def __call__(self, x):
        x, op = unwrap(x), self.attrs["op"]
        axis = _axis(self.attrs["group"])
        if axis is not None:
            if op in (ReduceOp.SUM, ReduceOp.AVG):
                out = lax.psum_scatter(x, axis, scatter_dimension=0, tiled=True)
                return wrap(out / lax.axis_size(axis) if op == ReduceOp.AVG else out)
            reduced = AllReduce(op, axis)(wrap(x))._value
            size = x.shape[0] // lax.axis_size(axis)
            start = lax.axis_index(axis) * size
            return wrap(lax.dynamic_slice_in_dim(reduced, start, size, 0))
        if _eager_multi():
            every = _gather_processes(x)
            reduce = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min, "prod": jnp.prod}
            out = jnp.mean(every, 0) if op == ReduceOp.AVG else reduce[op](every, 0)
            n, rank = _parallel_state.world_size(), _parallel_state.world_rank()
            size = x.shape[0] // n
            return wrap(out[rank * size : (rank + 1) * size].astype(x.dtype))
        _per_rank_only("ReduceScatter")
        return wrap(x)


class Broadcast(Primitive):
    """Send rank ``root_rank``'s tensors to every rank of ``group``.

    Args:
        root_rank (int): The sending rank.
        group (str): The group. Default: ``"hccl_world_group"``.

    Inputs:
        - **input_x** (tuple[Tensor]) - The tensors.

    Outputs:
        tuple[Tensor], the root's tensors.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.Broadcast(0)((ms.Tensor([1.0]),))[0])
        [1.]
    """

    def __init__(self, root_rank, group=_WORLD) -> None:
        super().__init__("Broadcast")
        if not isinstance(root_rank, int) or isinstance(root_rank, bool) or root_rank < 0:
            raise TypeError(
                f"For 'Broadcast', 'root_rank' must be an int >= 0, but got {root_rank!r}."
            )
        self.add_prim_attr("root_rank", root_rank)
        self.add_prim_attr("group", _check_group("Broadcast", group))

    def __call__(self, inputs):
        single = not isinstance(inputs, (tuple, list))
        values = [unwrap(x) for x in ((inputs,) if single else inputs)]
        root = self.attrs["root_rank"]
        axis = _axis(self.attrs["group"])
        if axis is not None:
            index = lax.axis_index(axis)
            out = [lax.psum(jnp.where(index == root, v, jnp.zeros_like(v)), axis) for v in values]
        elif _eager_multi():
            out = [_gather_processes(v)[root] for v in values]
        else:
            out = values
        out = tuple(wrap(v) for v in out)
        return out[0] if single else out


class AlltoAll(Primitive):
    """Split dimension ``split_dim`` into ``split_count`` blocks, send block ``j`` to rank
    ``j``, and concatenate the received blocks on ``concat_dim``.

    Args:
        split_count (int): The number of blocks (the group size).
        split_dim (int): The dimension to split.
        concat_dim (int): The dimension to concatenate on.
        group (str): The group. Default: ``"hccl_world_group"``.

    Raises:
        ValueError: Outside a per-rank program with several ranks.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.AlltoAll(1, 0, 1)(ms.Tensor([[1.0, 2.0]])).shape)
        (1, 2)
    """

    def __init__(self, split_count, split_dim, concat_dim, group=_WORLD) -> None:
        super().__init__("AlltoAll")
        self.add_prim_attr("split_count", split_count)
        self.add_prim_attr("split_dim", split_dim)
        self.add_prim_attr("concat_dim", concat_dim)
        self.add_prim_attr("group", _check_group("AlltoAll", group))

    def __call__(self, x):
        x, attrs = unwrap(x), self.attrs
        axis = _axis(attrs["group"])
        if axis is not None:
            if lax.axis_size(axis) != attrs["split_count"]:
                raise ValueError(
                    f"For 'AlltoAll', 'split_count' ({attrs['split_count']}) must equal the "
                    f"group size ({lax.axis_size(axis)})."
                )
            return wrap(
                lax.all_to_all(x, axis, attrs["split_dim"], attrs["concat_dim"], tiled=True)
            )
        _per_rank_only("AlltoAll")
        return wrap(x)


class Barrier(Primitive):
    """Wait until every rank of ``group`` reaches this point (eagerly, across processes).

    Examples:
        >>> from cellax import ops
        >>> ops.Barrier()()
    """

    def __init__(self, group=_WORLD) -> None:
        super().__init__("Barrier")
        self.add_prim_attr("group", _check_group("Barrier", group))

    def __call__(self):
        if _eager_multi():
            from jax.experimental import multihost_utils

            multihost_utils.sync_global_devices("cellax.ops.Barrier")
        return None
