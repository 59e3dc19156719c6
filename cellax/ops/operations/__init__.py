"""``mindspore.ops.operations`` (usually imported as ``P``): every primitive class of
``cellax.ops``, also under MindSpore's submodules (``P.nn_ops``, ``P.math_ops``...).

Examples:
    >>> import cellax as ms
    >>> import cellax.ops.operations as P
    >>> from cellax.ops.operations.nn_ops import ReLU
    >>> print(P.ExpandDims()(ms.Tensor([1.0, -1.0]), 0), ReLU is P.ReLU)
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
