"""DistributedGradReducer: MindSpore's data-parallel gradient reduction in JAX's global view.

In MindSpore each rank differentiates the loss of its own batch and the reducer all-reduces
the gradients (sum, then ``/ degree`` when ``mean``). cellax runs one program over every
device (docs/distributed.md): the loss is already the mean over all ranks' batches, so its
gradient already is the mean of the ranks' gradients, and XLA inserts the all-reduce. What is
left is the factor: ``mean`` with ``degree`` equal to the number of ranks gives the gradient
unchanged; ``mean=False`` (a sum over ranks) multiplies it by the number of ranks.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import _parallel_state
from .._tensor import unwrap, wrap
from ._cell import Cell

__all__ = ["DistributedGradReducer"]

_WORLD = "hccl_world_group"


def _factor(mean: bool, degree: int) -> float:
    ranks = _parallel_state.world_size()
    if not mean:
        return float(ranks)
    if degree in (ranks, jax.device_count()):
        return 1.0
    return ranks / degree


def _scaled(grad, factor: float):
    value = unwrap(grad)
    if factor == 1.0:
        return grad
    if jnp.issubdtype(value.dtype, jnp.floating) and value.dtype != jnp.float32:
        # MindSpore reduces low-precision gradients in float32
        return wrap((value.astype(jnp.float32) * factor).astype(value.dtype))
    return wrap(value * jnp.asarray(factor, value.dtype))


class DistributedGradReducer(Cell):
    """Reduce the gradients of data-parallel training over all ranks.

    Args:
        parameters (list[Parameter]): The Parameters the gradients belong to (in order).
        mean (bool): Average over the ranks; ``None`` reads the auto-parallel context's
            ``gradients_mean``. Default: ``None``.
        degree (int): The number of ranks averaged over; ``None`` means
            ``get_group_size()``. Default: ``None``.
        fusion_type (int): Communication fusion group; XLA fuses itself. Default: ``1``.
        group (str): The communication group. Default: ``"hccl_world_group"``.

    Inputs:
        - **grads** (tuple[Tensor]) - The gradients, one per Parameter.

    Outputs:
        tuple[Tensor], the reduced gradients, with the input dtypes.

    Raises:
        TypeError: If ``mean`` is not a bool or ``degree`` not a positive int.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> reducer = nn.DistributedGradReducer(net.trainable_params(), mean=True)
        >>> grads = (ms.ops.ones((1, 2)), ms.ops.ones((1,)))
        >>> print(reducer(grads)[0])
        [[1. 1.]]

    Differences from MindSpore: cellax computes one loss over all ranks' batches (JAX's
    global view), so the all-reduce is part of the compiled gradient and this Cell only
    applies the mean/sum factor; it assumes the loss is a mean over the batch (the usual
    case). Parameters with ``layerwise_parallel=True`` are left unchanged, as in MindSpore.
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=_WORLD) -> None:
        super().__init__(auto_prefix=False)
        if mean is None:
            mean = bool(_parallel_state.AUTO_PARALLEL.get("gradients_mean", False))
        if not isinstance(mean, bool):
            raise TypeError(
                f"For 'DistributedGradReducer', 'mean' must be a bool, but got {mean!r}."
            )
        if degree is None:
            degree = _parallel_state.world_size()
        if not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise TypeError(
                f"For 'DistributedGradReducer', 'degree' must be a positive int, but got "
                f"{degree!r}."
            )
        self.mean = mean
        self.degree = degree
        self.fusion_type = fusion_type
        self.group = group
        self._skip = tuple(bool(getattr(p, "layerwise_parallel", False)) for p in parameters)

    def construct(self, grads):
        factor = _factor(self.mean, self.degree)
        skip = self._skip if len(self._skip) == len(grads) else (False,) * len(grads)
        return tuple(g if s else _scaled(g, factor) for g, s in zip(grads, skip))


def implicit_reducer(weights):
    """TrainOneStepCell's reducer: a DistributedGradReducer under DATA/HYBRID_PARALLEL."""
    mode = _parallel_state.AUTO_PARALLEL.get("parallel_mode", "stand_alone")
    if mode not in ("data_parallel", "hybrid_parallel"):
        return None
    device_num = _parallel_state.AUTO_PARALLEL.get("device_num", 1)
    return DistributedGradReducer(weights, None, None if device_num == 1 else device_num)
