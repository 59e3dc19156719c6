"""``mindspore.ops.function``: the package behind the functional API, with MindSpore's
submodules (``nn_func``, ``array_func``, ``math_func``...).

Examples:
    >>> import cellax as ms
    >>> from cellax.ops.function import nn_func
    >>> print(nn_func.relu(ms.Tensor([-1.0, 2.0])))
    [0. 2.]
"""

from ..functional import *  # noqa: F403
from ..functional import __all__ as __all__
