"""``mindspore.parallel``: operator-parallel layouts, ``shard`` and ``AutoParallel`` on JAX.

Strategies and Layouts become ``jax.sharding`` shardings (docs/distributed.md); XLA's
sharding propagation and partitioner do the rest.

Examples:
    >>> from cellax.parallel import Layout
    >>> Layout((2, 4), ("dp", "mp"))("dp", "None").to_dict()["tensor_map"]
    (1, -1)
"""

from .._serialization import load_distributed_checkpoint
from ..ops._impl.layout import Layout
from . import nn as nn
from ._broadcast import parameter_broadcast
from . import _cost_model_context as _cost_model_context
from . import shard as _shard_module  # noqa: F401 - the module, before the function
from . import strategy as strategy
from .shard import shard
from .algo_parameter_config import get_algo_parameters, reset_algo_parameters, set_algo_parameters
from .checkpoint_convert import (
    convert_checkpoint_by_rank,
    convert_checkpoints,
    rank_list_for_convert,
)
from .checkpoint_transform import (
    build_searched_strategy,
    load_segmented_checkpoints,
    merge_pipeline_strategys,
    merge_sliced_parameter,
    rank_list_for_transform,
    restore_group_info_list,
    set_op_strategy_config,
    sync_pipeline_shared_parameters,
    transform_checkpoint_by_rank,
    transform_checkpoints,
    unified_safetensors,
)
from .function import reshard
from .._module_paths import keep_attributes

keep_attributes(__name__, "shard")

__all__ = [
    "Layout",
    "shard",
    "reshard",
    "load_distributed_checkpoint",
    "parameter_broadcast",
    "set_algo_parameters",
    "get_algo_parameters",
    "reset_algo_parameters",
    "merge_sliced_parameter",
    "load_segmented_checkpoints",
    "transform_checkpoints",
    "transform_checkpoint_by_rank",
    "rank_list_for_transform",
    "build_searched_strategy",
    "restore_group_info_list",
    "merge_pipeline_strategys",
    "set_op_strategy_config",
    "sync_pipeline_shared_parameters",
    "unified_safetensors",
    "convert_checkpoints",
    "convert_checkpoint_by_rank",
    "rank_list_for_convert",
]
