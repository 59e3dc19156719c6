"""Order statistics and counting: median, quantiles, ``kthvalue``, ``histc``, ``cov``."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .dtype_rules import check_accepts
from .elementwise import _floating
from .primitive import primitive
from .reductions import _INT64, _reduce_input
from ..._limits import check_alloc
from .utils import arr, check_axis, check_eager, check_int_arg, to_float, wrap

__all__ = [
    "histc",
    "kthvalue",
    "median",
    "nanmedian",
    "quantile",
    "nanquantile",
    "Median",
    "cov",
]

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

    Differences from MindSpore: an empty input gives ``bins`` zeros; MindSpore 2.10 CPU returns
    the same shape and dtype with an arbitrary value in the first bin.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.histc(ms.Tensor([1., 2., 1.]), bins=4, min=0, max=3))
        [0. 2. 1. 0.]
    """
    x = arr(input, "histc", tensor=True)
    if x.dtype == np.bool_:  # MindSpore's Histogram takes numbers only, on every device
        raise TypeError("For 'histc', 'input' must be a number Tensor, but got dtype Bool.")
    x = to_float(x).reshape(-1)
    check_int_arg("histc", "bins", bins, 1)
    check_alloc("histc", "bins", (bins,), x.dtype.itemsize)
    if min > max:
        raise ValueError(f"For 'histc', 'min' must be <= 'max', but got min={min}, max={max}.")
    if not x.size:  # nothing to count (and no data range to take)
        return wrap(jnp.zeros((bins,), x.dtype))
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
    x = arr(input, "kthvalue", keep_scalars=False)
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
        >>> from cellax.ops._impl.statistics import unique_sorted
        >>> out, inverse = unique_sorted(ms.Tensor([3, 1, 3]), return_inverse=True)
        >>> print(out, inverse)
        [1 3] [1 0 1]
    """
    x = arr(input, "unique", keep_scalars=False)
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


def _median(api, input, axis, keepdims, ignore_nan):
    x = _reduce_input(api, input)
    axis = check_axis(api, axis, x.ndim)
    if x.ndim == 0:
        return wrap(x), wrap(jnp.zeros((), _INT64))
    key = x
    if ignore_nan and (x.dtype.kind == "f"):
        count = jnp.sum(~jnp.isnan(x), axis=axis, keepdims=True)
    else:
        count = jnp.full(x.shape[:axis] + (1,) + x.shape[axis + 1 :], x.shape[axis])
    order = jnp.argsort(key, axis=axis, stable=True)
    position = jnp.maximum((count - 1) // 2, 0)
    index = jnp.take_along_axis(order, position, axis=axis)
    values = jnp.take_along_axis(x, index, axis=axis)
    if not keepdims:
        values, index = jnp.squeeze(values, axis), jnp.squeeze(index, axis)
    return wrap(values), wrap(index.astype(_INT64))


def median(input, axis=-1, keepdims=False):
    """The lower median along ``axis`` and its index: ``(values, indices)``.

    Examples:
        >>> import cellax as ms
        >>> values, indices = ms.ops.median(ms.Tensor([[1., 3., 2.], [4., 0., 5.]]), 1)
        >>> print(values, indices)
        [2. 4.] [2 0]
    """
    check_accepts("median", _reduce_input("median", input))
    return _median("median", input, axis, keepdims, False)


def nanmedian(input, axis=-1, keepdims=False):
    """Like :func:`median`, ignoring NaN values.

    Examples:
        >>> import cellax as ms
        >>> values, _ = ms.ops.nanmedian(ms.Tensor([1., float('nan'), 3., 2.]), 0)
        >>> print(values)
        2.0
    """
    return _median("nanmedian", input, axis, keepdims, True)


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantile(s) with linear interpolation.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.quantile(ms.Tensor([1., 2., 3., 4.]), 0.5))
        2.5
    """
    x = to_float(_reduce_input("quantile", input))
    axis = None if axis is None else check_axis("quantile", axis, x.ndim)
    q = _quantile_q("quantile", q, x.dtype)
    return wrap(jnp.quantile(x, q, axis=axis, keepdims=keepdims))


def _quantile_q(api: str, q, dtype):
    q = arr(q, api, "q", keep_scalars=False).astype(dtype)
    if q.ndim > 1:
        raise ValueError(
            f"For '{api}', 'q' must be a scalar or a 1-D Tensor, but got shape {tuple(q.shape)}."
        )
    return q


def nanquantile(input, q, axis=None, keepdims=False):
    """Like :func:`quantile`, ignoring NaN."""
    x = to_float(_reduce_input("nanquantile", input))
    axis = None if axis is None else check_axis("nanquantile", axis, x.ndim)
    q = _quantile_q("nanquantile", q, x.dtype)
    return wrap(jnp.nanquantile(x, q, axis=axis, keepdims=keepdims))


Median = primitive(
    "Median",
    median,
    dict(global_median=False, axis=0, keep_dims=False, ignore_nan=False),
    lambda self, x: _median(
        "Median", x, self.attrs["axis"], self.attrs["keep_dims"], self.attrs["ignore_nan"]
    ),
)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), with integer frequency weights and float observation weights.

    Args:
        input (Tensor): A 1-D (one variable) or 2-D Tensor; ints give Float32.
        correction (int): The degrees-of-freedom correction (1: unbiased). Default: ``1``.
        fweights (Tensor, optional): 1-D integer repeat counts per observation.
        aweights (Tensor, optional): 1-D float weights per observation.

    Returns:
        Tensor of shape ``(V, V)``, or a 0-D Tensor for one variable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]], np.float32))
        >>> print(ms.ops.cov(x))
        [[ 1. -1.]
         [-1.  1.]]
    """
    api = "cov"
    data = arr(input, api, tensor=True)
    if data.dtype == jnp.bool_:  # MindSpore's cov checks this in Python, on every device
        raise TypeError(f"For '{api}', 'input' must be a numeric Tensor, but got Bool.")
    data = _floating(data)
    if data.ndim > 2:
        raise ValueError(f"For '{api}', 'input' must be 1-D or 2-D, but got rank {data.ndim}.")
    fw = None if fweights is None else arr(fweights, api, "fweights")
    aw = None if aweights is None else arr(aweights, api, "aweights")
    if fw is not None and not jnp.issubdtype(fw.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'fweights' must be an integer Tensor.")
    out = jnp.cov(data, ddof=int(correction), fweights=fw, aweights=aw)
    return wrap(out.astype(data.dtype))
