"""``mindspore.communication._comm_helper``: the private helpers of MindSpore's communication
layer that library code reads (whether ``init`` ran, the created groups).

Examples:
    >>> from cellax.communication import _comm_helper
    >>> _comm_helper._is_initialized()
    False
"""

from __future__ import annotations

from .. import _parallel_state
from ._comm import HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, GlobalComm

__all__ = [
    "GlobalComm",
    "HCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP",
    "_is_initialized",
    "_get_group_map",
    "_remove_group_info",
    "_get_backend",
]


def _is_initialized() -> bool:
    """Whether ``communication.init()`` ran."""
    return _parallel_state.COMM.inited


def _get_group_map() -> dict:
    """``{group name: [world ranks]}`` of the groups made by ``create_group``."""
    return {name: list(ranks) for name, ranks in _parallel_state.COMM.groups.items()}


def _remove_group_info(group_name: str) -> None:
    """Forget a group's record (not the group's resources), if there is one."""
    _parallel_state.COMM.groups.pop(group_name, None)


def _get_backend() -> str:
    """The communication backend's name."""
    return GlobalComm.BACKEND
