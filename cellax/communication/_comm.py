"""init, ranks and groups: MindSpore's communication API on ``jax.distributed``."""

from __future__ import annotations

import os
import sys

from .. import _parallel_state

__all__ = [
    "GlobalComm",
    "HCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP",
    "init",
    "release",
    "get_rank",
    "get_group_size",
    "get_local_rank",
    "get_local_rank_size",
    "create_group",
    "destroy_group",
    "get_comm_name",
    "get_process_group_ranks",
    "get_group_rank_from_world_rank",
    "get_world_rank_from_group_rank",
]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_NOT_INITED = (
    "Distributed Communication has not been inited.You can't invoke this interface yet. "
    "Please call `init()` method first."
)


class GlobalComm:
    """The world group's name and whether :func:`init` ran (MindSpore's ``GlobalComm``).

    Examples:
        >>> from cellax.communication import GlobalComm
        >>> GlobalComm.WORLD_COMM_GROUP
        'hccl_world_group'
    """

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def _env_int(name: str):
    value = os.environ.get(name)
    return None if value in (None, "") else int(value)


def _initialize(**kwargs) -> None:
    import jax

    try:
        jax.distributed.initialize(**kwargs)
    except RuntimeError as error:
        if "before any JAX" in str(error) or "backend" in str(error):
            raise RuntimeError(
                "For 'init', it must be called before any computation (a Tensor operation, "
                "set_seed's first draw, jax.devices()) starts the XLA backend, but the backend "
                "is already running. Call init() right after set_context/"
                "set_auto_parallel_context."
            ) from error
        raise


def _init_msrun(workers: int) -> None:
    rank = _env_int("RANK_ID")
    if rank is None:
        rank = _env_int("MS_NODE_ID")
    if rank is None:
        raise RuntimeError(
            "For 'init', the process's rank is unknown: msrun exported MS_WORKER_NUM but "
            "neither RANK_ID nor MS_NODE_ID. Launch with --node_rank on every node (or use "
            "python -m cellax.launch)."
        )
    host = os.environ.get("MS_SCHED_HOST", "127.0.0.1")
    # msrun's scheduler owns MS_SCHED_PORT: JAX's coordinator listens on the next port
    port = int(os.environ.get("MS_SCHED_PORT", "8118")) + 1
    timeout = _env_int("MS_TOPO_TIMEOUT") or 600
    _initialize(
        coordinator_address=f"{host}:{port}",
        num_processes=workers,
        process_id=rank,
        initialization_timeout=max(timeout, 1),
    )


def _cluster_env() -> bool:
    """OpenMPI (<= 4), SLURM or Kubernetes: JAX detects the cluster itself."""
    for name in ("OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE"):
        size = _env_int(name)
        if size is not None and size > 1:
            return True
    return False


def init(backend_name=None) -> None:
    """Join the processes of a distributed job (``mindspore.communication.init``).

    The cluster comes from the environment, in this order: msrun's scheduler role
    (``MS_ROLE=MS_SCHED``: nothing to do in JAX, the process exits 0); msrun's or
    ``cellax.launch``'s variables (``MS_WORKER_NUM``, ``RANK_ID``/``MS_NODE_ID``,
    ``MS_SCHED_HOST``, ``MS_SCHED_PORT``; JAX's coordinator uses ``MS_SCHED_PORT + 1``);
    OpenMPI ``mpirun`` or SLURM (detected by ``jax.distributed``). Otherwise the job has one
    process and nothing is called.

    Args:
        backend_name (str): ``"hccl"``, ``"nccl"`` or ``"mccl"``; JAX picks its own
            collectives (gloo on CPU, NCCL on GPU). Default: ``None``.

    Raises:
        TypeError: If ``backend_name`` is not a str or None.
        RuntimeError: If the XLA backend already runs (init must come before any
            computation), or msrun gave no rank.

    Examples:
        >>> from cellax.communication import init, get_rank
        >>> init()
        >>> get_rank()
        0

    Differences from MindSpore: without a launcher, ``init()`` is a no-op (one process)
    instead of a RuntimeError.
    """
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(
            f"For 'init', the argument 'backend_name' must be a str or None, but got "
            f"{type(backend_name).__name__}."
        )
    if os.environ.get("MS_ROLE") == "MS_SCHED":
        print("cellax: msrun scheduler process; JAX needs none, exiting.", flush=True)
        sys.exit(0)
    if not _parallel_state.COMM.inited:
        workers = _env_int("MS_WORKER_NUM")
        if workers is not None and workers > 1:
            _init_msrun(workers)
        elif workers is None and _cluster_env():
            _initialize()
    _parallel_state.COMM.inited = True
    GlobalComm.INITED = True
    if backend_name is not None:
        GlobalComm.BACKEND = backend_name


def release() -> None:
    """Leave the distributed job (``jax.distributed.shutdown``).

    Examples:
        >>> from cellax.communication import release
        >>> release()
    """
    import jax

    if _parallel_state.COMM.inited:
        jax.distributed.shutdown()
    _parallel_state.COMM.inited = False
    _parallel_state.COMM.groups.clear()
    GlobalComm.INITED = False


def _check_group(api: str, group) -> tuple:
    if not isinstance(group, str):
        raise TypeError(
            f"For '{api}', the argument 'group' must be a str, but got {type(group).__name__}."
        )
    if group in _WORLD_NAMES:
        return tuple(range(_world_size()))
    ranks = _parallel_state.COMM.groups.get(group)
    if ranks is None:
        raise ValueError(
            f"For '{api}', the group '{group}' does not exist: create it with create_group "
            f"first, or use the world group '{GlobalComm.WORLD_COMM_GROUP}'."
        )
    return ranks


_world_size = _parallel_state.world_size
_world_rank = _parallel_state.world_rank


def get_rank(group=GlobalComm.WORLD_COMM_GROUP) -> int:
    """The rank of this process in ``group`` (``jax.process_index()``; 0 before init).

    Args:
        group (str): The group. Default: ``GlobalComm.WORLD_COMM_GROUP``.

    Returns:
        int, the rank.

    Raises:
        TypeError: If ``group`` is not a str.
        ValueError: If the group does not exist.

    Examples:
        >>> from cellax.communication import get_rank
        >>> get_rank()
        0
    """
    ranks = _check_group("get_rank", group)
    return ranks.index(_world_rank()) if _world_rank() in ranks else -1


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks in ``group`` (``jax.process_count()``; 1 before init).

    Args:
        group (str): The group. Default: ``GlobalComm.WORLD_COMM_GROUP``.

    Returns:
        int, the size.

    Raises:
        TypeError: If ``group`` is not a str.
        ValueError: If the group does not exist.

    Examples:
        >>> from cellax.communication import get_group_size
        >>> get_group_size()
        1
    """
    return len(_check_group("get_group_size", group))


def _local_env(names) -> int | None:
    for name in names:
        value = _env_int(name)
        if value is not None:
            return value
    return None


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP) -> int:
    """The rank of this process among those on its host.

    From the launcher's environment (``DEVICE_ID`` of msrun/cellax.launch,
    ``OMPI_COMM_WORLD_LOCAL_RANK``, ``SLURM_LOCALID``); 0 for one process.

    Examples:
        >>> from cellax.communication import get_local_rank
        >>> get_local_rank()
        0
    """
    _check_group("get_local_rank", group)
    if _world_size() == 1:
        return 0
    local = _local_env(("OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "DEVICE_ID"))
    return _world_rank() if local is None else local


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of processes on this host (``MS_LOCAL_WORKER_NUM`` of cellax.launch,
    ``OMPI_COMM_WORLD_LOCAL_SIZE``, ``SLURM_NTASKS_PER_NODE``; else the group size).

    Examples:
        >>> from cellax.communication import get_local_rank_size
        >>> get_local_rank_size()
        1
    """
    _check_group("get_local_rank_size", group)
    if _world_size() == 1:
        return 1
    names = ("OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE", "MS_LOCAL_WORKER_NUM")
    local = _local_env(names)
    return _world_size() if local is None else local


def _require_init(api: str) -> None:
    if not _parallel_state.COMM.inited:
        raise RuntimeError(_NOT_INITED)


def create_group(group, rank_ids, options=None) -> None:
    """Create a named group of ranks (``mindspore.communication.create_group``).

    Args:
        group (str): The name.
        rank_ids (list[int]): The world ranks of the group, each once.
        options: Backend options; accepted and ignored.

    Raises:
        RuntimeError: Before :func:`init`.
        TypeError: If ``group`` is not a str or ``rank_ids`` not a list/tuple of ints.
        ValueError: If ``group`` is a world group name, a rank repeats or is out of range, or
            the ranks are not the whole world.

    Examples:
        >>> from cellax.communication import create_group, get_group_size, init
        >>> init()
        >>> create_group("all", [0])
        >>> get_group_size("all")
        1

    Differences from MindSpore: a group maps to a mesh axis; only the group of every rank
    is supported (an arbitrary subset of ranks is no mesh axis and raises).
    """
    _require_init("create_group")
    if not isinstance(group, str):
        raise TypeError(
            f"For 'create_group', the argument 'group' must be a str, but got "
            f"{type(group).__name__}."
        )
    if group in _WORLD_NAMES:
        raise ValueError(f"For 'create_group', the group name '{group}' is reserved.")
    if not isinstance(rank_ids, (list, tuple)) or not all(
        isinstance(r, int) and not isinstance(r, bool) for r in rank_ids
    ):
        raise TypeError(
            f"For 'create_group', 'rank_ids' must be a list of ints, but got {rank_ids!r}."
        )
    size = _world_size()
    if len(set(rank_ids)) != len(rank_ids) or any(not 0 <= r < size for r in rank_ids):
        raise ValueError(
            f"For 'create_group', 'rank_ids' must be distinct ranks in [0, {size}), but got "
            f"{list(rank_ids)}."
        )
    if sorted(rank_ids) != list(range(size)):
        raise ValueError(
            f"For 'create_group', cellax maps a group onto a mesh axis and supports only the "
            f"group of all {size} ranks, but got {list(rank_ids)}. Use the world group, or "
            f"shard with parallel.Layout to name sub-axes."
        )
    _parallel_state.COMM.groups[group] = tuple(sorted(rank_ids))


def destroy_group(group) -> None:
    """Remove a group made by :func:`create_group`.

    Raises:
        RuntimeError: Before :func:`init`.
        ValueError: For a world group or an unknown group.

    Examples:
        >>> from cellax.communication import create_group, destroy_group, init
        >>> init()
        >>> create_group("tmp", [0])
        >>> destroy_group("tmp")
    """
    _require_init("destroy_group")
    if group in _WORLD_NAMES or group not in _parallel_state.COMM.groups:
        raise ValueError(f"For 'destroy_group', the group '{group}' can not be destroyed.")
    del _parallel_state.COMM.groups[group]


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP) -> str:
    """The communicator name of ``group`` (its name in cellax).

    Examples:
        >>> from cellax.communication import get_comm_name, init
        >>> init()
        >>> get_comm_name()
        'hccl_world_group'
    """
    _require_init("get_comm_name")
    _check_group("get_comm_name", group)
    return group


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP) -> list:
    """The world ranks of ``group``.

    Examples:
        >>> from cellax.communication import get_process_group_ranks, init
        >>> init()
        >>> get_process_group_ranks()
        [0]
    """
    _require_init("get_process_group_ranks")
    return list(_check_group("get_process_group_ranks", group))


def get_group_rank_from_world_rank(world_rank_id, group) -> int:
    """The rank inside ``group`` of world rank ``world_rank_id``.

    Raises:
        ValueError: If the rank is not in the group.

    Examples:
        >>> from cellax.communication import get_group_rank_from_world_rank, init
        >>> init()
        >>> get_group_rank_from_world_rank(0, "hccl_world_group")
        0
    """
    ranks = _check_group("get_group_rank_from_world_rank", group)
    if world_rank_id not in ranks:
        raise ValueError(
            f"For 'get_group_rank_from_world_rank', rank {world_rank_id} is not in group '{group}'."
        )
    return ranks.index(world_rank_id)


def get_world_rank_from_group_rank(group, group_rank_id) -> int:
    """The world rank of rank ``group_rank_id`` of ``group``.

    Raises:
        ValueError: If the group has no such rank.

    Examples:
        >>> from cellax.communication import get_world_rank_from_group_rank, init
        >>> init()
        >>> get_world_rank_from_group_rank("hccl_world_group", 0)
        0
    """
    ranks = _check_group("get_world_rank_from_group_rank", group)
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(
            f"For 'get_world_rank_from_group_rank', group '{group}' has no rank {group_rank_id}."
        )
    return ranks[group_rank_id]
