"""``mindspore.train.summary``: :class:`SummaryRecord`, writing TensorBoard event files.

The event protocol buffers and the TFRecord framing come from tensorboardX (the ``summary``
extra: ``pip install 'cellax[summary]'``); cellax picks the file name (MindSpore's, with
``tfevents`` in it so that TensorBoard finds the file) and maps MindSpore's plugins onto
TensorBoard's: "scalar" -> scalars, "image" -> images (NCHW batches tiled into one grid),
"histogram" -> histograms, "tensor" -> a tensor value.

Examples:
    >>> import os, tempfile
    >>> import cellax as ms
    >>> from cellax.train import SummaryRecord
    >>> log_dir = tempfile.mkdtemp()
    >>> with SummaryRecord(log_dir) as summary:
    ...     summary.add_value("scalar", "loss", ms.Tensor(0.25))
    ...     _ = summary.record(1)
    >>> ".out.tfevents.summary." in os.path.basename(summary.log_file)
    True
"""

from __future__ import annotations

import os
import platform
import time

import numpy as np

from ..ops._impl.debug import take_summary_values

__all__ = ["SummaryRecord"]

_VALUE_PLUGINS = ("scalar", "image", "histogram", "tensor")
_OTHER_PLUGINS = (
    "graph",
    "train_lineage",
    "eval_lineage",
    "dataset_graph",
    "custom_lineage_data",
    "LANDSCAPE",
)
# TensorFlow's DataType enum (tensorflow/core/framework/types.proto) for the "tensor" plugin
_TF_DTYPES = {
    "float32": 1,
    "float64": 2,
    "int32": 3,
    "uint8": 4,
    "int16": 5,
    "int8": 6,
    "int64": 9,
    "bool": 10,
    "float16": 19,
    "uint16": 17,
    "uint32": 22,
    "uint64": 23,
}
MARK = ".out.tfevents.summary."  # MindSpore's ".out.events.summary.", plus TensorBoard's "tf"


def _tensorboardx(api: str):
    try:
        import tensorboardX
        import tensorboardX.record_writer  # noqa: F401
        import tensorboardX.summary  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"For '{api}', writing TensorBoard event files needs the 'tensorboardX' package. "
            "Install it with: pip install 'cellax[summary]'."
        ) from error
    return tensorboardX


def _check_str(api: str, name: str, value) -> None:
    if not isinstance(value, str):
        raise TypeError(f"For '{api}', '{name}' must be a str, but got {type(value).__name__}.")


def _to_numpy(value, plugin: str, tag: str) -> np.ndarray:
    if hasattr(value, "asnumpy"):
        array = value.asnumpy()
    elif isinstance(value, (np.ndarray, np.generic, bool, int, float)) or hasattr(
        value, "__array__"
    ):
        array = np.asarray(value)
    else:
        raise TypeError(
            f"For 'SummaryRecord.add_value', 'value' must be a Tensor, but got "
            f"{type(value).__name__} (plugin '{plugin}', name '{tag}')."
        )
    if plugin == "scalar" and array.size != 1:
        raise ValueError(
            f"For 'SummaryRecord.add_value', a 'scalar' value must hold one element, but "
            f"'{tag}' has shape {array.shape}. Use the 'tensor' or 'histogram' plugin."
        )
    if plugin == "image" and (array.ndim != 4 or array.shape[1] not in (1, 3)):
        raise ValueError(
            f"For 'SummaryRecord.add_value', an 'image' value must be NCHW with 1 or 3 "
            f"channels, but '{tag}' has shape {array.shape}."
        )
    return array


def _tensor_proto(tb, array: np.ndarray):
    from tensorboardX.proto.tensor_pb2 import TensorProto
    from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto

    if array.dtype.name not in _TF_DTYPES:
        array = array.astype(np.float32)  # bfloat16 and other dtypes TensorBoard lacks
    shape = TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in array.shape])
    return TensorProto(
        dtype=_TF_DTYPES[array.dtype.name],
        tensor_shape=shape,
        tensor_content=np.ascontiguousarray(array).tobytes(),
    )


def _summary_value(tb, plugin: str, tag: str, array: np.ndarray):
    """One ``Summary`` protocol buffer for a queued value."""
    summary = tb.summary
    if plugin == "scalar":
        return summary.scalar(tag, float(array.reshape(-1)[0]))
    if plugin == "histogram":
        return summary.histogram(
            tag, array.astype(np.float64).reshape(-1), bins="auto", max_bins=64
        )
    if plugin == "image":
        if array.dtype != np.uint8:
            array = array.astype(np.float32)
        return summary.image(tag, array, dataformats="NCHW")
    from tensorboardX.proto.summary_pb2 import Summary

    return Summary(value=[Summary.Value(tag=tag, tensor=_tensor_proto(tb, array))])


class SummaryRecord:
    """Write summaries of a training run as TensorBoard event files (``mindspore.SummaryRecord``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.SummaryRecord.html

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
        TypeError: If ``log_dir``, ``file_prefix`` or ``file_suffix`` is not a str.
        ImportError: If tensorboardX (the ``summary`` extra) is not installed.

    Differences from MindSpore: the file is a TensorBoard event file (open ``log_dir`` with
    ``tensorboard --logdir``), not MindInsight's; its name is MindSpore's with ``tfevents``
    in the mark (``events.out.tfevents.summary.<time>.<device>.<host>_MS``) because
    TensorBoard only reads files so named. Images follow TensorBoard's convention (float
    values in [0, 1] or uint8). The "graph", lineage and "LANDSCAPE" plugins raise.

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as summary:
        ...     summary.add_value("scalar", "loss", ms.Tensor(0.5))
        ...     summary.add_value("histogram", "weight", ms.Tensor(np.arange(6.0)))
        ...     summary.add_value("image", "input", ms.Tensor(np.zeros((2, 3, 4, 4), np.float32)))
        ...     summary.record(1)
        True
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
        _check_str("SummaryRecord", "log_dir", log_dir)
        _check_str("SummaryRecord", "file_prefix", file_prefix)
        _check_str("SummaryRecord", "file_suffix", file_suffix)
        self._tb = _tensorboardx("SummaryRecord")
        os.makedirs(log_dir, exist_ok=True)
        name = f"{file_prefix}{MARK}{int(time.time())}.0.{platform.node()}{file_suffix}"
        self.log_file = os.path.realpath(os.path.join(log_dir, name))
        self._pending: dict = {}
        self._mode = "train"
        take_summary_values()  # values the summary ops left before this record began
        self._writer = self._tb.record_writer.RecordWriter(self.log_file)
        event = self._event(file_version="brain.Event:2")
        self._writer.write(event.SerializeToString())
        self._closed = False

    def _event(self, **fields):
        from tensorboardX.proto.event_pb2 import Event

        return Event(wall_time=time.time(), **fields)

    def add_value(self, plugin, name, value) -> None:
        """Queue ``value`` under the tag ``name`` for the next :meth:`record`.

        Args:
            plugin (str): "scalar", "image" (NCHW, 1 or 3 channels), "histogram" or "tensor".
            name (str): The tag. A second value of the same plugin and tag replaces the first.
            value (Tensor): The value.

        Raises:
            ValueError: If ``plugin`` is unknown, ``name`` is empty, or the value's shape does
                not suit the plugin.
            TypeError: If ``value`` is not a Tensor or array.
            NotImplementedError: For MindSpore's "graph", lineage and "LANDSCAPE" plugins.
        """
        if plugin in _OTHER_PLUGINS:
            raise NotImplementedError(
                f"For 'SummaryRecord.add_value', the '{plugin}' plugin is MindInsight's; cellax "
                f"writes TensorBoard files with the plugins {list(_VALUE_PLUGINS)}."
            )
        if plugin not in _VALUE_PLUGINS:
            raise ValueError(
                f"For 'SummaryRecord.add_value', 'plugin' must be one of {list(_VALUE_PLUGINS)}, "
                f"but got {plugin!r}."
            )
        if not isinstance(name, str) or not name:
            raise ValueError(
                f"For 'SummaryRecord.add_value', 'name' must be a non-empty str, but got {name!r}."
            )
        self._pending[(plugin, name)] = _to_numpy(value, plugin, name)

    def record(self, step, train_network=None, plugin_filter=None) -> bool:
        """Write the queued values under ``step``; return ``True``.

        In "train" mode (the default, see :meth:`set_mode`) the values the summary ops
        (``ops.ScalarSummary``, ``ImageSummary``, ``TensorSummary``, ``HistogramSummary``)
        recorded since the last ``record`` are written too, the newest value of each tag.

        Args:
            step (int): The step the values belong to.
            train_network (Cell): Accepted for compatibility. Default: ``None``.
            plugin_filter (Callable[[str], bool]): Write only the values of the plugins for
                which it returns ``True`` (the others are dropped). Default: ``None``.

        Raises:
            TypeError: If ``step`` is not an int.
        """
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise TypeError(
                f"For 'SummaryRecord.record', 'step' must be an int, but got {type(step).__name__}."
            )
        if self._closed:
            raise RuntimeError("For 'SummaryRecord.record', the SummaryRecord is closed.")
        if self._mode == "train":
            for (plugin, tag), array in take_summary_values().items():
                self.add_value(plugin, tag, array)
        for (plugin, tag), array in self._pending.items():
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            summary = _summary_value(self._tb, plugin, tag, array)
            self._writer.write(self._event(step=int(step), summary=summary).SerializeToString())
        self._pending.clear()
        return True

    def flush(self) -> None:
        """Flush the event file to disk."""
        if not self._closed:
            self._writer.flush()

    def close(self) -> None:
        """Flush and close the event file."""
        if not self._closed:
            self._writer.flush()
            self._writer.close()
            self._closed = True

    def set_mode(self, mode) -> None:
        """Set the mode: in ``"train"`` (the default) :meth:`record` writes the summary ops'
        values too, in ``"eval"`` it leaves them for a later ``record``.

        Raises:
            ValueError: If ``mode`` is not ``"train"`` or ``"eval"``.
        """
        if mode not in ("train", "eval"):
            raise ValueError(
                f"For 'SummaryRecord.set_mode', {mode!r} is not a recognized mode, expect the "
                "parameter 'mode' is 'train' or 'eval'."
            )
        self._mode = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
