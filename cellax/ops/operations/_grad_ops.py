"""``mindspore.ops.operations._grad_ops``: the primitive classes MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "operations._grad_ops", classes_only=True)

from .._impl.ext_primitives import StridedSliceGrad as StridedSliceGrad  # noqa: E402
from .._impl.fused_backward import RmsNormGrad as RmsNormGrad  # noqa: E402

__all__ += ["StridedSliceGrad", "RmsNormGrad"]
