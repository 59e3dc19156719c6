"""``mindspore.ops.functional`` (usually imported as ``F``): every functional op of
``cellax.ops`` plus the helpers MindSpore keeps only here (``partial``,
``mixed_precision_cast``, ``tuple_to_array``...).

Examples:
    >>> import cellax as ms
    >>> from cellax.ops import functional as F
    >>> print(F.partial(F.add, ms.Tensor([1.0]))(ms.Tensor([2.0])))
    [3.]
"""

import types as _types

from .. import ops as _ops


def _bind() -> list:
    names = []
    for name in dir(_ops):
        value = getattr(_ops, name)
        if name.startswith("_") or isinstance(value, _types.ModuleType):
            continue
        if isinstance(value, type) and issubclass(value, (_ops.Primitive, _ops.Tensor)):
            continue
        globals()[name] = value
        names.append(name)
    return names


__all__ = _bind()
