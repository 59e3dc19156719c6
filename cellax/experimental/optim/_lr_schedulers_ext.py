"""The schedulers of ``cellax.experimental.optim.lr_scheduler`` that chain, watch a metric or
cycle: SequentialLR, ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts (MindSpore 2.10
semantics, checked against tests/goldens/lr_scheduler.json).

ReduceLROnPlateau, CyclicLR and CosineAnnealingWarmRestarts keep their counters in Parameters
and step with Tensor expressions, so ``step()`` also runs inside ``cellax.jit``; SequentialLR
picks its current scheduler from the epoch as a Python int and steps eagerly only.
"""

from __future__ import annotations

import bisect
import math

from ... import ops
from ..._dtype import float32, int32
from ..._parameter import Parameter
from ..._tensor import Tensor
from ._lr_base import LRScheduler

__all__ = ["SequentialLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts"]


def _per_group(name, optimizer, value, what) -> list:
    """``value`` for every parameter group: a list/tuple with one per group, or one number."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(
                f"For '{name}', '{what}' must be one number or {groups} of them (one per param "
                f"group), but got {len(value)}."
            )
        return list(value)
    return [value] * groups


class SequentialLR:
    """Run ``schedulers`` one after the other: ``schedulers[i]`` drives the rates from epoch
    ``milestones[i - 1]`` on (restarted at its epoch 0 there).

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer every scheduler drives.
        schedulers (list[LRScheduler]): The schedulers, built on ``optimizer``.
        milestones (list[int]): The epochs at which the next scheduler takes over; one fewer
            than ``schedulers``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If a scheduler drives another optimizer, or the number of milestones is
            not one less than the number of schedulers.

    Differences from MindSpore: none known; ``step()`` reads the epoch as a Python int, so it
    runs eagerly (as MindSpore, which reads it with ``int``).

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> warmup = lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=1)
        >>> decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> scheduler = lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[1])
        >>> lrs = [float(scheduler.get_last_lr()[0])]
        >>> for _ in range(3):
        ...     scheduler.step()
        ...     lrs.append(float(scheduler.get_last_lr()[0]))
        >>> print(lrs)
        [0.1, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1) -> None:
        for index, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError(
                    f"For 'SequentialLR', every scheduler must drive the optimizer passed in, but "
                    f"the scheduler at index {index} drives another one."
                )
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                f"For 'SequentialLR', the number of milestones must be one less than the number "
                f"of schedulers, but got {len(schedulers)} schedulers and {len(milestones)} "
                f"milestones."
            )
        self._schedulers = list(schedulers)
        self.milestones = list(milestones)
        self.optimizer = optimizer
        self.last_epoch = Parameter(
            Tensor(float(last_epoch + 1), float32), name="last_epoch_SequentialLR"
        )
        # The schedulers each took a step when built: undo those, restart from the initial
        # rates and let the first scheduler take epoch 0 again.
        for group in optimizer.param_groups:
            ops.assign(group["lr"], ops.cast(group["initial_lr"], float32))
        for scheduler in self._schedulers:
            ops.assign(scheduler.last_epoch, scheduler.last_epoch - 1)
        self._schedulers[0].step()
        self._last_lr = self._schedulers[0]._last_lr

    def step(self) -> None:
        """Move to the next epoch with the scheduler in charge of it."""
        ops.assign(self.last_epoch, self.last_epoch + 1)
        epoch = int(self.last_epoch.asnumpy())
        index = bisect.bisect_right(self.milestones, epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self.milestones[index - 1] == epoch:
            scheduler.step(0)
        else:
            scheduler.step()

    def get_last_lr(self) -> list:
        """The current learning rate of every group (0-D Tensors)."""
        return [lr.value() for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` when the metric given to ``step(metrics)`` has not
    improved for more than ``patience`` epochs.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        mode (str): ``'min'`` (lower is better) or ``'max'``. Default: ``'min'``.
        factor (float): The reduction factor, below 1. Default: ``0.1``.
        patience (int): Epochs without improvement tolerated before a reduction. Default:
            ``10``.
        threshold (float): The margin an improvement must beat. Default: ``1e-4``.
        threshold_mode (str): ``'rel'`` (the best value scaled by ``1 -/+ threshold``) or
            ``'abs'`` (shifted by ``threshold``). Default: ``'rel'``.
        cooldown (int): Epochs after a reduction during which bad epochs are not counted.
            Default: ``0``.
        min_lr (Union[float, list[float]]): The lowest rate, for all groups or per group.
            Default: ``0``.
        eps (float): A reduction smaller than this is skipped. Default: ``1e-8``.

    Raises:
        ValueError: If ``factor`` is not below 1, ``mode``/``threshold_mode`` is unknown, or a
            ``min_lr`` list does not have one value per group.
        TypeError: If ``optimizer`` is not a ``cellax.mint.optim.Optimizer``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)
        >>> for loss in [1.0, 0.5, 0.7, 0.6, 0.6]:
        ...     _ = scheduler.step(loss)
        >>> print(scheduler.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8) -> None:  # fmt: skip
        from ...mint.optim import Optimizer

        if factor >= 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be < 1.0, but got {factor}.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(
                f"For 'ReduceLROnPlateau', 'optimizer' must be a cellax.mint.optim Optimizer, but "
                f"got {type(optimizer).__name__}."
            )
        if mode not in ("min", "max"):
            raise ValueError(
                f"For 'ReduceLROnPlateau', 'mode' must be 'min' or 'max', but got {mode!r}."
            )
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(
                f"For 'ReduceLROnPlateau', 'threshold_mode' must be 'rel' or 'abs', but got "
                f"{threshold_mode!r}."
            )
        self.optimizer = optimizer
        self.min_lrs = [
            Tensor(float(v), float32)
            for v in _per_group("ReduceLROnPlateau", optimizer, min_lr, "min_lr")
        ]
        self.mode, self.factor, self.patience = mode, factor, patience
        self.threshold, self.threshold_mode = threshold, threshold_mode
        self.cooldown, self.eps = cooldown, eps
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.last_epoch = Parameter(Tensor(0, int32), name="last_epoch_ReduceLROnPlateau")
        self.best = Parameter(Tensor(self.mode_worse, float32), name="best")
        self.cooldown_counter = Parameter(Tensor(0.0, float32), name="cooldown_counter")
        self.wait = Parameter(Tensor(0.0, float32), name="wait")
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def _is_improvement(self, current, best):
        sign = 1.0 if self.mode == "min" else -1.0
        if self.threshold_mode == "rel":
            benchmark = best * (1.0 - sign * self.threshold)
        else:
            benchmark = best - sign * self.threshold
        return current < benchmark if self.mode == "min" else current > benchmark

    def in_cooldown(self):
        """Whether bad epochs are currently not counted (a 0-D Bool Tensor)."""
        return self.cooldown_counter > 0

    def step(self, metrics) -> bool:
        """Record the epoch's ``metrics`` (a number or 0-D Tensor) and reduce the rates if it
        has stopped improving."""
        ops.assign(self.last_epoch, self.last_epoch + 1)
        current = ops.cast(Tensor(metrics) if not isinstance(metrics, Tensor) else metrics, float32)
        better = self._is_improvement(current, self.best.value())
        ops.assign(self.best, ops.where(better, current, self.best.value()))
        wait = ops.where(better, 0.0, self.wait + 1.0)
        cooling = self.in_cooldown()
        ops.assign(
            self.cooldown_counter,
            ops.where(cooling, self.cooldown_counter - 1.0, self.cooldown_counter.value()),
        )
        wait = ops.where(cooling, 0.0, wait)
        reduce = wait > self.patience
        for lr, min_lr in zip(self._last_lr, self.min_lrs):
            old = lr.value()
            new = ops.maximum(old * self.factor, min_lr)
            ops.assign(lr, ops.where(reduce & (old > new + self.eps), new, old))
        ops.assign(
            self.cooldown_counter,
            ops.where(reduce, float(self.cooldown), self.cooldown_counter.value()),
        )
        ops.assign(self.wait, ops.where(reduce, 0.0, wait))
        return True

    def get_last_lr(self) -> list:
        """The current learning rate of every group (0-D Tensors)."""
        return [lr.value() for lr in self._last_lr]


class CyclicLR(LRScheduler):
    """Cycle every group's rate between ``base_lr`` and ``max_lr``: up over ``step_size_up``
    epochs, down over ``step_size_down``; the amplitude is scaled by ``mode``'s rule
    (``'triangular'``: 1, ``'triangular2'``: halved every cycle, ``'exp_range'``:
    ``gamma ** epoch``) or by ``scale_fn``.

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        base_lr (Union[float, list[float]]): The lower bound, for all groups or per group; the
            groups start there.
        max_lr (Union[float, list[float]]): The upper bound.
        step_size_up (int): Epochs of the rising half. Default: ``2000``.
        step_size_down (int): Epochs of the falling half; ``None`` means ``step_size_up``.
            Default: ``None``.
        mode (str): ``'triangular'``, ``'triangular2'`` or ``'exp_range'``. Default:
            ``'triangular'``.
        gamma (float): The base of ``'exp_range'``. Default: ``1.0``.
        scale_fn (Callable): A custom amplitude scale of the cycle number or the epoch (a 0-D
            Tensor); overrides ``mode``. Default: ``None``.
        scale_mode (str): ``'cycle'`` or ``'iterations'``: what ``scale_fn`` receives.
            Default: ``'cycle'``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If a list of bounds does not have one value per group, or ``mode`` is
            unknown without a ``scale_fn``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2)
        >>> lrs = []
        >>> for _ in range(4):
        ...     _ = scheduler.step()
        ...     lrs.append(round(float(scheduler.get_last_lr()[0]), 4))
        >>> print(lrs)
        [0.3, 0.5, 0.3, 0.1]
    """

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1) -> None:  # fmt: skip
        base_lrs = _per_group("CyclicLR", optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                ops.assign(group["lr"], Tensor(float(lr), float32))
        self.max_lrs = [
            Tensor(float(v), float32) for v in _per_group("CyclicLR", optimizer, max_lr, "max_lr")
        ]
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.total_step_size = up + down
        self.step_up_ratio = up / self.total_step_size
        if scale_fn is None and mode not in ("triangular", "triangular2", "exp_range"):
            raise ValueError(
                f"For 'CyclicLR', 'mode' must be 'triangular', 'triangular2' or 'exp_range' when "
                f"'scale_fn' is None, but got {mode!r}."
            )
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom = scale_fn
        if scale_fn is None:
            scale_mode = "iterations" if mode == "exp_range" else "cycle"
        self.scale_mode = scale_mode
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [Tensor(float(v), float32) for v in base_lrs]

    def scale_fn(self, x):
        """The amplitude scale at ``x`` (the cycle number or the epoch)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / ops.pow(Tensor(2.0, float32), x - 1)
        return ops.pow(Tensor(self.gamma, float32), x)

    def get_lr(self) -> list:
        e = self._epoch()
        cycle = ops.floor(1 + e / self.total_step_size)
        x = 1.0 + e / self.total_step_size - cycle
        ratio = self.step_up_ratio
        height = ops.where(x <= ratio, x / ratio, (x - 1) / (ratio - 1))
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else e)
        return [
            base + (top - base) * height * scale for base, top in zip(self.base_lrs, self.max_lrs)
        ]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Anneal every group's rate from its initial value to ``eta_min`` along half a cosine over
    ``T_0`` epochs, then restart, each period ``T_mult`` times longer than the last (SGDR).

    Args:
        optimizer (cellax.mint.optim.Optimizer): The optimizer.
        T_0 (int): The first period, positive.
        T_mult (int): The growth of the period at each restart, at least 1. Default: ``1``.
        eta_min (Union[float, int]): The lowest rate. Default: ``0``.
        last_epoch (int): Default: ``-1``.

    Raises:
        ValueError: If ``T_0`` is not a positive int or ``T_mult`` not an int >= 1, or
            ``step(epoch)`` gets a negative epoch.
        TypeError: If ``eta_min`` is not a float or an int.

    Differences from MindSpore: ``step(epoch)`` with ``T_mult > 1`` and ``epoch >= T_0``
    places the epoch in its period (as PyTorch); MindSpore 2.10 raises TypeError there.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> from cellax.experimental.optim import lr_scheduler
        >>> opt = mint.optim.Adam([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> scheduler = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
        >>> lrs = []
        >>> for _ in range(4):
        ...     scheduler.step()
        ...     lrs.append(round(float(scheduler.get_last_lr()[0]), 4))
        >>> print(lrs)
        [0.5, 1.0, 0.5, 1.0]
    """

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1) -> None:
        if isinstance(T_0, bool) or not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(
                f"For 'CosineAnnealingWarmRestarts', 'T_0' must be a positive int, but got {T_0!r}."
            )
        if isinstance(T_mult, bool) or not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(
                f"For 'CosineAnnealingWarmRestarts', 'T_mult' must be an int >= 1, but got "
                f"{T_mult!r}."
            )
        if isinstance(eta_min, bool) or not isinstance(eta_min, (int, float)):
            raise TypeError(
                f"For 'CosineAnnealingWarmRestarts', 'eta_min' must be a float or an int, but got "
                f"{type(eta_min).__name__}."
            )
        self.T_0 = Parameter(Tensor(float(T_0), float32), name="T_0")
        self.T_i = Parameter(Tensor(float(T_0), float32), name="T_i")
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = Parameter(Tensor(float(last_epoch), float32), name="T_cur")
        self._starting = last_epoch == -1
        super().__init__(optimizer, last_epoch)
        self._starting = False

    def get_lr(self) -> list:
        angle = math.pi * self.T_cur / self.T_i
        return [
            self.eta_min + (base - self.eta_min) * (1 + ops.cos(angle)) / 2
            for base in self.base_lrs
        ]

    def step(self, epoch=None) -> None:
        """Move to the next epoch (or to ``epoch``) and write the new rates into the groups."""
        if epoch is None and self._starting:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            t_cur = self.T_cur + 1.0
            wrap = t_cur >= self.T_i
            ops.assign(self.T_cur, ops.where(wrap, t_cur - self.T_i, t_cur))
            ops.assign(self.T_i, ops.where(wrap, self.T_i * float(self.T_mult), self.T_i.value()))
        else:
            if not isinstance(epoch, Tensor) and epoch < 0:
                raise ValueError(
                    f"For 'CosineAnnealingWarmRestarts', 'epoch' must be non-negative, but got "
                    f"{epoch}."
                )
            epoch = ops.cast(epoch if isinstance(epoch, Tensor) else Tensor(float(epoch)), float32)
            t0 = self.T_0.value()
            if self.T_mult == 1:
                t_cur, t_i = ops.fmod(epoch, t0), t0
            else:
                m = float(self.T_mult)
                n = ops.floor(ops.log(epoch / t0 * (m - 1) + 1) / math.log(m))
                t_cur = epoch - t0 * (ops.pow(m, n) - 1) / (m - 1)
                t_i = t0 * ops.pow(m, n)
            later = epoch >= t0
            ops.assign(self.T_cur, ops.where(later, t_cur, epoch))
            ops.assign(self.T_i, ops.where(later, t_i, t0))
        ops.assign(self.last_epoch, ops.floor(epoch))
        for lr, value in zip(self._last_lr, self.get_lr()):
            ops.assign(lr, ops.cast(value, float32))
