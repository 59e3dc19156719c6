"""cellax.ops: MindSpore's functional ops and primitive classes on JAX.

Each family module defines ``__all__``; this package re-exports them.
"""

from ._primitive import Primitive as Primitive
from ._primitive import PrimitiveWithInfer as PrimitiveWithInfer
from ._primitive import prim_attr_register as prim_attr_register
from ._primitive import primitive as primitive
from .._transforms import GradOperation as GradOperation
from ._math import *  # noqa: F403
from ._array import *  # noqa: F403
from ._nn import *  # noqa: F403
from ._state_ops import *  # noqa: F403
from ._reduce import *  # noqa: F403
from ._index import *  # noqa: F403
from ._random import *  # noqa: F403
from ._linalg import *  # noqa: F403
from . import _tensor_methods as _tensor_methods  # noqa: F401
from ._nn_layers import *  # noqa: F403
from ._loss import *  # noqa: F403
from ._hook import *  # noqa: F403
from ._control import *  # noqa: F403
