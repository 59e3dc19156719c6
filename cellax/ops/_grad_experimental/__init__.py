"""``mindspore.ops._grad_experimental``: where MindSpore registers the backward rules of its
primitives. cellax's gradients come from JAX; model code takes one helper from here
(``grad_comm_ops.get_squared_device_local_norm_param``)."""

from . import grad_comm_ops as grad_comm_ops

__all__ = ["grad_comm_ops"]
