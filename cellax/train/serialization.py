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
