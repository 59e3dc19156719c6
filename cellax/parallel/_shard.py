"""``mindspore.parallel.shard``: strategies for a Cell or a function."""

from __future__ import annotations

from ..nn import Cell
from ..nn._cell._shard import shard_function

__all__ = ["shard"]


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """Shard the inputs and outputs of a Cell or function by strategies (``ms.shard``).

    Args:
        fn (Union[Cell, Callable]): What to shard.
        in_strategy (tuple): One strategy (slice counts or a ``Layout``) per input.
        out_strategy (Union[None, tuple]): One strategy per output. Default: ``None``.
        parameter_plan (Union[None, dict]): ``{parameter name: strategy}``, for a Cell.
            Default: ``None``.

    Returns:
        The Cell (sharded in place) or a wrapping function.

    Raises:
        TypeError: If ``fn`` is not callable or a strategy has the wrong type.

    Examples:
        >>> import cellax as ms
        >>> double = ms.shard(lambda x: x * 2, in_strategy=((1,),))
        >>> print(double(ms.Tensor([1.0, 2.0])))
        [2. 4.]
    """
    if isinstance(fn, Cell):
        fn.shard(in_strategy, out_strategy, parameter_plan)
        return fn
    if not callable(fn):
        raise TypeError(f"For 'shard', 'fn' must be a Cell or a function, but got {fn!r}.")
    return shard_function(fn, in_strategy, out_strategy, parameter_plan)
