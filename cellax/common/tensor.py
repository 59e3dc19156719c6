"""``mindspore.common.tensor``."""

from .._tensor import Tensor as Tensor  # noqa: F401
from .._tensor import tensor as tensor  # noqa: F401

_TensorMeta = type(Tensor)  # the metaclass MindSpore's Tensor classes share
