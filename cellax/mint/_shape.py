"""mint shape, indexing and matrix-product ops: adapters over :mod:`cellax.ops`."""

from __future__ import annotations

import jax.numpy as jnp

from .. import ops
from ..ops._impl.shape import _perm, _tensor_list, narrow_value, repeat_values
from ..ops._impl.utils import arr, wrap

_SAME = [
    "addbmm", "addmm", "addmv", "baddbmm", "broadcast_to", "cross", "dstack",
    "einsum", "flip", "hstack", "inverse", "masked_select", "mm", "nonzero",
    "outer", "ravel", "roll", "searchsorted", "swapaxes", "t", "take", "tile", "tril",
    "triu", "unbind", "unsqueeze", "polar", "vdot", "triangular_solve",
]  # fmt: skip
globals().update({name: getattr(ops, name) for name in _SAME})

__all__ = _SAME + [
    "cat", "concat", "stack", "chunk", "split", "narrow", "permute", "transpose", "flatten",
    "squeeze", "reshape", "gather", "scatter", "scatter_add", "index_select", "index_add",
    "select", "repeat_interleave", "meshgrid", "diag", "bmm", "mv", "addr_", "item",
    "softmax", "dot", "matmul",
]  # fmt: skip


def cat(tensors, dim=0):
    """Concatenate ``tensors`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> mint.cat([mint.ones((2, 3)), mint.zeros((1, 3))]).shape
        (3, 3)
    """
    return ops.concat(tensors, dim)


def concat(tensors, dim=0):
    """Alias of :func:`cat`.

    Examples:
        >>> from cellax import mint
        >>> mint.concat([mint.ones((2, 3)), mint.zeros((2, 1))], dim=1).shape
        (2, 4)
    """
    return ops.concat(tensors, dim)


def stack(tensors, dim=0):
    """Join same-shaped ``tensors`` along a new ``dim``.

    Examples:
        >>> from cellax import mint
        >>> mint.stack([mint.ones(3), mint.zeros(3)], dim=1).shape
        (3, 2)
    """
    values = _tensor_list("stack", tensors)  # Tensors only, promoted (ops.stack: one dtype)
    dtype = jnp.result_type(*values)
    return ops.stack([wrap(value.astype(dtype)) for value in values], dim)


def chunk(input, chunks, dim=0):
    """Split into ``chunks`` near-equal pieces along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> [t.shape for t in mint.chunk(mint.ones((5, 2)), 2)]
        [(3, 2), (2, 2)]
    """
    return ops.chunk(input, chunks, dim)


def split(tensor, split_size_or_sections, dim=0):
    """Split into pieces of ``split_size_or_sections`` (an int) or of the listed sizes.

    Examples:
        >>> from cellax import mint
        >>> [t.shape for t in mint.split(mint.ones((5, 2)), [1, 4])]
        [(1, 2), (4, 2)]
    """
    return ops.split(tensor, split_size_or_sections, dim)


def narrow(input, dim, start, length):
    """The slice ``start:start+length`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.narrow(mint.Tensor([1, 2, 3, 4]), 0, 1, 2))
        [2 3]
    """
    return narrow_value(input, dim, start, length, strict=False)  # PyTorch's ranges


def permute(input, dims):
    """Reorder the dimensions as ``dims``.

    Examples:
        >>> from cellax import mint
        >>> mint.permute(mint.ones((2, 3, 4)), (2, 0, 1)).shape
        (4, 2, 3)
    """
    x = arr(input, "permute", tensor=True)
    return wrap(jnp.transpose(x, _perm("permute", x, dims, "dims")))


def transpose(input, dim0, dim1):
    """Swap dimensions ``dim0`` and ``dim1``.

    Examples:
        >>> from cellax import mint
        >>> mint.transpose(mint.ones((2, 3, 4)), 0, 2).shape
        (4, 3, 2)
    """
    return ops.swapaxes(input, dim0, dim1)


def flatten(input, start_dim=0, end_dim=-1):
    """Flatten dimensions ``start_dim`` .. ``end_dim`` (default: all).

    Examples:
        >>> from cellax import mint
        >>> mint.flatten(mint.ones((2, 3, 4)), 1).shape
        (2, 12)
    """
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def squeeze(input, dim=None):
    """Remove the size-1 dimensions in ``dim`` (an int, a tuple, or all when None).

    Examples:
        >>> from cellax import mint
        >>> mint.squeeze(mint.ones((1, 3, 1)), 0).shape
        (3, 1)
    """
    if isinstance(dim, list):
        dim = tuple(dim)
    return ops.squeeze(input, dim)


def reshape(input, shape):
    """``input`` with the new ``shape`` (one entry may be -1).

    Examples:
        >>> from cellax import mint
        >>> mint.reshape(mint.ones(6), (2, -1)).shape
        (2, 3)
    """
    return ops.reshape(input, shape)


def gather(input, dim, index):
    """Gather along ``dim``: ``out[i][j] = input[index[i][j]][j]`` for ``dim=0``.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([[1, 2], [3, 4]])
        >>> print(mint.gather(x, 1, mint.Tensor([[0, 0], [1, 0]])))
        [[1 1]
         [4 3]]
    """
    return ops.gather_elements(input, dim, index)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """Write ``src`` (a Tensor, or the number ``value``) into a copy of ``input`` at ``index``
    along ``dim``; ``reduce='add'``/``'multiply'`` combines instead of overwriting.

    Examples:
        >>> from cellax import mint
        >>> x = mint.zeros((2, 3))
        >>> print(mint.scatter(x, 1, mint.Tensor([[2], [0]]), mint.ones((2, 1))))
        [[0. 0. 1.]
         [1. 0. 0.]]
    """
    if src is None:
        src = value
    if not hasattr(src, "shape"):
        src = ops.full(index.shape, src, dtype=input.dtype)
    if reduce is None:
        return ops.scatter(input, dim, index, src)
    modes = {"add": "add", "multiply": "mul"}
    if reduce not in modes:
        raise ValueError(
            f"For 'scatter', 'reduce' must be 'add' or 'multiply', but got {reduce!r}."
        )
    return ops.tensor_scatter_elements(input, index, src, dim, modes[reduce])


def scatter_add(input, dim, index, src):
    """Add ``src`` into a copy of ``input`` at ``index`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> x = mint.zeros(3)
        >>> print(mint.scatter_add(x, 0, mint.Tensor([0, 0, 2]), mint.ones(3)))
        [2. 0. 1.]
    """
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def index_select(input, dim, index):
    """The entries of ``input`` at the 1-D ``index`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.index_select(mint.Tensor([[1, 2], [3, 4]]), 0, mint.Tensor([1])))
        [[3 4]]
    """
    return ops.index_select(input, dim, index)


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added at the 1-D ``index`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> x = mint.zeros((3, 2))
        >>> print(mint.index_add(x, 0, mint.Tensor([0, 2]), mint.ones((2, 2)), alpha=2))
        [[2. 2.]
         [0. 0.]
         [2. 2.]]
    """
    if alpha != 1:
        source = ops.mul(source, alpha)
    return ops.index_add(input, index, source, dim)


def select(input, dim, index):
    """The slice at ``index`` along ``dim`` (that dimension removed).

    Examples:
        >>> from cellax import mint
        >>> print(mint.select(mint.Tensor([[1, 2], [3, 4]]), 1, -1))
        [2 4]
    """
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"For 'select', 'index' must be in [{-size}, {size}), but got {index}.")
    return ops.squeeze(ops.narrow(input, dim, index % size, 1), dim)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (flattened when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.repeat_interleave(mint.Tensor([1, 2]), 2))
        [1 1 2 2]
    """
    return repeat_values(input, repeats, dim, strict=False)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of the 1-D ``tensors`` (``indexing='ij'`` by default).

    Examples:
        >>> from cellax import mint
        >>> [g.shape for g in mint.meshgrid(mint.ones(2), mint.ones(3))]
        [(2, 3), (2, 3)]
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def diag(input, diagonal=0):
    """1-D input: a square matrix with ``input`` on diagonal ``diagonal``; 2-D input: that
    diagonal as a 1-D Tensor.

    Examples:
        >>> from cellax import mint
        >>> print(mint.diag(mint.Tensor([1, 2])))
        [[1 0]
         [0 2]]
    """
    if arr(input, "diag", tensor=True).ndim == 2:
        return ops.diagonal(input, diagonal)
    return ops.diagflat(input, diagonal)


def bmm(input, mat2):
    """Batched matrix product of ``(b, n, m)`` and ``(b, m, p)``.

    Examples:
        >>> from cellax import mint
        >>> mint.bmm(mint.ones((2, 3, 4)), mint.ones((2, 4, 5))).shape
        (2, 3, 5)
    """
    return ops.bmm(input, mat2)


def mv(input, vec):
    """Matrix-vector product.

    Examples:
        >>> from cellax import mint
        >>> print(mint.mv(mint.Tensor([[1., 2.], [3., 4.]]), mint.Tensor([1., 1.])))
        [3. 7.]
    """
    return ops.mv(input, vec)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.addr_(mint.zeros((2, 2)), mint.Tensor([1., 2.]), mint.Tensor([1., 1.])))
        [[1. 1.]
         [2. 2.]]
    """
    return ops.addr(input, vec1, vec2, beta=beta, alpha=alpha)


def item(input):
    """The single element of ``input`` as a Python number.

    Examples:
        >>> from cellax import mint
        >>> mint.item(mint.Tensor([2.5]))
        2.5
    """
    return input.item()


def softmax(input, dim, *, dtype=None):
    """Softmax along ``dim`` (``input`` cast to ``dtype`` first when given).

    Examples:
        >>> from cellax import mint
        >>> print(mint.softmax(mint.Tensor([0., 0.]), 0))
        [0.5 0.5]
    """
    return ops.softmax(input, dim, dtype=dtype)


def dot(input, other):
    """Dot product of two 1-D Tensors of the same length.

    Raises:
        RuntimeError: If the inputs are not 1-D of the same length.

    Examples:
        >>> from cellax import mint
        >>> print(mint.dot(mint.Tensor([1., 2.]), mint.Tensor([3., 4.])))
        11.0
    """
    if input.ndim != 1 or other.ndim != 1 or input.shape != other.shape:
        raise RuntimeError(
            f"For 'dot', 'input' and 'other' must be 1-D Tensors of the same length, but got "
            f"shapes {tuple(input.shape)} and {tuple(other.shape)}."
        )
    return ops.inner(input, other)


def matmul(input, other):
    """Matrix product with NumPy broadcasting (1-D operands are vectors).

    Raises:
        ValueError: If an input is 0-D (as MindSpore's mint).
        RuntimeError: If the contracted dimensions differ (as MindSpore's mint).

    Examples:
        >>> from cellax import mint
        >>> mint.matmul(mint.ones((2, 3)), mint.ones((3, 4))).shape
        (2, 4)
    """
    left, right = arr(input, tensor=True), arr(other, tensor=True)
    if left.ndim == 0 or right.ndim == 0:
        raise ValueError(
            f"For 'matmul', the inputs must be at least 1-D, but got shapes "
            f"{tuple(left.shape)} and {tuple(right.shape)}."
        )
    k_left = left.shape[-1] if left.ndim else None
    k_right = right.shape[-2] if right.ndim >= 2 else (right.shape[0] if right.ndim else None)
    if k_left != k_right:
        raise RuntimeError(
            f"For 'matmul', shape1[-1] must be equal to shape2[-2], but got "
            f"{tuple(left.shape)} and {tuple(right.shape)}."
        )
    return ops.matmul(input, other)
