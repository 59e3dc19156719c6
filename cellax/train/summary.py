"""``mindspore.train.summary``: :class:`SummaryRecord`, a scalar summary writer.

Examples:
    >>> import json, os, tempfile
    >>> from cellax.train import SummaryRecord
    >>> log_dir = tempfile.mkdtemp()
    >>> with SummaryRecord(log_dir) as summary:
    ...     summary.add_value("scalar", "loss", 0.25)
    ...     _ = summary.record(1)
    >>> with open(summary.log_file) as f:
    ...     [json.loads(line) for line in f]
    [{'step': 1, 'tag': 'loss', 'value': 0.25}]
"""

from __future__ import annotations

import json
import os
import time

import numpy as np

__all__ = ["SummaryRecord"]


class SummaryRecord:
    """Write scalar summaries of a training run (``mindspore.train.SummaryRecord``).

    Args:
        log_dir (str): The directory of the summary file.
        file_prefix (str): File name prefix. Default: ``"events"``.
        file_suffix (str): File name suffix. Default: ``"_MS"``.
        num_process (int): Accepted for compatibility. Default: ``32``.
        network (Cell): Accepted for compatibility. Default: ``None``.
        max_file_size (int): Accepted for compatibility. Default: ``None``.
        raise_exception (bool): Accepted for compatibility. Default: ``False``.
        export_options (dict): Accepted for compatibility. Default: ``None``.

    Raises:
        NotImplementedError: From :meth:`add_value` for a plugin other than ``"scalar"``.

    Differences from MindSpore: values are written as JSON lines (``{"step", "tag",
    "value"}``) to :attr:`log_file`, not as MindInsight's protobuf event file; only scalars are
    supported (images, histograms and graphs are not).
    """

    def __init__(
        self,
        log_dir,
        file_prefix="events",
        file_suffix="_MS",
        num_process=32,
        network=None,
        max_file_size=None,
        raise_exception=False,
        export_options=None,
    ):
        if not isinstance(log_dir, str):
            raise TypeError(
                f"For 'SummaryRecord', 'log_dir' must be a str, but got {type(log_dir).__name__}."
            )
        os.makedirs(log_dir, exist_ok=True)
        name = f"{file_prefix}.out.events.summary.{int(time.time())}.{os.getpid()}{file_suffix}"
        self.log_file = os.path.join(log_dir, name + ".jsonl")
        self._pending: list = []
        self._file = open(self.log_file, "a", encoding="utf-8")

    def add_value(self, plugin, name, value) -> None:
        """Queue a value for the next :meth:`record`; ``plugin`` must be ``"scalar"``."""
        if plugin != "scalar":
            raise NotImplementedError(
                f"For 'SummaryRecord.add_value', cellax records only 'scalar' summaries, but got "
                f"plugin '{plugin}'."
            )
        array = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
        self._pending.append((name, float(array.reshape(-1)[0])))

    def record(self, step, train_network=None, plugin_filter=None) -> bool:
        """Write the queued values under ``step``."""
        for tag, value in self._pending:
            self._file.write(json.dumps({"step": int(step), "tag": tag, "value": value}) + "\n")
        self._pending.clear()
        return True

    def flush(self) -> None:
        """Flush the file."""
        self._file.flush()

    def close(self) -> None:
        """Flush and close the file."""
        if not self._file.closed:
            self._file.close()

    def set_mode(self, mode) -> None:
        """Accepted for compatibility (``"train"`` or ``"eval"``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
