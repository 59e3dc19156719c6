"""Checkpoints: save_checkpoint, load_checkpoint, load_param_into_net and format conversion.

Two formats: MindSpore's protobuf ``.ckpt`` (see ``_ckpt_format.py``; files are interchangeable
with real MindSpore both ways) and ``.safetensors`` (through the ``safetensors`` package).

Reliability rules every function here keeps:
- a save writes a temporary file in the target's folder, flushes and fsyncs it, then renames it
  over the target (``os.replace``), so a crash never leaves a truncated or mixed file where a
  good checkpoint was;
- a load reads and checks the whole file before anything uses it, and ``load_param_into_net``
  checks every parameter before it assigns any, so a failed load changes nothing.
"""

from __future__ import annotations

import binascii
import contextlib
import os
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp
import numpy as np

from . import _ckpt_format, _core, _dtype
from ._errors import check_bool, check_type, type_name
from ._parameter import Parameter
from ._tensor import Tensor
from .nn._cell import Cell

__all__ = [
    "save_checkpoint",
    "load_checkpoint",
    "load_checkpoint_async",
    "load_param_into_net",
    "async_ckpt_thread_status",
    "ckpt_to_safetensors",
    "safetensors_to_ckpt",
]

_FORMATS = ("ckpt", "safetensors")
_SAVE_KWARGS = ("incremental", "global_step_num", "remove_redundancy")
_FLOAT_TYPES = (_dtype.float16, _dtype.float32, _dtype.float64, _dtype.bfloat16)
_INT_TYPES = (_dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64)
_EMPTY_DICT_MSG = (
    "For 'load_checkpoint', the loaded parameter dict is empty after filter or specify, please "
    "check whether 'filter_prefix', 'specify_prefix' or 'choice_func' are set correctly."
)


class CheckpointFileNotFoundError(ValueError, FileNotFoundError):
    """MindSpore raises ValueError for a missing checkpoint; FileNotFoundError fits as well."""


class ParameterMismatchError(ValueError, RuntimeError):
    """MindSpore raises RuntimeError for a shape/dtype mismatch; ValueError fits as well."""


# -- shared helpers ---------------------------------------------------------------------------
def _import_safetensors(api: str):
    try:
        import safetensors
        import safetensors.numpy
    except ImportError as error:
        raise ImportError(
            f"For '{api}', format='safetensors' needs the 'safetensors' package, but it is not "
            f"installed ({error}). Install it with `pip install safetensors` (or "
            f"`pip install cellax[ckpt]`)."
        ) from None
    return safetensors


def _fspath(api: str, name: str, value) -> str:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(
            f"For '{api}', the argument '{name}' must be a str, but got {value!r} of type "
            f"{type_name(value)}."
        )
    return value


def _atomic_write(path: str, write) -> None:
    """Call ``write(tmp_path)``, fsync the result and rename it to ``path``; on any failure
    remove the temporary file and leave ``path`` as it was."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(
        directory, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    )
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable (POSIX only)
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _concrete(api: str, name: str, tensor: Tensor):
    value = tensor._value
    if value is None:
        raise ValueError(f"For '{api}', '{name}' is a shape placeholder Tensor with no data.")
    if _core.is_tracer(value):
        raise RuntimeError(
            f"For '{api}', the value of '{name}' is traced (the call is inside cellax.jit, "
            f"GRAPH_MODE or a grad transform). Save or load checkpoints outside compiled code."
        )
    return value


def _host(value, copy: bool = False):
    if isinstance(value, str):
        return value
    return np.array(value, copy=True) if copy else np.asarray(value)


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
        if not _ckpt_format.is_known_type(data.dtype):
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
    """``[(name, jax.Array | numpy.ndarray | str)]`` in save order; names are unique."""
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
    entries = []
    seen: set = set()
    for name, data in pairs:
        if name in seen:
            raise ValueError(
                f"For 'save_checkpoint', the name '{name}' appears twice in what is saved; a "
                f"checkpoint needs unique names. Rename the Parameters (or use auto_prefix=True)."
            )
        seen.add(name)
        entries.append((name, _array_entry(api, name, data)))
    return entries


def _write_ckpt_file(tmp: str, entries, crc_check: bool) -> None:
    with open(tmp, "xb") as file:
        writer = _ckpt_format.CheckpointWriter(file, crc_check)
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
        array = _ckpt_format.contiguous(_host(value))
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
        _ckpt_format.schema("save_checkpoint")  # fail early (ImportError) before any I/O
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
        integrated_save (bool): Accepted for compatibility (one device saves whole Parameters).
            Default: ``True``.
        async_save (Union[bool, str]): Save in a background thread (``True``, ``'thread'`` or
            ``'process'``). The values are copied to host memory before this call returns, so
            training may go on updating the Parameters. Default: ``False``.
        append_dict (dict): Extra entries ``name -> int/float/bool/str/Tensor`` (int is saved
            as Int64, float as Float32, bool as Bool). Default: ``None``.
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
        ValueError: If ``format`` is unknown, or two saved entries have the same name.
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
    call; duplicate names and unknown keyword arguments are errors; a dict may hold plain
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


# -- load -------------------------------------------------------------------------------------
def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError(
            f"For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be "
            f"str, list[str] or tuple[str], but got {type_name(prefix)}."
        )
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError(
            "For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be "
            "empty when it is a list or tuple."
        )
    for index, item in enumerate(prefix):
        if not isinstance(item, str):
            raise TypeError(
                f"For 'load_checkpoint', every item of 'specify_prefix' or 'filter_prefix' must "
                f"be a str, but got {type_name(item)} at index {index}."
            )
        if not item:
            raise ValueError(
                "For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' can't "
                "include ''."
            )
    return tuple(prefix)


def _check_file(api: str, file, format: str) -> str:
    if format not in _FORMATS:
        raise ValueError(
            f"For '{api}', the format must be 'ckpt' or 'safetensors', but got {format!r}."
        )
    file = _fspath(api, "ckpt_file_name", file)
    if not file.endswith(format):
        raise ValueError(
            f"For '{api}', the checkpoint file name must end with the format '{format}', but "
            f"got file_name: '{file}', format: '{format}'."
        )
    path = os.path.realpath(file)
    if not os.path.exists(path):
        raise CheckpointFileNotFoundError(
            f"For '{api}', the checkpoint file: {path} does not exist, please check whether the "
            f"'ckpt_file_name' is correct."
        )
    if os.path.isdir(path):
        raise ValueError(f"For '{api}', the checkpoint file: {path} is a directory.")
    return path


def _selector(specify_prefix, filter_prefix, choice_func):
    if specify_prefix is None and filter_prefix is None:
        return choice_func

    def select(name: str) -> bool:
        if specify_prefix and not name.startswith(specify_prefix):
            return False
        return not (filter_prefix and name.startswith(filter_prefix))

    return select


def _read_entries(path: str, format: str, select, crc_check: bool, api: str) -> dict:
    """``{name: numpy.ndarray | str}`` of a whole file, after checking all of it."""
    if format == "ckpt":
        return dict(_ckpt_format.read_checkpoint(path, select, crc_check))
    safetensors = _import_safetensors(api)
    entries = {}
    try:
        with safetensors.safe_open(path, framework="numpy") as file:
            metadata = file.metadata() or {}
            crc = 0
            for name in sorted(file.keys()):
                if not crc_check and select is not None and not select(name):
                    continue
                array = file.get_tensor(name)
                if crc_check:
                    crc = binascii.crc32(name.encode("utf-8"), crc)
                    crc = binascii.crc32(
                        _ckpt_format.contiguous(array).reshape(-1).view(np.uint8), crc
                    )
                if metadata.get(name) == "Int4":
                    raise ValueError(f"the entry '{name}' is Int4, which cellax does not support")
                if select is None or select(name):
                    entries[name] = array
    except (safetensors.SafetensorError, ValueError, TypeError, OSError) as error:
        raise ValueError(
            f"For '{api}', the checkpoint file '{path}' is not a valid safetensors file: "
            f"{error}. The file may be truncated or corrupted."
        ) from None
    if crc_check:
        if "crc_num" not in metadata:
            import warnings

            warnings.warn(
                f"For '{api}', crc_check=True but '{path}' has no 'crc_num' metadata; it is "
                f"loaded without the check.",
                stacklevel=3,
            )
        elif str(crc) != metadata["crc_num"]:
            raise ValueError(
                f"For '{api}', the CRC32 check of '{path}' failed (the content was modified). "
                f"The file may be corrupted."
            )
    return entries


def load_checkpoint(
    ckpt_file_name,
    net: Cell | None = None,
    strict_load: bool = False,
    filter_prefix=None,
    dec_key: bytes | None = None,
    dec_mode: str = "AES-GCM",
    specify_prefix=None,
    choice_func=None,
    crc_check: bool = False,
    remove_redundancy: bool = False,
    format: str = "ckpt",
) -> dict:
    """Load a checkpoint file into a dict of Parameters (and into ``net`` when given).

    The whole file is read and checked before the dict is built or ``net`` is touched.

    Args:
        ckpt_file_name (str): The file; it must end with ``format``.
        net (Cell): Load the Parameters into this network with :func:`load_param_into_net`.
            Default: ``None``.
        strict_load (bool): Passed to :func:`load_param_into_net`. Default: ``False``.
        filter_prefix (Union[str, list[str], tuple[str]]): Skip entries whose names start
            with one of these. Default: ``None``.
        dec_key (bytes): Decryption key; cellax does not support encryption. Default: ``None``.
        dec_mode (str): Decryption mode. Default: ``'AES-GCM'``.
        specify_prefix (Union[str, list[str], tuple[str]]): Load only entries whose names start
            with one of these. Default: ``None``.
        choice_func (Callable): ``choice_func(name) -> bool`` selects the entries loaded; used
            only when ``filter_prefix`` and ``specify_prefix`` are None. Default: ``None``.
        crc_check (bool): Verify the CRC32 stored by ``save_checkpoint(crc_check=True)``.
            Default: ``False``.
        remove_redundancy (bool): Passed to :func:`load_param_into_net`. Default: ``False``.
        format (str): ``'ckpt'`` or ``'safetensors'``. Default: ``'ckpt'``.

    Returns:
        dict, name -> Parameter (named after the entry) or str, in file order (sorted names
        for safetensors).

    Raises:
        ValueError: If the file is missing (also a FileNotFoundError), is not a valid checkpoint
            (empty, truncated, corrupted: the message names the file and the problem), fails
            the CRC check, or nothing is left after filtering.
        TypeError: If an argument has a wrong type.
        NotImplementedError: If ``dec_key`` is given.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "w.ckpt")
        >>> ms.save_checkpoint([ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="w")], path)
        >>> ms.load_checkpoint(path)
        {'w': Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)}

    Differences from MindSpore: a file saved with ``crc_check=True`` that fails the check is
    reported as such; ``specify_prefix``/``filter_prefix`` also apply to safetensors files; the
    returned Parameters of a safetensors file are named after their entries.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.load_checkpoint.html
    """
    api = "load_checkpoint"
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    check_type(api, "dec_key", dec_key, (type(None), bytes), "bytes or None")
    check_type(api, "dec_mode", dec_mode, str)
    check_bool(api, "crc_check", crc_check)
    check_bool(api, "remove_redundancy", remove_redundancy)
    if format == "safetensors" and (dec_key is not None or dec_mode != "AES-GCM"):
        raise ValueError(
            f"For 'load_checkpoint', when format is 'safetensors', 'dec_key' and 'dec_mode' must "
            f"keep their defaults (None, 'AES-GCM'), but got {dec_key!r}, {dec_mode!r}."
        )
    path = _check_file(api, ckpt_file_name, format)
    if dec_key is not None:
        raise NotImplementedError(
            "For 'load_checkpoint', encrypted checkpoints (dec_key) are not supported by cellax."
        )
    if format == "ckpt":
        _ckpt_format.schema(api)
    select = _selector(specify_prefix, filter_prefix, choice_func)
    entries = _read_entries(path, format, select, crc_check, api)
    if not entries:
        raise ValueError(_EMPTY_DICT_MSG)
    parameter_dict = {
        name: value if isinstance(value, str) else Parameter(value, name=name)
        for name, value in entries.items()
    }
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


class _ParamDictFuture:
    """The pending result of :func:`load_checkpoint_async`."""

    def __init__(self, executor: ThreadPoolExecutor, future) -> None:
        self._executor = executor
        self._future = future

    def result(self) -> dict:
        """Wait for the load and return its dict (or raise its error)."""
        try:
            return self._future.result()
        finally:
            self._executor.shutdown(wait=False)

    def done(self) -> bool:
        return self._future.done()


def load_checkpoint_async(
    ckpt_file_name,
    net: Cell | None = None,
    strict_load: bool = False,
    filter_prefix=None,
    dec_key: bytes | None = None,
    dec_mode: str = "AES-GCM",
    specify_prefix=None,
    choice_func=None,
):
    """Start :func:`load_checkpoint` in a background thread; ``.result()`` returns its dict.

    The format follows the file name (``.safetensors`` or ``.ckpt``).

    Args:
        ckpt_file_name (str): The file.
        net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix, choice_func:
            As in :func:`load_checkpoint`.

    Returns:
        An object whose ``result()`` waits for the load and returns the dict (or raises).

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "d.ckpt")
        >>> ms.save_checkpoint(ms.nn.Dense(2, 1), path)
        >>> future = ms.load_checkpoint_async(path)
        >>> sorted(future.result())
        ['bias', 'weight']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.load_checkpoint_async.html
    """
    name = _fspath("load_checkpoint_async", "ckpt_file_name", ckpt_file_name)
    format = "safetensors" if name.endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(
        load_checkpoint,
        name,
        net,
        strict_load,
        filter_prefix,
        dec_key,
        dec_mode,
        specify_prefix,
        choice_func,
        format=format,
    )
    return _ParamDictFuture(executor, future)


# -- load_param_into_net ----------------------------------------------------------------------
def _check_load_param_args(net, parameter_dict, strict_load, remove_redundancy) -> None:
    api = "load_param_into_net"
    if not isinstance(net, Cell):
        raise TypeError(
            f"For '{api}', the argument 'net' should be a Cell, but got {type_name(net)}."
        )
    if not isinstance(parameter_dict, dict):
        raise TypeError(
            f"For '{api}', the argument 'parameter_dict' should be a dict, but got "
            f"{type_name(parameter_dict)}."
        )
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Tensor, str, list)):
            raise TypeError(
                f"For '{api}', the items of 'parameter_dict' must be str -> Parameter (or "
                f"Tensor), but got {type_name(key)} -> {type_name(value)}."
            )
    check_bool(api, "strict_load", strict_load)
    check_bool(api, "remove_redundancy", remove_redundancy)
    if remove_redundancy:
        raise TypeError(
            f"For '{api}', remove_redundancy=True only applies to checkpoints of parallel "
            f"training, but this is a single-device run."
        )


def _match_prefixes(param_names: list, param_not_load: list, parameter_dict: dict) -> dict:
    """MindSpore's second pass for names the checkpoint prefixes: ``{param name: dict key}``.

    Repeatedly take the first not-loaded name that some dict key ends with, call the rest of
    that key the prefix, and match every not-loaded name ``n`` whose ``prefix + n`` is a key.
    """
    matched: dict = {}
    if not param_not_load:
        return matched
    sentinel = param_not_load[0]
    prefix = None
    while prefix != sentinel and param_not_load:
        prefix = sentinel
        for name in param_not_load:
            for key in parameter_dict:
                if key.endswith(name):
                    prefix = key[: -len(name)]
                    break
            if prefix != sentinel:
                break
        if prefix == sentinel:
            break
        for name in param_names:
            key = prefix + name
            if name in param_not_load and key in parameter_dict:
                matched[name] = key
                param_not_load.remove(name)
    return matched


def _new_value(param: Parameter, key: str, new: Tensor, strict_load: bool):
    """The array to assign to ``param`` from ``new``; raises before anything is assigned."""
    api = "load_param_into_net"
    current = _concrete(api, param.name, param)
    value = _concrete(api, key, new)
    old_shape, new_shape = tuple(current.shape), tuple(value.shape)
    if old_shape != new_shape:
        # MindSpore accepts extra trailing 1-dims in the checkpoint, e.g. (12, 2048, 1, 1).
        extra = new_shape[len(old_shape) :]
        if new_shape[: len(old_shape)] == old_shape and extra and all(d == 1 for d in extra):
            value = value.reshape(old_shape)
        else:
            raise ParameterMismatchError(
                f"For '{api}', '{param.name}' in the argument 'net' should have the same shape "
                f"as '{key}' in the argument 'parameter_dict', but got shape {old_shape} in "
                f"'net' and shape {new_shape} in 'parameter_dict'. Check that the checkpoint "
                f"belongs to this network; no Parameter of 'net' was changed."
            )
    old_type, new_type = param.dtype, new.dtype
    if old_type != new_type:
        convertible = (old_type in _FLOAT_TYPES and new_type in _FLOAT_TYPES) or (
            old_type in _INT_TYPES and new_type in _INT_TYPES
        )
        if strict_load or not convertible:
            raise ParameterMismatchError(
                f"For '{api}', '{param.name}' in the argument 'net' should have the same type "
                f"as '{key}' in the argument 'parameter_dict', but got {old_type} in 'net' and "
                f"{new_type} in 'parameter_dict'"
                + (" (strict_load=True converts nothing)" if convertible else "")
                + ". No Parameter of 'net' was changed."
            )
        value = value.astype(old_type.np_dtype)
    if value is new._value:
        # Never share a buffer with the dict: cellax.jit donates (deletes) Parameter buffers.
        value = jnp.array(value, copy=True)
    if isinstance(current, jax.Array):
        value = jax.device_put(value, current.sharding)
    return value


def load_param_into_net(
    net: Cell, parameter_dict: dict, strict_load: bool = False, remove_redundancy: bool = False
) -> tuple:
    """Load Parameters from a dict (e.g. :func:`load_checkpoint`'s) into a network.

    A network Parameter takes the entry with the same name (``param.name``). With
    ``strict_load=False``, names still missing are then matched against entries that carry an
    extra prefix (``'backbone.' + name``), and float (or int) entries are converted to the
    Parameter's dtype. Every entry is checked before any Parameter is assigned, so a mismatch
    leaves the network unchanged.

    Args:
        net (Cell): The network.
        parameter_dict (dict): name -> Parameter (a Tensor works too; str entries are skipped).
        strict_load (bool): Match names exactly and convert no dtype. Default: ``False``.
        remove_redundancy (bool): For parallel checkpoints only; must be False on one device.
            Default: ``False``.

    Returns:
        tuple ``(param_not_load, ckpt_not_load)``: the names of network Parameters that got no
        value, and the names of dict entries that were not loaded by exact name (as in
        MindSpore, entries matched through a prefix stay in this list).

    Raises:
        TypeError: If ``net`` is not a Cell or ``parameter_dict`` is not a dict of Parameters.
        ValueError: If a shape or dtype does not match (also a RuntimeError, MindSpore's type);
            the message names the Parameter and both shapes/dtypes, and nothing was assigned.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> ones = {"weight": ms.Parameter(ms.Tensor(np.ones((1, 2)), ms.float32), name="weight")}
        >>> ms.load_param_into_net(net, ones)
        (['bias'], [])
        >>> print(net.weight.asnumpy())
        [[1. 1.]]

    Differences from MindSpore: a failed load changes nothing (MindSpore may have assigned the
    Parameters before the failing one); a Parameter whose checkpoint shape has extra trailing
    1-dims keeps its own shape; dict values may be plain Tensors.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.load_param_into_net.html
    """
    _check_load_param_args(net, parameter_dict, strict_load, remove_redundancy)
    params = [param for _, param in net.parameters_and_names()]
    plan: list = []  # (param, dict key)
    param_not_load: list = []
    ckpt_not_load = list(parameter_dict)
    for param in params:
        name = param.name
        if name in parameter_dict:
            if not isinstance(parameter_dict[name], Tensor):
                continue
            plan.append((param, name))
            ckpt_not_load.remove(name)
        elif not name.startswith("accu_grads"):
            param_not_load.append(name)
    if param_not_load and not strict_load:
        tensors = {k: v for k, v in parameter_dict.items() if isinstance(v, Tensor)}
        matched = _match_prefixes([p.name for p in params], param_not_load, tensors)
        plan.extend((p, matched[p.name]) for p in params if p.name in matched)
    values = [_new_value(p, key, parameter_dict[key], strict_load) for p, key in plan]
    for (param, _), value in zip(plan, values):
        param.set_data(value)
    return param_not_load, ckpt_not_load


# -- conversion -------------------------------------------------------------------------------
def _convert_file(src: str, dst: str, name_map, src_format: str, dst_format: str) -> None:
    api = "ckpt_to_safetensors" if dst_format == "safetensors" else "safetensors_to_ckpt"
    entries = _read_entries(src, src_format, None, False, api)
    if not entries:
        raise ValueError(f"For '{api}', the file '{src}' holds no entries.")
    if name_map is not None:
        entries = {name_map.get(k, k): v for k, v in entries.items()}
    _write_file(dst, list(entries.items()), dst_format, False, None)


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, dst_format):
    src_format = "ckpt" if dst_format == "safetensors" else "safetensors"
    api = "ckpt_to_safetensors" if dst_format == "safetensors" else "safetensors_to_ckpt"
    src_suffix, dst_suffix = f".{src_format}", f".{dst_format}"
    file_path = _fspath(api, "file_path", file_path)
    if save_path is not None:
        save_path = _fspath(api, "save_path", save_path)
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(
            f"For '{api}', the input path must be a valid path or file, but got {file_path!r}."
        )
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For '{api}', the save_path must be a directory, but got {save_path!r}.")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(
            f"For '{api}', the type of 'name_map' must be dict, but got {type_name(name_map)}."
        )
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(
            f"For '{api}', 'processes_num' must be a positive int, but got {processes_num!r}."
        )
    if os.path.isfile(file_path):
        if not file_path.endswith(src_suffix):
            raise ValueError(
                f"For '{api}', the input file must be a {src_suffix} file, but got {file_path!r}."
            )
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For '{api}', the input file does not match the regular expression.")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        base = os.path.basename(file_path).replace(src_suffix, dst_suffix)
        directory = save_path or os.path.dirname(file_path)
        _convert_file(file_path, os.path.join(directory, base), name_map, src_format, dst_format)
        return
    rank_dirs = sorted(
        d
        for d in os.listdir(file_path)
        if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d))
    )
    if not rank_dirs:
        raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
    for rank_dir in rank_dirs:
        source_dir = os.path.join(file_path, rank_dir)
        target_dir = os.path.join(save_path, rank_dir) if save_path is not None else source_dir
        os.makedirs(target_dir, exist_ok=True)
        for file in sorted(os.listdir(source_dir)):
            if file.endswith(src_suffix) and (
                file_name_regex is None or re.search(file_name_regex, file)
            ):
                target = os.path.join(target_dir, file.replace(src_suffix, dst_suffix))
                _convert_file(
                    os.path.join(source_dir, file), target, name_map, src_format, dst_format
                )


def ckpt_to_safetensors(
    file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1
) -> None:
    """Convert ``.ckpt`` files to ``.safetensors`` files.

    Args:
        file_path (str): A ``.ckpt`` file, or a folder whose ``rank*`` sub-folders hold them.
        save_path (str): The output folder (the same layout is created in it). Default: ``None``
            (next to each source file).
        name_map (dict): Renames entries, ``{old name: new name}``. Default: ``None``.
        file_name_regex (str): Convert only the files whose names match. Default: ``None``.
        processes_num (int): Accepted for compatibility; cellax converts the files one after
            another, streaming each. Default: ``1``.

    Raises:
        ValueError: If ``file_path`` does not exist or is not a ``.ckpt`` file, ``save_path`` is
            not a folder name, a folder has no ``rank*`` sub-folders, or a file is invalid.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> ms.save_checkpoint(ms.nn.Dense(2, 1), os.path.join(folder, "d.ckpt"))
        >>> ms.ckpt_to_safetensors(os.path.join(folder, "d.ckpt"))
        >>> sorted(ms.load_checkpoint(os.path.join(folder, "d.safetensors"), format="safetensors"))
        ['bias', 'weight']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.ckpt_to_safetensors.html
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors")


def safetensors_to_ckpt(
    file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1
) -> None:
    """Convert ``.safetensors`` files to MindSpore ``.ckpt`` files.

    Args:
        file_path (str): A ``.safetensors`` file, or a folder whose ``rank*`` sub-folders hold
            them.
        save_path (str): The output folder. Default: ``None`` (next to each source file).
        name_map (dict): Renames entries, ``{old name: new name}``. Default: ``None``.
        file_name_regex (str): Convert only the files whose names match. Default: ``None``.
        processes_num (int): Accepted for compatibility. Default: ``1``.

    Raises:
        ValueError: As :func:`ckpt_to_safetensors`.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "d.safetensors")
        >>> ms.save_checkpoint(ms.nn.Dense(2, 1), path, format="safetensors")
        >>> ms.safetensors_to_ckpt(path, save_path=os.path.join(folder, "out"))
        >>> sorted(ms.load_checkpoint(os.path.join(folder, "out", "d.ckpt")))
        ['bias', 'weight']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.safetensors_to_ckpt.html
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt")
