"""Printing, dumping and summarizing Tensors from inside a program: ``print_``,
``tensordump`` and the summary ops (``ScalarSummary``, ``ImageSummary``, ``TensorSummary``,
``HistogramSummary``)."""

from __future__ import annotations

import threading

import jax
import numpy as np

from ..._tensor import Tensor
from .primitive import Primitive
from .utils import arr

__all__ = [
    "print_",
    "tensordump",
    "ScalarSummary",
    "ImageSummary",
    "TensorSummary",
    "HistogramSummary",
]


def print_(*input_x):
    """Print the inputs; works inside compiled code through ``jax.debug.print``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.print_("x:", ms.Tensor([1, 2]))
        x: [1 2]
    """
    parts, values = [], []
    for item in input_x:
        if isinstance(item, str):
            parts.append(item.replace("{", "{{").replace("}", "}}"))
        else:
            parts.append("{}")
            values.append(arr(item))
    jax.debug.print(" ".join(parts), *values)


_DUMPS = [0]  # MindSpore numbers the dump files of a process


def tensordump(file_name, tensor, mode="out"):
    """Save ``tensor`` as a NumPy file named, as MindSpore 2.10 names it,
    ``<file_name without .npy>_<dtype>_<n>.npy`` (``n`` counts the dumps of the process).

    Examples:
        >>> import glob, os, tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> ms.ops.tensordump(os.path.join(folder, "t.npy"), ms.Tensor([1.0, 2.0]))
        >>> print(np.load(glob.glob(os.path.join(folder, "t_float32_*.npy"))[0]))
        [1. 2.]
    """
    if not isinstance(file_name, str):
        raise TypeError(f"For 'tensordump', 'file_name' must be a str, got {file_name!r}.")
    if mode not in ("out", "in", "all"):
        raise ValueError(f"For 'tensordump', 'mode' must be 'out', 'in' or 'all', got {mode!r}.")
    value = np.asarray(arr(tensor, "tensordump", "tensor"))
    stem = file_name[:-4] if file_name.endswith(".npy") else file_name
    np.save(f"{stem}_{value.dtype.name}_{_DUMPS[0]}.npy", value)
    _DUMPS[0] += 1


# The summary ops' values on the host, {(plugin, tag): numpy array}, the newest per key, until
# the next ``SummaryRecord.record`` takes them (``take_summary_values``).
_SUMMARY_VALUES: dict = {}
_SUMMARY_LOCK = threading.Lock()


def _keep_summary_value(plugin: str, tag: str, value) -> None:
    with _SUMMARY_LOCK:
        _SUMMARY_VALUES[(plugin, tag)] = np.array(value)


def take_summary_values() -> dict:
    """The summary ops' values recorded since the last call, ``{(plugin, tag): array}``.

    Waits first for the host callbacks of programs still running (``jax.effects_barrier``),
    so a value recorded by a step that was dispatched is there.
    """
    jax.effects_barrier()
    with _SUMMARY_LOCK:
        values = dict(_SUMMARY_VALUES)
        _SUMMARY_VALUES.clear()
    return values


class _Summary(Primitive):
    """A summary op: ``op(name, value)`` sends ``value`` to the host, where the next
    ``SummaryRecord.record(step)`` (the one ``SummaryCollector`` runs, or the user's) writes it
    under the tag ``name``. Eagerly the value is kept at once; inside ``cellax.jit`` or
    GRAPH_MODE it leaves the compiled program through a host callback
    (``jax.debug.callback``) each time the program runs. The op returns nothing."""

    _plugin = ""

    def __init__(self) -> None:
        super().__init__()
        self.add_prim_attr("side_effect_io", True)

    def _check_value(self, shape: tuple) -> None:
        """Raise ValueError where ``shape`` does not suit the plugin."""

    def __call__(self, name, value) -> None:
        op = type(self).__name__
        if not isinstance(name, str) or not name:
            raise TypeError(
                f"For '{op}', the input 'name' must be a non-empty str, but got {name!r}."
            )
        if not isinstance(value, Tensor):
            raise TypeError(
                f"For '{op}', the input 'value' must be a Tensor, but got {type(value).__name__}."
            )
        self._check_value(tuple(value.shape))
        plugin = self._plugin

        def deliver(array):
            _keep_summary_value(plugin, name, array)

        jax.debug.callback(deliver, arr(value))


class ScalarSummary(_Summary):
    """Record a scalar under a tag from inside ``construct`` (``mindspore.ops.ScalarSummary``).

    Inputs:
        - **name** (str) - The tag, a non-empty str.
        - **value** (Tensor) - A Tensor of one element (rank 0 or 1).

    The value is written by the next ``SummaryRecord.record(step)``: a ``SummaryCollector``
    records at its collection steps. Works eagerly and inside ``cellax.jit``/GRAPH_MODE (the
    value leaves the program through a host callback).

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` holds more than one element.

    Examples:
        >>> import tempfile
        >>> import cellax as ms
        >>> from cellax import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.summary = ops.ScalarSummary()
        ...     def construct(self, x):
        ...         self.summary("x_sum", x.sum())
        ...         return x * 2
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as record:
        ...     out = ms.jit(Net())(ms.Tensor([1.0, 2.0]))
        ...     record.record(1)
        True
    """

    _plugin = "scalar"

    def _check_value(self, shape: tuple) -> None:
        if int(np.prod(shape)) != 1:
            raise ValueError(
                f"For 'ScalarSummary', the input 'value' must hold one element (rank 0 or 1), "
                f"but got shape {shape}."
            )


class _RankedSummary(_Summary):
    def _check_value(self, shape: tuple) -> None:
        if not shape:
            raise ValueError(
                f"For '{type(self).__name__}', the input 'value' must have rank 1 or more, but "
                f"got a Tensor of rank 0."
            )


class TensorSummary(_RankedSummary):
    """Record a Tensor under a tag from inside ``construct`` (``mindspore.ops.TensorSummary``).

    Inputs:
        - **name** (str) - The tag, a non-empty str.
        - **value** (Tensor) - A Tensor of rank 1 or more.

    Written as a TensorBoard tensor value by the next ``SummaryRecord.record(step)``.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` has rank 0.

    Examples:
        >>> import tempfile
        >>> import cellax as ms
        >>> from cellax import ops
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as record:
        ...     ops.TensorSummary()("logits", ms.Tensor([[0.5, 1.5]]))
        ...     record.record(1)
        True
    """

    _plugin = "tensor"


class HistogramSummary(_RankedSummary):
    """Record the histogram of a Tensor under a tag from inside ``construct``
    (``mindspore.ops.HistogramSummary``).

    Inputs:
        - **name** (str) - The tag, a non-empty str.
        - **value** (Tensor) - A Tensor of rank 1 or more.

    Written as a TensorBoard histogram by the next ``SummaryRecord.record(step)``.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` has rank 0.

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as record:
        ...     ops.HistogramSummary()("weights", ms.Tensor(np.arange(10.0)))
        ...     record.record(1)
        True
    """

    _plugin = "histogram"


class ImageSummary(_Summary):
    """Record a batch of images under a tag from inside ``construct``
    (``mindspore.ops.ImageSummary``).

    Inputs:
        - **name** (str) - The tag, a non-empty str.
        - **value** (Tensor) - Images in NCHW layout with 1 or 3 channels: float values in
          [0, 1] or uint8 (TensorBoard's convention).

    Written by the next ``SummaryRecord.record(step)``; a batch is tiled into one image.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` is not of rank 4 with 1 or 3 channels.

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as record:
        ...     ops.ImageSummary()("input", ms.Tensor(np.zeros((2, 1, 4, 4), np.float32)))
        ...     record.record(1)
        True
    """

    _plugin = "image"

    def _check_value(self, shape: tuple) -> None:
        if len(shape) != 4 or shape[1] not in (1, 3):
            raise ValueError(
                f"For 'ImageSummary', the input 'value' must be NCHW images (rank 4) with 1 or 3 "
                f"channels, but got shape {shape}."
            )
