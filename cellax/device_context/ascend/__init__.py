"""``mindspore.device_context.ascend``: Ascend NPU settings (no XLA counterpart).

No JAX platform is an Ascend NPU: :func:`is_available` is ``False`` and
:func:`device_count` raises as in a MindSpore build without Ascend. Every setting checks its
argument as MindSpore does (same exception types), then gives one ``UserWarning`` and changes
nothing; cellax computes on JAX's default device.
"""

from . import device as device
from . import op_debug as op_debug
from . import op_precision as op_precision
from . import op_tuning as op_tuning
from .device import device_count as device_count
from .device import is_available as is_available
from .op_debug import aclinit_config as aclinit_config
from .op_debug import debug_option as debug_option
from .op_debug import execute_timeout as execute_timeout
from .op_precision import conv_allow_hf32 as conv_allow_hf32
from .op_precision import matmul_allow_hf32 as matmul_allow_hf32
from .op_precision import op_precision_mode as op_precision_mode
from .op_precision import precision_mode as precision_mode
from .op_tuning import aclnn_cache as aclnn_cache
from .op_tuning import aoe_job_type as aoe_job_type
from .op_tuning import aoe_tune_mode as aoe_tune_mode
from .op_tuning import op_compile as op_compile

__all__ = ["device_count", "is_available"]
