"""``mindspore.ops._grad_experimental.grad_comm_ops``: the backward rules of MindSpore's
communication primitives (cellax's come from JAX), and the device-local gradient norm switch.

Examples:
    >>> from cellax.ops._grad_experimental.grad_comm_ops import (
    ...     get_squared_device_local_norm_param)
    >>> get_squared_device_local_norm_param() is None
    True
"""

from __future__ import annotations

from ... import _parallel_state

__all__ = ["get_squared_device_local_norm_param"]


def get_squared_device_local_norm_param():
    """The Parameter in which MindSpore's compiled backward adds up the squared norm of each
    device's gradient slices, when ``set_auto_parallel_context(dump_device_local_norm=True)``;
    ``None`` otherwise.

    Raises:
        NotImplementedError: With ``dump_device_local_norm`` on: cellax's backward does not
            accumulate it (compute ``ops.norm`` of the gradients instead).
    """
    if not _parallel_state.setting("dump_device_local_norm"):
        return None
    raise NotImplementedError(
        "For 'get_squared_device_local_norm_param', cellax's backward pass does not accumulate "
        "the device-local squared gradient norm; set dump_device_local_norm=False and compute "
        "the norm of the gradients with ops.norm instead."
    )
