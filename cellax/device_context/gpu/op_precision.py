"""``mindspore.device_context.gpu.op_precision``: TF32 for float32 matmuls and convolutions.

JAX has one switch for both, ``jax_default_matmul_precision``: ``"tensorfloat32"`` lets
float32 matmuls and convolutions run in TF32 on GPUs that have it, ``"float32"`` keeps them
in full float32. :func:`matmul_allow_tf32` sets it; :func:`conv_allow_tf32` cannot set
convolutions apart from matmuls.
"""

from __future__ import annotations

import jax

from ..._checkparam import args_type_check
from ..._device import warn_once

__all__ = ["matmul_allow_tf32", "conv_allow_tf32"]


@args_type_check(value=bool)
def matmul_allow_tf32(value: bool) -> None:
    """Whether float32 matmuls may compute in TF32 (MindSpore's default: ``False``).

    Args:
        value (bool): ``True`` sets ``jax_default_matmul_precision`` to ``"tensorfloat32"``,
            ``False`` to ``"float32"``.

    Raises:
        TypeError: If ``value`` is not a bool.

    Examples:
        >>> import jax
        >>> import cellax as ms
        >>> ms.device_context.gpu.op_precision.matmul_allow_tf32(False)
        >>> jax.config.jax_default_matmul_precision
        'float32'
        >>> jax.config.update("jax_default_matmul_precision", None)

    Differences from MindSpore: JAX's setting covers convolutions too, and applies to
    computations traced afterwards on every backend (TF32 exists only on NVIDIA GPUs;
    elsewhere both values compute in float32). Until it is called, cellax keeps JAX's
    default precision.
    """
    jax.config.update("jax_default_matmul_precision", "tensorfloat32" if value else "float32")


@args_type_check(value=bool)
def conv_allow_tf32(value: bool) -> None:
    """Whether float32 convolutions may compute in TF32 (MindSpore's default: ``True``).

    Raises:
        TypeError: If ``value`` is not a bool.

    Differences from MindSpore: JAX sets convolution and matmul precision together
    (:func:`matmul_allow_tf32`); this gives one ``UserWarning`` and changes nothing.
    """
    warn_once(
        "device_context.gpu.op_precision.conv_allow_tf32",
        f"value={value}: JAX has one precision switch for matmuls and convolutions "
        "(jax_default_matmul_precision), set by matmul_allow_tf32; convolutions follow it "
        "and this call has no effect.",
        stacklevel=4,
    )
