"""The protected part of MindSpore's ``nn.Optimizer`` that user-defined optimizers call.

Third-party optimizers (mindcv's AdamW, Adan, Lion, NAdam...) subclass ``nn.Optimizer`` and
write their own ``construct`` with MindSpore's helpers: ``decay_weight``, ``scale_grad``,
``gradients_centralization``, ``flatten_gradients``, ``_is_dynamic_lr_or_weight_decay``,
``assignadd`` with ``global_step_increase_tensor``, ``hyper_map``/``map_``, ``decay_flags``,
``optim_filter`` and ``use_parallel``. :class:`OptimizerProtectedAPI` provides them on
cellax's ``Optimizer`` (a single process: ``use_parallel`` is False, every ``optim_filter``
entry True).
"""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from ...ops._impl import composite
from ...ops._impl.state import AssignAdd


class OptimizerProtectedAPI:
    """Mixin of ``nn.Optimizer``: MindSpore's attributes and helpers for custom optimizers."""

    def _init_protected_api(self) -> None:
        """Set the attributes MindSpore's ``Optimizer.__init__`` leaves on the instance."""
        names = [p.name for p in self._parameters]
        if self.is_group:
            decay = tuple(_nonzero(wd) for wd in self._wd_of)
            dynamic = tuple(not isinstance(wd, (int, float)) for wd in self._wd_of)
        else:
            decay = tuple("beta" not in n and "gamma" not in n for n in names)
            dynamic = self.dynamic_weight_decay
        object.__setattr__(self, "decay_flags", decay)
        object.__setattr__(self, "dynamic_decay_flags", dynamic)
        object.__setattr__(self, "grad_centralization_flags", tuple(self._gc_flags))
        object.__setattr__(self, "reciprocal_scale", Tensor(1.0 / self.loss_scale, np.float32))
        object.__setattr__(self, "need_scale", self.loss_scale != 1.0)
        object.__setattr__(self, "global_step_increase_tensor", Tensor([1], np.int32))
        object.__setattr__(self, "assignadd", AssignAdd())
        object.__setattr__(self, "map_", composite.Map())
        object.__setattr__(self, "map_reverse", composite.Map(None, True))
        object.__setattr__(self, "hyper_map", composite.HyperMap())
        object.__setattr__(self, "hyper_map_reverse", composite.HyperMap(None, True))
        object.__setattr__(self, "use_parallel", False)
        object.__setattr__(self, "optim_filter", (True,) * self.param_length)
        object.__setattr__(self, "_unique", True)

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        """Whether the learning rate or the weight decay is a schedule (the step then
        advances ``global_step``)."""
        return bool(self.dynamic_lr or self.dynamic_weight_decay)

    def flatten_gradients(self, gradients):
        """Return ``gradients`` (cellax never flattens parameters into chunks)."""
        return gradients

    def decay_weight(self, gradients):
        """Add ``weight_decay * param`` to the gradient of every parameter whose decay flag is
        set; return the new tuple of gradients (unchanged without weight decay)."""
        if not self.exec_weight_decay:
            return gradients
        wds = self.get_weight_decay()
        if not self.is_group:
            wds = (wds,) * self.param_length
        out = []
        for wd, flag, param, grad in zip(wds, self.decay_flags, self._parameters, gradients):
            out.append(grad + param * Tensor(wd).astype(param.dtype) if flag else grad)
        return tuple(out)

    def gradients_centralization(self, gradients):
        """Centralise the gradients of the groups created with ``grad_centralization=True``
        (over every axis but the first, for gradients whose second dimension is a multiple
        of 16, as MindSpore does)."""
        if not self.is_group:
            return gradients
        out = []
        for flag, grad in zip(self.grad_centralization_flags, gradients):
            if flag and grad.ndim > 1 and grad.shape[1] % 16 == 0:
                grad = grad - grad.mean(axis=tuple(range(1, grad.ndim)), keep_dims=True)
            out.append(grad)
        return tuple(out)

    def scale_grad(self, gradients):
        """Multiply the gradients by ``1 / loss_scale`` when ``loss_scale`` is not 1."""
        if not self.need_scale:
            return gradients
        return tuple(g * self.reciprocal_scale.astype(g.dtype) for g in gradients)

    def _grad_sparse_indices_deduplicate(self, gradients):
        """Return ``gradients`` (dense gradients need no deduplication)."""
        return gradients

    def _set_base_target(self, value) -> None:
        """Validate and record a ``target`` assignment of a subclass's setter. cellax updates
        parameters where JAX computes, so the target changes no computation."""
        if not isinstance(value, str):
            raise TypeError(
                f"For 'Optimizer', the property 'target' must be string, but got {type(value)}."
            )
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(
                "For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend', "
                f"'GPU'], but got {value}."
            )
        object.__setattr__(self, "_target", value)

    def broadcast_params(self, optim_result):
        """Return ``optim_result``: with one process there is nothing to broadcast."""
        return optim_result


def _nonzero(wd) -> bool:
    return not isinstance(wd, (int, float)) or wd > 0
