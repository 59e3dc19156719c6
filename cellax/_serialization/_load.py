"""load_checkpoint(_async) and load_param_into_net: read and check everything, then assign."""

from __future__ import annotations

import binascii
import os
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp
import numpy as np

from .._errors import check_bool, check_type, type_name
from .._parameter import Parameter
from .._tensor import Tensor
from ..nn._cell import Cell
from . import _format
from ._common import (
    _EMPTY_DICT_MSG,
    _FLOAT_TYPES,
    _FORMATS,
    _INT_TYPES,
    CheckpointFileNotFoundError,
    ParameterMismatchError,
    _concrete,
    _fspath,
    _import_safetensors,
)

__all__ = ["load_checkpoint", "load_checkpoint_async", "load_param_into_net"]


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
        return dict(_format.read_checkpoint(path, select, crc_check))
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
                    crc = binascii.crc32(_format.contiguous(array).reshape(-1).view(np.uint8), crc)
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
        _format.schema(api)
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


# MindSpore's private helpers behind load_param_into_net, which zoo code (mindone's own
# load_param_into_net_with_filter) imports from mindspore.train.serialization.
def _update_param(param: Parameter, new_param, strict_load: bool) -> None:
    """Assign ``new_param``'s value to ``param`` after load_param_into_net's shape and dtype
    checks (a RuntimeError names both when they differ)."""
    param.set_data(_new_value(param, param.name, new_param, strict_load))


def _load_dismatch_prefix_params(
    net: Cell, parameter_dict: dict, param_not_load: list, strict_load
):
    """Load the Parameters named in ``param_not_load`` from entries that carry an extra prefix
    (``'backbone.' + name``), removing each loaded name from ``param_not_load``."""
    params = [param for _, param in net.parameters_and_names()]
    tensors = {key: value for key, value in parameter_dict.items() if isinstance(value, Tensor)}
    matched = _match_prefixes([param.name for param in params], param_not_load, tensors)
    for param in params:
        if param.name in matched:
            _update_param(param, tensors[matched[param.name]], strict_load)
