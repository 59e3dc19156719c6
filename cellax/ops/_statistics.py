"""Order statistics and counting: histc, kthvalue, sorted unique (with inverse and counts)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ._utils import array, check_axis, check_eager, check_int_arg, to_float, wrap

__all__ = ["histc", "kthvalue"]

_HINT = "Compute it outside the compiled function."


def histc(input, bins=100, min=0.0, max=0.0):
    """Histogram of ``input`` (flattened) with ``bins`` equal-width bins over ``[min, max]``.

    When ``min == max == 0`` the range is the data's minimum and maximum. Elements outside the
    range are ignored; the last bin is closed on the right.

    Args:
        input (Tensor): The data.
        bins (int): Number of bins. Default: ``100``.
        min (float): Lower end of the range. Default: ``0.0``.
        max (float): Upper end of the range. Default: ``0.0``.

    Returns:
        Tensor of shape ``(bins,)`` in ``input``'s floating dtype (Float32 for integers).

    Raises:
        ValueError: If ``bins`` is not positive or ``min > max``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.histc(ms.Tensor([1., 2., 1.]), bins=4, min=0, max=3))
        [0. 2. 1. 0.]
    """
    x = to_float(array(input, "histc")).reshape(-1)
    check_int_arg("histc", "bins", bins, 1)
    if min > max:
        raise ValueError(f"For 'histc', 'min' must be <= 'max', but got min={min}, max={max}.")
    low, high = jnp.asarray(min, x.dtype), jnp.asarray(max, x.dtype)
    if min == max:
        low, high = jnp.min(x), jnp.max(x)
        same = low == high
        low, high = jnp.where(same, low - 1, low), jnp.where(same, high + 1, high)
    scaled = (x - low) * bins / (high - low)
    index = jnp.clip(jnp.floor(scaled).astype(jnp.int32), 0, bins - 1)
    inside = (x >= low) & (x <= high)
    counts = jnp.zeros((bins,), x.dtype).at[index].add(inside.astype(x.dtype))
    return wrap(counts)


def kthvalue(input, k, dim=-1, keepdim=False):
    """The ``k``-th smallest entry (1-based) along ``dim`` and its Int64 index.

    Args:
        input (Tensor): The input.
        k (int): Which order statistic, in ``[1, input.shape[dim]]``.
        dim (int): The dimension. Default: ``-1``.
        keepdim (bool): Keep ``dim`` with size 1. Default: ``False``.

    Returns:
        Tuple ``(values, indices)``.

    Raises:
        ValueError: If ``k`` is out of range.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.kthvalue(ms.Tensor([[3., 1., 2.]]), 2)
        >>> print(values, indices)
        [2.] [2]
    """
    x = array(input, "kthvalue")
    axis = check_axis("kthvalue", dim, x.ndim, "dim")
    size = x.shape[axis] if x.ndim else 1
    check_int_arg("kthvalue", "k", k)
    if not 1 <= k <= size:
        raise ValueError(f"For 'kthvalue', 'k' must be in [1, {size}], but got {k}.")
    if x.ndim == 0:
        return wrap(x), wrap(jnp.zeros((), jnp.int64))
    order = jnp.argsort(x, axis=axis, stable=True)
    index = jnp.take(order, jnp.asarray([k - 1]), axis=axis)
    values = jnp.take_along_axis(x, index, axis=axis)
    if not keepdim:
        values, index = jnp.squeeze(values, axis), jnp.squeeze(index, axis)
    return wrap(values), wrap(index.astype(jnp.int64))


def unique_sorted(input, return_inverse=False, return_counts=False, dim=None):
    """Sorted unique elements (or unique slices along ``dim``), with the Int64 inverse
    indices and counts on request. Eager only: the output size depends on the values.

    Examples:
        >>> import cellax as ms
        >>> from cellax.ops._statistics import unique_sorted
        >>> out, inverse = unique_sorted(ms.Tensor([3, 1, 3]), return_inverse=True)
        >>> print(out, inverse)
        [1 3] [1 0 1]
    """
    x = array(input, "unique")
    check_eager("unique", x, hint=_HINT)
    data = np.asarray(x)
    if dim is None:
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(data.shape)
    else:
        axis = check_axis("unique", dim, data.ndim, "dim")
        values, inverse, counts = np.unique(
            data, return_inverse=True, return_counts=True, axis=axis
        )
        inverse = inverse.reshape(-1)
    out = [wrap(jnp.asarray(values))]
    if return_inverse:
        out.append(wrap(jnp.asarray(inverse, jnp.int64)))
    if return_counts:
        out.append(wrap(jnp.asarray(counts, jnp.int64)))
    return out[0] if len(out) == 1 else tuple(out)
