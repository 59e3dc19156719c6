"""``mindspore.ops.operations.array_ops``: the primitive classes MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "operations.array_ops", classes_only=True)
