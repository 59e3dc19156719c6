"""``mindspore.ops.auto_generate``: the generated primitives and functions of MindSpore 2.10
that cellax has (``Reshape``, ``rms_norm``, ``AddExt``, ``SumExt``...)."""

from .._impl import ext_primitives as _ext
from .._impl.reexport import export

__all__ = export(__name__, "auto_generate")
for _name in _ext.__all__:
    globals()[_name] = getattr(_ext, _name)
__all__ += [name for name in _ext.__all__ if name not in __all__]
del _name

from . import gen_ops_prim as gen_ops_prim  # noqa: E402
from . import pyboost_inner_prim as pyboost_inner_prim  # noqa: E402
