"""The optimizers: SGD, Momentum, Adam, AdamWeightDecay, RMSProp, Adagrad, Adadelta, Lamb.

Each update is an optax ``GradientTransformation`` applied to one parameter with
``tx.update(grad, state, param)``; the optax state is rebuilt from, and stored back into,
the optimizer's slot Parameters (named like MindSpore's: ``moment1.<param>`` ...).
Where MindSpore's kernel differs from every optax transformation (SGD's dampening and first
step, Adam's bias correction outside ``eps``, AMSGrad on the raw second moment, no bias
correction in AdamWeightDecay) a small transformation in optax's style
(``_optax_transforms.py``) does that part.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..._errors import BOOL_SHORT, check_bool, check_bools
from ..._errors import check_float_in_open_unit
from ..._errors import check_number
from ._optax_transforms import (
    _AdamState,
    _apply,
    _scale_by_mindspore_adam,
    _scale_by_mindspore_sgd,
    _SgdState,
)
from ._optimizer import Optimizer

__all__ = [
    "SGD",
    "Momentum",
    "Adam",
    "AdamWeightDecay",
    "RMSProp",
    "Adagrad",
    "Adadelta",
    "Lamb",
]


# --------------------------------------------------------------------------------------------
# optimizers


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening and Nesterov.

    With momentum, the first step stores the gradient as the velocity; later steps use
    ``v = momentum * v + (1 - dampening) * grad``. The update is ``p -= lr * v`` (Nesterov:
    ``p -= lr * (grad + momentum * v)``). Weight decay is added to the gradient.

    Differences from MindSpore: with ``momentum=0`` the update is plain ``p -= lr * grad`` and
    the ``accum``/``stat`` state is left untouched (MindSpore stores the last gradient in
    ``accum``), so the compiled step matches ``optax.sgd``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``0.1``.
        momentum (float): Default: ``0.0``.
        dampening (float): Default: ``0.0``.
        weight_decay (Union[float, int]): Default: ``0.0``.
        nesterov (bool): Needs ``momentum > 0`` and ``dampening == 0``. Default: ``False``.
        loss_scale (float): Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If an argument has the wrong type, or ``weight_decay`` is a Cell.
        ValueError: If ``momentum``/``dampening`` is negative or ``nesterov`` is used with
            zero momentum or non-zero dampening.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = nn.SGD([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor([1.0, -1.0]),))
        >>> print(w.asnumpy())
        [0.9 2.1]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.SGD.html
    """

    def __init__(
        self,
        params,
        learning_rate=0.1,
        momentum=0.0,
        dampening=0.0,
        weight_decay=0.0,
        nesterov=False,
        loss_scale=1.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        api = "SGD"
        momentum = check_number(api, "momentum", momentum)
        self.dampening = check_number(api, "dampening", dampening)
        self.nesterov = check_bool(api, "nesterov", nesterov, BOOL_SHORT)
        if nesterov and (momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError(
                f"For '{api}', nesterov=True needs momentum > 0 and dampening == 0, but got "
                f"momentum={momentum}, dampening={self.dampening}."
            )
        if self.dynamic_weight_decay:
            raise TypeError(
                f"For '{api}', a dynamic (Cell) 'weight_decay' is not supported: pass a float."
            )
        self._add_hyper("momentum", momentum)
        self.accum = self._clone_state("accum", 0.0)
        self.stat = self._clone_state("stat", 1.0)
        # Without momentum the velocity is just the gradient: plain SGD, no state to update.
        self._plain = momentum == 0.0 and not nesterov

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        if self._plain:
            return _apply(optax.scale_by_learning_rate(lr), grad, optax.EmptyState(), param)[
                0
            ], None
        tx = optax.chain(
            _scale_by_mindspore_sgd(hyper[0], np.float32(self.dampening), self.nesterov),
            optax.scale_by_learning_rate(lr),
        )
        new_param, (sgd_state, _) = _apply(tx, grad, (_SgdState(*state), optax.EmptyState()), param)
        return new_param, (sgd_state.accum, sgd_state.stat)


class Momentum(Optimizer):
    """Momentum: ``v = momentum * v + grad; p -= lr * v`` (``optax.sgd`` with momentum).

    With ``use_nesterov``: ``p -= lr * (grad + momentum * v)``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): The rate.
        momentum (float): The momentum, >= 0.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_nesterov (bool): Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If ``momentum`` is not a float or ``use_nesterov`` not a bool.
        ValueError: If ``momentum`` is negative.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = nn.Momentum([w], learning_rate=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     _ = opt((ms.Tensor([1.0]),))
        >>> print(w.asnumpy())
        [0.71]

    Differences from MindSpore: with ``use_nesterov=True`` cellax follows the documented
    rule above (as MindSpore's SGD and ``optax.sgd`` do); MindSpore 2.x's CPU kernel uses
    the velocity from before the step in the Nesterov term.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Momentum.html
    """

    def __init__(
        self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, float):
            raise TypeError(
                f"For 'Momentum', 'momentum' must be a float, but got {momentum!r} of type "
                f"{type(momentum).__name__}."
            )
        check_number("Momentum", "momentum", momentum)
        self.use_nesterov = check_bool("Momentum", "use_nesterov", use_nesterov, BOOL_SHORT)
        self._add_hyper("momentum", momentum)
        self.params = self._parameters
        self.moments = self._clone_state("moments", 0.0)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        tx = optax.sgd(lr, momentum=hyper[0], nesterov=self.use_nesterov)
        new_param, (trace_state, _) = _apply(
            tx, grad, (optax.TraceState(trace=state[0]), optax.EmptyState()), param
        )
        return new_param, (trace_state.trace,)


class _AdamBase(Optimizer):
    def _check_adam_args(self, beta1, beta2, eps) -> None:
        api = type(self).__name__
        # MindSpore keeps the hyperparameters as float32 Tensors; so do we (same rounding).
        self._beta1 = np.float32(check_float_in_open_unit(api, "beta1", beta1))
        self._beta2 = np.float32(check_float_in_open_unit(api, "beta2", beta2))
        if isinstance(eps, bool) or not isinstance(eps, float):
            raise TypeError(f"For '{api}', 'eps' must be a float, but got {eps!r}.")
        self._eps = np.float32(check_number(api, "eps", eps, positive=True))


class Adam(_AdamBase):
    """Adam (Kingma & Ba) with MindSpore's conventions.

    ``m = b1 m + (1-b1) g``, ``v = b2 v + (1-b2) g^2``,
    ``p -= lr * sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps)``: ``eps`` is added to the
    uncorrected ``sqrt(v)``. ``weight_decay`` is an L2 term added to the gradient (use
    :class:`AdamWeightDecay` for decoupled decay). ``use_nesterov`` uses
    ``b1 m + (1-b1) g`` in place of ``m``; ``use_amsgrad`` divides by ``sqrt(max v)``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``1e-3``.
        beta1 (float): In (0, 1). Default: ``0.9``.
        beta2 (float): In (0, 1). Default: ``0.999``.
        eps (float): Default: ``1e-8``.
        use_locking (bool): Accepted. Default: ``False``.
        use_nesterov (bool): Default: ``False``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        use_amsgrad (bool): Default: ``False``.
        kwargs: ``use_lazy`` / ``use_offload`` (accepted; dense updates either way).

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``beta1``/``beta2`` is outside (0, 1) or ``eps`` is not positive.
        KeyError: If ``kwargs`` has a key other than ``use_lazy``/``use_offload``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = nn.Adam([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor([0.5, -2.0]),))
        >>> print(w.asnumpy())
        [0.90000004 2.1       ]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Adam.html
    """

    def __init__(
        self,
        params,
        learning_rate=1e-3,
        beta1=0.9,
        beta2=0.999,
        eps=1e-8,
        use_locking=False,
        use_nesterov=False,
        weight_decay=0.0,
        loss_scale=1.0,
        use_amsgrad=False,
        **kwargs,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        unknown = set(kwargs) - {"use_lazy", "use_offload"}
        if unknown:
            raise KeyError(
                f"For 'Adam', the only extra keyword arguments are 'use_lazy' and "
                f"'use_offload', but got {sorted(unknown)}."
            )
        self._check_adam_args(beta1, beta2, eps)
        use_lazy, use_offload = kwargs.get("use_lazy", False), kwargs.get("use_offload", False)
        flags = dict(use_locking=use_locking, use_nesterov=use_nesterov, use_amsgrad=use_amsgrad)
        check_bools("Adam", BOOL_SHORT, **flags, use_lazy=use_lazy, use_offload=use_offload)
        self.use_locking, self.use_nesterov, self.use_amsgrad = flags.values()
        self.use_lazy, self.use_offload = use_lazy, use_offload
        if self.use_lazy and self.use_offload:
            raise ValueError("For 'Adam', 'use_lazy' and 'use_offload' can not both be True.")
        if use_amsgrad and (self.use_lazy or self.use_offload):
            raise ValueError("For 'Adam', 'use_amsgrad' can not be used with lazy or offload.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self._add_hyper("beta1_power", 1.0)
        self._add_hyper("beta2_power", 1.0)
        self.moment1 = self._clone_state("moment1", 0.0)
        self.moment2 = self._clone_state("moment2", 0.0)
        if use_amsgrad:
            self.vhat = self._clone_state("vhat", 0.0)

    def _advance_hyper(self, hyper):
        return [hyper[0] * self._beta1, hyper[1] * self._beta2]

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        beta1_power, beta2_power = hyper
        correction = jnp.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
        tx = optax.chain(
            _scale_by_mindspore_adam(
                self._beta1, self._beta2, self._eps, correction, self.use_nesterov, self.use_amsgrad
            ),
            optax.scale_by_learning_rate(lr),
        )
        nu_max = state[2] if self.use_amsgrad else state[1]
        adam_state = _AdamState(state[0], state[1], nu_max)
        new_param, (adam_state, _) = _apply(tx, grad, (adam_state, optax.EmptyState()), param)
        new_state = (adam_state.mu, adam_state.nu)
        if self.use_amsgrad:
            new_state += (adam_state.nu_max,)
        return new_param, new_state


class AdamWeightDecay(_AdamBase):
    """Adam with decoupled weight decay and no bias correction (MindSpore's AdamWeightDecay).

    ``update = m / (sqrt(v) + eps) + weight_decay * p``; ``p -= lr * update``. Parameters whose
    name contains 'beta' or 'gamma' are not decayed unless given in a group.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``1e-3``.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``beta1``/``beta2`` is outside (0, 1) or ``eps`` is not positive.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = nn.AdamWeightDecay([w], learning_rate=0.1, weight_decay=0.5)
        >>> _ = opt((ms.Tensor([2.0]),))
        >>> print(w.asnumpy())
        [0.6337751]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.AdamWeightDecay.html
    """

    _decay_in_gradient = False

    def __init__(
        self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0
    ) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self._check_adam_args(beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._clone_state("adam_m", 0.0)
        self.moments2 = self._clone_state("adam_v", 0.0)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        tx = optax.chain(
            _scale_by_mindspore_adam(self._beta1, self._beta2, self._eps, 1.0),
            optax.add_decayed_weights(weight_decay.astype(param.dtype)),
            optax.scale_by_learning_rate(lr),
        )
        adam_state = _AdamState(state[0], state[1], state[1])
        init = (adam_state, optax.EmptyState(), optax.EmptyState())
        new_param, (adam_state, _, _) = _apply(tx, grad, init, param)
        return new_param, (adam_state.mu, adam_state.nu)


class RMSProp(Optimizer):
    """RMSProp (``optax.rmsprop``) with MindSpore's conventions.

    ``ms = decay ms + (1-decay) g^2`` (``ms`` starts at 1), ``mom = momentum mom +
    lr g / sqrt(ms + epsilon)``, ``p -= mom``. ``centered`` uses ``ms - mg^2`` with ``mg`` the
    running mean of the gradient.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``0.1``.
        decay (float): Default: ``0.9``.
        momentum (float): Default: ``0.0``.
        epsilon (float): Added inside the square root. Default: ``1e-10``.
        use_locking (bool): Accepted. Default: ``False``.
        centered (bool): Default: ``False``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``decay``/``momentum`` is negative or ``epsilon`` not positive.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = nn.RMSProp([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor([2.0]),))
        >>> print(w.asnumpy())
        [0.8245884]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.RMSProp.html
    """

    def __init__(
        self,
        params,
        learning_rate=0.1,
        decay=0.9,
        momentum=0.0,
        epsilon=1e-10,
        use_locking=False,
        centered=False,
        loss_scale=1.0,
        weight_decay=0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        api = "RMSProp"
        for name, value in (("decay", decay), ("momentum", momentum), ("epsilon", epsilon)):
            if isinstance(value, bool) or not isinstance(value, float):
                raise TypeError(f"For '{api}', '{name}' must be a float, but got {value!r}.")
        self.decay = check_number(api, "decay", decay)
        self.momentum = check_number(api, "momentum", momentum)
        self.epsilon = check_number(api, "epsilon", epsilon, positive=True)
        self.use_locking = check_bool(api, "use_locking", use_locking, BOOL_SHORT)
        self.centered = check_bool(api, "centered", centered, BOOL_SHORT)
        self._decay, self._momentum, self._epsilon = np.float32([decay, momentum, epsilon])
        if centered:
            self.mg = self._clone_state("mean_grad", 0.0)
        self.ms = self._clone_state("mean_square", 1.0)
        self.moment = self._clone_state("moment", 0.0)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        if self.centered:
            mean_grad, mean_square, moment = state
            rms = optax.scale_by_stddev(self._decay, self._epsilon, initial_scale=1.0)
            rms_state = optax.ScaleByRStdDevState(mu=mean_grad, nu=mean_square)
        else:
            mean_square, moment = state
            rms = optax.scale_by_rms(self._decay, self._epsilon, initial_scale=1.0)
            rms_state = optax.ScaleByRmsState(nu=mean_square)
        tx = optax.chain(rms, optax.scale_by_learning_rate(lr), optax.trace(self._momentum))
        # optax's trace holds -lr * (...) where MindSpore's moment holds +lr * (...).
        init = (rms_state, optax.EmptyState(), optax.TraceState(trace=-moment))
        new_param, (rms_state, _, trace_state) = _apply(tx, grad, init, param)
        if self.centered:
            return new_param, (rms_state.mu, rms_state.nu, -trace_state.trace)
        return new_param, (rms_state.nu, -trace_state.trace)


class Adagrad(Optimizer):
    """Adagrad (``optax.adagrad`` without epsilon): ``accum += g^2; p -= lr g / sqrt(accum)``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        accum (float): Initial accumulator value, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``0.001``.
        update_slots (bool): Whether to update the accumulator. Default: ``True``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If ``accum`` is not a float or ``update_slots`` not a bool.
        ValueError: If ``accum`` is negative.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = nn.Adagrad([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor([2.0]),))
        >>> print(w.asnumpy())
        [0.90122706]

    Differences from MindSpore: ``update_slots=False`` keeps the accumulator fixed, as
    documented; MindSpore 2.x's CPU kernel updates it anyway.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Adagrad.html
    """

    def __init__(
        self,
        params,
        accum=0.1,
        learning_rate=0.001,
        update_slots=True,
        loss_scale=1.0,
        weight_decay=0.0,
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(accum, bool) or not isinstance(accum, float):
            raise TypeError(f"For 'Adagrad', 'accum' must be a float, but got {accum!r}.")
        self.initial_accum = check_number("Adagrad", "accum", accum)
        self.update_slots = check_bool("Adagrad", "update_slots", update_slots, BOOL_SHORT)
        self.accum = self._clone_state("accum", accum)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        (accum,) = state
        if not self.update_slots:
            # optax's scale_by_rss always accumulates; a frozen accumulator only rescales.
            return param - lr * grad * jax.lax.rsqrt(accum), (accum,)
        tx = optax.chain(
            optax.scale_by_rss(self.initial_accum, eps=0.0), optax.scale_by_learning_rate(lr)
        )
        init = (optax.ScaleByRssState(sum_of_squares=accum), optax.EmptyState())
        new_param, (rss_state, _) = _apply(tx, grad, init, param)
        return new_param, (rss_state.sum_of_squares,)


class Adadelta(Optimizer):
    """Adadelta (``optax.scale_by_adadelta``) scaled by ``learning_rate``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]):
            Default: ``1.0``.
        rho (float): Decay of the running averages, in [0, 1]. Default: ``0.9``.
        epsilon (float): Default: ``1e-6``.
        loss_scale (float): Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **grads** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If ``rho``/``epsilon`` is not a float.
        ValueError: If ``rho`` is outside [0, 1] or ``epsilon`` negative.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = nn.Adadelta([w])
        >>> _ = opt((ms.Tensor([2.0]),))
        >>> print(w.asnumpy())
        [0.99683774]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Adadelta.html
    """

    def __init__(
        self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0
    ) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("rho", rho), ("epsilon", epsilon)):
            if isinstance(value, bool) or not isinstance(value, float):
                raise TypeError(f"For 'Adadelta', '{name}' must be a float, but got {value!r}.")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"For 'Adadelta', 'rho' must be in [0, 1], but got {rho}.")
        self.rho = rho
        self.epsilon = check_number("Adadelta", "epsilon", epsilon)
        self.accum = self._clone_state("accum", 0.0)
        self.accum_update = self._clone_state("accum_update", 0.0)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        tx = optax.chain(
            optax.scale_by_adadelta(np.float32(self.rho), np.float32(self.epsilon)),
            optax.scale_by_learning_rate(lr),
        )
        init = (optax.ScaleByAdaDeltaState(e_g=state[0], e_x=state[1]), optax.EmptyState())
        new_param, (delta_state, _) = _apply(tx, grad, init, param)
        return new_param, (delta_state.e_g, delta_state.e_x)


class Lamb(Optimizer):
    """LAMB (``optax.lamb``): Adam directions plus decoupled weight decay, scaled per
    parameter by the trust ratio ``||p|| / ||update||``.

    Args:
        params (Union[list[Parameter], list[dict]]): See :class:`Optimizer`.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): The rate.
        beta1 (float): Default: ``0.9``.
        beta2 (float): Default: ``0.999``.
        eps (float): Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - One per parameter.

    Outputs:
        bool, True.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``beta1``/``beta2`` is outside (0, 1) or ``eps`` is not positive.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([3.0, 4.0]), name="w")
        >>> opt = nn.Lamb([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor([1.0, 1.0]),))
        >>> print(w.asnumpy())
        [2.6464467 3.6464467]

    Differences from MindSpore: MindSpore's CPU backend has no Lamb kernel; cellax follows
    ``optax.lamb`` (bias-corrected moments, trust ratio 1 where a norm is zero).

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Lamb.html
    """

    _decay_in_gradient = False

    def __init__(
        self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0
    ) -> None:
        super().__init__(learning_rate, params, weight_decay)
        api = "Lamb"
        # MindSpore keeps the hyperparameters as float32 Tensors; so do we (same rounding).
        self._beta1 = np.float32(check_float_in_open_unit(api, "beta1", beta1))
        self._beta2 = np.float32(check_float_in_open_unit(api, "beta2", beta2))
        if isinstance(eps, bool) or not isinstance(eps, float):
            raise TypeError(f"For '{api}', 'eps' must be a float, but got {eps!r}.")
        self._eps = np.float32(check_number(api, "eps", eps, positive=True))
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.params = self._parameters
        self.moments1 = self._clone_state("lamb_m", 0.0)
        self.moments2 = self._clone_state("lamb_v", 0.0)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        tx = optax.chain(
            optax.scale_by_adam(self._beta1, self._beta2, self._eps),
            optax.add_decayed_weights(weight_decay.astype(param.dtype)),
            optax.scale_by_trust_ratio(),
            optax.scale_by_learning_rate(lr),
        )
        adam_state = optax.ScaleByAdamState(count=count, mu=state[0], nu=state[1])
        empty = optax.EmptyState()
        new_param, (adam_state, *_) = _apply(tx, grad, (adam_state, empty, empty, empty), param)
        return new_param, (adam_state.mu, adam_state.nu)
