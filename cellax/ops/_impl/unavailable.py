"""Names of MindSpore 2.10's ``mindspore.ops`` list that have no counterpart on JAX: Ascend's
fused attention variants and MoE kernels and the custom-kernel registration API. Each exists so that code
importing it loads; calling it raises ``NotImplementedError`` naming it and saying why.
``add_flags`` (graph-compiler flags on a function) is accepted and has no effect.
"""

from __future__ import annotations

from ..._errors import unavailable
from .primitive import primitive

__all__ = [
    "QuantBatchMatmul",
    "add_flags",
    "custom_info_register",
    "op_info_register",
    "prim_arg_register",
    "kernel",
    "ms_kernel",
    "get_vm_impl_fn",
    "speed_fusion_attention",
    "sparse_flash_attention",
    "nsa_compress",
    "nsa_compress_attention",
    "nsa_select_attention",
    "lightning_indexer",
    "moe_distribute_combine",
    "moe_distribute_dispatch",
    "ring_attention_update",
    "rotated_iou",
    "multi_scale_deformable_attn_function",
    "all_gather_matmul",
    "matmul_reduce_scatter",
]

_ASCEND = (
    "it is a fused kernel of MindSpore's Ascend backend, which JAX does not have; write it "
    "with cellax ops (e.g. ops.softmax and ops.matmul for attention) instead"
)


_REGISTRATION = (
    "it registers a hand-written device kernel (AKG/AICPU/TBE), which JAX can not load; "
    "write the computation with cellax ops instead"
)


def add_flags(fn=None, **flags):
    """Attach graph-compiler flags to ``fn`` (MindSpore's ``add_flags``); cellax records them
    in ``fn._cellax_flags`` and otherwise ignores them.

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     return x
        >>> ms.ops.add_flags(f, no_recursive=True) is f
        True
    """

    def apply(target):
        try:
            target._cellax_flags = {**getattr(target, "_cellax_flags", {}), **flags}
        except AttributeError:
            pass
        return target

    return apply if fn is None else apply(fn)


def _unavailable(name, reason):
    return unavailable(
        name,
        f"For '{name}', cellax can not run it: {reason}.",
        f"Not available in cellax: calling it raises NotImplementedError ({reason}).\n\n"
        f"    Examples:\n        >>> import cellax as ms\n"
        f"        >>> try:\n        ...     ms.ops.{name}()\n"
        f"        ... except NotImplementedError as e:\n        ...     print(type(e).__name__)\n"
        f"        NotImplementedError\n",
        __name__,
    )


custom_info_register = _unavailable("custom_info_register", _REGISTRATION)


op_info_register = _unavailable("op_info_register", _REGISTRATION)


prim_arg_register = _unavailable("prim_arg_register", _REGISTRATION)


kernel = _unavailable("kernel", _REGISTRATION)


ms_kernel = _unavailable("ms_kernel", _REGISTRATION)


get_vm_impl_fn = _unavailable(
    "get_vm_impl_fn", "it returns MindSpore's graph-VM implementation of a primitive"
)


speed_fusion_attention = _unavailable("speed_fusion_attention", _ASCEND)


sparse_flash_attention = _unavailable("sparse_flash_attention", _ASCEND)


nsa_compress = _unavailable("nsa_compress", _ASCEND)


nsa_compress_attention = _unavailable("nsa_compress_attention", _ASCEND)


nsa_select_attention = _unavailable("nsa_select_attention", _ASCEND)


lightning_indexer = _unavailable("lightning_indexer", _ASCEND)


moe_distribute_combine = _unavailable("moe_distribute_combine", _ASCEND)


moe_distribute_dispatch = _unavailable("moe_distribute_dispatch", _ASCEND)


ring_attention_update = _unavailable("ring_attention_update", _ASCEND)


rotated_iou = _unavailable("rotated_iou", _ASCEND)


multi_scale_deformable_attn_function = _unavailable("multi_scale_deformable_attn_function", _ASCEND)


all_gather_matmul = _unavailable("all_gather_matmul", _ASCEND)


matmul_reduce_scatter = _unavailable("matmul_reduce_scatter", _ASCEND)


def _unavailable_primitive(name: str, attrs: dict, reason: str, module: str = "cellax.ops"):
    """A primitive class that builds with MindSpore's arguments and raises when called."""

    def call(self, *inputs, **kwargs):
        raise NotImplementedError(f"For '{name}', cellax can not run it: {reason}.")

    return primitive(
        name,
        None,
        attrs,
        call,
        f"Not available in cellax: instances build, and calling one raises "
        f"NotImplementedError ({reason}).",
        module,
    )


QuantBatchMatmul = _unavailable_primitive(
    "QuantBatchMatmul",
    {"transpose_x1": False, "transpose_x2": False, "dtype": None},
    _ASCEND,
)
