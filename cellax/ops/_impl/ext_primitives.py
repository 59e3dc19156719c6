"""The generated primitive classes of MindSpore 2.10's ``ops.auto_generate`` that model code
instantiates directly (``AddExt()(x, y, alpha)``, ``SumExt()(x, dim, keepdim)``,
``StridedSlice(...)(x, begin, end, strides)``...), over cellax's functional ops; and the
Ascend-only fused kernels of that module: the MoE kernels and grouped matmuls of ``moe.py``
(functions and classes only ``ops.auto_generate`` has), and the quantisation and distributed
MoE kernels, which build and raise ``NotImplementedError`` when called.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from . import activations, elementwise, fused_backward, gmm, infer_attention, moe, normalization
from . import paged_attention
from . import ufuncs
from .casting import cast
from .creation import zeros_like
from .cumulative import cumsum
from .indexing import index_select, one_hot, strided_slice
from .infer_attention import FusedInferAttentionScore as FusedInferAttentionScore
from .paged_attention import reshape_and_cache as reshape_and_cache
from .paged_attention import kv_cache_scatter_update as kv_cache_scatter_update
from .paged_attention import KVCacheScatterUpdate as KVCacheScatterUpdate
from .gmm import Gmm as Gmm
from .gmm import GmmV2 as GmmV2
from .gmm import GmmBackward as GmmBackward
from .gmm import GmmBackwardFusion as GmmBackwardFusion
from .gmm import GmmV2Backward as GmmV2Backward
from .gmm import GmmV2BackwardFusion as GmmV2BackwardFusion
from .fused_backward import RmsNormGrad as RmsNormGrad
from .fused_backward import AddLayerNormGrad as AddLayerNormGrad
from .fused_backward import RotaryPositionEmbeddingGrad as RotaryPositionEmbeddingGrad
from .fused_backward import MoeTokenPermuteGrad as MoeTokenPermuteGrad
from .fused_backward import MoeTokenUnpermuteGrad as MoeTokenUnpermuteGrad
from .fused_backward import InplaceGroupedMatmulAdd as InplaceGroupedMatmulAdd
from .fused_backward import add_layer_norm_grad as add_layer_norm_grad
from .fused_backward import moe_token_permute_grad as moe_token_permute_grad
from .fused_backward import moe_token_unpermute_grad as moe_token_unpermute_grad
from .fused_backward import grouped_matmul_add_ as grouped_matmul_add_
from .grouped_matmul import GroupedMatmul as GroupedMatmul
from .grouped_matmul import GroupedMatmulV2 as GroupedMatmulV2
from .grouped_matmul import GroupedMatmulV4 as GroupedMatmulV4
from .moe import MoeComputeExpertTokens as MoeComputeExpertTokens
from .moe import MoeFinalizeRouting as MoeFinalizeRouting
from .moe import MoeGatingTopKSoftmax as MoeGatingTopKSoftmax
from .moe import MoeInitRouting as MoeInitRouting
from .moe import MoeInitRoutingV2 as MoeInitRoutingV2
from .moe import MoeTokenPermute as MoeTokenPermute
from .moe import MoeTokenUnpermute as MoeTokenUnpermute
from .moe import FusedAddTopKDiv as FusedAddTopKDiv
from .moe import fused_add_topk_div as fused_add_topk_div
from .normalization import AddLayerNormV2 as AddLayerNormV2
from .activations import DequantSwigluQuant as DequantSwigluQuant
from .activations import dequant_swiglu_quant as dequant_swiglu_quant
from .normalization import add_layernorm_v2 as add_layernorm_v2
from .grouped_matmul import grouped_matmul as grouped_matmul
from .grouped_matmul import grouped_matmul_v2 as grouped_matmul_v2
from .grouped_matmul import grouped_matmul_v4 as grouped_matmul_v4
from .moe import moe_compute_expert_tokens as moe_compute_expert_tokens
from .moe import moe_finalize_routing as moe_finalize_routing
from .moe import moe_init_routing as moe_init_routing
from .primitive import primitive
from .products import bmm, dense, outer
from .reductions import mean, sum as reduce_sum
from .scatter import tensor_scatter_elements
from .sharding import move_to
from .shape import chunk, split, stack
from .sorting import sort, topk
from .unavailable import _ASCEND, _unavailable_primitive
from .utils import arr, wrap


_AUTO_GENERATE = "cellax.ops.auto_generate"  # the public module of these classes (not cellax.ops)

__all__ = [
    "AddExt",
    "SubExt",
    "Muls",
    "FmodScalar",
    "BatchMatMulExt",
    "Outer",
    "Dense",
    "Chunk",
    "SplitWithSize",
    "StackExt",
    "StridedSlice",
    "StridedSliceGrad",
    "CumsumExt",
    "SumExt",
    "MeanExt",
    "IndexSelect",
    "OneHotExt",
    "Scatter",
    "SiLU",
    "Swiglu",
    "SwigluGrad",
    "RotaryPositionEmbedding",
    "AddRmsNorm",
    "AddLayerNormV2",
    "add_layernorm_v2",
    "DequantSwigluQuant",
    "dequant_swiglu_quant",
    "SortExt",
    "TopkExt",
    "ZerosLikeExt",
    "DynamicQuantExt",
    "QuantV2",
    "MoeDistributeCombine",
    "MoeDistributeDispatch",
    "MoveTo",
    *moe.AUTO_GENERATE,
    *infer_attention.AUTO_GENERATE,
    *paged_attention.AUTO_GENERATE,
    *gmm.AUTO_GENERATE,
    *fused_backward.AUTO_GENERATE,
]


def _generated(name, fn, attrs=None, call=None, doc=None):
    return primitive(name, fn, attrs, call, doc, module=_AUTO_GENERATE)


def _generated_unavailable(name, attrs, reason):
    return _unavailable_primitive(name, attrs, reason, module=_AUTO_GENERATE)


def _scaled(op):
    def call(self, input, other, alpha=1):
        return op(input, other if alpha == 1 else ufuncs.mul(other, alpha))

    return call


def _with_dtype(result, dtype):
    return result if dtype is None else cast(result, dtype)


AddExt = _generated("AddExt", None, None, _scaled(ufuncs.add), "``input + alpha * other``.")
SubExt = _generated("SubExt", None, None, _scaled(ufuncs.sub), "``input - alpha * other``.")
Muls = _generated("Muls", ufuncs.mul, doc="``input * other`` (a scalar).")
FmodScalar = _generated("FmodScalar", ufuncs.fmod, doc="``fmod(input, other)`` (a scalar).")
BatchMatMulExt = _generated("BatchMatMulExt", bmm, doc="Batched ``input @ mat2`` (3-D).")
Outer = _generated("Outer", outer, doc="The outer product of two vectors.")
Dense = _generated("Dense", dense, doc="``input @ weight.T + bias``.")
Chunk = _generated(
    "Chunk",
    None,
    None,
    lambda self, input, chunks, dim=0: chunk(input, chunks, dim),
    "``chunks`` pieces of ``input`` along ``dim``.",
)
SplitWithSize = _generated(
    "SplitWithSize",
    None,
    None,
    lambda self, input, split_size, dim=0: split(input, list(split_size), dim),
    "Pieces of ``input`` of the sizes ``split_size`` along ``dim``.",
)
StackExt = _generated(
    "StackExt",
    None,
    {"dim": 0},
    lambda self, tensors: stack(tensors, self.attrs["dim"]),
    "Stack ``tensors`` on a new dimension ``dim``.",
)
StridedSlice = primitive(
    "StridedSlice",
    strided_slice,
    {
        "begin_mask": 0,
        "end_mask": 0,
        "ellipsis_mask": 0,
        "new_axis_mask": 0,
        "shrink_axis_mask": 0,
    },
    doc="``input_x[begin:end:strides]`` with MindSpore's bit masks (``ops.strided_slice``).",
)


def _strided_slice_grad(self, dy, shapex, begin, end, strides):
    def forward(x):
        return arr(strided_slice(wrap(x), begin, end, strides, **self.attrs))

    zeros = jnp.zeros(tuple(shapex), arr(dy, "StridedSliceGrad", "dy").dtype)
    return wrap(jax.vjp(forward, zeros)[1](arr(dy))[0])


StridedSliceGrad = _generated(
    "StridedSliceGrad",
    None,
    {
        "begin_mask": 0,
        "end_mask": 0,
        "ellipsis_mask": 0,
        "new_axis_mask": 0,
        "shrink_axis_mask": 0,
    },
    _strided_slice_grad,
    "The gradient of ``StridedSlice``: ``dy`` written into zeros of shape ``shapex`` at the slice.",
)
CumsumExt = _generated(
    "CumsumExt",
    None,
    None,
    lambda self, input, dim, dtype=None: cumsum(input, dim, dtype),
    "The cumulative sum along ``dim``, optionally in ``dtype``.",
)
SumExt = _generated(
    "SumExt",
    None,
    None,
    lambda self, input, dim=None, keepdim=False, dtype=None: reduce_sum(
        input, dim, keepdim, dtype=dtype
    ),
    "The sum over ``dim`` (all dimensions when None), optionally in ``dtype``.",
)
MeanExt = _generated(
    "MeanExt",
    None,
    None,
    lambda self, input, dim=None, keepdim=False, dtype=None: mean(
        _with_dtype(input, dtype), dim, keepdim
    ),
    "The mean over ``dim`` (all dimensions when None), optionally in ``dtype``.",
)
IndexSelect = _generated("IndexSelect", index_select, doc="``input`` at ``index`` along ``dim``.")
OneHotExt = _generated(
    "OneHotExt",
    None,
    {"axis": -1},
    lambda self, tensor, num_classes, on_value, off_value: one_hot(
        tensor, num_classes, on_value, off_value, self.attrs["axis"]
    ),
    "One-hot vectors of ``num_classes`` along ``axis``.",
)


def _scatter(self, input, dim, index, src, reduce="none"):
    if reduce not in ("none", "add"):
        raise ValueError(f"For 'Scatter', 'reduce' must be 'none' or 'add', but got {reduce!r}.")
    return tensor_scatter_elements(input, index, src, dim, reduce)


Scatter = _generated(
    "Scatter", None, None, _scatter, "Write ``src`` into ``input`` at ``index`` along ``dim``."
)
SiLU = _generated("SiLU", activations.silu, doc="``input * sigmoid(input)``.")
Swiglu = _generated(
    "Swiglu",
    None,
    None,
    lambda self, input, dim=-1: activations.swiglu(input, dim),
    "``silu(a) * b`` for the two halves ``a``, ``b`` of ``dim``.",
)


def _swiglu_grad(self, grad_output, input, dim=-1):
    x = arr(input, "SwigluGrad", "input")
    grad = arr(grad_output, "SwigluGrad", "grad_output")

    def forward(value):
        a, b = jnp.split(value, 2, axis=dim)
        return jax.nn.silu(a) * b

    return wrap(jax.vjp(forward, x)[1](grad.astype(x.dtype))[0])


SwigluGrad = _generated(
    "SwigluGrad", None, None, _swiglu_grad, "The gradient of ``Swiglu`` with respect to ``input``."
)
RotaryPositionEmbedding = _generated(
    "RotaryPositionEmbedding",
    None,
    None,
    lambda self, x, cos, sin, mode=0: elementwise.rotary_position_embedding(x, cos, sin, mode),
    "``ops.rotary_position_embedding(x, cos, sin, mode)``.",
)
AddRmsNorm = _generated(
    "AddRmsNorm",
    None,
    None,
    lambda self, x1, x2, gamma, epsilon=1e-6: normalization.add_rms_norm(x1, x2, gamma, epsilon),
    "``ops.add_rms_norm(x1, x2, gamma, epsilon)``: ``(y, rstd, x1 + x2)``.",
)
SortExt = _generated(
    "SortExt",
    None,
    None,
    lambda self, input, dim=-1, descending=False, stable=False: sort(input, dim, descending),
    "``(values, indices)`` of ``input`` sorted along ``dim`` (stably).",
)
TopkExt = _generated(
    "TopkExt",
    None,
    None,
    lambda self, input, k, dim=-1, largest=True, sorted=True: topk(input, k, dim, largest, sorted),
    "``(values, indices)`` of the ``k`` largest (or smallest) along ``dim``.",
)
ZerosLikeExt = _generated(
    "ZerosLikeExt",
    None,
    None,
    lambda self, input, dtype=None: zeros_like(input, dtype=dtype),
    "Zeros of ``input``'s shape, in ``dtype`` or ``input``'s.",
)

DynamicQuantExt = _generated_unavailable("DynamicQuantExt", {}, _ASCEND)
QuantV2 = _generated_unavailable("QuantV2", {}, _ASCEND)
MoeDistributeCombine = _generated_unavailable("MoeDistributeCombine", {}, _ASCEND)
MoeDistributeDispatch = _generated_unavailable("MoeDistributeDispatch", {}, _ASCEND)


def _move_to(self, input, to="CPU", blocking=True):
    return move_to(input, to, blocking)


MoveTo = primitive(
    "MoveTo", None, None, _move_to, "``input`` on the device ``to`` (``ops.move_to``)."
)
