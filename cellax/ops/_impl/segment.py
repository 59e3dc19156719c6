"""Segment reductions (MindSpore 2.10's ``unsorted_segment_*``, ``sparse_segment_mean``) and
``unique_with_pad``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor
from .utils import arr, check_eager, wrap

__all__ = [
    "unsorted_segment_sum",
    "unsorted_segment_max",
    "unsorted_segment_min",
    "unsorted_segment_prod",
    "sparse_segment_mean",
    "unique_with_pad",
]


def _int_tensor(api, name, value):
    if not isinstance(value, Tensor) or np.dtype(value._value.dtype).kind not in "iu":
        raise TypeError(f"For '{api}', '{name}' must be an integer Tensor, but got {value!r}.")
    return value._value


def _count(api, num_segments) -> int:
    if isinstance(num_segments, Tensor):
        num_segments = num_segments.asnumpy().reshape(-1)
        if num_segments.size != 1:
            raise ValueError(f"For '{api}', 'num_segments' must be a single int.")
        num_segments = num_segments.item()
    if isinstance(num_segments, bool) or not isinstance(num_segments, (int, np.integer)):
        raise TypeError(f"For '{api}', 'num_segments' must be an int, but got {num_segments!r}.")
    if num_segments <= 0:
        raise ValueError(f"For '{api}', 'num_segments' must be positive, but got {num_segments}.")
    return int(num_segments)


def _segment(api, reduce, x, segment_ids, num_segments):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{api}', the input must be a Tensor, but got {type(x).__name__}.")
    data = x._value
    ids = _int_tensor(api, "segment_ids", segment_ids)
    n = _count(api, num_segments)
    if ids.ndim > data.ndim or data.shape[: ids.ndim] != ids.shape:
        raise ValueError(
            f"For '{api}', the shape of 'segment_ids' {tuple(ids.shape)} must be a prefix of the "
            f"input's shape {tuple(data.shape)}."
        )
    if not isinstance(ids, jax.core.Tracer):
        too_big = np.asarray(ids) >= n
        if too_big.any():
            raise RuntimeError(
                f"For '{api}', 'segment_ids' must be in [0, {n}) (negative ids are skipped), "
                f"but got {int(np.asarray(ids)[too_big][0])}."
            )
    flat = data.reshape((-1,) + data.shape[ids.ndim :])
    flat_ids = ids.reshape(-1).astype(np.int32)  # negative ids are dropped, as in MindSpore
    out = reduce(flat, flat_ids, num_segments=n).astype(data.dtype)
    if reduce in (jax.ops.segment_max, jax.ops.segment_min) and jnp.issubdtype(
        data.dtype, jnp.floating
    ):  # MindSpore fills empty segments with the dtype's finite extreme, not an infinity
        info = jnp.finfo(data.dtype)
        count = jax.ops.segment_sum(jnp.ones(flat_ids.shape, np.int32), flat_ids, num_segments=n)
        fill = info.min if reduce is jax.ops.segment_max else info.max
        out = jnp.where((count == 0).reshape((n,) + (1,) * (out.ndim - 1)), fill, out)
    return wrap(out)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sum the slices of ``input_x`` that share a segment id: ``out[s] = sum(x[i], ids[i] == s)``.

    Args:
        input_x (Tensor): Input of shape :math:`(x_1, ..., x_R)`.
        segment_ids (Tensor): Integer ids, shape a prefix :math:`(x_1, ..., x_N)` of the input's.
            Negative ids are skipped.
        num_segments (Union[int, Tensor]): The number of segments (the output's first dim).

    Returns:
        Tensor of shape :math:`(num\\_segments, x_{N+1}, ..., x_R)`, the input's dtype; empty
        segments are 0.

    Raises:
        TypeError: If ``segment_ids`` is not an integer Tensor.
        ValueError: If ``segment_ids``'s shape is not a prefix of the input's.
        RuntimeError: If an id is ``>= num_segments`` (eager; under jit the slice is dropped).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        >>> print(ms.ops.unsorted_segment_sum(x, ms.Tensor(np.array([0, 1, 0], np.int32)), 2))
        [4. 2.]
    """
    return _segment("unsorted_segment_sum", jax.ops.segment_sum, input_x, segment_ids, num_segments)


def unsorted_segment_max(x, segment_ids, num_segments):
    """The maximum of each segment (as :func:`unsorted_segment_sum`); an empty segment holds the
    dtype's lowest finite value.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([1.0, 5.0, 3.0], np.float32))
        >>> print(ms.ops.unsorted_segment_max(x, ms.Tensor(np.array([0, 0, 2], np.int32)), 3))
        [ 5.0000000e+00 -3.4028235e+38  3.0000000e+00]
    """
    return _segment("unsorted_segment_max", jax.ops.segment_max, x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """The minimum of each segment; an empty segment holds the dtype's highest finite value.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([1.0, 5.0, 3.0], np.float32))
        >>> print(ms.ops.unsorted_segment_min(x, ms.Tensor(np.array([0, 0, 2], np.int32)), 3))
        [1.0000000e+00 3.4028235e+38 3.0000000e+00]
    """
    return _segment("unsorted_segment_min", jax.ops.segment_min, x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """The product of each segment; an empty segment holds 1.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([2.0, 5.0, 3.0], np.float32))
        >>> print(ms.ops.unsorted_segment_prod(x, ms.Tensor(np.array([0, 0, 2], np.int32)), 3))
        [10.  1.  3.]
    """
    return _segment("unsorted_segment_prod", jax.ops.segment_prod, x, segment_ids, num_segments)


def sparse_segment_mean(x, indices, segment_ids):
    """The mean of the rows ``x[indices]`` per segment: ``out[s] = mean(x[indices[i]],
    segment_ids[i] == s)``; the output has ``segment_ids[-1] + 1`` rows, empty ones 0.

    Args:
        x (Tensor): A float Tensor of rank >= 1.
        indices (Tensor): 1-D integer rows of ``x``.
        segment_ids (Tensor): 1-D sorted integer segment ids, one per index.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
        >>> ids = ms.Tensor(np.array([0, 2], np.int32))
        >>> print(ms.ops.sparse_segment_mean(x, ids, ms.Tensor(np.array([1, 1], np.int32))))
        [[0. 0.]
         [2. 3.]]
    """
    api = "sparse_segment_mean"
    data = arr(x, api, "x")
    rows = _int_tensor(api, "indices", indices)
    ids = _int_tensor(api, "segment_ids", segment_ids)
    if rows.ndim != 1 or ids.shape != rows.shape:
        raise ValueError(
            f"For '{api}', 'indices' and 'segment_ids' must be 1-D of one length, but got "
            f"{tuple(rows.shape)} and {tuple(ids.shape)}."
        )
    check_eager(api, ids, hint="The number of segments is the last segment id + 1.")
    n = int(np.asarray(ids)[-1]) + 1 if ids.shape[0] else 0
    picked = data[rows]
    total = jax.ops.segment_sum(picked, ids, num_segments=n)
    count = jax.ops.segment_sum(jnp.ones(ids.shape, data.dtype), ids, num_segments=n)
    count = count.reshape((n,) + (1,) * (data.ndim - 1))
    return wrap(jnp.where(count > 0, total / jnp.maximum(count, 1), 0).astype(data.dtype))


def unique_with_pad(x, pad_num):
    """The unique values of the 1-D ``x`` in order of first appearance, padded with
    ``pad_num`` to ``x``'s length, and for each element the position of its value there.

    Returns:
        Tuple of two Tensors (``y``, ``idx``) of ``x``'s shape.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> y, idx = ms.ops.unique_with_pad(ms.Tensor(np.array([1, 1, 5, 2, 5], np.int32)), 0)
        >>> print(y, idx)
        [1 5 2 0 0] [0 0 1 2 1]
    """
    api = "unique_with_pad"
    data = arr(x, api, "x")
    if data.ndim != 1:
        raise ValueError(f"For '{api}', 'x' must be 1-D, but got shape {tuple(data.shape)}.")
    check_eager(api, data, hint="The unique values depend on the data.")
    values = np.asarray(data)
    _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # first-appearance order
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    unique = values[np.sort(first)]
    padded = np.full(values.shape, pad_num, values.dtype)
    padded[: unique.size] = unique
    idx_dtype = np.int64 if values.dtype == np.int64 else np.int32
    return wrap(jnp.asarray(padded)), wrap(jnp.asarray(rank[inverse].astype(idx_dtype)))
