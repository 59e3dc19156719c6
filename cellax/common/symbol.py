"""``mindspore.Symbol``: a symbolic dimension for ``Tensor(shape=[Symbol(...), ...])``
placeholders given to ``Cell.set_inputs``.

Examples:
    >>> import cellax as ms
    >>> ms.Symbol(max=64, divisor=8).to_dict()
    {'max': 64, 'divisor': 8}
"""

from __future__ import annotations

__all__ = ["Symbol"]


def _check_int(name: str, value, positive: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}.")
    if positive and value <= 0:
        raise ValueError(f"For 'Symbol', the '{name}' value should be positive, but got {value}")


class Symbol:
    """A dynamic dimension's constraints: its range and ``divisor * k + remainder`` form.

    Args:
        max (int): The largest value; ``0`` or less means no bound. Default: ``0``.
        min (int): The smallest value, positive. Default: ``1``.
        divisor (int): The dimension is a multiple of it (plus ``remainder``). Default: ``1``.
        remainder (int): See ``divisor``. Default: ``0``.
        unique (bool): The symbol stands for one value wherever it is used. Default: ``False``.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``min`` or ``divisor`` is not positive.

    Differences from MindSpore: JAX compiles one program per concrete shape, so a Symbol only
    describes the placeholder; it does not make a compiled step shape-polymorphic.
    """

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):
        for name, value in (("max", max), ("remainder", remainder)):
            _check_int(name, value, positive=False)
        for name, value in (("min", min), ("divisor", divisor)):
            _check_int(name, value, positive=True)
        if not isinstance(unique, bool):
            raise TypeError(
                f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}."
            )
        self.max, self.min, self.divisor, self.remainder = max, min, divisor, remainder
        self.unique = unique
        self.kwargs = kwargs

    def to_dict(self) -> dict:
        """The constraints that differ from the defaults (``id`` marks a unique symbol)."""
        info = {}
        if self.max > 0:
            info["max"] = self.max
        if self.min != 1:
            info["min"] = self.min
        if self.divisor != 1:
            info["divisor"] = self.divisor
        if self.remainder != 0:
            info["remainder"] = self.remainder
        if self.unique:
            info["id"] = id(self)
        return info

    def __repr__(self) -> str:
        return f"Symbol({self.to_dict()})"
