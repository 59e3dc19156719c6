"""``mindspore.common.file_system``: where checkpoints are read and written. MindSpore can
route them through Huawei's MindIO cache service; cellax uses the local file system.

Examples:
    >>> from cellax.common.file_system import FileSystem, mindio_preload
    >>> FileSystem().backend, mindio_preload("ckpt")
    ('basic', False)
"""

from __future__ import annotations

import os
import warnings

__all__ = ["FileSystem", "mindio_preload", "set_mindio_server_info"]


class FileSystem:
    """The file functions checkpoints go through: Python's ``open`` and ``os``."""

    def __init__(self) -> None:
        self.backend = "basic"
        self.create = open
        self.open = open
        self.exists = os.path.exists
        self.remove = os.remove


def mindio_preload(ckpt_file_path: str) -> bool:
    """Ask MindIO to preload a checkpoint: there is no MindIO service, so ``False``."""
    return False


def set_mindio_server_info(ranks: int = 1) -> None:
    """Configure the MindIO service: accepted with a warning, checkpoints use local files."""
    warnings.warn(
        "For 'set_mindio_server_info', cellax has no MindIO checkpoint service; checkpoints "
        "are read and written on the local file system.",
        UserWarning,
        stacklevel=2,
    )
