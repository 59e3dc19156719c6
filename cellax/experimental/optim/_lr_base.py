"""The base class of the learning-rate schedulers of ``cellax.experimental.optim.lr_scheduler``
(where it is documented and exported)."""

from __future__ import annotations

from ... import ops
from ..._dtype import float32
from ..._parameter import Parameter
from ..._tensor import Tensor

__all__ = ["LRScheduler"]


class LRScheduler:
    """Base class: subclasses define ``get_lr()`` (the rates after the epoch counter moved on
    by one, from the current ones) and may define ``_get_closed_form_lr()`` (the rates at an
    arbitrary epoch, used by ``step(epoch)``).

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer whose groups' ``'lr'`` change.
        last_epoch (int): The index of the last epoch; ``-1`` starts from the groups' current
            rates (stored as ``'initial_lr'``). Default: ``-1``.

    Raises:
        TypeError: If ``last_epoch`` is not an int.
        ValueError: If ``last_epoch`` is less than -1.
        KeyError: If ``last_epoch`` is not -1 and a group has no ``'initial_lr'``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = mint.optim.Adam([w], lr=0.1)
        >>> scheduler = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        >>> scheduler.step()
        True
        >>> print(scheduler.get_last_lr()[0])
        0.05
    """

    def __init__(self, optimizer, last_epoch=-1) -> None:
        name = type(self).__name__
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise TypeError(
                f"For '{name}', 'last_epoch' must be an int, but got {type(last_epoch).__name__}."
            )
        if last_epoch < -1:
            raise ValueError(f"For '{name}', 'last_epoch' must be >= -1, but got {last_epoch}.")
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", Tensor(group["lr"].asnumpy()))
            elif "initial_lr" not in group:
                raise KeyError(
                    f"For '{name}', param group {i} has no 'initial_lr', but 'last_epoch' is "
                    f"{last_epoch}. Build the scheduler with last_epoch=-1 first."
                )
        self.optimizer = optimizer
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = Parameter(Tensor(float(last_epoch), float32), name=f"last_epoch_{name}")
        self.step()

    def get_lr(self) -> list:
        raise NotImplementedError(f"'{type(self).__name__}' must define 'get_lr'.")

    def get_last_lr(self) -> list:
        """The current learning rate of every group (0-D Tensors)."""
        return [lr.value() for lr in self._last_lr]

    def step(self, epoch=None) -> bool:
        """Move to the next epoch (or to ``epoch``) and write the new rates into the groups."""
        if epoch is None:
            ops.assign(self.last_epoch, self.last_epoch + 1)
            values = self.get_lr()
        else:
            ops.assign(self.last_epoch, Tensor(float(epoch), float32))
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        for lr, value in zip(self._last_lr, values):
            ops.assign(lr, ops.cast(value, float32))
        return True

    def _epoch(self):
        return self.last_epoch.value()
