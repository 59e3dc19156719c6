"""MindSpore's ``mindspore.common`` import paths, re-exporting cellax's implementation."""

from . import dtype as dtype
from . import initializer as initializer
from . import parameter as parameter
from . import tensor as tensor
from .._tensor import Tensor as Tensor
from .._parameter import Parameter as Parameter
from .._parameter import ParameterTuple as ParameterTuple
from .._random import set_seed as set_seed
from .._dtype import *  # noqa: E402,F403
from . import api as api  # noqa: E402
from . import sparse_tensor as sparse_tensor  # noqa: E402
from .sparse_tensor import RowTensor as RowTensor  # noqa: E402
from .sparse_tensor import COOTensor as COOTensor  # noqa: E402
from .sparse_tensor import CSRTensor as CSRTensor  # noqa: E402
from . import generator as generator  # noqa: E402
from .generator import Generator as Generator  # noqa: E402
from . import _grad_function as _grad_function  # noqa: E402
from ._grad_function import _Function as _Function  # noqa: E402
from . import file_system as file_system  # noqa: E402
from . import np_dtype as np_dtype  # noqa: E402
from .api import _no_grad as _no_grad  # noqa: E402
from .api import flops_collection as flops_collection  # noqa: E402
from .api import jit as jit  # noqa: E402
from .api import jit_class as jit_class  # noqa: E402
from .device import DeviceCtx as DeviceCtx  # noqa: E402
from .file_system import mindio_preload as mindio_preload  # noqa: E402
from .file_system import set_mindio_server_info as set_mindio_server_info  # noqa: E402
from .generator import get_rng_state as get_rng_state  # noqa: E402
from .generator import initial_seed as initial_seed  # noqa: E402
from .generator import manual_seed as manual_seed  # noqa: E402
from .generator import set_rng_state as set_rng_state  # noqa: E402
from .._jit_config import JitConfig as JitConfig  # noqa: E402
from .._random import get_seed as get_seed  # noqa: E402
from .._transforms._map import recompute as recompute  # noqa: E402
from .._transforms._mutable import mutable as mutable  # noqa: E402
from ..nn._scan import lazy_inline as lazy_inline  # noqa: E402

# MindSpore 2.10's ``common.__all__``, less the names cellax does not have
# (``from mindspore.common import *``; tinyms extends its own ``__all__`` with it)
__all__ = [
    name
    for name in (
        "COOTensor CSRTensor DeviceCtx Generator JitConfig Parameter ParameterTuple RowTensor "
        "Tensor Type _Function _no_grad bfloat16 bool_ complex128 complex64 double dtype "
        "dtype_to_nptype dtype_to_pytype float16 float32 float64 float_ flops_collection "
        "get_py_obj_dtype get_rng_state get_seed half initial_seed int16 int32 int64 int8 "
        "int_ jit jit_class lazy_inline manual_seed mindio_preload mutable pytype_to_dtype "
        "recompute set_mindio_server_info set_rng_state set_seed single uint uint16 "
        "uint32 uint64 uint8"
    ).split()
    if name in globals()
]
