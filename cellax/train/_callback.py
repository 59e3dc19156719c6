"""Training callbacks: Callback, RunContext, LossMonitor, TimeMonitor, LambdaCallback,
History (ModelCheckpoint is in _callback_checkpoint)."""

from __future__ import annotations

import contextlib
import time

import numpy as np

from .._tensor import Tensor

__all__ = [
    "Callback",
    "RunContext",
    "LossMonitor",
    "TimeMonitor",
    "LambdaCallback",
    "History",
]


class _MissingField(KeyError, AttributeError):
    """A missing ``cb_params`` field: MindSpore raises KeyError, ``hasattr`` wants
    AttributeError; this is both."""


class _InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys read and write as attributes (MindSpore's type)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise _MissingField(key) from None

    def __setattr__(self, key, value) -> None:
        self[key] = value


class RunContext:
    """What callbacks see: ``original_args()`` (the run's ``cb_params``, a dict whose keys
    also read as attributes) and ``request_stop()``.

    Args:
        original_args (dict): The information about the run.

    Raises:
        TypeError: If ``original_args`` is not a dict.

    Examples:
        >>> from cellax.train import RunContext
        >>> context = RunContext({"cur_epoch_num": 1})
        >>> context.request_stop()
        >>> context.get_stop_requested()
        True

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/train/mindspore.train.RunContext.html
    """

    def __init__(self, original_args: dict) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(
                f"For 'RunContext', the argument 'original_args' should be dict type, but got "
                f"{type(original_args)}."
            )
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> dict:
        return self._original_args

    def request_stop(self) -> None:
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base class of training and evaluation callbacks.

    ``Model`` enters every callback as a context manager for the run (``__enter__`` returns
    ``self``), then calls ``on_train_begin``, ``on_train_epoch_begin``,
    ``on_train_step_begin``/``on_train_step_end``, ``on_train_epoch_end``, ``on_train_end``
    (and the ``on_eval_*`` family in ``eval``). As in MindSpore, each ``on_*`` method calls
    the old-style method of the same stage (``begin``, ``epoch_begin``, ``step_begin``,
    ``step_end``, ``epoch_end``, ``end``), so overriding either works.

    Examples:
        >>> from cellax.train import Callback, RunContext
        >>> class Steps(Callback):
        ...     def step_end(self, run_context):
        ...         print("step", run_context.original_args()["cur_step_num"])
        >>> Steps().on_train_step_end(RunContext({"cur_step_num": 3}))
        step 3

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/train/mindspore.train.Callback.html
    """

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return None

    def begin(self, run_context): ...
    def epoch_begin(self, run_context): ...
    def step_begin(self, run_context): ...
    def step_end(self, run_context): ...
    def epoch_end(self, run_context): ...
    def end(self, run_context): ...

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


class _CallbackManager(Callback):
    """Runs a list of callbacks in order; as a context manager it enters each of them (in an
    ``ExitStack``, so they exit in reverse order even when training raises)."""

    def __init__(self, callbacks) -> None:
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for callback in callbacks:
                if not isinstance(callback, Callback):
                    raise TypeError(
                        "When the 'callbacks' is a list, the elements in 'callbacks' must be "
                        f"Callback functions, but got {callback!r}."
                    )
                self._callbacks.append(callback)
        elif callbacks is not None:
            raise TypeError(
                f"The 'callbacks' is not a Callback or a list of Callback, but got {callbacks!r}."
            )

    def __enter__(self):
        if self._stack is None:
            self._stack = contextlib.ExitStack().__enter__()
            entered = []
            for callback in self._callbacks:
                target = self._stack.enter_context(callback)
                entered.append(target if isinstance(target, Callback) else callback)
            self._callbacks = entered
        return self

    def __exit__(self, *exc_info):
        return self._stack.__exit__(*exc_info)


def _dispatch(event: str):
    def method(self, run_context):
        for callback in self._callbacks:
            getattr(callback, event)(run_context)

    method.__name__ = event
    return method


for _event in [name for name in vars(Callback) if name.startswith("on_")]:
    setattr(_CallbackManager, _event, _dispatch(_event))
del _event


def _loss_value(loss) -> float:
    if isinstance(loss, (tuple, list)):
        loss = loss[0]
    return float(np.mean(loss.asnumpy() if isinstance(loss, Tensor) else loss))


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps.

    Raises:
        ValueError: If ``per_print_times`` is not a non-negative int.
    """

    def __init__(self, per_print_times: int = 1) -> None:
        if (
            isinstance(per_print_times, bool)
            or not isinstance(per_print_times, int)
            or per_print_times < 0
        ):
            raise ValueError(
                f"For 'LossMonitor', 'per_print_times' must be a non-negative int, but got "
                f"{per_print_times!r}."
            )
        self._per_print_times = per_print_times

    def on_train_step_end(self, run_context) -> None:
        args = run_context.original_args()
        loss = _loss_value(args.net_outputs)
        step = (args.cur_step_num - 1) % args.batch_num + 1
        if np.isnan(loss) or np.isinf(loss):
            raise ValueError(
                f"For 'LossMonitor', the loss is {loss} at epoch {args.cur_epoch_num} step {step}."
            )
        if self._per_print_times and args.cur_step_num % self._per_print_times == 0:
            print(f"epoch: {args.cur_epoch_num} step: {step}, loss is {loss}", flush=True)


class TimeMonitor(Callback):
    """Print the epoch time and the mean step time at the end of every epoch."""

    def __init__(self, data_size: int | None = None) -> None:
        self.data_size = data_size

    def on_train_epoch_begin(self, run_context) -> None:
        self._start = time.perf_counter()

    def on_train_epoch_end(self, run_context) -> None:
        elapsed = (time.perf_counter() - self._start) * 1000
        steps = self.data_size or run_context.original_args().batch_num
        print(
            f"epoch time: {elapsed:.3f} ms, per step time: {elapsed / max(steps, 1):.3f} ms",
            flush=True,
        )


class LambdaCallback(Callback):
    """A callback built from functions given as keyword arguments (``on_train_step_end=...``)."""

    def __init__(self, **hooks) -> None:
        for name, fn in hooks.items():
            if not name.startswith("on_") or not hasattr(Callback, name):
                raise ValueError(f"For 'LambdaCallback', unknown callback method {name!r}.")
            setattr(self, name, fn)


class History(Callback):
    """Record the loss of every epoch in ``history['net_output']``."""

    def __init__(self) -> None:
        self.epoch: list = []
        self.history: dict = {}

    def on_train_epoch_end(self, run_context) -> None:
        args = run_context.original_args()
        self.epoch.append(args.cur_epoch_num)
        self.history.setdefault("net_output", []).append(_loss_value(args.net_outputs))
