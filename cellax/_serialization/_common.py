"""Shared by save and load: constants, exceptions, paths, atomic writes, host copies."""

from __future__ import annotations

import binascii
import contextlib
import os
import re
import secrets
import socket

import jax
import numpy as np

from .. import _core, _dtype
from .._errors import type_name
from .._tensor import Tensor

_FORMATS = ("ckpt", "safetensors")
_SAVE_KWARGS = ("incremental", "global_step_num", "remove_redundancy")
_FLOAT_TYPES = (_dtype.float16, _dtype.float32, _dtype.float64, _dtype.bfloat16)
_INT_TYPES = (_dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64)
_EMPTY_DICT_MSG = (
    "For 'load_checkpoint', the loaded parameter dict is empty after filter or specify, please "
    "check whether 'filter_prefix', 'specify_prefix' or 'choice_func' are set correctly."
)


# MindSpore's exact exception types (scripts print ``type(e).__name__``): a missing checkpoint
# raises ValueError, a shape/dtype mismatch in load_param_into_net raises RuntimeError.
CheckpointFileNotFoundError = ValueError
ParameterMismatchError = RuntimeError


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


def _host_tag() -> str:
    """A short, dot-free tag of this machine: temporaries of other hosts are never swept."""
    return f"h{binascii.crc32(socket.gethostname().encode('utf-8')):08x}"


_TMP_NAME = re.compile(r"^\.(?P<base>.+)\.(?P<host>h[0-9a-f]{8})\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, owned by someone else
        return True
    # a writer killed by SIGKILL stays a zombie until its parent reaps it: it writes no more
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return True


def _sweep_stale_temporaries(directory: str) -> None:
    """Remove temporary files that writers on this host left when they died (SIGKILL, power
    cut) in ``directory``: names made by :func:`_atomic_write` whose pid no longer runs.
    POSIX only (on Windows ``os.kill(pid, 0)`` would terminate the process)."""
    if os.name != "posix":
        return
    host = _host_tag()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        match = _TMP_NAME.match(name)
        if match is None or match["host"] != host:
            continue
        pid = int(match["pid"])
        if pid != os.getpid() and not _pid_alive(pid):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))


def _atomic_write(path: str, write) -> None:
    """Call ``write(tmp_path)``, fsync the result and rename it to ``path``; on any failure
    remove the temporary file and leave ``path`` as it was. Temporaries that dead writers left
    in the same folder are removed first."""
    directory = os.path.dirname(path) or "."
    _sweep_stale_temporaries(directory)
    tmp = os.path.join(
        directory,
        f".{os.path.basename(path)}.{_host_tag()}.{os.getpid()}.{secrets.token_hex(4)}.tmp",
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
    if isinstance(value, jax.Array) and not value.is_fully_addressable:
        # a Parameter sharded over several processes: gather the full tensor (integrated save)
        from jax.experimental import multihost_utils

        return np.asarray(multihost_utils.process_allgather(value, tiled=True))
    return np.array(value, copy=True) if copy else np.asarray(value)


# -- export (MINDIR and ONNX) ------------------------------------------------------------------


def _check_file_name(api: str, file_name) -> None:
    if not isinstance(file_name, str):
        raise ValueError(
            f"For '{api}', the argument 'file_name' must be a str, but got "
            f"{type(file_name).__name__}."
        )


def _input_spec(x, index: int, scope):
    """``jax.ShapeDtypeStruct`` for one export input; a ``None`` dimension becomes a symbol
    (``batch`` for axis 0, shared by all inputs, since they normally agree; ``d<i>_<axis>``
    elsewhere)."""
    if isinstance(x, Tensor) and x._value is None and isinstance(x._spec, tuple):
        shape, dtype = x.shape, np.dtype(_dtype.dtype_to_nptype(x.dtype))
        dims = ["batch" if d == -1 and a == 0 else f"d{index}_{a}" if d == -1 else str(d)
                for a, d in enumerate(shape)]  # fmt: skip
        if any(d == -1 for d in shape):
            symbolic = jax.export.symbolic_shape(", ".join(dims), scope=scope)
            return jax.ShapeDtypeStruct(symbolic, dtype)
        return jax.ShapeDtypeStruct(tuple(shape), dtype)
    if isinstance(x, (bool, int, float)):
        x = np.asarray(x)
    array = x.asnumpy() if isinstance(x, Tensor) else x
    if not hasattr(array, "shape") or not hasattr(array, "dtype"):
        raise TypeError(
            f"For 'export', every input must be a Tensor, an array or a number, but input "
            f"{index} is {type(x).__name__}."
        )
    return jax.ShapeDtypeStruct(tuple(array.shape), array.dtype)
