"""``mindspore.ops.operations`` (usually imported as ``P``): every primitive class of
``cellax.ops``, also under MindSpore's submodules (``P.nn_ops``, ``P.math_ops``...).

Examples:
    >>> import cellax as ms
    >>> import cellax.ops.operations as P
    >>> from cellax.ops.operations.nn_ops import ReLU
    >>> print(P.ExpandDims()(ms.Tensor([1.0, -1.0]), 0), ReLU is P.ReLU is P.nn_ops.ReLU)
    [[ 1. -1.]] True
"""

from ... import ops as _ops


def _bind() -> list:
    names = []
    for name in dir(_ops):
        value = getattr(_ops, name)
        if not name.startswith("_") and isinstance(value, type) and name != "GradOperation":
            globals()[name] = value
            names.append(name)
    return names


__all__ = _bind()

# MindSpore's submodules, reachable as attributes as there (``ops.operations.nn_ops.X``, which
# model code writes without importing the submodule), imported on first use.
_SUBMODULES = frozenset(
    "array_ops comm_ops control_ops custom_ops debug_ops image_ops linalg_ops manually_defined "
    "math_ops nn_ops other_ops random_ops sparse_ops spectral_ops _grad_ops _inner_ops "
    "_sequence_ops _infer_ops".split()
)


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
