"""MindSpore's ``mindspore.common`` import paths, re-exporting cellax's implementation."""

from . import dtype as dtype
from . import initializer as initializer
from . import parameter as parameter
from . import tensor as tensor
from .._tensor import Tensor as Tensor
from .._parameter import Parameter as Parameter
from .._parameter import ParameterTuple as ParameterTuple
from .._random import set_seed as set_seed
