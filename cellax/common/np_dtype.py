"""``mindspore.common.np_dtype``: NumPy's missing ``bfloat16`` scalar type (from
``ml_dtypes``, JAX's), for ``np.array(..., dtype=bfloat16)``.

Examples:
    >>> import numpy as np
    >>> from cellax.common.np_dtype import bfloat16
    >>> np.array([1.5], dtype=bfloat16).dtype.name
    'bfloat16'
"""

from ml_dtypes import bfloat16

__all__ = ["bfloat16"]


def np_dtype_valid(check: bool = False) -> bool:
    """Whether ``bfloat16`` is available (always, through ``ml_dtypes``)."""
    return True
