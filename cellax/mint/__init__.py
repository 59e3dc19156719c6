"""``cellax.mint``: MindSpore 2.10's ``mindspore.mint``, the PyTorch-style API.

The functions here are thin adapters over :mod:`cellax.ops` (PyTorch argument names such as
``dim``/``keepdim``/``input`` and MindSpore mint's return types); ``mint.nn`` holds layers that
are ordinary :class:`cellax.nn.Cell` s, ``mint.optim`` the optimizers. ``docs/mint_coverage.md``
lists what is provided.

Examples:
    >>> from cellax import mint
    >>> x = mint.ones((2, 3))
    >>> print(mint.sum(x, dim=1))
    [3. 3.]
"""

from .._tensor import Tensor as Tensor
from ..ops import gelu as npu_gelu  # noqa: F401
from ._creation import *  # noqa: F403
from ._pointwise import *  # noqa: F403
from ._reduction import *  # noqa: F403
from ._shape import *  # noqa: F403
from ._sync_batch_norm import *  # noqa: F403
from . import distributed as distributed  # noqa: E402
from . import linalg as linalg  # noqa: E402
from . import nn as nn  # noqa: E402
from . import optim as optim  # noqa: E402
from . import special as special  # noqa: E402
from .nn.functional import conv2d as conv2d  # noqa: E402

# MindSpore binds ``mint.functional`` to ``mint.nn.functional`` (``from mindspore.mint.nn import
# functional``); there is no ``mindspore/mint/functional.py``.
from .nn import functional as functional  # noqa: E402
