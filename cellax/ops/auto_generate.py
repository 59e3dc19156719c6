"""``mindspore.ops.auto_generate``: the generated primitives and functions of MindSpore 2.10
that cellax has (``Reshape``, ``rms_norm``...)."""

from ._impl.reexport import export

__all__ = export(__name__, "auto_generate")
