"""cellax: MindSpore's programming model on JAX and XLA.

Change ``import mindspore as ms`` into ``import cellax as ms``. Importing cellax enables
``jax_enable_x64`` so that Int64/Float64 Tensors keep MindSpore's dtypes; cellax always passes
explicit dtypes, so float32 models stay float32.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from . import _dtype as dtype  # noqa: E402,F401
from ._dtype import *  # noqa: E402,F403
from ._dtype import bool_ as bool  # noqa: E402,F401,A004 (MindSpore 2.10 has both)
from ._tensor import Tensor as Tensor  # noqa: E402
from ._tensor import tensor as tensor  # noqa: E402
from ._parameter import Parameter as Parameter  # noqa: E402
from ._parameter import ParameterTuple as ParameterTuple  # noqa: E402
from ._random import set_seed as set_seed  # noqa: E402
from ._random import get_seed as get_seed  # noqa: E402
from ._context import GRAPH_MODE as GRAPH_MODE  # noqa: E402
from ._context import PYNATIVE_MODE as PYNATIVE_MODE  # noqa: E402
from ._context import STRICT as STRICT  # noqa: E402
from ._context import COMPATIBLE as COMPATIBLE  # noqa: E402
from ._context import LAX as LAX  # noqa: E402
from ._context import set_context as set_context  # noqa: E402
from ._context import get_context as get_context  # noqa: E402
from . import context as context  # noqa: E402,F401
from .context import ParallelMode as ParallelMode  # noqa: E402
from .context import set_auto_parallel_context as set_auto_parallel_context  # noqa: E402
from .context import get_auto_parallel_context as get_auto_parallel_context  # noqa: E402
from .context import reset_auto_parallel_context as reset_auto_parallel_context  # noqa: E402
from .context import set_device as set_device  # noqa: E402
from ._transforms import grad as grad  # noqa: E402
from ._transforms import value_and_grad as value_and_grad  # noqa: E402
from ._transforms import jit as jit  # noqa: E402
from ._jit_config import JitConfig as JitConfig  # noqa: E402
from ._transforms import vmap as vmap  # noqa: E402
from ._transforms import jvp as jvp  # noqa: E402
from ._transforms import vjp as vjp  # noqa: E402
from ._transforms import jacfwd as jacfwd  # noqa: E402
from ._transforms import jacrev as jacrev  # noqa: E402
from ._transforms import get_grad as get_grad  # noqa: E402
from ._transforms import recompute as recompute  # noqa: E402
from ._transforms import functional_call as functional_call  # noqa: E402
from ._transforms import state as state  # noqa: E402
from ._transforms import load_state as load_state  # noqa: E402
from ._transforms import mutable as mutable  # noqa: E402
from ._transforms import autograph_source as autograph_source  # noqa: E402
from . import ops as ops  # noqa: E402
from . import nn as nn  # noqa: E402
from .nn._scan import lazy_inline as lazy_inline  # noqa: E402
from . import common as common  # noqa: E402
from . import train as train  # noqa: E402
from . import amp as amp  # noqa: E402
from .train import *  # noqa: E402,F403
from ._serialization import *  # noqa: E402,F403

from .common.api import jit_class as jit_class  # noqa: E402
from .common.api import set_recursion_limit as set_recursion_limit  # noqa: E402
from .common.api import _no_grad as _no_grad  # noqa: E402,F401
from .common.sparse_tensor import RowTensor as RowTensor  # noqa: E402
from .common.sparse_tensor import COOTensor as COOTensor  # noqa: E402
from .common.sparse_tensor import CSRTensor as CSRTensor  # noqa: E402
from .common.generator import Generator as Generator  # noqa: E402
from .common.generator import manual_seed as manual_seed  # noqa: E402
from .common.generator import initial_seed as initial_seed  # noqa: E402
from .common.generator import get_rng_state as get_rng_state  # noqa: E402
from .common.generator import set_rng_state as set_rng_state  # noqa: E402
from ._alias import alias_mindspore as alias_mindspore  # noqa: E402

__version__ = "0.1.0"

# Submodules imported on first attribute access (``ms.numpy``, ``ms.log``...): they are
# heavy or rarely used, and ``import cellax`` stays fast.
_LAZY_MODULES = (
    "numpy mint dataset debug communication profiler boost log version parallel _checkparam"
    " _c_expression experimental multiprocessing runtime device_context hal device_manager onnx"
    " mindrecord utils graph _extends"
).split()
_LAZY_NAMES = {
    "Profiler": "profiler",
    "SummaryRecord": "train.summary",
    "DeviceCtx": "common.device",
    "shard": "parallel",
    "Layout": "parallel",
    "set_memory": "runtime",
    "set_deterministic": "device_manager",
    "get_current_device": "device_manager",
    "Symbol": "common.symbol",
    "_Function": "common._grad_function",
}


def __getattr__(name):
    import importlib

    if name in _LAZY_MODULES:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    elif name in _LAZY_NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
