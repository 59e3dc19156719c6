"""Loss-scaled training: TrainOneStepWithLossScaleCell and its loss-scale update Cells."""

from __future__ import annotations

import jax.numpy as jnp

from .. import _dtype, _transforms
from .._errors import check_positive_int
from .._parameter import Parameter
from .._tensor import Tensor, unwrap, wrap, wrap_tree
from ..ops._impl import composite
from ._cell import Cell
from ._wrap import TrainOneStepCell

__all__ = [
    "DynamicLossScaleUpdateCell",
    "FixedLossScaleUpdateCell",
    "TrainOneStepWithLossScaleCell",
]


class DynamicLossScaleUpdateCell(Cell):
    """Update a loss scale: divide it by ``scale_factor`` (not below 1) on overflow, multiply
    it by ``scale_factor`` after ``scale_window`` steps without overflow.

    Inputs:
        - **loss_scale** (Parameter) - The scale, updated in place.
        - **overflow** (Tensor) - A bool scalar.

    Outputs:
        The ``overflow`` input.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> update = nn.DynamicLossScaleUpdateCell(loss_scale_value=212, scale_factor=2,
        ...                                        scale_window=1000)
        >>> update.get_loss_scale()
        212
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window) -> None:
        super().__init__()
        self.scale_window = check_positive_int(
            "DynamicLossScaleUpdateCell", "scale_window", scale_window
        )
        self.scale_factor = float(scale_factor)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, _dtype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(
            Tensor(0, _dtype.int32), name="last_overflow_iterator_step"
        )

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        overflowed = jnp.asarray(unwrap(overflow)).astype(bool).reshape(())
        scale = loss_scale._value
        on_overflow = jnp.where(overflowed, jnp.maximum(scale / self.scale_factor, 1.0), scale)
        cur_iter = self.cur_iter._value
        should_grow = self.scale_window <= cur_iter - self.last_overflow_iter._value
        self.last_overflow_iter._value = jnp.where(
            overflowed | should_grow, cur_iter, self.last_overflow_iter._value
        )
        grow = should_grow & ~overflowed
        loss_scale._value = jnp.where(grow, on_overflow * self.scale_factor, on_overflow).astype(
            scale.dtype
        )
        self.cur_iter._value = cur_iter + 1
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes; returns ``overflow`` unchanged.

    Examples:
        >>> from cellax import nn
        >>> nn.FixedLossScaleUpdateCell(loss_scale_value=212).get_loss_scale()
        212
    """

    def __init__(self, loss_scale_value) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One loss-scaled training step: gradients of ``loss * scale`` are unscaled, checked for
    overflow, and applied only when all are finite (a select under ``jit``, not Python control
    flow).

    Args:
        network (Cell): The network with loss.
        optimizer (Optimizer): The optimizer.
        scale_sense (Union[Tensor, Cell]): A fixed scale (Tensor of shape () or (1,)) or an
            update Cell (:class:`DynamicLossScaleUpdateCell`, :class:`FixedLossScaleUpdateCell`).

    Outputs:
        Tuple ``(loss, overflow, scale)``.

    Raises:
        TypeError: If ``scale_sense`` is neither a Cell nor a Tensor.
        ValueError: If a Tensor ``scale_sense`` has a shape other than () or (1,).

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.WithLossCell(nn.Dense(2, 1), nn.MSELoss())
        >>> update = nn.DynamicLossScaleUpdateCell(2.0**12, 2, 1000)
        >>> step = nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params(), 0.1), update)
        >>> loss, overflow, scale = step(ms.ops.ones((3, 2)), ms.ops.zeros((3, 1)))
        >>> print(overflow, scale)
        False 4096.0
    """

    def __init__(self, network, optimizer, scale_sense) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        self.hyper_map = composite.HyperMap()
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(
                Tensor(scale_sense.get_loss_scale(), _dtype.float32), name="scale_sense"
            )
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError(
                    f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be "
                    f"(1,) or (), but got {scale_sense.shape}."
                )
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(
                f"For 'TrainOneStepWithLossScaleCell', 'scale_sense' must be a Cell or Tensor, "
                f"but got {type(scale_sense).__name__}."
            )

    def start_overflow_check(self, pre_cond, compute_input):
        """Start overflow detection for a custom train step (MindSpore's protocol).

        cellax detects overflow from the gradients' values (:meth:`get_overflow_status`), so
        there is no status to clear: returns ``(status, compute_input)`` with ``status`` an
        int32 Tensor of 8 zeros, as MindSpore does on CPU and GPU.
        """
        return Tensor(jnp.zeros((8,), jnp.int32)), compute_input

    def get_overflow_status(self, status, compute_output):
        """Whether any element of ``compute_output`` (a Tensor or tuple of Tensors, e.g. the
        gradients) is inf or NaN; a bool Tensor of shape ()."""
        leaves = compute_output if isinstance(compute_output, (tuple, list)) else [compute_output]
        finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(unwrap(g))) for g in leaves]))
        return wrap(~finite)

    def process_loss_scale(self, overflow):
        """Update the loss scale through ``scale_sense``'s update Cell (if it is one) and
        return the overflow flag."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow

    def set_sense_scale(self, sens) -> None:
        """Replace a Tensor ``scale_sense``.

        Raises:
            TypeError: If ``sens`` is not a Tensor.
        """
        if not isinstance(sens, Tensor):
            raise TypeError(
                f"For 'TrainOneStepWithLossScaleCell', 'sens' must be a Tensor, but got "
                f"{type(sens).__name__}."
            )
        self.scale_sense.set_data(sens)

    def construct(self, *inputs):
        scale = self.scale_sense._value
        out, _, grads = _transforms.differentiate(
            "TrainOneStepWithLossScaleCell",
            self.network,
            inputs,
            {},
            None,
            list(self.weights),
            False,
            sens=wrap(scale.reshape(())),
        )
        grads = tuple(wrap(g / scale.reshape(()).astype(g.dtype)) for g in grads)
        grads = self.grad_reducer(grads)
        finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(g._value)) for g in grads]))
        overflow = wrap(~finite)
        if self.loss_scaling_manager is not None:
            overflow = self.loss_scaling_manager(self.scale_sense, overflow)
        _transforms.call_if(~unwrap(overflow), self.optimizer, grads)
        loss = wrap_tree(out)
        return loss, overflow, wrap(scale)
