"""The PyTorch-style optimizer base of ``cellax.mint.optim`` (MindSpore's
``mindspore.experimental.optim.Optimizer``), built on :class:`cellax.nn.Optimizer`'s step
machinery: slots are Parameters owned by the optimizer, the step is one pure jitted function,
and under ``cellax.jit`` it is inlined into the train step.

``param_groups`` is a list of dicts; each group's ``'lr'`` is a 0-D Float32 Parameter
(``learning_rate_group_<i>``) read at every step, so a learning-rate scheduler (or user code)
that assigns it changes the next step, eagerly or inside ``cellax.jit`` (Adam, AdamW; SGD
reads the constant ``'lr_float'`` instead, as MindSpore 2.10).

The state is named as MindSpore 2.10's mint optimizers name it: the step counter is
``state_step`` (Adam, AdamW: Float32 of shape (1,)) or ``step_t`` (SGD: a 0-D Int32), the
slots ``exp_avg.<name>``/``exp_avg_sq.<name>``/``momentum_buf.<name>``; the groups' ``'lr'``
Parameters and amsgrad's ``max_exp_avg_sq`` (held by its groups) are not registered in the
optimizer Cell, as in MindSpore, so checkpoints of the optimizer hold the same names.
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
    # the step counter as MindSpore names it: (name, value when built, numpy dtype, shape)
    _counter = ("state_step", 0.0, np.float32, (1,))

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
        # The base's step counter, renamed and retyped as MindSpore's mint optimizers have it
        # (registered last, as there); ``global_step`` stays the handle the base step uses.
        name, start, dtype, shape = self._counter
        counter = Parameter(np.full(shape, start, dtype), name=name)
        del self.global_step
        setattr(self, name, counter)
        object.__setattr__(self, "global_step", counter)

    def _hide(self, clones) -> None:
        """Unregister ``clones`` from this Cell (they stay in the step's state)."""
        for key in [k for k, v in self._params.items() if any(v is c for c in clones)]:
            del self._params[key]

    @property
    def lrs(self) -> list:
        """The learning-rate Parameter of every group."""
        return [group["lr"] for group in self.param_groups]
