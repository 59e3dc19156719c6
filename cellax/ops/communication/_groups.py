"""Process groups of ``cellax.ops.communication``: init, ranks, groups, and the helpers
the collectives share."""

from __future__ import annotations

from ... import _parallel_state
from ... import communication as _comm
from ..._tensor import Tensor

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
