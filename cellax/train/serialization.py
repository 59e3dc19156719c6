"""``mindspore.train.serialization``: checkpoint I/O (the same functions as at cellax's top
level), ``export`` and ``load``.

Examples:
    >>> import cellax as ms
    >>> from cellax.train.serialization import load_param_into_net
    >>> load_param_into_net is ms.load_param_into_net
    True
"""

from .._serialization import *  # noqa: F403
from .._serialization import __all__ as _names
from .._serialization import _load_dismatch_prefix_params as _load_dismatch_prefix_params
from .._serialization import _update_param as _update_param

__all__ = list(_names)
from .._serialization._sharded import get_ckpt_path_with_strategy as get_ckpt_path_with_strategy

__all__ += ["get_ckpt_path_with_strategy"]


def _get_merged_param_data(net, parameter_layout_dict, param_name, param_data, integrated_save):
    """The whole value of a parameter sliced across devices, for saving. A cellax Parameter
    holds its global value (JAX arrays are global; slices are their shards), so
    ``param_data`` is already whole and is returned unchanged."""
    return param_data


from .. import _dtype  # noqa: E402

# MindSpore's checkpoint dtype names -> dtypes (``tensor_to_ms_type``) and NumPy types
tensor_to_ms_type = {
    t.name: t
    for t in (
        _dtype.int8,
        _dtype.uint8,
        _dtype.int16,
        _dtype.uint16,
        _dtype.int32,
        _dtype.uint32,
        _dtype.int64,
        _dtype.uint64,
        _dtype.float16,
        _dtype.float32,
        _dtype.float64,
        _dtype.bool_,
        _dtype.bfloat16,
    )
}


def tensor_to_np_type(tensor_type_str: str):
    """The NumPy type of a checkpoint dtype name (``"Float32"`` -> ``numpy.float32``;
    ``"BFloat16"`` -> ``ml_dtypes.bfloat16``), or None for an unknown name."""
    found = tensor_to_ms_type.get(tensor_type_str)
    return None if found is None else found.np_dtype.type
