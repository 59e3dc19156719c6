"""``mindspore.experimental.optim.optimizer``: the module that defines ``Optimizer``."""

from ...mint.optim import Optimizer as Optimizer

__all__ = ["Optimizer"]
