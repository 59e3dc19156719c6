"""``mindspore.train.callback._checkpoint``: the module where MindSpore defines
``ModelCheckpoint`` and ``CheckpointConfig``."""

from __future__ import annotations

import os

from .._callback_checkpoint import CheckpointConfig, ModelCheckpoint

__all__ = ["CheckpointConfig", "ModelCheckpoint", "CheckpointManager"]


class CheckpointManager:
    """The checkpoint files of one prefix in a folder, oldest first, and their pruning
    (MindSpore's helper behind ``ModelCheckpoint``'s ``keep_checkpoint_max``).

    Examples:
        >>> import os, tempfile
        >>> from cellax.train.callback._checkpoint import CheckpointManager
        >>> folder = tempfile.mkdtemp()
        >>> for step in (1, 2):
        ...     open(os.path.join(folder, f"net-{step}_1.ckpt"), "w").close()
        >>> manager = CheckpointManager()
        >>> manager.update_ckpoint_filelist(folder, "net")
        >>> manager.ckpoint_num
        2
        >>> manager.remove_oldest_ckpoint_file(); manager.ckpoint_num
        1
    """

    def __init__(self, format: str = "ckpt") -> None:
        self._format = format
        self._files: list = []

    @property
    def ckpoint_filelist(self) -> list:
        return self._files

    @property
    def ckpoint_num(self) -> int:
        return len(self._files)

    def update_ckpoint_filelist(self, directory: str, prefix: str) -> None:
        """Re-read the ``prefix*.<format>`` files of ``directory``, oldest first."""
        suffix = "." + self._format
        names = [
            os.path.join(directory, name)
            for name in os.listdir(directory)
            if name.startswith(prefix) and name.endswith(suffix)
        ]
        self._files = sorted(names, key=os.path.getmtime)

    def remove_ckpoint_file(self, file_name: str) -> None:
        """Delete a checkpoint file and forget it."""
        if os.path.exists(file_name):
            os.chmod(file_name, 0o600)
            os.remove(file_name)
        if file_name in self._files:
            self._files.remove(file_name)

    def remove_oldest_ckpoint_file(self) -> None:
        """Delete the oldest checkpoint file."""
        if self._files:
            self.remove_ckpoint_file(self._files[0])

    def keep_one_ckpoint_per_minutes(self, minutes: float, cur_time: float) -> None:
        """Of the files written in the last ``minutes`` before ``cur_time``, keep the newest."""
        recent = [f for f in self._files if cur_time - os.path.getmtime(f) < minutes * 60]
        for name in recent[:-1]:
            self.remove_ckpoint_file(name)
