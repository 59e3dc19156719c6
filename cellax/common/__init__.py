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
