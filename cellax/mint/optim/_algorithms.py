"""mint.optim.AdamW, Adam, SGD with PyTorch's update rules (as MindSpore's mint documents).

The math is the same Adam/SGD update cellax.nn uses, written per parameter in jnp inside the
base class's pure step (bias-corrected with ``eps`` outside the square root, as PyTorch).
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._parameter import ParameterTuple
from ._optimizer import Optimizer

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]


def _check_betas(api, betas, eps) -> None:
    if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] < 1.0):
        raise ValueError(f"For '{api}', 'betas' must be in [0, 1), but got {betas}.")
    if eps < 0:
        raise ValueError(f"For '{api}', 'eps' must be non-negative, but got {eps}.")


class _AdamFamily(Optimizer):
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False) -> None:  # fmt: skip
        _check_betas(type(self).__name__, betas, eps)
        params = list(params)
        any_amsgrad = amsgrad or any(isinstance(g, dict) and g.get("amsgrad") for g in params)
        self._slots = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq") if any_amsgrad else (
            "exp_avg", "exp_avg_sq",
        )  # fmt: skip
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize)  # fmt: skip
        super().__init__(params, defaults)
        if any_amsgrad:
            # as MindSpore: each amsgrad group holds its own 'max_exp_avg_sq' slots, which are
            # not attributes nor registered Parameters of the optimizer
            clones = self.__dict__.pop("max_exp_avg_sq")
            self._hide(clones)
            for number, group in enumerate(self.param_groups):
                if group["amsgrad"]:
                    mine = [c for c, g in zip(clones, self._lr_of) if g == number]
                    group["max_exp_avg_sq"] = ParameterTuple(mine)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        group = self._group_of[index]
        b1, b2 = group["betas"]
        wd, eps = group["weight_decay"], group["eps"]
        dtype = param.dtype
        if group["maximize"]:
            grad = -grad
        lr = lr.astype(dtype)
        if wd:
            if self._decoupled:
                param = param * (1 - lr * wd)
            else:
                grad = grad + wd * param
        t = (count + 1 - self._counter[1]).astype(jnp.float32)  # the step's number, from 1
        m = b1 * state[0] + (1 - b1) * grad
        v = b2 * state[1] + (1 - b2) * grad * grad
        second = v
        new_state = (m, v)
        if group["amsgrad"]:
            second = jnp.maximum(state[2], v)
            new_state += (second,)
        c1 = (1 - jnp.power(jnp.float32(b1), t)).astype(dtype)
        c2 = (1 - jnp.power(jnp.float32(b2), t)).astype(dtype)
        denom = jnp.sqrt(second) / jnp.sqrt(c2) + eps
        return param - lr / c1 * m / denom, new_state


_ADAM_ARGS = """
    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups.
        lr (Union[float, Parameter]): Learning rate. Default: ``1e-3``.
        betas (tuple[float, float]): Moment decay rates. Default: ``(0.9, 0.999)``.
        eps (float): Added to the denominator. Default: ``1e-8``.
        weight_decay (float): Default: ``{wd}``.
        amsgrad (bool): Use the running maximum of the second moment. Default: ``False``.
        maximize (bool): Ascend instead of descend. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter, in ``optimizer.parameters`` order.

    Raises:
        ValueError: If ``lr``, ``betas`` or ``eps`` is out of range.
        KeyError: If a group has an unknown key.
"""


class AdamW(_AdamFamily):
    __doc__ = (
        """AdamW: Adam with decoupled weight decay ``p *= 1 - lr * weight_decay``, then
    ``m = b1 m + (1-b1) g``, ``v = b2 v + (1-b2) g^2``,
    ``p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps)``.
"""
        + _ADAM_ARGS.format(wd="1e-2")
        + """
    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = mint.optim.AdamW([w], lr=0.1, weight_decay=0.0)
        >>> _ = opt((ms.Tensor([0.5, -2.0]),))
        >>> print(w.asnumpy().round(4))
        [0.9 2.1]
"""
    )

    _counter = ("state_step", -1.0, np.float32, (1,))  # MindSpore's AdamW starts it at -1

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False) -> None:  # fmt: skip
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """Alias of :class:`AdamW` (cellax's step is always one fused XLA program).

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = mint.optim.FusedAdamW([w], lr=0.1, weight_decay=0.0)((ms.Tensor([1.0]),))
        >>> print(w.asnumpy().round(4))
        [0.9]
    """


class Adam(_AdamFamily):
    __doc__ = (
        """Adam with L2 weight decay added to the gradient (``g += weight_decay * p``).
"""
        + _ADAM_ARGS.format(wd="0.0")
        + """
    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = mint.optim.Adam([w], lr=0.1)
        >>> _ = opt((ms.Tensor([0.5, -2.0]),))
        >>> print(w.asnumpy().round(4))
        [0.9 2.1]
"""
    )

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False) -> None:  # fmt: skip
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


def _as_float(lr) -> float:
    return float(lr.asnumpy()) if hasattr(lr, "asnumpy") else float(lr)


class SGD(Optimizer):
    """Stochastic gradient descent with PyTorch's momentum rule: ``g += weight_decay * p``;
    ``buf = g`` on the first step, then ``buf = momentum * buf + (1 - dampening) * g``;
    ``p -= lr * (g + momentum * buf if nesterov else buf)``.

    As in MindSpore 2.10, the step uses each group's ``'lr_float'`` (the learning rate given
    when the optimizer was built): assigning a group's ``'lr'`` Parameter, which is what the
    lr schedulers do, does not change SGD's steps (it does change Adam's and AdamW's).

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups.
        lr (Union[float, Parameter]): Learning rate (required).
        momentum (float): Default: ``0``.
        dampening (float): Default: ``0``.
        weight_decay (float): Default: ``0``.
        nesterov (bool): Default: ``False``.
        maximize (bool): Default: ``False``.

    Raises:
        ValueError: If ``lr``/``momentum``/``weight_decay`` is negative, or ``nesterov`` is
            set without momentum or with dampening.

    Examples:
        >>> import cellax as ms
        >>> from cellax import mint
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = mint.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     _ = opt((ms.Tensor([1.0]),))
        >>> print(w.asnumpy())
        [0.71]
    """

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False) -> None:  # fmt: skip
        if momentum < 0 or weight_decay < 0:
            raise ValueError(
                f"For 'SGD', 'momentum' and 'weight_decay' must be non-negative, but got "
                f"momentum={momentum}, weight_decay={weight_decay}."
            )
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(
                "For 'SGD', nesterov momentum requires a positive 'momentum' and zero 'dampening'."
            )
        self._slots = ("momentum_buf",)
        self._counter = ("step_t", 0, np.int32, ())
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, lr_float=_as_float(lr))  # fmt: skip
        params = [
            dict(g, lr_float=_as_float(g["lr"])) if isinstance(g, dict) and g.get("lr") else g
            for g in params
        ]
        super().__init__(params, defaults)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        group = self._group_of[index]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        new_state = None
        momentum = group["momentum"]
        lr = jnp.asarray(group["lr_float"], param.dtype)  # as MindSpore 2.10: not the lr Parameter
        if momentum:
            blended = momentum * state[0] + (1 - group["dampening"]) * grad
            buf = jnp.where(count == 0, grad, blended)
            grad = grad + momentum * buf if group["nesterov"] else buf
            new_state = (buf,)
        return param - lr * grad, new_state
