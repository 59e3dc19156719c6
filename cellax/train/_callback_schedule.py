"""Callbacks that steer training: LearningRateScheduler (per step), EarlyStopping and
ReduceLROnPlateau (per epoch, on the loss or a validation metric from ``Model.fit``)."""

from __future__ import annotations

import math

import numpy as np

from .. import log as logger
from .._parameter import Parameter
from .._tensor import Tensor
from ._callback import Callback

__all__ = ["LearningRateScheduler", "EarlyStopping", "ReduceLROnPlateau"]

# MindSpore's list: in mode='auto' these are minimised, everything else maximised.
_SMALLER_IS_BETTER = (
    "hausdorff_distance mae mse loss perplexity mean_surface_distance "
    "root_mean_square_distance eval_loss"
).split()


class LearningRateScheduler(Callback):
    """After every training step, set the optimizer's learning rate to
    ``learning_rate_function(lr, cur_step_num)`` (when it changed).
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.LearningRateScheduler.html

    Args:
        learning_rate_function (Callable[[float, int], float]): New rate from the current rate
            (the float32 rate as NumPy prints it, as in MindSpore) and the global step number.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn, train
        >>> net = nn.Dense(2, 1)
        >>> opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        >>> model = train.Model(net, nn.MSELoss(), opt)
        >>> data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))] * 2
        >>> halve = train.LearningRateScheduler(lambda lr, step: lr * 0.5)
        >>> model.train(1, data, callbacks=[halve])
        >>> round(float(opt.learning_rate.asnumpy()), 6)
        0.025
    """

    def __init__(self, learning_rate_function) -> None:
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context) -> None:
        cb_params = run_context.original_args()
        learning_rate = cb_params.optimizer.learning_rate
        # MindSpore hands the function the float32 rate as NumPy prints it (at most 8
        # decimals: 0.1 / 3 is given as 0.03333334), not its exact value.
        current = float(np.array2string(learning_rate.asnumpy()))
        new = self.learning_rate_function(current, cb_params.cur_step_num)
        if not math.isclose(current, new, rel_tol=1e-10):
            value = np.asarray(new, np.float32).reshape(learning_rate.shape)
            learning_rate.set_data(Tensor(value))


def _rank_mean(value: np.ndarray) -> np.ndarray:
    """The monitored value averaged over the ranks of a data-parallel (or other parallel) run,
    as float32 as MindSpore's AllReduce of it; the value itself on one rank."""
    from .. import _parallel_state

    ranks = _parallel_state.world_size()
    if ranks == 1 or _parallel_state.mode() == "stand_alone":
        return value
    from jax.experimental import multihost_utils

    gathered = multihost_utils.process_allgather(np.asarray(value, np.float32))
    return np.asarray(np.sum(gathered, axis=0, dtype=np.float32)) / ranks


class _Watching(Callback):
    """A callback watching a monitored value for improvement by more than ``min_delta``:
    downwards when ``_minimise`` (set from ``mode``, and ``monitor`` under 'auto'), else up."""

    _conditioned: str  # what the missing-monitor warning says is conditioned on it

    def _watch(self, mode, monitor) -> None:
        self._minimise = mode == "min" or (mode == "auto" and monitor in _SMALLER_IS_BETTER)

    def is_improvement(self, current, reference) -> bool:
        if self._minimise:
            return bool(np.less(current, reference - self.min_delta))
        return bool(np.greater(current, reference + self.min_delta))

    def _monitor_value(self, cb_params):
        from .callback._callback import _handle_loss

        candidates = {}
        if self.monitor == "loss":
            value = _handle_loss(cb_params.get("net_outputs"))
            if isinstance(value, float) and not np.isfinite(value):
                logger.warning(f"Invalid {self.monitor}.")
        else:
            candidates = cb_params.get("eval_results", {}) or {}
            value = candidates.get(self.monitor)
        if value is None:
            logger.warning(
                f"{self._conditioned} is conditioned on {self.monitor}, which is not "
                f"available. Available choices are: {sorted({'loss', *candidates})}"
            )
            return None
        if isinstance(value, Tensor):
            value = value.asnumpy()
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError(f"{type(self).__name__} only supports scalar monitor now.")
        # MindSpore treats a monitored value of exactly 0 as missing.
        return _rank_mean(np.array(value)) if value else None


class EarlyStopping(_Watching):
    """Stop training when the monitored value stops improving: after each epoch, if it has not
    improved by ``min_delta`` for ``patience`` epochs, ``request_stop()``.
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.EarlyStopping.html

    Args:
        monitor (str): ``'loss'`` (the last step's loss) or a key of ``eval_results``
            (``'eval_loss'`` or a metric name, from ``Model.fit``). Default: ``'eval_loss'``.
        min_delta (float): Smallest change that counts as an improvement. Default: ``0``.
        patience (int): Epochs without improvement before stopping. Default: ``0``.
        verbose (bool): Print when stopping or restoring. Default: ``False``.
        mode (str): ``'min'``, ``'max'`` or ``'auto'`` (min for losses and distances).
            Default: ``'auto'``.
        baseline (float | None): Improvements only reset the wait once they beat this.
            Default: ``None``.
        restore_best_weights (bool): Load the weights of the best epoch when stopping.
            Default: ``False``.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``mode`` is not one of the three or ``patience`` is negative.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn, train
        >>> net = nn.Dense(2, 1)
        >>> model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.0))
        >>> data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))]
        >>> stop = train.EarlyStopping(monitor="loss", patience=1)
        >>> model.train(5, data, callbacks=[stop])
        >>> stop.stopped_epoch
        2
    """

    _conditioned = "Early stopping"

    def __init__(
        self,
        monitor: str = "eval_loss",
        min_delta: float = 0,
        patience: int = 0,
        verbose: bool = False,
        mode: str = "auto",
        baseline: float | None = None,
        restore_best_weights: bool = False,
    ) -> None:
        # The same checks (and messages) as ReduceLROnPlateau's, as in MindSpore.
        _check_type("monitor", monitor, str, "'str'")
        _check_type("min_delta", min_delta, (float, int), "one of '['float', 'int']'")
        _check_non_negative_int(patience)
        _check_bool(verbose)
        _check_type("mode", mode, str, "'str'")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        _check_bool(restore_best_weights)
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        # MindSpore keeps min_delta (not the given value) as the baseline when one is given.
        self.baseline = min_delta if baseline else None
        self.restore_best_weights = restore_best_weights
        self._watch(mode, monitor)
        self.on_train_begin(None)

    def on_train_begin(self, run_context) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._minimise else -np.inf
        self.best_weights_param_dict = None

    def _best_weights(self, network) -> dict:
        return {name: param.asnumpy().copy() for name, param in network.parameters_dict().items()}

    def on_train_epoch_end(self, run_context) -> None:
        cb_params = run_context.original_args()
        current = self._monitor_value(cb_params)
        if current is None:
            return
        network = cb_params.train_network
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = self._best_weights(network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = self._best_weights(network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                params = network.parameters_dict()
                for name, value in self.best_weights_param_dict.items():
                    params[name].set_data(Tensor(value))

    def on_train_end(self, run_context) -> None:
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")


def _check_type(name, value, types, type_names):
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(
            f"The type of '{name}' should be {type_names}, but got type '{type(value).__name__}'."
        )
    return value


def _check_bool(value):
    if not isinstance(value, bool):
        raise TypeError(f"The input value must be a bool, but got {type(value).__name__}.")
    return value


def _check_non_negative_int(value):
    if isinstance(value, bool):
        raise TypeError(
            f"The input value must be int and must >= 0, but got '{value}' with type 'bool'."
        )
    if not isinstance(value, int):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if value < 0:
        raise ValueError(
            f"The input value must be int and must >= 0, but got '{value}' with type 'int'."
        )
    return value


class ReduceLROnPlateau(_Watching):
    """Reduce the optimizer's learning rate when the monitored value stops improving: after
    ``patience`` epochs without an improvement of more than ``min_delta``, the rate becomes
    ``max(lr * factor, min_lr)``, then ``cooldown`` epochs pass before counting again.
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.ReduceLROnPlateau.html

    Args:
        monitor (str): ``'loss'`` (the last step's loss, the first output when the train
            network returns several) or a key of ``eval_results`` (``'eval_loss'`` or a metric
            name, from ``Model.fit``). Default: ``'eval_loss'``.
        factor (float): Multiplier of the rate, in (0, 1). Default: ``0.1``.
        patience (int): Epochs without improvement before reducing. Default: ``10``.
        verbose (bool): Print each reduction. Default: ``False``.
        mode (str): ``'min'``, ``'max'`` or ``'auto'`` (min for losses and distances).
            Default: ``'auto'``.
        min_delta (float): Smallest change that counts as an improvement. Default: ``1e-4``.
        cooldown (int): Epochs to wait after a reduction before counting again. Default: ``0``.
        min_lr (float): Lower bound of the rate. Default: ``0``.

    Raises:
        TypeError: If an argument has the wrong type (``factor`` must be a float).
        ValueError: If ``factor`` is not in (0, 1), ``patience`` or ``cooldown`` is negative,
            ``mode`` is not one of the three; at an epoch end, if the monitored value is not a
            scalar or the optimizer's learning rate is not a fixed Parameter (a dynamic or
            grouped rate: MindSpore raises the same ValueError).

    In a parallel run over several processes the monitored value is averaged over the ranks
    (as MindSpore's AllReduce does), so every rank takes the same decision. A monitored value
    of exactly 0 counts as missing, as in MindSpore.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn, train
        >>> net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
        >>> opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        >>> model = train.Model(net, nn.MSELoss(), opt)
        >>> data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))]
        >>> plateau = train.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0,
        ...                                   min_delta=1.0)
        >>> model.train(3, data, callbacks=[plateau])
        >>> round(float(opt.learning_rate.asnumpy()), 6)
        0.025
    """

    _conditioned = "Learning rate reduction"

    def __init__(
        self,
        monitor: str = "eval_loss",
        factor: float = 0.1,
        patience: int = 10,
        verbose: bool = False,
        mode: str = "auto",
        min_delta: float = 1e-4,
        cooldown: int = 0,
        min_lr: float = 0,
    ) -> None:
        self.monitor = _check_type("monitor", monitor, str, "'str'")
        if not isinstance(factor, float):
            raise TypeError(f"The input value must be 'float',  but got '{type(factor).__name__}'.")
        if not 0.0 < factor < 1.0:
            raise ValueError(
                f"The input value must be in range of (0.0, 1.0), but got {factor} with type "
                "'float'."
            )
        self.factor = factor
        self.patience = _check_non_negative_int(patience)
        self.verbose = _check_bool(verbose)
        self.mode = _check_type("mode", mode, str, "'str'")
        numbers = "one of '['float', 'int']'"
        self.min_delta = abs(_check_type("min_delta", min_delta, (float, int), numbers))
        self.cooldown = _check_non_negative_int(cooldown)
        self.min_lr = _check_type("min_lr", min_lr, (float, int), numbers)
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self._watch(mode, monitor)
        self.on_train_begin(None)

    def on_train_begin(self, run_context) -> None:
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._minimise else -np.inf

    def on_train_epoch_end(self, run_context) -> None:
        cb_params = run_context.original_args()
        learning_rate = cb_params.optimizer.learning_rate
        if not isinstance(learning_rate, Parameter):
            raise ValueError(
                "ReduceLROnPlateau does not support dynamic learning rate and group learning "
                "rate now."
            )
        current = self._monitor_value(cb_params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
            return
        if self.cooldown_counter > 0:
            return
        self.wait += 1
        if self.wait < self.patience:
            return
        # MindSpore compares and multiplies the float32 Parameter.
        rate = np.float32(np.asarray(learning_rate.asnumpy()).reshape(()))
        if rate > np.float32(self.min_lr):
            new = max(rate * np.float32(self.factor), self.min_lr)
            value = np.asarray(new, np.float32).reshape(learning_rate.shape)
            learning_rate.set_data(Tensor(value))
            if self.verbose:
                print(
                    f"Epoch {cb_params.cur_epoch_num:05d}: ReduceLROnPlateau reducing learning "
                    f"rate to {new!s}."
                )
        self.cooldown_counter = self.cooldown
        self.wait = 0
