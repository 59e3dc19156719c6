"""``mindspore.common.sparse_tensor``: the sparse tensor types ``RowTensor``, ``COOTensor``
and ``CSRTensor``, as containers of dense index and value Tensors with ``to_dense``.

Examples:
    >>> import cellax as ms
    >>> coo = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (2, 3))
    >>> print(coo.to_dense())
    [[0. 1. 0.]
     [0. 0. 2.]]
"""

from __future__ import annotations

import jax.numpy as jnp

from .._tensor import Tensor, as_array

__all__ = ["RowTensorInner", "RowTensor", "COOTensor", "CSRTensor"]


def _arr(x):
    return x._value if isinstance(x, Tensor) else as_array(x)


def _shape(api: str, shape) -> tuple:
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) for d in shape):
        raise TypeError(f"For '{api}', the shape must be a tuple of int, but got {shape!r}.")
    return tuple(shape)


class RowTensor:
    """Rows ``values`` of a dense tensor of shape ``dense_shape`` at row ``indices``
    (``mindspore.RowTensor``, the sparse gradient of a gather).

    Args:
        indices (Tensor): 1-D row indices.
        values (Tensor): The rows, ``values.shape[0] == indices.shape[0]``.
        dense_shape (tuple[int]): The dense shape.

    Examples:
        >>> import cellax as ms
        >>> rt = ms.RowTensor(ms.Tensor([1], ms.int32), ms.Tensor([[1.0, 2.0]]), (3, 2))
        >>> print(rt.to_dense())
        [[0. 0.]
         [1. 2.]
         [0. 0.]]
    """

    def __init__(self, indices=None, values=None, dense_shape=None, row_tensor=None):
        if row_tensor is not None:
            indices, values, dense_shape = (
                row_tensor.indices,
                row_tensor.values,
                row_tensor.dense_shape,
            )
        self.indices, self.values = indices, values
        self.dense_shape = _shape("RowTensor", dense_shape)

    def to_dense(self) -> Tensor:
        """The dense Tensor (rows at repeated indices add up)."""
        values = _arr(self.values)
        out = jnp.zeros(self.dense_shape, values.dtype)
        return Tensor(out.at[_arr(self.indices)].add(values))


class RowTensorInner(RowTensor):
    """MindSpore's internal ``RowTensor`` (its constructor names the dense shape ``shape``)."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        super().__init__(indices, values, shape, row_tensor)


class COOTensor:
    """A sparse tensor in coordinate format (``mindspore.COOTensor``).

    Args:
        indices (Tensor): ``[N, ndim]`` int coordinates.
        values (Tensor): ``[N]`` values.
        shape (tuple[int]): The dense shape.
    """

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        self.indices, self.values = indices, values
        self.shape = _shape("COOTensor", shape)

    def to_dense(self) -> Tensor:
        """The dense Tensor (values at repeated coordinates add up)."""
        values, idx = _arr(self.values), _arr(self.indices)
        out = jnp.zeros(self.shape, values.dtype)
        return Tensor(out.at[tuple(idx[:, d] for d in range(idx.shape[1]))].add(values))


class CSRTensor:
    """A 2-D sparse tensor in compressed-row format (``mindspore.CSRTensor``).

    Args:
        indptr (Tensor): ``[rows + 1]`` row pointers.
        indices (Tensor): ``[N]`` column indices.
        values (Tensor): ``[N]`` values.
        shape (tuple[int]): The dense shape.

    Examples:
        >>> import cellax as ms
        >>> csr = ms.CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32),
        ...                    ms.Tensor([1.0, 2.0]), (2, 2))
        >>> print(csr.to_dense())
        [[1. 0.]
         [0. 2.]]
    """

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            indptr, indices, values, shape = (
                csr_tensor.indptr,
                csr_tensor.indices,
                csr_tensor.values,
                csr_tensor.shape,
            )
        self.indptr, self.indices, self.values = indptr, indices, values
        self.shape = _shape("CSRTensor", shape)

    def to_dense(self) -> Tensor:
        """The dense Tensor."""
        indptr, cols, values = _arr(self.indptr), _arr(self.indices), _arr(self.values)
        rows = jnp.repeat(
            jnp.arange(indptr.shape[0] - 1), jnp.diff(indptr), total_repeat_length=cols.shape[0]
        )
        out = jnp.zeros(self.shape, values.dtype)
        return Tensor(out.at[rows, cols].add(values))
