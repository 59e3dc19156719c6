"""``mindspore.device_context.gpu``: JAX's GPU devices, TF32 precision, convolution tuning."""

from . import device as device
from . import op_precision as op_precision
from . import op_tuning as op_tuning
from .device import device_count as device_count
from .device import is_available as is_available
from .op_precision import conv_allow_tf32 as conv_allow_tf32
from .op_precision import matmul_allow_tf32 as matmul_allow_tf32
from .op_tuning import conv_dgrad_algo as conv_dgrad_algo
from .op_tuning import conv_fprop_algo as conv_fprop_algo
from .op_tuning import conv_wgrad_algo as conv_wgrad_algo

__all__ = ["device_count", "is_available"]
