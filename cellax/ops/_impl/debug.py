"""Printing and dumping Tensors from inside a program: ``print_``, ``tensordump``."""

from __future__ import annotations

import jax
import numpy as np

from .utils import arr

__all__ = [
    "print_",
    "tensordump",
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
