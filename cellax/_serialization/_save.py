"""save_checkpoint: MindSpore's ``.ckpt`` or ``.safetensors``, atomically, optionally async."""

from __future__ import annotations

import binascii
import contextlib
import os
import threading

import numpy as np

from .._errors import check_bool, check_type, type_name
from .._parameter import Parameter
from .._tensor import Tensor
from ..nn._cell import Cell
from . import _format
from ._common import (
    _FORMATS,
    _SAVE_KWARGS,
    _atomic_write,
    _concrete,
    _fspath,
    _host,
    _import_safetensors,
)

__all__ = ["save_checkpoint", "async_ckpt_thread_status"]


# -- save -------------------------------------------------------------------------------------
def _check_save_args(save_obj, ckpt_file_name, format) -> str:
    if format not in _FORMATS:
        raise ValueError(
            f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got "
            f"{format!r}."
        )
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(
            f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, "
            f"but got {type_name(save_obj)}."
        )
    path = os.path.realpath(_fspath("save_checkpoint", "ckpt_file_name", ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(
            f"For 'save_checkpoint', the parameter 'ckpt_file_name': {path} is a directory, it "
            f"must be a file name."
        )
    if not path.endswith(format):
        path += f".{format}"
    return path


def _check_async_save(async_save):
    if not isinstance(async_save, (bool, str)):
        raise TypeError(
            f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got "
            f"{type_name(async_save)}."
        )
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(
            f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or "
            f"'thread', but got {async_save!r}."
        )
    return async_save


def _check_append_dict(append_dict):
    if append_dict is None:
        return {}
    if not isinstance(append_dict, dict):
        raise TypeError(
            f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
            f"{type_name(append_dict)}."
        )
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError(
                f"For 'save_checkpoint', the items of 'append_dict' must be key: str, value: "
                f"int, float, bool, str or Tensor, but got key: {type_name(key)}, value: "
                f"{type_name(value)}."
            )
    return append_dict


def _array_entry(api: str, name: str, data):
    if isinstance(data, Tensor):
        return _concrete(api, name, data)
    if isinstance(data, np.ndarray):
        if not _format.is_known_type(data.dtype):
            raise TypeError(
                f"For '{api}', the array '{name}' has dtype {data.dtype}, which a checkpoint "
                f"can not hold."
            )
        return data
    if isinstance(data, str):
        return data
    raise TypeError(
        f"For '{api}', the value of '{name}' must be a Parameter, Tensor, numpy.ndarray or str, "
        f"but got {type_name(data)}."
    )


def _list_entries(save_obj: list, choice_func) -> list:
    entries = []
    if save_obj and isinstance(save_obj[0], dict):
        for item in save_obj:
            if not (isinstance(item, dict) and "name" in item and "data" in item):
                raise TypeError(
                    f"For 'save_checkpoint', when 'save_obj' is a list of dicts, each dict must "
                    f"have the keys 'name' and 'data', but got {item!r}."
                )
            name, data = item["name"], item["data"]
            if not isinstance(name, str):
                raise TypeError(
                    f"For 'save_checkpoint', when 'save_obj' is a list of dicts, 'name' must be "
                    f"a str, but got {type_name(name)}."
                )
            if not isinstance(data, Tensor):
                raise TypeError(
                    f"For 'save_checkpoint', when 'save_obj' is a list of dicts, 'data' must be "
                    f"a Parameter or Tensor, but got {type_name(data)}."
                )
            entries.append((name, data))
    else:
        for item in save_obj:
            if not isinstance(item, Parameter):
                raise TypeError(
                    f"For 'save_checkpoint', when 'save_obj' is a list of Parameters, every "
                    f"item must be a Parameter, but got {type_name(item)}."
                )
            entries.append((item.name, item))
    return [(n, d) for n, d in entries if choice_func is None or choice_func(n)]


def _collect_entries(save_obj, append_dict: dict, choice_func) -> list:
    """``[(name, jax.Array | numpy.ndarray | str)]`` in save order, one entry per name."""
    api = "save_checkpoint"
    if isinstance(save_obj, Cell):
        pairs = [
            (p.name, p)
            for _, p in save_obj.parameters_and_names()
            if choice_func is None or choice_func(p.name)
        ]
    elif isinstance(save_obj, list):
        pairs = _list_entries(save_obj, choice_func)
    else:
        pairs = []
        for key, value in save_obj.items():
            if not isinstance(key, str):
                raise TypeError(
                    f"For 'save_checkpoint', when 'save_obj' is a dict, its keys must be str, "
                    f"but got a key of type {type_name(key)}."
                )
            if choice_func is None or choice_func(key):
                pairs.append((key, value))
    for key, value in append_dict.items():
        if isinstance(value, bool):
            value = np.asarray(value, np.bool_)
        elif isinstance(value, int):
            value = np.asarray(value, np.int64)
        elif isinstance(value, float):
            value = np.asarray(value, np.float32)
        pairs.append((key, value))
    # As in MindSpore, a name given twice (two Parameters of one name, or an append_dict key
    # that is also a Parameter's name) is saved once, where it first came, with the last value.
    entries = dict(pairs)
    return [(name, _array_entry(api, name, data)) for name, data in entries.items()]


def _write_ckpt_file(tmp: str, entries, crc_check: bool) -> None:
    with open(tmp, "xb") as file:
        writer = _format.CheckpointWriter(file, crc_check)
        for name, value in entries:
            if isinstance(value, str):
                writer.write_str(name, value)
            else:
                writer.write_array(name, _host(value))
        writer.finish()


def _write_safetensors_file(tmp: str, entries, crc_check: bool, remove_redundancy) -> None:
    safetensors = _import_safetensors("save_checkpoint")
    tensors = {}
    crc = 0
    for name, value in sorted(entries, key=lambda item: item[0]):
        if isinstance(value, str):
            raise ValueError(
                f"For 'save_checkpoint', the safetensors format can not hold the string entry "
                f"'{name}'. Save it with format='ckpt' or leave it out."
            )
        array = _format.contiguous(_host(value))
        tensors[name] = array
        if crc_check:
            crc = binascii.crc32(name.encode("utf-8"), crc)
            crc = binascii.crc32(array.reshape(-1).view(np.uint8), crc)
    metadata = {"format": "ms"}
    if isinstance(remove_redundancy, bool):
        metadata["remove_redundancy"] = str(remove_redundancy)
    if crc_check:
        metadata["crc_num"] = str(crc)
    safetensors.numpy.save_file(tensors, tmp, metadata=metadata if tensors else None)
    os.chmod(tmp, 0o666 & ~_umask())  # safetensors creates its files private (0o600)


def _umask() -> int:
    """The process umask, read without changing it (os.umask would race with other threads)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    return 0o022


def _write_file(path: str, entries, format: str, crc_check: bool, remove_redundancy) -> None:
    if format == "ckpt":
        _format.schema("save_checkpoint")  # fail early (ImportError) before any I/O
        _atomic_write(path, lambda tmp: _write_ckpt_file(tmp, entries, crc_check))
    else:
        _import_safetensors("save_checkpoint")
        _atomic_write(
            path, lambda tmp: _write_safetensors_file(tmp, entries, crc_check, remove_redundancy)
        )


class _AsyncSave:
    """The one background save in flight (MindSpore also runs at most one at a time)."""

    lock = threading.Lock()
    thread: threading.Thread | None = None
    path: str = ""
    error: BaseException | None = None


def _run_async(path, entries, format, crc_check, remove_redundancy) -> None:
    try:
        _write_file(path, entries, format, crc_check, remove_redundancy)
    except BaseException as error:  # reported by the next save_checkpoint call
        _AsyncSave.error = error


def _wait_async_save() -> None:
    with _AsyncSave.lock:
        thread = _AsyncSave.thread
        if thread is not None:
            thread.join()
            _AsyncSave.thread = None
        error, _AsyncSave.error = _AsyncSave.error, None
    if error is not None:
        raise RuntimeError(
            f"For 'save_checkpoint', the previous asynchronous save of '{_AsyncSave.path}' "
            f"failed: {error!r}. That file was left as it was before the save."
        ) from error


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous ``save_checkpoint(..., async_save=True)`` is still writing.

    Returns:
        bool, True while the background save runs.

    Examples:
        >>> import cellax as ms
        >>> ms.async_ckpt_thread_status()
        False
    """
    thread = _AsyncSave.thread
    return thread is not None and thread.is_alive()


def save_checkpoint(
    save_obj,
    ckpt_file_name,
    integrated_save: bool = True,
    async_save: bool | str = False,
    append_dict: dict | None = None,
    enc_key: bytes | None = None,
    enc_mode: str = "AES-GCM",
    choice_func=None,
    crc_check: bool = False,
    format: str = "ckpt",
    **kwargs,
) -> None:
    """Save Parameters to a checkpoint file (``.ckpt`` as MindSpore writes it, or safetensors).

    The file is written to a temporary file in the same folder, flushed, fsynced and renamed
    over ``ckpt_file_name``: an existing checkpoint is replaced only by a complete new one.

    Args:
        save_obj (Union[Cell, list, dict]): A Cell (its Parameters, named by ``param.name``),
            a list of Parameters, a list of ``{'name': str, 'data': Tensor}`` dicts, or a dict
            ``name -> Parameter/Tensor/numpy.ndarray/str`` (e.g. ``net.state_dict()``).
        ckpt_file_name (str): The file; ``'.ckpt'`` (or ``'.safetensors'``) is appended when the
            name does not end with the format.
        integrated_save (bool): Save whole Parameters (sharded ones are gathered). ``False``
            saves this process's slices of sharded Parameters (entries ``name@start:stop,...``)
            and their shapes in ``<file>.slices.json``, for ``load_distributed_checkpoint``.
            Default: ``True``.
        async_save (Union[bool, str]): Save in a background thread (``True``, ``'thread'`` or
            ``'process'``). The values are copied to host memory before this call returns, so
            training may go on updating the Parameters. Default: ``False``.
        append_dict (dict): Extra entries ``name -> int/float/bool/str/Tensor`` (int is saved
            as Int64, float as Float32, bool as Bool). A name saved twice (also two Parameters
            of one name) is written once, in its first place, with its last value, as in
            MindSpore. Default: ``None``.
        enc_key (bytes): Encryption key; cellax does not support encryption. Default: ``None``.
        enc_mode (str): Encryption mode. Default: ``'AES-GCM'``.
        choice_func (Callable): ``choice_func(name) -> bool`` selects the entries saved.
            Default: ``None``.
        crc_check (bool): Store a CRC32 of the content (MindSpore's trailer for ``.ckpt``, the
            ``crc_num`` metadata for safetensors). Default: ``False``.
        format (str): ``'ckpt'`` or ``'safetensors'``. Default: ``'ckpt'``.
        kwargs: ``incremental``, ``global_step_num`` and ``remove_redundancy`` as in MindSpore.

    Raises:
        TypeError: If ``save_obj``, ``ckpt_file_name`` or another argument has a wrong type.
        ValueError: If ``format`` is unknown.
        IsADirectoryError: If ``ckpt_file_name`` is a directory.
        NotImplementedError: If ``enc_key`` is given.
        ImportError: If the package the format needs (protobuf / safetensors) is missing.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> path = os.path.join(tempfile.mkdtemp(), "dense.ckpt")
        >>> ms.save_checkpoint(net, path)
        >>> print(sorted(ms.load_checkpoint(path)))
        ['bias', 'weight']

    Differences from MindSpore: the write is atomic (MindSpore deletes the old file first) and
    the file keeps normal permissions (MindSpore makes it read-only); ``async_save='process'``
    uses a thread; an error of an asynchronous save is raised by the next ``save_checkpoint``
    call; unknown keyword arguments are errors; a dict may hold plain
    Tensors; empty tensors are saved (MindSpore drops them).

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.save_checkpoint.html
    """
    path = _check_save_args(save_obj, ckpt_file_name, format)
    check_bool("save_checkpoint", "integrated_save", integrated_save)
    async_save = _check_async_save(async_save)
    append_dict = _check_append_dict(append_dict)
    check_type("save_checkpoint", "enc_key", enc_key, (type(None), bytes), "bytes or None")
    check_type("save_checkpoint", "enc_mode", enc_mode, str)
    check_bool("save_checkpoint", "crc_check", crc_check)
    unknown = sorted(set(kwargs) - set(_SAVE_KWARGS))
    if unknown:
        raise TypeError(
            f"For 'save_checkpoint', the keyword arguments {unknown} are unknown; the accepted "
            f"ones are {list(_SAVE_KWARGS)}."
        )
    remove_redundancy = kwargs.get("remove_redundancy")
    check_type(
        "save_checkpoint",
        "remove_redundancy",
        remove_redundancy,
        (type(None), bool),
        "bool or None",
    )
    if format == "safetensors":
        for key, value, default in (
            ("enc_key", enc_key, None),
            ("enc_mode", enc_mode, "AES-GCM"),
            ("incremental", kwargs.get("incremental", False), False),
            ("global_step_num", kwargs.get("global_step_num"), None),
        ):
            if value != default:
                raise ValueError(
                    f"For 'save_checkpoint', when format is 'safetensors', the parameter "
                    f"'{key}' must be set to default value {default!r}, but got {value!r}."
                )
    if enc_key is not None:
        raise NotImplementedError(
            "For 'save_checkpoint', encrypted checkpoints (enc_key) are not supported by cellax. "
            "Save without enc_key and encrypt the file with a separate tool."
        )
    entries = _collect_entries(save_obj, append_dict, choice_func)
    if not integrated_save:
        # this process's slices of sharded Parameters, with their global shapes beside
        from ._sharded import slice_entries, write_index

        entries, shapes = slice_entries(entries)
        write_index(path, shapes)
    _wait_async_save()
    if not async_save:
        _write_file(path, entries, format, crc_check, remove_redundancy)
        return
    # cellax.jit donates Parameter buffers, which deletes the arrays captured here on the next
    # step: take the snapshot as host copies now, before training continues.
    snapshot = [(name, _host(value, copy=True)) for name, value in entries]
    with _AsyncSave.lock:
        _AsyncSave.path = path
        _AsyncSave.thread = threading.Thread(
            target=_run_async,
            args=(path, snapshot, format, crc_check, remove_redundancy),
            name="cellax_async_save_ckpt",
        )
        _AsyncSave.thread.start()
