"""Small Cells used by the hook examples of MindSpore's documentation (``nn.MatMul``)."""

from __future__ import annotations

from .. import ops
from .._errors import check_bool
from ._cell import Cell

__all__ = ["MatMul"]


class MatMul(Cell):
    """Matrix product of two Tensors as a Cell (``mindspore.nn.MatMul``, deprecated there in
    favour of :func:`cellax.ops.matmul`).

    Args:
        transpose_x1 (bool): Transpose the last two dimensions of the first input.
            Default: ``False``.
        transpose_x2 (bool): Transpose the last two dimensions of the second input.
            Default: ``False``.

    Inputs:
        - **x1** (Tensor) - The first input.
        - **x2** (Tensor) - The second input; its contracted dimension matches ``x1``'s.

    Outputs:
        Tensor, ``matmul(x1, x2)`` with NumPy broadcasting of the batch dimensions.

    Raises:
        TypeError: If ``transpose_x1`` or ``transpose_x2`` is not a bool.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.MatMul(transpose_x2=True)
        >>> x1 = ms.Tensor(np.ones([2, 3]), ms.float32)
        >>> out = net(x1, ms.Tensor(np.ones([4, 3]), ms.float32))
        >>> print(out.shape)
        (2, 4)
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        self.transpose_x1 = check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = check_bool("MatMul", "transpose_x2", transpose_x2)

    def construct(self, x1, x2):
        if self.transpose_x1:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2:
            x2 = ops.swapaxes(x2, -1, -2)
        return ops.matmul(x1, x2)
