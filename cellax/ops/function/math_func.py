"""``mindspore.ops.function.math_func``: the functional ops MindSpore 2.10 defines there."""

from .._impl.gmm import gmm as gmm
from .._impl.gmm import gmm_backward as gmm_backward
from .._impl.gmm import gmm_backward_fusion as gmm_backward_fusion
from .._impl.reexport import export

__all__ = export(__name__, "function.math_func")
__all__ += ["gmm", "gmm_backward", "gmm_backward_fusion"]  # not in mindspore.ops itself
