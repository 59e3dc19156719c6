"""``mindspore.ops.operations._sequence_ops``: MindSpore's primitives on tuples, lists and
scalars; model code takes ``TensorToScalar`` from here.

Examples:
    >>> import cellax as ms
    >>> from cellax.ops.operations._sequence_ops import TensorToScalar
    >>> TensorToScalar()(ms.Tensor(3))
    3
"""

from .._impl.primitive import primitive
from .._impl.utils import arr

__all__ = ["TensorToScalar"]


def _to_scalar(self, input_x):
    return arr(input_x, "TensorToScalar", "input_x").item()


TensorToScalar = primitive(
    "TensorToScalar",
    None,
    None,
    _to_scalar,
    "The Python number held by a 0-D (or one-element) tensor. It reads the value, so it runs "
    "eagerly, not on a traced tensor.",
)
