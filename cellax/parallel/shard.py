"""``mindspore.parallel.shard``: strategies for a Cell or a function, and the ``Layout``
they are written with. (``cellax.parallel.shard`` is the function; this module is
``sys.modules["cellax.parallel.shard"]``, as in MindSpore.)"""

from __future__ import annotations

from ..nn import Cell
from ..nn._cell._shard import shard_function
from ..ops._impl.layout import Layout

__all__ = ["shard", "Layout"]


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


class _DistributedTensorInfo:
    """How a tensor is distributed: its ``Layout`` and the slice count of each dimension.

    Examples:
        >>> import sys
        >>> from cellax.parallel import Layout
        >>> info = sys.modules["cellax.parallel.shard"]._DistributedTensorInfo(
        ...     Layout((2, 4), ("dp", "mp"))("dp", "mp"))
        >>> info.sharding_strategy
        [2, 4]
    """

    def __init__(self, distributed_info):
        if not isinstance(distributed_info, Layout):
            raise TypeError(
                "For '_DistributedTensorInfo', 'distributed_info' must be a Layout, but got "
                f"{type(distributed_info).__name__}."
            )
        self._layout = distributed_info

    @property
    def layout(self) -> Layout:
        return self._layout

    @property
    def distributed_info(self) -> Layout:
        return self._layout

    @property
    def sharding_strategy(self) -> list:
        info = self._layout.to_dict()
        devices = info["device_matrix"]

        def slices(axis) -> int:  # tensor-map axes count from the device matrix's end
            return 1 if axis == -1 else devices[len(devices) - 1 - axis]

        strategy = []
        for entry in info["tensor_map"]:
            count = 1
            for axis in entry if isinstance(entry, (tuple, list)) else (entry,):
                count *= slices(axis)
            strategy.append(count)
        return strategy
