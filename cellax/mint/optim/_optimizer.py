"""The PyTorch-style optimizer base of ``cellax.mint.optim`` (MindSpore's
``mindspore.experimental.optim.Optimizer``), built on :class:`cellax.nn.Optimizer`'s step
machinery: slots are Parameters owned by the optimizer, the step is one pure jitted function,
and under ``cellax.jit`` it is inlined into the train step.

``param_groups`` is a list of dicts; each group's ``'lr'`` is a 0-D Float32 Parameter
(``learning_rate_group_<i>``) read at every step, so a learning-rate scheduler (or user code)
that assigns it changes the next step, eagerly or inside ``cellax.jit``.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..._parameter import Parameter
from ...nn import Optimizer as _CellaxOptimizer

__all__ = ["Optimizer"]


def _check_lr(api: str, lr) -> None:
    if isinstance(lr, bool) or not isinstance(lr, (numbers.Real, Parameter)):
        raise TypeError(f"For '{api}', 'lr' must be a float, but got {type(lr).__name__}.")
    if isinstance(lr, numbers.Real) and lr < 0:
        raise ValueError(f"For '{api}', 'lr' must be non-negative, but got {lr}.")


class Optimizer(_CellaxOptimizer):
    """Base class of the mint optimizers: ``optimizer(grads)`` applies one step.

    Args:
        params (Union[list[Parameter], list[dict]]): The Parameters, or groups: dicts with
            ``'params'`` and any of the optimizer's hyperparameters (``'lr'``, ...).
        defaults (dict): The default hyperparameters of every group.

    Differences from MindSpore: hyperparameters other than ``'lr'`` are read when the step is
    first compiled; change them by building a new optimizer.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = mint.optim.SGD([w], lr=0.5)
        >>> _ = opt((ms.Tensor([1.0, -1.0]),))
        >>> print(w.asnumpy())
        [0.5 2.5]
    """

    _slots: tuple = ()

    def __init__(self, params, defaults: dict) -> None:
        api = type(self).__name__
        _check_lr(api, defaults["lr"])
        items = list(params)
        if items and isinstance(items[0], dict):
            groups = [dict(g) for g in items]
        else:
            groups = [{"params": items}]
        flat = []
        for group in groups:
            if "params" not in group:
                raise KeyError(f"For '{api}', every parameter group needs a 'params' key.")
            group["params"] = list(group["params"])
            flat += group["params"]
        super().__init__(0.0, flat, 0.0)
        del self.learning_rate
        self.defaults = dict(defaults)
        self.param_groups = []
        lr_of = []
        sources = []
        for number, group in enumerate(groups):
            unknown = set(group) - set(defaults) - {"params"}
            if unknown:
                raise KeyError(
                    f"For '{api}', the keys of a parameter group must be 'params' or among "
                    f"{sorted(defaults)}, but got {sorted(unknown)}."
                )
            full = {**defaults, **group}
            _check_lr(api, full["lr"])
            lr = full["lr"]
            if not isinstance(lr, Parameter):
                lr = Parameter(np.asarray(lr, np.float32), name=f"learning_rate_group_{number}")
            self._own(lr)
            full["lr"] = lr
            self.param_groups.append(full)
            sources.append(lr)
            lr_of += [number] * len(group["params"])
        self._lr_sources = sources
        self._lr_of = tuple(lr_of)
        self._group_of = tuple(self.param_groups[i] for i in lr_of)
        self._wd_of = tuple(0.0 for _ in lr_of)
        self._decay_flags = tuple(False for _ in lr_of)
        self.exec_weight_decay = False
        for slot in self._slots:
            setattr(self, slot, self._clone_state(slot, 0.0))

    @property
    def lrs(self) -> list:
        """The learning-rate Parameter of every group."""
        return [group["lr"] for group in self.param_groups]
