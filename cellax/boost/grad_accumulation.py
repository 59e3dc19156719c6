"""``mindspore.boost.grad_accumulation``: accumulate gradients over steps, then update.

Examples:
    >>> import cellax as ms
    >>> from cellax import nn
    >>> from cellax.boost import GradientAccumulation
    >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    >>> acc = GradientAccumulation(2, nn.SGD(net.trainable_params(), learning_rate=0.5))
    >>> grads = (ms.Tensor([[1.0, 1.0]]), ms.Tensor([1.0]))
    >>> _ = acc(ms.Tensor(0.0), grads)
    >>> print(net.weight.value())
    [[1. 1.]]
    >>> _ = acc(ms.Tensor(0.0), grads)
    >>> print(net.weight.value())
    [[0.5 0.5]]
"""

from __future__ import annotations

from .. import ops
from .._dtype import int32
from .._parameter import Parameter
from .._tensor import Tensor
from ..nn import Cell
from ..ops._impl.composite import HyperMap, MultitypeFuncGraph, partial

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = MultitypeFuncGraph("gradient_accumulation_op")


@gradient_accumulation_op.register("Int", "Tensor", "Tensor")
def cumulative_grad_process(accumulation_step, cumulative_grad, grad):
    """Add ``grad / accumulation_step`` into ``cumulative_grad``."""
    ops.assign_add(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


gradient_clear_op = MultitypeFuncGraph("gradient_clear_op")


@gradient_clear_op.register("Tensor")
def clear_grad(cumulative_grad):
    """Reset ``cumulative_grad`` to zeros."""
    ops.assign(cumulative_grad, ops.zeros_like(cumulative_grad))
    return cumulative_grad


class GradientAccumulation(Cell):
    """Accumulate the mean gradient of ``max_accumulation_step`` steps, then run the optimizer
    on it (``mindspore.boost.GradientAccumulation``).

    Args:
        max_accumulation_step (int): Steps per update.
        optimizer (Cell): The optimizer.

    Inputs:
        - **loss** (Tensor) - The loss, returned unchanged.
        - **grads** (tuple[Tensor]) - The gradients of the optimizer's parameters.

    Outputs:
        Tensor, ``loss``.
    """

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(
            Tensor(0, dtype=int32), name="accumulation_step", requires_grad=False
        )

    def construct(self, loss, grads):
        self.hyper_map(
            partial(gradient_accumulation_op, self._max_accumulation_step),
            self._grad_accumulation,
            grads,
        )
        ops.assign_add(self._accumulation_step, Tensor(1, dtype=int32))
        if self._accumulation_step >= self._max_accumulation_step:
            self.optimizer(self._grad_accumulation)
            ops.assign(self._accumulation_step, Tensor(0, dtype=int32))
        if self._accumulation_step == 0:
            self.hyper_map(partial(gradient_clear_op), self._grad_accumulation)
        return loss
