"""``mindspore.train.amp``: the older home of the mixed-precision helpers (the same objects
as ``cellax.amp``).

Examples:
    >>> import cellax as ms
    >>> from cellax.train.amp import build_train_network
    >>> build_train_network is ms.amp.build_train_network
    True
"""

from ..amp import *  # noqa: F403
from ..amp import __all__ as __all__

# MindSpore's module-level lists and private passes, which zoo code imports from here
from ..amp import AMP_BLACK_LIST as AMP_BLACK_LIST
from ..amp import AMP_WHITE_LIST as AMP_WHITE_LIST
from ..amp import _auto_black_list as _auto_black_list
from ..amp import _auto_mixed_precision_rewrite as _auto_mixed_precision_rewrite

import collections as _collections  # noqa: E402

from .. import ops as _ops  # noqa: E402
from ..ops import auto_generate as _auto_generate  # noqa: E402


def _primitives(names: str) -> list:
    found = (getattr(_ops, n, None) or getattr(_auto_generate, n, None) for n in names.split())
    return [cls for cls in found if isinstance(cls, type)]


# MindSpore's per-primitive lists of amp_level="auto" (the primitive classes cellax has).
# cellax's "auto" level casts per Cell, as "O1"; the lists are kept for code that reads or
# extends them.
AMP_AUTO_WHITE_LIST = _primitives(
    "Conv2D Conv3D Conv2DExt Conv3DExt ConvTranspose2D Conv2DTranspose Conv3DTranspose "
    "Convolution MatMul MatMulExt BatchMatMul BatchMatMulExt PReLU Einsum Dense Addmm Addbmm "
    "Addmv Baddbmm Mv"
)
AMP_AUTO_BLACK_LIST = _primitives(
    "Pow ACos Asin Cosh Erfinv Exp Expm1 Log Log10 Log1p Log2 Reciprocal Rsqrt Sinh Tan "
    "Softplus SoftplusExt LayerNorm LayerNormExt BatchNorm BatchNormExt GroupNorm Norm "
    "KLDivLoss SmoothL1Loss MultilabelMarginLoss SoftMarginLoss TripletMarginLoss "
    "MultiMarginLoss BCEWithLogitsLoss Pdist Cdist Renorm ReduceProd Softmax LogSoftmax "
    "LogSoftmaxExt CumProd CumSum CumsumExt ProdExt SumExt L1LossExt MSELossExt NLLLoss NLLLoss2d"
)
# primitive -> the argument positions amp casts (MindSpore fills it for custom primitives)
AMP_PRIM_ARG_TABLE: dict = _collections.defaultdict(list)
