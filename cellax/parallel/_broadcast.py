"""``mindspore.parallel.parameter_broadcast``: give every rank one rank's Parameter values."""

from __future__ import annotations

import jax
import numpy as np

from .._tensor import Tensor

__all__ = ["parameter_broadcast"]


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0) -> None:
    """Copy the values of the Parameters named in ``layout`` from rank ``initial_rank`` to
    every rank (e.g. after each rank initialised or loaded its own copy).

    Args:
        net (Cell): The network.
        layout (dict): ``{parameter name: layout}`` (``Cell.parameter_layout_dict``); the
            names select the Parameters.
        cur_rank (int): This process's rank. Default: ``0``.
        initial_rank (int): The rank whose values are kept. Default: ``0``.

    Raises:
        TypeError: If ``layout`` is not a dict.
        ValueError: If ``cur_rank`` is not this process's rank, ``initial_rank`` is no rank,
            or a name in ``layout`` is no Parameter of ``net``.

    Examples:
        >>> from cellax import nn
        >>> from cellax.parallel import parameter_broadcast
        >>> net = nn.Dense(2, 1)
        >>> parameter_broadcast(net, {"weight": None})

    Differences from MindSpore: a Parameter that already spans every process (one global
    array) is one value and is left as it is; only process-local copies are broadcast.
    """
    from ..communication import get_group_size, get_rank

    api = "parameter_broadcast"
    if not isinstance(layout, dict):
        raise TypeError(f"For '{api}', 'layout' must be a dict, but got {type(layout)}.")
    if cur_rank != get_rank():
        raise ValueError(
            f"For '{api}', 'cur_rank' must be the rank of this process {get_rank()}, but got "
            f"{cur_rank}."
        )
    if not isinstance(initial_rank, int) or not 0 <= initial_rank < get_group_size():
        raise ValueError(
            f"For '{api}', 'initial_rank' must be a rank in [0, {get_group_size()}), but got "
            f"{initial_rank}."
        )
    params = net.parameters_dict()
    for name in layout:
        if name not in params:
            raise ValueError(
                f"For '{api}', the parameter '{name}' of 'layout' is not found in the network."
            )
    if jax.process_count() == 1:
        return
    from jax.experimental import multihost_utils

    for name in layout:
        param = params[name]
        value = param._data
        if getattr(value, "is_fully_addressable", True) is False:
            continue  # one global array: every process already sees the same tensor
        gathered = multihost_utils.process_allgather(np.asarray(value))  # one row per rank
        param.set_data(Tensor(np.asarray(gathered)[initial_rank]))
