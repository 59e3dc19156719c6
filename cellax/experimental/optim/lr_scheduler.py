"""Learning-rate schedulers for the ``cellax.mint.optim`` optimizers (MindSpore 2.10's
``mindspore.experimental.optim.lr_scheduler``).

A scheduler holds the epoch counter as a 0-D Float32 Parameter (``last_epoch_<Class>``) and
writes each group's new rate into the optimizer's ``'lr'`` Parameter with ``ops.assign``, so
``step()`` works eagerly and inside ``cellax.jit``: the rules are Tensor expressions
(``ops.where`` for their cases), never Python branches on the epoch. Adam and AdamW read the
``'lr'`` Parameter at every step; MindSpore 2.10's mint ``SGD`` reads its constant
``'lr_float'`` and is not affected (cellax does the same).

The base class lives in ``_lr_base.py``; ``SequentialLR``, ``ReduceLROnPlateau``, ``CyclicLR``
and ``CosineAnnealingWarmRestarts`` in ``_lr_schedulers_ext.py``; all are exported here.

Differences from MindSpore: ``MultiStepLR.step(epoch)`` uses the closed form (the number of
milestones reached); MindSpore 2.10 raises AttributeError there. So does
``CosineAnnealingWarmRestarts.step(epoch)`` with ``T_mult > 1`` (TypeError in MindSpore).
"""

from __future__ import annotations

import collections
import math

from ... import ops
from ..._dtype import float32
from ..._tensor import Tensor
from ._lr_base import LRScheduler
from ._lr_schedulers_ext import CosineAnnealingWarmRestarts as CosineAnnealingWarmRestarts
from ._lr_schedulers_ext import CyclicLR as CyclicLR
from ._lr_schedulers_ext import ReduceLROnPlateau as ReduceLROnPlateau
from ._lr_schedulers_ext import SequentialLR as SequentialLR

__all__ = [
    "LRScheduler",
    "StepLR",
    "MultiStepLR",
    "ExponentialLR",
    "LinearLR",
    "ConstantLR",
    "LambdaLR",
    "MultiplicativeLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "SequentialLR",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
]


def _keep_or(cond, lrs, factor) -> list:
    """``lr * factor`` where ``cond`` holds, else ``lr``, for every group."""
    return [ops.where(cond, lr * factor, lr * 1.0) for lr in lrs]


class StepLR(LRScheduler):
    """Multiply the rates by ``gamma`` every ``step_size`` epochs.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        step_size (int): Period of the decay.
        gamma (float): Decay factor. Default: ``0.1``.
        last_epoch (int): Default: ``-1``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> for _ in range(4):
        ...     _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.25
    """

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        return _keep_or((e != 0) & (ops.fmod(e, self.step_size) == 0), self._last_lr, self.gamma)

    def _get_closed_form_lr(self) -> list:
        power = ops.floor(self._epoch() / self.step_size)
        return [base * ops.pow(Tensor(self.gamma, float32), power) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rates by ``gamma`` at each milestone epoch (twice for a repeated one).

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        milestones (list[int]): The epochs at which to decay.
        gamma (float): Decay factor. Default: ``0.1``.
        last_epoch (int): Default: ``-1``.

    Raises:
        TypeError: If ``milestones`` is not a list of ints.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.MultiStepLR(opt, [1, 3], gamma=0.5)
        >>> print([float(scheduler.step() and scheduler.get_last_lr()[0]) for _ in range(3)])
        [0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1) -> None:
        if not isinstance(milestones, list) or not all(isinstance(m, int) for m in milestones):
            raise TypeError(
                f"For 'MultiStepLR', 'milestones' must be a list of ints, but got {milestones!r}."
            )
        self.milestones = collections.Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        count = sum(ops.where(e == m, float(n), 0.0) for m, n in self.milestones.items())
        factor = ops.pow(Tensor(self.gamma, float32), count)
        return [lr * factor for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        e = self._epoch()
        count = sum(ops.where(e >= m, float(n), 0.0) for m, n in self.milestones.items())
        factor = ops.pow(Tensor(self.gamma, float32), count)
        return [base * factor for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rates by ``gamma`` every epoch.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        gamma (float): Decay factor.
        last_epoch (int): Default: ``-1``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> _ = scheduler.step(); _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.25
    """

    def __init__(self, optimizer, gamma, last_epoch=-1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return _keep_or(self._epoch() != 0, self._last_lr, self.gamma)

    def _get_closed_form_lr(self) -> list:
        factor = ops.pow(Tensor(self.gamma, float32), self._epoch())
        return [base * factor for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rates linearly from ``start_factor`` to ``end_factor`` over ``total_iters``
    epochs, then keep them.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        start_factor (float): Factor at epoch 0, in (0, 1]. Default: ``1/3``.
        end_factor (float): Factor from epoch ``total_iters`` on, in [0, 1]. Default: ``1.0``.
        total_iters (int): Default: ``5``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If a factor is out of range.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
        >>> print(scheduler.get_last_lr()[0])
        0.5
        >>> _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.75
    """

    def __init__(
        self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1
    ) -> None:
        if not 0 < start_factor <= 1 or not 0 <= end_factor <= 1:
            raise ValueError(
                f"For 'LinearLR', 'start_factor' must be in (0, 1] and 'end_factor' in [0, 1], "
                f"but got {start_factor} and {end_factor}."
            )
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        span = self.end_factor - self.start_factor
        factor = 1.0 + span / (self.total_iters * self.start_factor + (e - 1) * span)
        factor = ops.where(e > self.total_iters, 1.0, factor)
        factor = ops.where(e == 0, self.start_factor, factor)
        return [lr * factor for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        reached = ops.minimum(self._epoch(), float(self.total_iters))
        span = self.end_factor - self.start_factor
        factor = self.start_factor + span * reached / self.total_iters
        return [base * factor for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the rates by ``factor`` until epoch ``total_iters``, then restore them.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        factor (float): In [0, 1]. Default: ``1/3``.
        total_iters (int): Default: ``5``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If ``factor`` is out of [0, 1].
        TypeError: If ``total_iters`` is not an int.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=1)
        >>> print(scheduler.get_last_lr()[0])
        0.5
        >>> _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        1.0
    """

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1) -> None:
        if not 0 <= factor <= 1:
            raise ValueError(f"For 'ConstantLR', 'factor' must be in [0, 1], but got {factor}.")
        if isinstance(total_iters, bool) or not isinstance(total_iters, int):
            raise TypeError(
                f"For 'ConstantLR', 'total_iters' must be an int, but got "
                f"{type(total_iters).__name__}."
            )
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        factor = ops.where(e == self.total_iters, 1.0 / self.factor if self.factor else 0.0, 1.0)
        factor = ops.where(e == 0, self.factor, factor)
        return [lr * factor for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        factor = ops.where(self._epoch() >= self.total_iters, 1.0, self.factor)
        return [base * factor for base in self.base_lrs]


def _lambdas(name, optimizer, lr_lambda) -> list:
    groups = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != groups:
            raise ValueError(
                f"For '{name}', 'lr_lambda' must be one function or {groups} of them (one per "
                f"param group), but got {len(lr_lambda)}."
            )
        return list(lr_lambda)
    return [lr_lambda] * groups


class LambdaLR(LRScheduler):
    """Set each group's rate to its initial rate times ``lr_lambda(epoch)``.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        lr_lambda (Union[Callable, list[Callable]]): Factor of the epoch (a 0-D Tensor), one
            function for all groups or one per group.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If a list of functions does not have one per group.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (epoch + 1))
        >>> _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1) -> None:
        self.lr_lambdas = _lambdas("LambdaLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        return [base * fn(e) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply each group's rate by ``lr_lambda(epoch)`` every epoch after the first.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        lr_lambda (Union[Callable, list[Callable]]): Factor of the epoch (a 0-D Tensor).
        last_epoch (int): Default: ``-1``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.5)
        >>> _ = scheduler.step(); _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.25
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1) -> None:
        self.lr_lambdas = _lambdas("MultiplicativeLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        return [
            ops.where(e > 0, lr * fn(e), lr * 1.0) for fn, lr in zip(self.lr_lambdas, self._last_lr)
        ]


class PolynomialLR(LRScheduler):
    """Decay the rates to 0 over ``total_iters`` epochs as ``(1 - epoch / total_iters) ** power``.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        total_iters (int): Default: ``5``.
        power (float): Default: ``1.0``.
        last_epoch (int): Default: ``-1``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.PolynomialLR(opt, total_iters=4, power=1.0)
        >>> _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.75
    """

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1) -> None:
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        n = float(self.total_iters)
        ratio = (1.0 - e / n) / ops.maximum(1.0 - (e - 1) / n, 1e-30)
        keep = (e == 0) | (e > n)
        factor = ops.where(keep, 1.0, ops.pow(ops.maximum(ratio, 0.0), self.power))
        return [lr * factor for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        reached = ops.minimum(self._epoch(), float(self.total_iters))
        factor = ops.pow(1.0 - reached / self.total_iters, self.power)
        return [base * factor for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal the rates from their initial value to ``eta_min`` along half a cosine period of
    ``T_max`` epochs (and back up, periodically, as the recursive rule gives).

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        T_max (int): Half period in epochs.
        eta_min (float): The lowest rate. Default: ``0.0``.
        last_epoch (int): Default: ``-1``.

    Raises:
        TypeError: If ``T_max`` is not an int or ``eta_min`` not a number.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.CosineAnnealingLR(opt, T_max=2)
        >>> _ = scheduler.step()
        >>> print(scheduler.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1) -> None:
        if isinstance(eta_min, bool) or not isinstance(eta_min, (int, float)):
            raise TypeError(
                f"For 'CosineAnnealingLR', 'eta_min' must be a float or an int, but got "
                f"{type(eta_min).__name__}."
            )
        if not isinstance(T_max, int):
            raise TypeError(
                f"For 'CosineAnnealingLR', 'T_max' must be an int, but got {type(T_max).__name__}."
            )
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        e = self._epoch()
        t = float(self.T_max)
        restart = ops.fmod(e - 1 - t, 2 * t) == 0
        bump = (1 - math.cos(math.pi / t)) / 2
        ratio = (1 + ops.cos(math.pi * e / t)) / (1 + ops.cos(math.pi * (e - 1) / t))
        out = []
        for base, lr in zip(self.base_lrs, self._last_lr):
            annealed = ratio * (lr - self.eta_min) + self.eta_min
            value = ops.where(restart, lr + (base - self.eta_min) * bump, annealed)
            out.append(ops.where(e == 0, lr * 1.0, value))
        return out

    def _get_closed_form_lr(self) -> list:
        cos = ops.cos(math.pi * self._epoch() / self.T_max)
        return [self.eta_min + (base - self.eta_min) * (1 + cos) / 2 for base in self.base_lrs]
