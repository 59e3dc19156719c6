"""Initializers (``cellax.common.initializer``): fill a new Tensor of a given shape and dtype.

The Initializer classes live in :mod:`cellax._init_samplers` (arrays only); this module adds
the Tensor-returning :func:`initializer`.
"""

from __future__ import annotations

from . import _dtype
from ._init_samplers import *  # noqa: F403
from ._init_samplers import __all__ as _SAMPLERS
from ._init_samplers import check_init_shape, sample
from ._tensor import Tensor, wrap

__all__ = ["initializer"] + [name for name in _SAMPLERS if name != "sample"]


def initializer(init, shape=None, dtype=_dtype.float32) -> Tensor:
    """Create a Tensor of ``shape`` and ``dtype`` filled by ``init``.

    Args:
        init (Union[Tensor, str, Initializer, numbers.Number]): An Initializer, its name
            (``'normal'``, ``'ones'``, ``'zeros'``, ``'xavier_uniform'``, ``'he_uniform'``, ...),
            a number (constant fill) or a Tensor of exactly ``shape``.
        shape (Union[tuple, list, int]): The shape. Default: ``None``.
        dtype (cellax.dtype): The dtype. Default: ``cellax.float32``.

    Returns:
        Tensor.

    Raises:
        TypeError: If ``init`` is of an unsupported type.
        ValueError: If ``init`` is an unknown name or a Tensor whose shape is not ``shape``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.common.initializer import initializer, One
        >>> print(initializer(One(), [1, 2, 3], ms.float32))
        [[[1. 1. 1.]
          [1. 1. 1.]]]
        >>> print(initializer('zeros', (2,), ms.int32))
        [0 0]
    """
    if isinstance(init, Tensor):
        # MindSpore returns the Tensor itself (its dtype is kept).
        check_init_shape(init.shape, shape)
        return init
    result = wrap(sample(init, shape, dtype))
    result._spec = "init"  # prints NumPy-style, as MindSpore's lazily initialised Tensors
    return result
