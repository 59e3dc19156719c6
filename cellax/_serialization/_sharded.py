"""Sharded checkpoints: per-rank slices (``integrated_save=False``) and loading any checkpoint
straight into the current shardings (``load_distributed_checkpoint``).

A slice file is an ordinary checkpoint (``.ckpt`` or safetensors) whose sharded entries are
named ``<name>@<start>:<stop>,...`` (one per shard this process holds, replicas written once)
plus ``<file>.slices.json``: ``{name: global shape}``. Loading builds each Parameter with
``jax.make_array_from_callback`` on the Parameter's current sharding: every device asks for
its block, which is cut from the overlapping slices (safetensors files are read slice by
slice; a ``.ckpt`` is parsed whole). No strategy file is needed: the layouts are resharded
while loading.
"""

from __future__ import annotations

import json
import os

import jax
import numpy as np

from ._common import _fspath

__all__ = ["slice_entries", "write_index", "load_distributed_checkpoint", "merged_tensors"]

_INDEX = ".slices.json"


def _key(name: str, index) -> str:
    return name + "@" + ",".join(f"{s.start}:{s.stop}" for s in index)


def slice_entries(entries: list) -> tuple[list, dict]:
    """Replace each sharded array by its replica-0 addressable shards; return the shapes."""
    out, shapes = [], {}
    for name, value in entries:
        sharding = getattr(value, "sharding", None)
        if sharding is None or sharding.is_fully_replicated or not hasattr(value, "shape"):
            out.append((name, value))
            continue
        shapes[name] = list(value.shape)
        for shard in value.addressable_shards:
            if shard.replica_id == 0:
                bounds = [
                    slice(i.start or 0, n if i.stop is None else i.stop)
                    for i, n in zip(shard.index, value.shape)
                ]
                out.append((_key(name, bounds), np.asarray(shard.data)))
    return out, shapes


def write_index(path: str, shapes: dict) -> None:
    """Write ``<path>.slices.json`` next to a slice file."""
    tmp = path + _INDEX + ".tmp"
    with open(tmp, "w") as handle:
        json.dump(shapes, handle)
    os.replace(tmp, path + _INDEX)


class _Source:
    """The pieces of one Parameter across files: (file, key, block bounds or None)."""

    def __init__(self) -> None:
        self.pieces: list = []
        self.shape = None
        self.dtype = None


def _open(path: str, fmt: str):
    if fmt == "safetensors":
        from safetensors import safe_open

        return safe_open(path, framework="np")
    from ._load import load_checkpoint

    return {k: v.asnumpy() for k, v in load_checkpoint(path, format="ckpt").items()}


def _keys(handle) -> list:
    return list(handle.keys())


def _read(handle, key: str, block=None):
    if isinstance(handle, dict):
        value = handle[key]
        return value if block is None else value[tuple(block)]
    if not block:
        return handle.get_tensor(key)
    return handle.get_slice(key)[tuple(block)]


def _sources(files: list, fmt: str) -> tuple[dict, dict]:
    handles, sources = {}, {}
    for path in files:
        handle = handles[path] = _open(path, fmt)
        shapes = {}
        if os.path.exists(path + _INDEX):
            with open(path + _INDEX) as index:
                shapes = json.load(index)
        for key in _keys(handle):
            name, _, bounds = key.partition("@")
            source = sources.setdefault(name, _Source())
            if bounds:
                block = [slice(*map(int, b.split(":"))) for b in bounds.split(",")]
                source.shape = tuple(shapes[name])
            else:
                block = None
            source.pieces.append((path, key, block))
    return handles, sources


def _assemble(handles, source: _Source, index, shape, dtype):
    """The block ``index`` of a Parameter, cut from the overlapping pieces."""
    want = [slice(i.start or 0, n if i.stop is None else i.stop) for i, n in zip(index, shape)]
    out = np.empty([w.stop - w.start for w in want], dtype)
    covered = 0
    for path, key, block in source.pieces:
        block = block or [slice(0, n) for n in shape]
        lo = [max(w.start, b.start) for w, b in zip(want, block)]
        hi = [min(w.stop, b.stop) for w, b in zip(want, block)]
        if any(a >= b for a, b in zip(lo, hi)):
            continue
        part = _read(
            handles[path], key, [slice(a - b.start, c - b.start) for a, c, b in zip(lo, hi, block)]
        )
        out[tuple(slice(a - w.start, c - w.start) for a, c, w in zip(lo, hi, want))] = part
        covered += int(np.prod([c - a for a, c in zip(lo, hi)]))
        if not want:
            break
    if covered < out.size:
        raise ValueError(
            f"For 'load_distributed_checkpoint', the checkpoint files do not cover block "
            f"{want} of a Parameter of shape {tuple(shape)}: pass the files of every rank."
        )
    return out


def load_distributed_checkpoint(
    network,
    checkpoint_filenames=None,
    predict_strategy=None,
    train_strategy_filename=None,
    strict_load=False,
    dec_key=None,
    dec_mode="AES-GCM",
    format="ckpt",
    **kwargs,
):
    """Load full or per-rank sliced checkpoints into ``network``'s current shardings.

    Args:
        network (Cell): The network; each Parameter keeps its sharding (place it first, e.g.
            with ``Cell.shard(parameter_plan=...)``), and each device reads only its block.
        checkpoint_filenames (list[str]): The files: one integrated checkpoint, or the slice
            files of every rank (``save_checkpoint(..., integrated_save=False)``).
        predict_strategy, train_strategy_filename: MindSpore's strategy files; not needed
            (slices carry their positions). Default: ``None``.
        strict_load (bool): Every Parameter of ``network`` must be in the files.
            Default: ``False``.
        dec_key, dec_mode: Decryption is not supported; ``dec_key`` must be ``None``.
        format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Returns:
        list[str], the names of the Parameters of ``network`` not found in the files.

    Raises:
        TypeError: If ``checkpoint_filenames`` is not a list of paths.
        ValueError: If the files do not cover a Parameter, or a shape differs.
        NotImplementedError: If ``dec_key`` is given.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> path = os.path.join(tempfile.mkdtemp(), "rank0.ckpt")
        >>> ms.save_checkpoint(net, path, integrated_save=False)
        >>> other = nn.Dense(2, 1)
        >>> ms.load_distributed_checkpoint(other, [path])
        []
        >>> bool((other.weight.asnumpy() == net.weight.asnumpy()).all())
        True

    Differences from MindSpore: strategy files are not used; slices may come from any
    layout and are resharded while loading.
    """
    if dec_key is not None:
        raise NotImplementedError(
            "For 'load_distributed_checkpoint', encrypted checkpoints are not supported."
        )
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
        raise TypeError(
            "For 'load_distributed_checkpoint', 'checkpoint_filenames' must be a non-empty "
            f"list of paths, but got {checkpoint_filenames!r}."
        )
    files = [
        _fspath("load_distributed_checkpoint", "checkpoint_filenames", f)
        for f in checkpoint_filenames
    ]
    handles, sources = _sources(files, format)
    missing, loaded = [], {}
    for param in network.get_parameters():
        source = sources.get(param.name)
        if source is None:
            missing.append(param.name)
            continue
        current = param._data
        shape, dtype = tuple(current.shape), np.dtype(current.dtype)
        if source.shape is not None and source.shape != shape:
            raise ValueError(
                f"For 'load_distributed_checkpoint', '{param.name}' has shape {shape} in the "
                f"network but {source.shape} in the checkpoint."
            )
        sharding = getattr(current, "sharding", None)

        def block(index, source=source, shape=shape, dtype=dtype):
            return _assemble(handles, source, index, shape, dtype)

        loaded[param] = jax.make_array_from_callback(shape, sharding, block)
    if strict_load and missing:
        raise ValueError(
            f"For 'load_distributed_checkpoint', the Parameters {missing} are not in the files."
        )
    for param, array in loaded.items():
        param._value = array
    return missing


def merged_tensors(files: list, fmt: str = "ckpt") -> dict:
    """``{name: full NumPy array}`` from integrated or per-rank slice files (any mix)."""
    handles, sources = _sources(files, fmt)
    out = {}
    for name, source in sources.items():
        path, key, _ = source.pieces[0]
        first = np.asarray(_read(handles[path], key))
        if source.shape is None:  # whole entries only: the first holds the tensor
            out[name] = first
            continue
        full = tuple(slice(0, n) for n in source.shape)
        out[name] = _assemble(handles, source, full, source.shape, first.dtype)
    return out


def get_ckpt_path_with_strategy(cur_ckpt_path: str, cur_strategy_path: str) -> str | None:
    """A checkpoint this rank can load: ``cur_ckpt_path`` if it exists, else the first existing
    backup of it from another rank (the path with its ``rank_<id>`` part replaced), else
    ``None``.

    Differences from MindSpore: MindSpore also checks that the backup rank's slice of each
    parameter equals this rank's (from the strategy file); cellax's checkpoints are whole or
    carry their own slicing, so ``cur_strategy_path`` is not read.

    Examples:
        >>> import cellax as ms
        >>> ms.get_ckpt_path_with_strategy("/nonexistent/rank_0/a.ckpt", "s.ckpt") is None
        True
    """
    import glob
    import re

    if os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    pattern = re.sub(r"rank_\d+", "rank_*", glob.escape(cur_ckpt_path))
    for path in sorted(glob.glob(pattern)):
        if path != cur_ckpt_path and os.path.isfile(path):
            return path
    return None
