"""``mindspore.ops.operations.manually_defined``: the primitive classes MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "operations.manually_defined", classes_only=True)
