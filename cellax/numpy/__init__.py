"""cellax.numpy: MindSpore 2.10's ``mindspore.numpy`` (a NumPy-style API over Tensors) on
``jax.numpy``.

Import it as MindSpore code does, ``import cellax.numpy as mnp``; every function takes and
returns cellax Tensors (Python data is converted with mnp's defaults: ints Int32, floats
Float32) and works under ``cellax.jit`` and ``cellax.grad``, except the few whose output
shape depends on the values (``unique``, ``argwhere``, ``setdiff1d``, ``intersect1d``,
``where(condition)``, ``bincount`` without ``length``), which run eagerly only.
``docs/numpy_coverage.md`` lists MindSpore's names against this package.

Examples:
    >>> import cellax.numpy as mnp
    >>> x = mnp.arange(6).reshape(2, 3)
    >>> print(mnp.sum(x, axis=1), x.dtype)
    [ 3 12] Int32
"""

from __future__ import annotations

from . import dtypes, fft
from ._names import array_creations_module, array_ops_module, logic_module, math_module
from ._creation import *  # noqa: F403
from ._creation import __all__ as _creation_all
from ._elementwise import *  # noqa: F403
from ._elementwise import __all__ as _elementwise_all
from ._linalg import *  # noqa: F403
from ._linalg import __all__ as _linalg_all
from ._logic import *  # noqa: F403
from ._logic import __all__ as _logic_all
from ._matrix import *  # noqa: F403
from ._matrix import __all__ as _matrix_all
from ._reduce import *  # noqa: F403
from ._reduce import __all__ as _reduce_all
from ._select import *  # noqa: F403
from ._select import __all__ as _select_all
from ._shape import *  # noqa: F403
from ._shape import __all__ as _shape_all
from ._stats import *  # noqa: F403
from ._stats import __all__ as _stats_all
from .dtypes import *  # noqa: F403
from .dtypes import __all__ as _dtypes_all

__all__ = ["dtypes", "fft"]
__all__ += ["array_creations_module", "array_ops_module", "logic_module", "math_module"]
for _names in (
    _creation_all,
    _elementwise_all,
    _linalg_all,
    _logic_all,
    _matrix_all,
    _reduce_all,
    _select_all,
    _shape_all,
    _stats_all,
    _dtypes_all,
):
    __all__ += _names
del _names

_SUBMODULES = ("array_creations", "array_ops", "logic_ops", "math_ops")


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
