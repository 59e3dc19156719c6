"""Batched diagonal bands (MindSpore 2.10's ``matrix_diag``, ``matrix_diag_part``,
``matrix_set_diag``: the MatrixDiagV3 family).

A band ``k = (k0, k1)`` holds the diagonals ``d = k1, k1 - 1, ..., k0`` (row ``k1 - d`` of the
packed form), each padded to the longest one's length. ``align`` says where a shorter diagonal
sits: its first word for the superdiagonals (``d >= 0``), its second for the subdiagonals;
``'RIGHT'`` puts the padding first.
"""

from __future__ import annotations

import builtins

import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor
from .utils import arr, check_axis, check_int_arg, check_ints, wrap

__all__ = [
    "tril",
    "triu",
    "diag",
    "diagflat",
    "diag_embed",
    "diagonal",
    "matrix_diag",
    "matrix_diag_part",
    "matrix_set_diag",
    "matrix_band_part",
]


def tril(input, diagonal=0):
    """Zero the elements above the ``diagonal``-th diagonal.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tril(ms.ops.ones((2, 2))))
        [[1. 0.]
         [1. 1.]]
    """
    x = arr(input, "tril", tensor=True)
    if x.ndim < 2:
        raise ValueError(f"For 'tril', 'input' must be at least 2-D, but got shape {x.shape}.")
    return wrap(jnp.tril(x, check_int_arg("tril", "diagonal", diagonal)))


def triu(input, diagonal=0):
    """Zero the elements below the ``diagonal``-th diagonal."""
    x = arr(input, "triu", tensor=True)
    if x.ndim < 2:
        raise ValueError(f"For 'triu', 'input' must be at least 2-D, but got shape {x.shape}.")
    return wrap(jnp.triu(x, check_int_arg("triu", "diagonal", diagonal)))


def diag(input):
    """A Tensor of rank ``2k`` with the elements of the rank-``k`` ``input`` on its diagonal.

    The output has shape ``input.shape + input.shape`` and
    ``out[i1, ..., ik, i1, ..., ik] = input[i1, ..., ik]`` (MindSpore's ``Diag``; a 2-D input
    gives a 4-D output, not the diagonal: use :func:`diagonal` for that).

    Raises:
        ValueError: If ``input`` is 0-D.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diag(ms.Tensor([1, 2])))
        [[1 0]
         [0 2]]
        >>> ms.ops.diag(ms.ops.ones((2, 3))).shape
        (2, 3, 2, 3)
    """
    x = arr(input, "diag", tensor=True)
    if x.ndim == 0:
        raise ValueError(f"For 'diag', 'input' must be at least 1-D, but got shape {x.shape}.")
    flat = x.reshape(-1)
    return wrap((jnp.diag(flat) if flat.size else flat.reshape(0, 0)).reshape(x.shape + x.shape))


def diagflat(input, offset=0):
    """A 2-D Tensor with the flattened ``input`` on diagonal ``offset``."""
    return wrap(jnp.diagflat(arr(input, "diagflat", tensor=True), offset))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Put the last dimension of ``input`` on diagonals of new ``dim1``/``dim2`` planes."""
    x = arr(input, "diag_embed", tensor=True)
    n = x.shape[-1] + builtins.abs(offset)
    rows = jnp.arange(x.shape[-1]) + builtins.max(-offset, 0)
    cols = jnp.arange(x.shape[-1]) + builtins.max(offset, 0)
    out = jnp.zeros(x.shape[:-1] + (n, n), x.dtype).at[..., rows, cols].set(x)
    nd = out.ndim
    return wrap(jnp.moveaxis(out, (nd - 2, nd - 1), (dim1 % nd, dim2 % nd)))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal ``offset`` of the planes ``dim1``/``dim2`` (moved to the last dim).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diagonal(ms.Tensor([[1, 2], [3, 4]])))
        [1 4]
    """
    x = arr(input, "diagonal", tensor=True)
    a = check_axis("diagonal", dim1, x.ndim, "dim1")
    b = check_axis("diagonal", dim2, x.ndim, "dim2")
    if a == b:
        raise ValueError(f"For 'diagonal', 'dim1' and 'dim2' must differ, but both are {dim1}.")
    return wrap(jnp.diagonal(x, check_int_arg("diagonal", "offset", offset), a, b))


_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(api, k, tensor_only=False):
    """(k0, k1, single) from an int or an Int32 Tensor of one or two values."""
    if isinstance(k, Tensor):
        if k._value.dtype != np.int32:
            raise TypeError(f"For '{api}', 'k' must be an Int32 Tensor, but got {k.dtype} Tensor.")
        values = [int(v) for v in k.asnumpy().reshape(-1)]
    elif tensor_only:
        raise TypeError(f"For '{api}', 'k' must be a Tensor, but got {type(k).__name__}.")
    elif isinstance(k, (int, np.integer)) and not isinstance(k, bool):
        values = [int(k)]
    else:
        raise TypeError(f"For '{api}', 'k' must be an int or a Tensor, but got {k!r}.")
    if len(values) not in (1, 2) or values[0] > values[-1]:
        raise ValueError(f"For '{api}', 'k' must be one int or a pair k[0] <= k[1], got {values}.")
    return values[0], values[-1], len(values) == 1


def _align(api, align):
    if align not in _ALIGNS:
        raise ValueError(f"For '{api}', 'align' must be one of {_ALIGNS}, but got {align!r}.")
    top, bottom = align.split("_")
    return top == "RIGHT", bottom == "RIGHT"


def _diag_len(rows, cols, d):
    return min(rows + min(d, 0), cols - max(d, 0))


def _layout(rows, cols, k0, k1, max_len, align):
    """For every (i, j) of a rows x cols matrix: (in band, packed row, packed position)."""
    right_top, right_bottom = align
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    d = j - i
    inside = (d >= k0) & (d <= k1)
    lengths = np.vectorize(lambda v: _diag_len(rows, cols, v))(d)
    right = np.where(d >= 0, right_top, right_bottom)
    offset = np.where(right, max_len - lengths, 0)
    position = np.where(d >= 0, i, j) + offset
    return inside, np.clip(k1 - d, 0, k1 - k0), np.clip(position, 0, max(max_len - 1, 0))


def _pad_value(api, padding_value, dtype):
    value = arr(padding_value, api, "padding_value")
    if np.ndim(value) != 0:
        raise ValueError(f"For '{api}', 'padding_value' must be a scalar.")
    return jnp.asarray(value, dtype)


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices whose diagonal band ``k`` holds ``x`` (the packed diagonals) and whose other
    entries are ``padding_value``.

    Args:
        x (Tensor): The diagonals: shape :math:`(..., L)` for one diagonal, :math:`(..., n, L)`
            for a band of ``n = k[1] - k[0] + 1``.
        k (Union[int, Tensor]): A diagonal offset, or an Int32 Tensor ``(k0, k1)``. Default: 0.
        num_rows, num_cols (int): The matrix size; ``-1`` gives the smallest that holds the
            band (square when both are ``-1``). Default: ``-1``.
        padding_value (Union[int, float, Tensor]): Default: ``0``.
        align (str): ``'RIGHT_LEFT'``, ``'LEFT_RIGHT'``, ``'LEFT_LEFT'`` or ``'RIGHT_RIGHT'``.
            Default: ``'RIGHT_LEFT'``.

    Raises:
        TypeError: If ``k`` is not an int or an Int32 Tensor.
        ValueError: If the sizes do not fit the band and ``x``, or ``align`` is unknown.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.matrix_diag(ms.Tensor(np.array([1.0, 2.0], np.float32)), k=1))
        [[0. 1. 0.]
         [0. 0. 2.]
         [0. 0. 0.]]
    """
    api = "matrix_diag"
    data = arr(x, api, "x")
    k0, k1, single = _band(api, k)
    align = _align(api, align)
    if not single and (data.ndim < 2 or data.shape[-2] != k1 - k0 + 1):
        raise ValueError(f"For '{api}', 'x' must hold {k1 - k0 + 1} diagonals for k=({k0}, {k1}).")
    max_len = data.shape[-1]
    min_rows, min_cols = max_len - min(k1, 0), max_len + max(k0, 0)
    rows, cols = int(num_rows), int(num_cols)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if (rows != min_rows and cols != min_cols) or rows < min_rows or cols < min_cols:
        raise ValueError(
            f"For '{api}', the number of rows or columns ({rows}, {cols}) is not consistent with "
            f"'k' ({k0}, {k1}) and 'x' of shape {tuple(data.shape)}."
        )
    inside, row, position = _layout(rows, cols, k0, k1, max_len, align)
    packed = data[..., None, :] if single else data
    values = packed[..., row, position]
    return wrap(jnp.where(inside, values, _pad_value(api, padding_value, data.dtype)))


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """The diagonal band ``k`` of the matrices ``x``, packed (the inverse of
    :func:`matrix_diag`); shorter diagonals are padded with ``padding_value``.

    Args:
        x (Tensor): Shape :math:`(..., M, N)`.
        k (Tensor): An Int32 Tensor: one offset or ``(k0, k1)`` (MindSpore 2.10 takes no int).
        padding_value (Tensor): A scalar.
        align (str): As :func:`matrix_diag`. Default: ``'RIGHT_LEFT'``.

    Returns:
        Shape :math:`(..., L)` for one diagonal, :math:`(..., k1 - k0 + 1, L)` for a band.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
        >>> print(ms.ops.matrix_diag_part(x, ms.Tensor(1, ms.int32), ms.Tensor(0.0)))
        [ 1.  6. 11.]
    """
    api = "matrix_diag_part"
    data = arr(x, api, "x")
    if data.ndim < 2:
        raise ValueError(f"For '{api}', 'x' must have rank >= 2, but got {data.ndim}.")
    k0, k1, single = _band(api, k, tensor_only=True)
    align = _align(api, align)
    rows, cols = data.shape[-2:]
    max_len = max(min(rows + min(k1, 0), cols + min(-k0, 0)), 0)
    diags = np.arange(k1, k0 - 1, -1)
    position = np.arange(max_len)
    out_rows, out_cols, valid = [], [], []
    for d in diags:
        length = max(_diag_len(rows, cols, d), 0)
        right = align[0] if d >= 0 else align[1]
        p = position - (max_len - length if right else 0)
        valid.append((p >= 0) & (p < length))
        p = np.clip(p, 0, max(length - 1, 0))
        out_rows.append(p - min(d, 0))
        out_cols.append(p + max(d, 0))
    r, c = np.clip(np.array(out_rows), 0, rows - 1), np.clip(np.array(out_cols), 0, cols - 1)
    out = jnp.where(np.array(valid), data[..., r, c], _pad_value(api, padding_value, data.dtype))
    return wrap(out[..., 0, :] if single else out)


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """``x`` with its diagonal band ``k`` replaced by the packed ``diagonal``.

    Args:
        x (Tensor): Shape :math:`(..., M, N)`.
        diagonal (Tensor): Shape :math:`(..., L)` or :math:`(..., k1 - k0 + 1, L)`, ``L`` the
            longest diagonal of the band.
        k (Union[int, Tensor]): An offset or an Int32 Tensor ``(k0, k1)``. Default: ``0``.
        align (str): As :func:`matrix_diag`. Default: ``'RIGHT_LEFT'``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.zeros((2, 3), np.float32))
        >>> print(ms.ops.matrix_set_diag(x, ms.Tensor(np.array([1.0, 2.0], np.float32))))
        [[1. 0. 0.]
         [0. 2. 0.]]
    """
    api = "matrix_set_diag"
    data, diag = arr(x, api, "x"), arr(diagonal, api, "diagonal")
    if data.ndim < 2:
        raise ValueError(f"For '{api}', 'x' must have rank >= 2, but got {data.ndim}.")
    k0, k1, single = _band(api, k)
    align = _align(api, align)
    rows, cols = data.shape[-2:]
    max_len = min(rows + min(k1, 0), cols + min(-k0, 0))
    if diag.shape[-1] != max_len:
        raise ValueError(
            f"For '{api}', diagonal.shape[-1] must be the longest diagonal's length {max_len}, "
            f"but got {diag.shape[-1]}."
        )
    inside, row, position = _layout(rows, cols, k0, k1, max_len, align)
    packed = diag[..., None, :] if single else diag
    values = packed[..., row, position].astype(data.dtype)
    return wrap(jnp.where(inside, values, data))


def matrix_band_part(x, lower, upper):
    """Keep the band of each innermost matrix: ``lower`` sub- and ``upper`` super-diagonals
    (a negative count keeps the whole triangle); the rest is set to 0.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.matrix_band_part(ms.ops.ones((3, 3)), 0, 1))
        [[1. 1. 0.]
         [0. 1. 1.]
         [0. 0. 1.]]
    """
    api = "matrix_band_part"
    value = arr(x, api, "x", tensor=True)
    if value.ndim < 2:
        raise ValueError(f"For '{api}', 'x' must be at least 2-D, but got shape {value.shape}.")
    low, up = (check_ints(api, n, v, tensor=True) for n, v in (("lower", lower), ("upper", upper)))
    if not isinstance(low, int) or not isinstance(up, int):
        raise TypeError(
            f"For '{api}', 'lower' and 'upper' must be ints or 0-D integer Tensors, but got "
            f"{lower!r} and {upper!r}."
        )
    rows, cols = value.shape[-2:]
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    keep = ((low < 0) | (r - c <= low)) & ((up < 0) | (c - r <= up))
    return wrap(jnp.where(jnp.asarray(keep), value, jnp.zeros_like(value)))
