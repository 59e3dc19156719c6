"""``mindspore.common.parameter``."""

from .._parameter import Parameter as Parameter  # noqa: F401
from .._parameter import ParameterTuple as ParameterTuple  # noqa: F401
