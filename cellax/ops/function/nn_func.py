"""``mindspore.ops.function.nn_func``: the functional ops MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "function.nn_func")

# MindSpore's private attention helpers, which model code imports from this module
from .._impl.attention import _check_attn_mask_shape as _check_attn_mask_shape
from .._impl.attention import _check_kpm_shape as _check_kpm_shape
from .._impl.attention import _check_qkv_shape as _check_qkv_shape
from .._impl.attention import _in_projection as _in_projection
from .._impl.attention import _in_projection_packed as _in_projection_packed
from .._impl.attention import _inner_dropout as _inner_dropout
from .._impl.attention import _inner_pad as _inner_pad
from .._impl.attention import linear as linear
from .._impl.resample import _interploate_ext_make_tuple as _interploate_ext_make_tuple
from .._impl.resample import (
    _interpolate_ext_scale_factor_convert_size as _interpolate_ext_scale_factor_convert_size,
)
from .._impl.resample import pad_ext as pad_ext
from .._impl.attention import multi_head_attention_forward as multi_head_attention_forward
