"""Training callbacks: Callback, RunContext, LossMonitor, TimeMonitor, LambdaCallback,
ModelCheckpoint/CheckpointConfig."""

from __future__ import annotations

import os
import time

import numpy as np

from .._serialization import save_checkpoint
from .._tensor import Tensor

__all__ = [
    "Callback",
    "RunContext",
    "LossMonitor",
    "TimeMonitor",
    "LambdaCallback",
    "CheckpointConfig",
    "ModelCheckpoint",
    "History",
]


class RunContext:
    """What callbacks see: ``original_args()`` (a namespace of the run) and ``request_stop()``."""

    def __init__(self, original_args) -> None:
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self) -> None:
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base class; override any of the ``on_train_*`` / ``on_eval_*`` methods."""

    def on_train_begin(self, run_context): ...
    def on_train_epoch_begin(self, run_context): ...
    def on_train_step_begin(self, run_context): ...
    def on_train_step_end(self, run_context): ...
    def on_train_epoch_end(self, run_context): ...
    def on_train_end(self, run_context): ...
    def on_eval_begin(self, run_context): ...
    def on_eval_step_end(self, run_context): ...
    def on_eval_end(self, run_context): ...


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


class CheckpointConfig:
    """When ModelCheckpoint saves: every ``save_checkpoint_steps`` steps, keeping at most
    ``keep_checkpoint_max`` files."""

    def __init__(
        self,
        save_checkpoint_steps=1,
        save_checkpoint_seconds=0,
        keep_checkpoint_max=5,
        keep_checkpoint_per_n_minutes=0,
        integrated_save=True,
        async_save=False,
        saved_network=None,
        append_info=None,
        enc_key=None,
        enc_mode="AES-GCM",
        exception_save=False,
        **kwargs,
    ) -> None:
        for name, value in (
            ("save_checkpoint_steps", save_checkpoint_steps),
            ("keep_checkpoint_max", keep_checkpoint_max),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    f"For 'CheckpointConfig', '{name}' must be a non-negative int, got {value!r}."
                )
        self.save_checkpoint_steps = save_checkpoint_steps
        self.keep_checkpoint_max = keep_checkpoint_max
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = append_info


class ModelCheckpoint(Callback):
    """Save ``{prefix}-{epoch}_{step}.ckpt`` into ``directory`` as configured by ``config``."""

    def __init__(
        self,
        prefix: str = "CKP",
        directory: str | None = None,
        config: CheckpointConfig | None = None,
    ) -> None:
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError(
                f"For 'ModelCheckpoint', 'prefix' must be a file name, got {prefix!r}."
            )
        self.prefix = prefix
        self.directory = directory or os.getcwd()
        self.config = config or CheckpointConfig()
        self.saved: list[str] = []

    def on_train_step_end(self, run_context) -> None:
        args = run_context.original_args()
        steps = self.config.save_checkpoint_steps
        if steps and args.cur_step_num % steps == 0:
            self._save(args)

    def _save(self, args) -> None:
        os.makedirs(self.directory, exist_ok=True)
        step = (args.cur_step_num - 1) % args.batch_num + 1
        path = os.path.join(self.directory, f"{self.prefix}-{args.cur_epoch_num}_{step}.ckpt")
        network = self.config.saved_network or args.train_network
        save_checkpoint(network, path, async_save=self.config.async_save)
        self.saved.append(path)
        keep = self.config.keep_checkpoint_max
        while keep and len(self.saved) > keep:
            old = self.saved.pop(0)
            if os.path.exists(old):
                os.remove(old)
