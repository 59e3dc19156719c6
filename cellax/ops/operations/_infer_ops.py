"""``mindspore.ops.operations._infer_ops``: Ascend's fused inference kernels. The attention,
MoE routing and grouped matmul ones run on XLA; the quantised matmuls and the cache scatter
build with MindSpore's arguments and raise ``NotImplementedError`` when called."""

from .._impl.ext_primitives import (
    DynamicQuantExt,
    GroupedMatmul,
    MoeFinalizeRouting,
    MoeGatingTopKSoftmax,
    QuantV2,
)
from .._impl.infer_attention import FusedInferAttentionScore
from .._impl.unavailable import _ASCEND, QuantBatchMatmul, _unavailable_primitive

__all__ = [
    "DynamicQuantExt",
    "FusedInferAttentionScore",
    "GroupedMatmul",
    "KVCacheScatterUpdate",
    "MatmulAllReduceAddRmsNorm",
    "MoeFinalizeRouting",
    "MoeGatingTopKSoftmax",
    "QuantBatchMatmul",
    "QuantLinearSparse",
    "QuantV2",
    "WeightQuantBatchMatmul",
]

KVCacheScatterUpdate = _unavailable_primitive("KVCacheScatterUpdate", {}, _ASCEND)
MatmulAllReduceAddRmsNorm = _unavailable_primitive("MatmulAllReduceAddRmsNorm", {}, _ASCEND)
QuantLinearSparse = _unavailable_primitive("QuantLinearSparse", {}, _ASCEND)
WeightQuantBatchMatmul = _unavailable_primitive("WeightQuantBatchMatmul", {}, _ASCEND)
