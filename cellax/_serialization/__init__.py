"""Checkpoints: save_checkpoint, load_checkpoint, load_param_into_net and format conversion.

Two formats: MindSpore's protobuf ``.ckpt`` (see ``_format.py``; files are interchangeable
with real MindSpore both ways) and ``.safetensors`` (through the ``safetensors`` package).

Reliability rules every function here keeps:
- a save writes a temporary file in the target's folder, flushes and fsyncs it, then renames it
  over the target (``os.replace``), so a crash never leaves a truncated or mixed file where a
  good checkpoint was;
- a load reads and checks the whole file before anything uses it, and ``load_param_into_net``
  checks every parameter before it assigns any, so a failed load changes nothing.

One module per job: ``_save``, ``_load`` (with ``load_param_into_net``), ``_convert``,
``_format`` (the ``.ckpt`` protobuf reader/writer) and ``_common`` (shared helpers).
"""

from ._common import CheckpointFileNotFoundError, ParameterMismatchError
from ._convert import ckpt_to_safetensors, safetensors_to_ckpt
from ._load import (
    _load_dismatch_prefix_params,
    _update_param,
    load_checkpoint,
    load_checkpoint_async,
    load_param_into_net,
)
from ._mindir import export, load
from ._sharded import load_distributed_checkpoint
from ._save import _wait_async_save, _write_file, async_ckpt_thread_status, save_checkpoint

__all__ = [
    "save_checkpoint",
    "load_checkpoint",
    "load_checkpoint_async",
    "load_param_into_net",
    "async_ckpt_thread_status",
    "ckpt_to_safetensors",
    "safetensors_to_ckpt",
    "load_distributed_checkpoint",
    "export",
    "load",
]

_INTERNAL = (
    CheckpointFileNotFoundError,
    ParameterMismatchError,
    _wait_async_save,
    _write_file,
    _load_dismatch_prefix_params,
    _update_param,
)
