"""cellax: MindSpore's programming model on JAX and XLA.

Change ``import mindspore as ms`` into ``import cellax as ms``. Importing cellax enables
``jax_enable_x64`` so that Int64/Float64 Tensors keep MindSpore's dtypes; cellax always passes
explicit dtypes, so float32 models stay float32.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from . import _dtype as dtype  # noqa: E402,F401
from ._dtype import *  # noqa: E402,F403
from ._tensor import Tensor as Tensor  # noqa: E402
from ._tensor import tensor as tensor  # noqa: E402
from ._parameter import Parameter as Parameter  # noqa: E402
from ._parameter import ParameterTuple as ParameterTuple  # noqa: E402
from ._random import set_seed as set_seed  # noqa: E402
from ._random import get_seed as get_seed  # noqa: E402
from ._context import GRAPH_MODE as GRAPH_MODE  # noqa: E402
from ._context import PYNATIVE_MODE as PYNATIVE_MODE  # noqa: E402
from ._context import set_context as set_context  # noqa: E402
from ._context import get_context as get_context  # noqa: E402
from . import _context as context  # noqa: E402,F401
from ._transforms import grad as grad  # noqa: E402
from ._transforms import value_and_grad as value_and_grad  # noqa: E402
from ._transforms import jit as jit  # noqa: E402
from ._jit_config import JitConfig as JitConfig  # noqa: E402
from ._transforms import vmap as vmap  # noqa: E402
from ._transforms import recompute as recompute  # noqa: E402
from ._mutable import mutable as mutable  # noqa: E402
from ._control_flow import autograph_source as autograph_source  # noqa: E402
from . import ops as ops  # noqa: E402
from . import nn as nn  # noqa: E402
from .nn._scan import lazy_inline as lazy_inline  # noqa: E402
from . import common as common  # noqa: E402
from . import train as train  # noqa: E402
from . import amp as amp  # noqa: E402
from .train import *  # noqa: E402,F403
from ._serialization import *  # noqa: E402,F403

__version__ = "0.1.0"
