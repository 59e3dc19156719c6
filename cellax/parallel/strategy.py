"""``mindspore.parallel.strategy``: the per-rank sharding strategies of a network's
parameters. MindSpore records them while compiling a parallel step; cellax's parameters carry
their ``jax.sharding`` directly, so this module reads the Layouts set with ``Cell.shard`` /
``parameter_plan`` and has nothing else to record.

Examples:
    >>> import cellax as ms
    >>> from cellax.parallel import strategy
    >>> strategy.enable_save_strategy_online()
    >>> strategy.get_strategy_metadata(ms.nn.Dense(2, 2)) is None
    True
"""

from __future__ import annotations

__all__ = [
    "enable_save_strategy_online",
    "get_strategy_metadata",
    "get_current_strategy_metadata",
    "clear_strategy_metadata",
]

_STATE = {"online": False}


def enable_save_strategy_online() -> None:
    """Ask for strategies to be kept in memory (cellax always can: a no-op switch)."""
    _STATE["online"] = True


def _layouts(network) -> dict:
    layouts = {}
    for name, param in network.parameters_and_names():
        layout = getattr(param, "layout", None) or getattr(param, "_layout", None)
        if layout is not None:
            layouts[name] = [(layout, str(param.dtype), "parameter")]
    return layouts


def get_strategy_metadata(network, rank_id: int | None = None) -> dict | None:
    """``{rank: {parameter name: [(Layout, dtype, kind)]}}`` of the parameters with a layout
    (only ``rank_id``'s when given); ``None`` when no parameter has one, as in MindSpore
    before a parallel step has compiled."""
    from ..communication import get_group_size

    layouts = _layouts(network)
    if not layouts:
        return None
    ranks = range(get_group_size()) if rank_id is None else (rank_id,)
    return {rank: dict(layouts) for rank in ranks}


def get_current_strategy_metadata(network) -> dict | None:
    """:func:`get_strategy_metadata` for this process's rank."""
    from ..communication import get_rank

    return get_strategy_metadata(network, get_rank())


def clear_strategy_metadata() -> None:
    """Forget the switch set by :func:`enable_save_strategy_online`."""
    _STATE["online"] = False
