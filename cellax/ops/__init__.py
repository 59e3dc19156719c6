"""cellax.ops: MindSpore's functional ops and primitive classes on JAX.

Each family module defines ``__all__``; this package re-exports them.
"""

from ._primitive import Primitive as Primitive
from ._primitive import PrimitiveWithInfer as PrimitiveWithInfer
from ._primitive import prim_attr_register as prim_attr_register
from .._transforms import GradOperation as GradOperation
from ._math import *  # noqa: F403
from ._elementwise import *  # noqa: F403
from ._math_primitives import *  # noqa: F403
from ._creation import *  # noqa: F403
from ._shape import *  # noqa: F403
from ._array import *  # noqa: F403
from ._nn import *  # noqa: F403
from ._state_ops import *  # noqa: F403
from ._reduce import *  # noqa: F403
from ._cumulative import *  # noqa: F403
from ._index import *  # noqa: F403
from ._random import *  # noqa: F403
from ._linalg import *  # noqa: F403
from . import _tensor_methods as _tensor_methods  # noqa: F401
from ._conv import *  # noqa: F403
from ._pool import *  # noqa: F403
from ._norm import *  # noqa: F403
from ._resample import *  # noqa: F403
from ._loss import *  # noqa: F403
from ._hook import *  # noqa: F403
from ._control import *  # noqa: F403
from ._statistics import *  # noqa: F403
from ._linalg_ext import *  # noqa: F403
from ._grid_sample import *  # noqa: F403
from ._unpool import *  # noqa: F403
from ._composite import *  # noqa: F403
from ._compat_prims import *  # noqa: F403
from ._windows import *  # noqa: F403
from ._scatter_ext import *  # noqa: F403
from ._loss_ext import *  # noqa: F403
from ._vision_ext import *  # noqa: F403
from ._aliases import *  # noqa: F403
from ._fft import *  # noqa: F403
from ._segment import *  # noqa: F403
from ._matrix_diag import *  # noqa: F403
from ._rearrange import *  # noqa: F403
from ._math_ext import *  # noqa: F403
from ._special_ext import *  # noqa: F403
from ._linalg_more import *  # noqa: F403
from ._inplace import *  # noqa: F403
from ._boxes import *  # noqa: F403
from ._ext_ops import *  # noqa: F403
from ._random_more import *  # noqa: F403
from ._unavailable import *  # noqa: F403
from ._comm import *  # noqa: F403
from . import primitive as primitive  # noqa: E402
from .primitive import constexpr as constexpr
from .._tensor import Tensor as Tensor

# MindSpore's ops submodules, imported on first use (keeps ``import cellax`` fast).
_LAZY_SUBMODULES = (
    "functional",
    "operations",
    "composite",
    "function",
    "auto_generate",
    "communication",
)


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
