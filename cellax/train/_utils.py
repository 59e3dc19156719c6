"""``mindspore.train._utils``: which ranks hold the same slice of each parameter, so that
redundant copies can be skipped when saving (``get_parameter_redundancy``,
``remove_param_redundancy``).

Examples:
    >>> import cellax as ms
    >>> from cellax.train._utils import get_parameter_redundancy, remove_param_redundancy
    >>> redundancy = get_parameter_redundancy(ms.nn.Dense(2, 1))
    >>> redundancy
    {'weight': ((0,),), 'bias': ((0,),)}
    >>> remove_param_redundancy(redundancy) == {0: {"weight", "bias"}}
    True
"""

from __future__ import annotations

__all__ = ["get_parameter_redundancy", "remove_param_redundancy"]


def get_parameter_redundancy(layout_obj, initial_rank: int | None = None) -> dict:
    """``{parameter name: (ranks holding one copy, ...)}`` for a network (or its
    ``parameters_dict()``).

    Differences from MindSpore: cellax parameters hold their global value on every rank (a
    sharded one is one global array), so each parameter is one group of all ranks, offset by
    ``initial_rank``. MindSpore's strategy files (a ``str`` argument) are not read.

    Raises:
        NotImplementedError: If ``layout_obj`` is a strategy file name.
    """
    from ..communication import get_group_size

    if isinstance(layout_obj, str):
        raise NotImplementedError(
            "For 'get_parameter_redundancy', cellax does not read MindSpore strategy files; "
            "pass the network (or its parameters_dict()) instead."
        )
    names = (
        list(layout_obj)
        if isinstance(layout_obj, dict)
        else [p.name for p in layout_obj.get_parameters()]
    )
    start = initial_rank or 0
    ranks = tuple(range(start, start + get_group_size()))
    return {name: (ranks,) for name in names}


def remove_param_redundancy(param_redundancy_dict: dict, keep_redundancy: int = 1) -> dict:
    """``{rank: {parameter names}}``: each slice of each parameter assigned to
    ``keep_redundancy`` of the ranks that hold it, spread over them in turn."""
    result: dict = {}
    for index, (name, groups) in enumerate(param_redundancy_dict.items()):
        for group in groups:
            for copy in range(min(keep_redundancy, len(group))):
                result.setdefault(group[(index + copy) % len(group)], set()).add(name)
    return result
