"""OnRequestExit: save a checkpoint and an export of the network when the process receives a
signal (or a JSON config file asks), as ``mindspore.train.OnRequestExit`` does."""

from __future__ import annotations

import json
import os
import signal
import threading

import numpy as np


from .. import _parallel_state
from .. import log as logger
from .._context import get_context
from .._serialization import export, load_checkpoint, save_checkpoint
from ._callback import Callback

__all__ = ["OnRequestExit", "TrainFaultTolerance"]

_GRACEFUL_ENV = "MS_ENABLE_GRACEFUL_EXIT"


def _check_isinstance(name, value, cls):
    if not isinstance(value, cls):
        raise ValueError(f"The parameter '{name}' must be isinstance of {cls}, but got {value}.")
    return value


def _any_rank(flag: bool) -> bool:
    """Whether any rank of a multi-process run raised ``flag`` (every rank calls this at the
    same step, as MindSpore's in-step AllReduce of the requests)."""
    from jax.experimental import multihost_utils

    return bool(np.any(multihost_utils.process_allgather(np.asarray(flag, np.int32))))


class OnRequestExit(Callback):
    """Respond to an exit request (the signal ``sig``, or ``{"GracefulExit": 1}`` in
    ``config_file``) by saving the network's checkpoint (``<file_name>_train.ckpt``) and its
    export (``<file_name>_train.mindir``) under ``<directory>/rank_<device_id>/``.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.OnRequestExit.html

    What happens on a request follows MindSpore 2.10:

    - Training, by default: the handler only records the request; training runs to its end
      and ``on_train_end`` saves the checkpoint and export. Training does *not* stop early.
    - Training with the environment variable ``MS_ENABLE_GRACEFUL_EXIT=1`` (read when the
      callback is built): at the next step's beginning the request is taken up, and at that
      step's end the checkpoint (with ``epoch_num``, ``step_num``, ``batch_num``,
      ``global_step`` and, with a loss scale manager, ``loss_scale`` appended) and the export
      are saved and the run stops (``request_stop``); ``on_train_end`` then saves again.
      ``config_file`` is only read in this mode.
    - In a parallel run over several processes (with ``MS_ENABLE_GRACEFUL_EXIT=1``), a request
      seen by any rank is spread to all of them at the step's beginning (MindSpore reduces
      its ``graceful_init`` flags over the ranks inside the step), so every rank saves its
      checkpoint and stops at the end of the same step.
    - Evaluation: the evaluation stops after the current step and ``on_eval_end`` saves
      ``<file_name>_eval.ckpt`` and ``.mindir`` from the eval network.
    - At the beginning of training (evaluation), an existing ``_train.ckpt`` (``_eval.ckpt``,
      else ``_train.ckpt``) is loaded into the network, so a restarted run resumes.

    The signal handler is installed at ``on_train_begin``/``on_eval_begin`` (in the main
    thread) and left in place afterwards, as in MindSpore.

    Args:
        save_ckpt (bool): Save a checkpoint. Default: ``True``.
        save_mindir (bool): Save the export (cellax's StableHLO ``.mindir`` artifact, see
            :func:`cellax.export`). Default: ``True``.
        file_name (str): Stem of the saved files. Default: ``'Net'``.
        directory (str): Where the ``rank_<id>`` folder is made (at construction, when
            anything is to be saved). Default: ``'./'``.
        config_file (str): A JSON file; ``{"GracefulExit": 1}`` in it requests the exit.
            Default: ``None``.
        sig (int): The signal that requests the exit; not SIGKILL. Default: ``signal.SIGTERM``.

    Raises:
        ValueError: If ``save_ckpt`` or ``save_mindir`` is not a bool, ``sig`` is not an int,
            or ``sig`` is SIGKILL.
        TypeError: If ``directory`` is not a path.

    Differences from MindSpore: the ``.mindir`` file is cellax's own export format (MindSpore
    cannot read it); with ``MS_ENABLE_GRACEFUL_EXIT=1`` MindSpore's TrainOneStepCell gains
    ``graceful_exit``/``graceful_init`` Parameters (saved in the checkpoint too), cellax's
    does not: the request is kept on the callback. Over several ranks, MindSpore stops only
    the ranks that saw the request themselves (the reduced flag is read only where a request
    was taken up); cellax stops them all at the same step, which is what the reduction is for.

    Examples:
        >>> import os, signal, tempfile
        >>> import numpy as np
        >>> from cellax import nn, train
        >>> net = nn.Dense(2, 1)
        >>> model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        >>> data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))] * 2
        >>> directory = tempfile.mkdtemp()
        >>> on_exit = train.OnRequestExit(save_mindir=False, directory=directory,
        ...                               sig=signal.SIGUSR1)
        >>> ask = train.LambdaCallback(
        ...     on_train_step_end=lambda ctx: os.kill(os.getpid(), signal.SIGUSR1))
        >>> model.train(1, data, callbacks=[ask, on_exit])
        >>> os.listdir(os.path.join(directory, "rank_0"))
        ['Net_train.ckpt']
    """

    def __init__(
        self,
        save_ckpt: bool = True,
        save_mindir: bool = True,
        file_name: str = "Net",
        directory: str = "./",
        config_file: str | None = None,
        sig: int = signal.SIGTERM,
    ) -> None:
        self.save_ckpt = _check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = _check_isinstance("save_mindir", save_mindir, bool)
        self.sig = _check_isinstance("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.use_graceful = os.environ.get(_GRACEFUL_ENV) == "1"
        from ..communication import get_group_size

        self.is_distributed = get_group_size() > 1
        self.integrated_save = True
        self.stop_train = False
        self.need_do_step_end = False
        if self.save_ckpt or self.save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    def on_train_begin(self, run_context) -> None:
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            network = run_context.original_args().train_network
            load_checkpoint(f"{self.train_name}.ckpt", net=network)

    def on_train_step_begin(self, run_context) -> None:
        with self.lock:
            if not self.use_graceful:
                return
            asked = self._check_config_info() or self.exit
            if self.is_distributed:
                asked = _any_rank(asked)
            if asked:
                self.need_do_step_end = True

    def on_train_step_end(self, run_context) -> None:
        self._do_step_end(run_context)

    def on_train_epoch_end(self, run_context) -> None:
        self._do_step_end(run_context)

    def on_train_end(self, run_context) -> None:
        if not self.exit:
            return
        cb_params = run_context.original_args()
        self._save(cb_params.train_network, self._name("train"), cb_params.train_dataset_element)

    def on_eval_begin(self, run_context) -> None:
        signal.signal(self.sig, self._handle_signal)
        if not self.save_ckpt:
            return
        network = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=network)
                break

    def on_eval_step_end(self, run_context) -> None:
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context) -> None:
        if not self.exit:
            return
        cb_params = run_context.original_args()
        self._save(cb_params.eval_network, self._name("eval"), cb_params.eval_dataset_element)

    def _name(self, kind):
        # Only set when something is to be saved, as in MindSpore.
        return getattr(self, f"{kind}_name", None)

    def _handle_signal(self, signum, frame) -> None:
        self.exit = True

    def _save(self, network, name, inputs, append_dict=None) -> None:
        if not (self.save_ckpt or self.save_mindir):
            return
        if self.save_ckpt:
            # An appended name that is also a Parameter's (``global_step``) replaces its value,
            # as save_checkpoint does in MindSpore.
            save_checkpoint(
                network, name, integrated_save=self.integrated_save, append_dict=append_dict
            )
        if self.save_mindir:
            export(network, *inputs, file_name=name, file_format="MINDIR")

    def _do_step_end(self, run_context) -> None:
        with self.lock:
            if self.stop_train or not self.need_do_step_end:
                return
            logger.warning("Graceful exit is triggered, stop training.")
            cb_params = run_context.original_args()
            append_dict = None
            if self.save_ckpt:
                append_dict = {
                    "epoch_num": cb_params.cur_epoch_num,
                    "step_num": cb_params.cur_step_num,
                    "batch_num": cb_params.batch_num,
                }
                manager = cb_params.get("loss_scale_mananger")
                if manager is not None:
                    append_dict["loss_scale"] = manager.get_loss_scale()
                optimizer = cb_params.get("optimizer")
                if optimizer is None:
                    optimizer = cb_params.network.optimizer
                append_dict["global_step"] = int(optimizer.global_step.asnumpy().reshape(-1)[0])
                if self.is_distributed:  # each rank saves its own slices, as MindSpore
                    self.integrated_save = _parallel_state.mode() == "auto_parallel"
            self._save(
                cb_params.train_network,
                self._name("train"),
                cb_params.train_dataset_element,
                append_dict,
            )
            run_context.request_stop()
            self.stop_train = True

    def _check_config_info(self) -> bool:
        path = self.remote_config_file
        if path is None or not os.path.exists(path):
            return False
        with open(path, encoding="utf-8") as file:
            try:
                config = json.load(file)
            except json.JSONDecodeError as exc:
                logger.warning(f"Parse json file failed: {exc}, please check json file: {path}")
                return False
        return self.key in config and config[self.key] == 1

    def _get_save_path(self, file_name):
        device_id = get_context("device_id")
        base = os.getcwd() if self.save_path is None else self.save_path
        path = os.path.join(base, f"rank_{device_id}")
        os.makedirs(path, exist_ok=True)
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")


class TrainFaultTolerance(Callback):
    """MindSpore's training fault tolerance on Ascend clusters (MindIO TTP: saving and
    restoring from device memory when a node fails).

    Raises:
        NotImplementedError: When built: cellax has no MindIO service; save checkpoints with
            ``ModelCheckpoint`` and restart from the latest one instead.
    """

    def __init__(self, ckpt_save_path=None, **kwargs) -> None:
        raise NotImplementedError(
            "For 'TrainFaultTolerance', cellax can not run it: it needs Huawei's MindIO "
            "fault-tolerance service of Ascend clusters; use ModelCheckpoint and restart from "
            "the latest checkpoint instead."
        )
