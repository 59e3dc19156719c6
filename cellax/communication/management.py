"""``mindspore.communication.management``: the module path older scripts import ranks and
groups from (``from mindspore.communication.management import init, get_rank``); the same
functions as :mod:`cellax.communication`.

Examples:
    >>> from cellax.communication.management import get_group_size, get_rank, init
    >>> init()
    >>> get_rank(), get_group_size()
    (0, 1)
"""

from __future__ import annotations

from .. import _parallel_state
from ._comm import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    create_group,
    destroy_group,
    get_comm_name,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_process_group_ranks,
    get_rank,
    get_world_rank_from_group_rank,
    init,
    release,
)

__all__ = [
    "GlobalComm",
    "init",
    "release",
    "get_rank",
    "get_group_size",
    "get_local_rank",
    "get_local_rank_size",
    "get_world_rank_from_group_rank",
    "get_group_rank_from_world_rank",
    "create_group",
    "destroy_group",
    "get_comm_name",
    "get_process_group_ranks",
    "is_initialized",
    "HCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP",
    "DEFAULT_WORLD_COMM_GROUP",
]

DEFAULT_WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP


def is_initialized(device_target) -> bool:
    """Whether the job's communication is initialised (:func:`init` ran).

    Args:
        device_target (str): ``"CPU"``, ``"GPU"`` or ``"Ascend"``.

    Raises:
        ValueError: If ``device_target`` is none of them.

    Examples:
        >>> from cellax.communication.management import init, is_initialized
        >>> init()
        >>> is_initialized("CPU")
        True

    Differences from MindSpore: one answer for every device target (JAX's devices start
    together); a standalone job counts as initialised only after :func:`init`.
    """
    if device_target not in ("CPU", "GPU", "Ascend"):
        raise ValueError(
            "For 'is_initialized', 'device_target' must be one of 'CPU', 'GPU' and 'Ascend', "
            f"but got {device_target!r}."
        )
    return bool(_parallel_state.COMM.inited)
