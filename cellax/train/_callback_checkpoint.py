"""ModelCheckpoint and CheckpointConfig: when and where training checkpoints are written, how
many are kept, and what is appended to them, as ``mindspore.train.ModelCheckpoint`` does."""

from __future__ import annotations

import contextlib
import os
import time

from .._checkparam import check_bool, check_non_negative_int
from .._parameter import Parameter
from .._serialization import save_checkpoint
from .._serialization._save import _check_async_save, _wait_async_save
from .._tensor import Tensor
from ._callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

_COUNTERS = ("epoch_num", "step_num")


def _append_dict(append_info):
    """``{name: value}`` from ``append_info``: the counters (starting at 0) and one dict."""
    if append_info is None or append_info == []:
        return None
    if not isinstance(append_info, list):
        raise TypeError(
            f"For 'CheckpointConfig', the argument 'append_info' must be a list, but got "
            f"{type(append_info).__name__}."
        )
    out = {name: 0 for name in _COUNTERS if name in append_info}
    dicts = 0
    for element in append_info:
        if isinstance(element, str):
            if element not in _COUNTERS:
                raise ValueError(
                    f"For 'CheckpointConfig', the str elements of 'append_info' must be in "
                    f"{list(_COUNTERS)}, but got {element!r}."
                )
        elif isinstance(element, dict):
            dicts += 1
            if dicts > 1:
                raise TypeError(
                    "For 'CheckpointConfig', 'append_info' may hold only one dict, but got "
                    f"{dicts}."
                )
            for key, value in element.items():
                if not isinstance(key, str) or not isinstance(
                    value, (int, float, bool, str, Parameter, Tensor)
                ):
                    raise TypeError(
                        "For 'CheckpointConfig', the dict in 'append_info' must map str to int, "
                        f"float, bool, str or Tensor, but got key {type(key).__name__}, value "
                        f"{type(value).__name__}."
                    )
                out[key] = value
        else:
            raise TypeError(
                f"For 'CheckpointConfig', the elements of 'append_info' must be str or dict, but "
                f"got {type(element).__name__}."
            )
    return out


class CheckpointConfig:
    """When :class:`ModelCheckpoint` saves, how many files it keeps and what it appends.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.CheckpointConfig.html

    Args:
        save_checkpoint_steps (int): Save every this many steps (and at the end of training).
            Default: ``1``.
        save_checkpoint_seconds (int): Save every this many seconds; only used when
            ``save_checkpoint_steps`` is 0 or None. Default: ``0``.
        keep_checkpoint_max (int): Keep at most this many files of the prefix (the oldest is
            removed before a new one is written). Default: ``5``.
        keep_checkpoint_per_n_minutes (int): Only used when ``keep_checkpoint_max`` is 0 or
            None: of the files written within this many minutes, keep only the oldest (and
            the newest). Default: ``0``.
        integrated_save (bool): Passed to :func:`cellax.save_checkpoint`. Default: ``True``.
        async_save (Union[bool, str]): Save in the background (``True``, ``'thread'`` or
            ``'process'``); the end of training waits for it. Default: ``False``.
        saved_network (Cell): Save this network instead of the training network.
            Default: ``None``.
        append_info (list): ``'epoch_num'``, ``'step_num'`` (the epoch and global step of each
            save) and at most one dict of extra ``name: value`` entries, all saved into every
            checkpoint. Default: ``None``.
        enc_key, enc_mode, exception_save, crc_check, remove_redundancy, format: as
            :func:`cellax.save_checkpoint` (``enc_key`` is not supported there).

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a count is negative, all four of the save/keep counts are 0 or None, or
            ``append_info`` names an unknown counter.

    Examples:
        >>> from cellax import train
        >>> config = train.CheckpointConfig(append_info=["epoch_num", {"lr": 0.01}])
        >>> config.append_dict
        {'epoch_num': 0, 'lr': 0.01}
        >>> config.get_checkpoint_policy()["keep_checkpoint_per_n_minutes"] is None
        True
    """

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
        crc_check=False,
        remove_redundancy=False,
        format="ckpt",
        **kwargs,
    ) -> None:
        from ..nn import Cell

        api = "CheckpointConfig"
        counts = {
            "save_checkpoint_steps": save_checkpoint_steps,
            "save_checkpoint_seconds": save_checkpoint_seconds,
            "keep_checkpoint_max": keep_checkpoint_max,
            "keep_checkpoint_per_n_minutes": keep_checkpoint_per_n_minutes,
        }
        for name, value in counts.items():
            if value is not None:
                check_non_negative_int(value, name, api)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(
                f"For 'CheckpointConfig', 'saved_network' must be None or a Cell, but got "
                f"{type(saved_network).__name__}."
            )
        if not any(counts.values()):
            raise ValueError(
                "For 'CheckpointConfig', 'save_checkpoint_steps', 'save_checkpoint_seconds', "
                "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can not all be 0 "
                "or None."
            )
        self.exception_save = check_bool(exception_save, "exception_save", api)
        self._save_checkpoint_steps = save_checkpoint_steps
        # Steps win over seconds, and a maximum count over the per-minutes rule.
        self._save_checkpoint_seconds = None if save_checkpoint_steps else save_checkpoint_seconds
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if keep_checkpoint_max:
            self._keep_checkpoint_per_n_minutes = None
        elif not keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = check_bool(integrated_save, "integrated_save", api)
        self._async_save = _check_async_save(async_save)
        self._saved_network = saved_network
        self._append_dict = _append_dict(append_info)
        for name, value, types in (
            ("enc_key", enc_key, (type(None), bytes)),
            ("enc_mode", enc_mode, (str,)),
            ("crc_check", crc_check, (bool,)),
            ("format", format, (str,)),
            ("remove_redundancy", remove_redundancy, (bool,)),
        ):
            if not isinstance(value, types):
                raise ValueError(
                    f"For 'CheckpointConfig', '{name}' must be of type "
                    f"{' or '.join(t.__name__ for t in types)}, but got {value!r}."
                )
        self._enc_key, self._enc_mode, self._crc_check = enc_key, enc_mode, crc_check
        self._format, self.remove_redundancy = format, remove_redundancy
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        defaults = (None, "AES-GCM", False, False, False)
        given = (enc_key, enc_mode, crc_check, exception_save, self._map_param_inc)
        if format == "safetensors" and given != defaults:
            raise ValueError(
                "For 'CheckpointConfig', with format 'safetensors' 'enc_key', 'enc_mode', "
                "'crc_check', 'exception_save' and 'incremental' must keep their defaults."
            )

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)
    map_param_inc = property(lambda self: self._map_param_inc)

    @property
    def append_dict(self):
        """The entries appended to every checkpoint (None without ``append_info``); the
        callback updates ``epoch_num``/``step_num`` in place at each save."""
        return self._append_dict

    def get_checkpoint_policy(self) -> dict:
        """The save and keep settings as a dict."""
        return {
            "save_checkpoint_steps": self.save_checkpoint_steps,
            "save_checkpoint_seconds": self.save_checkpoint_seconds,
            "keep_checkpoint_max": self.keep_checkpoint_max,
            "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
            "saved_network": self.saved_network,
        }


def _is_checkpoint(filename: str, format: str = "ckpt") -> bool:
    return filename.endswith(f".{format}")


def _free_prefix(directory: str, prefix: str) -> str:
    """``prefix``, or ``prefix_N`` when checkpoints of ``prefix`` (``prefix-...``, or
    ``prefix_K-...`` for K < N) are already in ``directory``, so a new run never overwrites or
    prunes an earlier run's files."""
    suffix = 0
    for filename in os.listdir(directory):
        if not filename.endswith((".ckpt", ".safetensors")) or filename.endswith(
            "_breakpoint.ckpt"
        ):
            continue
        rest = filename[len(prefix) :]
        if not filename.startswith(prefix) or rest[:1].isalpha():
            continue
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save checkpoints during training: ``{prefix}-{epoch}_{step}.ckpt`` (step within the
    epoch) in ``directory``, when ``config`` says so, and once more at the end of training
    when the last step was not saved.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.ModelCheckpoint.html

    As in MindSpore, a prefix that already has checkpoints in the directory becomes
    ``prefix_1`` (then ``prefix_2``...) when the callback is built, so the files of an earlier
    run are kept; ``keep_checkpoint_max`` counts only this prefix's files and removes the
    oldest by modification time. ``append_info`` entries (``epoch_num``, ``step_num``, custom
    values) are saved into every checkpoint.

    Args:
        prefix (Union[str, Callable]): File name prefix, or ``prefix(cb_params) -> str`` giving
            the whole file name stem of each save. Default: ``'CKP'``.
        directory (Union[str, Callable]): Folder (made if missing), or
            ``directory(cb_params) -> str``. Default: ``None`` (the current directory).
        config (CheckpointConfig): Default: ``CheckpointConfig()``.

    Raises:
        ValueError: If ``prefix`` is not a str without '/' nor callable.
        TypeError: If ``directory`` is not a str nor callable, or ``config`` is not a
            CheckpointConfig.

    Differences from MindSpore: in GRAPH_MODE MindSpore also writes ``{prefix}-graph.meta``
    (its graph in its own protobuf format); cellax writes no graph file.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax import nn, train
        >>> net = nn.Dense(2, 1)
        >>> model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        >>> data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))] * 3
        >>> directory = tempfile.mkdtemp()
        >>> config = train.CheckpointConfig(save_checkpoint_steps=2, append_info=["epoch_num"])
        >>> for _ in range(2):
        ...     model.train(1, data, callbacks=[train.ModelCheckpoint("net", directory, config)])
        >>> sorted(os.listdir(directory))
        ['net-1_2.ckpt', 'net-1_3.ckpt', 'net_1-1_2.ckpt', 'net_1-1_3.ckpt']
    """

    def __init__(self, prefix="CKP", directory=None, config=None) -> None:
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError(
                "For 'ModelCheckpoint', the argument 'prefix' must be callable or a str without "
                f"'/', but got {prefix!r}."
            )
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        if directory is None:
            self._directory = os.getcwd()
        elif not callable(directory):
            self._directory = _make_directory(directory)
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(
                "For 'ModelCheckpoint', the argument 'config' must be a CheckpointConfig, but "
                f"got {type(config).__name__}."
            )
        self._config = config
        self._prefix = prefix
        if not callable(prefix) and not callable(directory):
            self._prefix = _free_prefix(self._directory, prefix)
        self._append_dict = config.append_dict or {}
        self._append_start = {name: self._append_dict.get(name, 0) for name in _COUNTERS}
        self._latest_ckpt_file_name = ""
        self._last_triggered_step = 0
        self._last_time = self._last_time_for_keep = time.time()

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last checkpoint written ('' before the first)."""
        return self._latest_ckpt_file_name

    def step_end(self, run_context) -> None:
        cb_params = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError(
                    "For 'ModelCheckpoint', the callable 'prefix' must return a str without "
                    f"'/', but returned {self._prefix!r}."
                )
        if self._directory_func is not None:
            self._directory = _make_directory(self._directory_func(cb_params))
        self._save_ckpt(cb_params)

    def end(self, run_context) -> None:
        self._save_ckpt(run_context.original_args(), force=True)
        if self._config.async_save:
            _wait_async_save()

    def _due(self, cb_params, force: bool) -> bool:
        steps, seconds = self._config.save_checkpoint_steps, self._config.save_checkpoint_seconds
        if steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        if seconds:
            now = time.time()
            if now - self._last_time > seconds or force:
                self._last_time = now
                return True
        return False

    def _own_files(self) -> list:
        """This prefix's checkpoints in the directory (``prefix-<digits and _>.<format>``)."""
        fmt = self._config.format
        out = []
        for filename in os.listdir(self._directory):
            middle = filename[len(self._prefix) : -len(fmt) - 1]
            if (
                _is_checkpoint(filename, fmt)
                and filename.startswith(self._prefix + "-")
                and not any(char.isalpha() for char in middle)
            ):
                out.append(os.path.join(self._directory, filename))
        return out

    def _prune(self) -> None:
        files = self._own_files()
        keep_max = self._config.keep_checkpoint_max
        minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max and len(files) >= keep_max:
            _remove(min(files, key=os.path.getmtime))
        elif minutes:
            now = time.time()
            if now - self._last_time_for_keep < minutes * 60:
                recent = [f for f in files if now - os.path.getmtime(f) < minutes * 60]
                oldest = min(recent, key=os.path.getmtime, default=None)
                for path in recent:
                    if path != oldest:
                        _remove(path)

    def _save_ckpt(self, cb_params, force: bool = False) -> None:
        if cb_params.cur_step_num == self._last_triggered_step or not self._due(cb_params, force):
            return
        if self._config.async_save:
            _wait_async_save()
        fmt = self._config.format
        if self._prefix_func is not None:
            name = f"{self._prefix}.{fmt}"
        else:
            step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{fmt}"
        self._prune()
        path = os.path.join(self._directory, name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        counters = {"epoch_num": cb_params.cur_epoch_num, "step_num": cb_params.cur_step_num}
        for counter, value in counters.items():
            if counter in self._append_dict:
                self._append_dict[counter] = self._append_start[counter] + value
        config = self._config
        network = config.saved_network
        save_checkpoint(
            network if network is not None else cb_params.train_network,
            path,
            config.integrated_save,
            config.async_save,
            self._append_dict or None,
            config.enc_key,
            config.enc_mode,
            crc_check=config.crc_check,
            format=fmt,
            remove_redundancy=config.remove_redundancy,
        )
        self._latest_ckpt_file_name = path


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def _make_directory(path) -> str:
    if not isinstance(path, str):
        raise TypeError(
            f"For 'ModelCheckpoint', the argument 'directory' must be a str or callable, but got "
            f"{type(path).__name__}."
        )
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path
