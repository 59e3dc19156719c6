"""``mindspore.ops.operations._infer_ops``: Ascend's fused inference kernels. The attention,
MoE routing, grouped matmul and cache scatter ones run on XLA; the quantised matmuls
build with MindSpore's arguments and raise ``NotImplementedError`` when called."""

from .._impl.ext_primitives import (
    DynamicQuantExt,
    GroupedMatmul,
    MoeFinalizeRouting,
    MoeGatingTopKSoftmax,
    QuantV2,
)
from .._impl.infer_attention import FusedInferAttentionScore
from .._impl.paged_attention import KVCacheScatterUpdate
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

MatmulAllReduceAddRmsNorm = _unavailable_primitive("MatmulAllReduceAddRmsNorm", {}, _ASCEND)
QuantLinearSparse = _unavailable_primitive("QuantLinearSparse", {}, _ASCEND)
WeightQuantBatchMatmul = _unavailable_primitive("WeightQuantBatchMatmul", {}, _ASCEND)
