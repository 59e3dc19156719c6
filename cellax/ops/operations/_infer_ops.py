"""``mindspore.ops.operations._infer_ops``: Ascend's fused inference kernels (quantisation,
MoE routing, paged attention). They build with MindSpore's arguments and raise
``NotImplementedError`` when called."""

from .._impl.ext_primitives import (
    DynamicQuantExt,
    GroupedMatmul,
    MoeFinalizeRouting,
    MoeGatingTopKSoftmax,
    QuantV2,
)
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

FusedInferAttentionScore = _unavailable_primitive("FusedInferAttentionScore", {}, _ASCEND)
KVCacheScatterUpdate = _unavailable_primitive("KVCacheScatterUpdate", {}, _ASCEND)
MatmulAllReduceAddRmsNorm = _unavailable_primitive("MatmulAllReduceAddRmsNorm", {}, _ASCEND)
QuantLinearSparse = _unavailable_primitive("QuantLinearSparse", {}, _ASCEND)
WeightQuantBatchMatmul = _unavailable_primitive("WeightQuantBatchMatmul", {}, _ASCEND)
