"""``FloatStatus``: whether a tensor holds NaN or infinity (loss-scale overflow checks)."""

from __future__ import annotations

import jax.numpy as jnp

from ... import _dtype
from .primitive import Primitive
from .utils import arr, wrap

__all__ = ["FloatStatus"]


class FloatStatus(Primitive):
    """``[1.]`` when ``x`` contains NaN or +/-inf, else ``[0.]`` (float32, shape ``(1,)``).

    Inputs:
        - **x** (Tensor) - float16, float32 or float64.

    Outputs:
        Tensor of shape (1,), float32.

    Raises:
        TypeError: If `x` is not floating.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.FloatStatus()(ms.Tensor(np.array([np.nan, 1.0], np.float32))))
        [1.]

    MindSpore: https://www.mindspore.cn/docs/en/master/api_python/ops/mindspore.ops.FloatStatus.html
    """

    def __init__(self) -> None:
        super().__init__("FloatStatus")

    def __call__(self, x):
        value = arr(x)
        if not _dtype.is_floating(value.dtype):
            raise TypeError(
                f"For 'FloatStatus', 'x' must be float16, float32 or float64, but got {value.dtype}."
            )
        return wrap(jnp.any(~jnp.isfinite(value)).astype(jnp.float32).reshape(1))
