"""Activation layers."""

from __future__ import annotations

from .. import ops
from ._cell import Cell

__all__ = ["ReLU", "Softmax", "Sigmoid", "get_activation"]


class ReLU(Cell):
    """Rectified linear unit: ``max(x, 0)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ReLU()(ms.Tensor([-1.0, 2.0])))
        [0. 2.]
    """

    def construct(self, x):
        return ops.relu(x)


class Sigmoid(Cell):
    """Logistic sigmoid."""

    def construct(self, x):
        return ops.sigmoid(x)


class Softmax(Cell):
    """Softmax along ``axis``. Default: ``axis=-1``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmax(x, self.axis)


_ACTIVATIONS = {"relu": ReLU, "sigmoid": Sigmoid, "softmax": Softmax}


def get_activation(name: str, prim_name: str | None = None):
    """An activation Cell by name (``'relu'``, ``'sigmoid'``, ...).

    Raises:
        KeyError: If ``name`` is unknown.
    """
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"For 'get_activation', unknown activation {name!r}; known: {sorted(_ACTIVATIONS)}.")
    return cls()
