"""``mindspore.ops.operations.math_ops``: the primitive classes MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "operations.math_ops", classes_only=True)

from .._impl.unavailable import _unavailable_primitive as _unavailable  # noqa: E402

_STATUS = "it reads the overflow flags of Ascend's AI cores; use ops.FloatStatus or all_finite"
NPUGetFloatStatusV2 = _unavailable("NPUGetFloatStatusV2", {}, _STATUS, __name__)
NPUClearFloatStatusV2 = _unavailable("NPUClearFloatStatusV2", {}, _STATUS, __name__)
__all__ += ["NPUGetFloatStatusV2", "NPUClearFloatStatusV2"]
