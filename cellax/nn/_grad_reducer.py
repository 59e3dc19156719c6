"""DistributedGradReducer: MindSpore's data-parallel gradient reduction.

In MindSpore each rank differentiates the loss of its own batch and the reducer all-reduces
the gradients (sum, then ``/ degree`` when ``mean``). cellax does the same where the ranks
are explicit: a compiled step under DATA_PARALLEL over several processes runs per rank
(``_parallel_state.per_rank``), and inside ``jax.shard_map``; there the reducer all-reduces
over the rank axis. Elsewhere (one process, several devices) one program runs over every
device (docs/distributed.md): the loss is already the mean over the whole batch, so its
gradient already is the mean of the ranks' gradients, and XLA inserts the all-reduce. What is
left is the factor: ``mean`` with ``degree`` equal to the number of ranks gives the gradient
unchanged; ``mean=False`` (a sum over ranks) multiplies it by the number of ranks.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

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


def _all_reduce(grad, axis: str):
    value = unwrap(grad)
    if jnp.issubdtype(value.dtype, jnp.floating) and value.dtype != jnp.float32:
        return wrap(lax.psum(value.astype(jnp.float32), axis).astype(value.dtype))
    return wrap(lax.psum(value, axis))


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

    Differences from MindSpore: with several processes a compiled step runs per rank and
    this Cell all-reduces as in MindSpore. With one process and several devices cellax
    computes one loss over the whole batch (JAX's global view), so the all-reduce is part
    of the compiled gradient and this Cell only applies the mean/sum factor; it assumes the
    loss is a mean over the batch (the usual case). Parameters with
    ``layerwise_parallel=True`` are left unchanged, as in MindSpore.
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=_WORLD) -> None:
        super().__init__(auto_prefix=False)
        if mean is None:
            mean = bool(_parallel_state.AUTO_PARALLEL.get("gradients_mean", False))
        if not isinstance(mean, bool):
            raise TypeError(
                f"For 'DistributedGradReducer', 'mean' must be a bool, but got {mean!r}."
            )
        self._ranks_from_axis = degree is None  # per rank: the size of the rank axis
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
        skip = self._skip if len(self._skip) == len(grads) else (False,) * len(grads)
        axis = _parallel_state.collective_axis(self.group)
        if axis is None:  # the global view: the gradient is already reduced
            factor = _factor(self.mean, self.degree)
            return tuple(g if s else _scaled(g, factor) for g, s in zip(grads, skip))
        # each rank holds its own gradients: sum them over the ranks (then the mean)
        degree = lax.axis_size(axis) if self._ranks_from_axis else self.degree
        factor = 1.0 / degree if self.mean else 1.0
        return tuple(g if s else _scaled(_all_reduce(g, axis), factor) for g, s in zip(grads, skip))


def implicit_reducer(weights):
    """TrainOneStepCell's reducer: a DistributedGradReducer under DATA/HYBRID_PARALLEL."""
    mode = _parallel_state.AUTO_PARALLEL.get("parallel_mode", "stand_alone")
    if mode not in ("data_parallel", "hybrid_parallel"):
        return None
    device_num = _parallel_state.AUTO_PARALLEL.get("device_num", 1)
    return DistributedGradReducer(weights, None, None if device_num == 1 else device_num)
