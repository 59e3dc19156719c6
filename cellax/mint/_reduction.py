"""mint reductions, scans, sorting and statistics: adapters over :mod:`cellax.ops`."""

from __future__ import annotations


from .. import _dtype, ops
from .._tensor import Tensor
from ..ops._impl import statistics
from ..ops._impl.utils import check_axis
from ._common import cast, reduce_dim

_SAME = [
    "bincount", "cumprod", "logsumexp", "sum", "trace", "unique_consecutive",
]  # fmt: skip
globals().update({name: getattr(ops, name) for name in _SAME})

__all__ = _SAME + [
    "argmax", "all", "any", "amax", "amin", "argmin", "max", "min", "mean", "median", "prod", "std",
    "std_mean", "var", "var_mean", "nansum", "count_nonzero", "norm", "cumsum", "cummax",
    "cummin", "sort", "argsort", "topk", "kthvalue", "unique", "histc", "diff", "cdist",
]  # fmt: skip

_I64 = _dtype.int64


def _i64(pair):
    values, indices = pair
    return values, ops.cast(indices, _I64)


def all(input, dim=None, keepdim=False):
    """Whether all elements (along ``dim``) are True.

    Examples:
        >>> from cellax import mint
        >>> print(mint.all(mint.Tensor([[True, False], [True, True]]), dim=1))
        [False  True]
    """
    return ops.all(input, reduce_dim(dim), keepdim)


def any(input, dim=None, keepdim=False):
    """Whether any element (along ``dim``) is True.

    Examples:
        >>> from cellax import mint
        >>> print(mint.any(mint.Tensor([[True, False], [False, False]]), dim=1))
        [ True False]
    """
    return ops.any(input, reduce_dim(dim), keepdim)


def amax(input, dim=(), keepdim=False):
    """Maximum over ``dim`` (all dimensions when empty).

    Examples:
        >>> from cellax import mint
        >>> print(mint.amax(mint.Tensor([[1., 4.], [3., 2.]]), dim=0))
        [3. 4.]
    """
    return ops.amax(input, reduce_dim(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over ``dim`` (all dimensions when empty).

    Examples:
        >>> from cellax import mint
        >>> print(mint.amin(mint.Tensor([[1., 4.], [3., 2.]]), dim=0))
        [1. 2.]
    """
    return ops.amin(input, reduce_dim(dim), keepdim)


def argmax(input, dim=None, keepdim=False):
    """Int64 index of the maximum along ``dim`` (flat index when None). Unlike ``ops.argmax``,
    ``dim`` of a 0-D input must be 0 or -1, as MindSpore's ``mint.argmax`` requires.

    Examples:
        >>> from cellax import mint
        >>> print(mint.argmax(mint.Tensor([[1., 0.], [3., 4.]]), dim=1))
        [0 1]
    """
    if dim is not None and isinstance(input, Tensor) and input.ndim == 0:
        check_axis("argmax", dim, 0, "dim")
    return ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    """Int64 index of the minimum along ``dim`` (flat index when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.argmin(mint.Tensor([[1., 0.], [3., 4.]]), dim=1))
        [1 0]
    """
    return ops.cast(ops.argmin(input, dim, keepdim), _I64)


def _extreme(api, reduce_fn, pair_fn, input, args, kwargs):
    other = kwargs.pop("other", None)
    dim = kwargs.pop("dim", None)
    keepdim = kwargs.pop("keepdim", False)
    if kwargs:
        raise TypeError(f"For '{api}', got unexpected keyword arguments {sorted(kwargs)}.")
    if args:
        if isinstance(args[0], Tensor):
            other = args[0]
        else:
            dim = args[0]
        if len(args) > 1:
            keepdim = args[1]
    if other is not None:
        return pair_fn(input, other)
    if dim is None:
        return reduce_fn(input)
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"For '{api}', 'dim' must be an int, but got {type(dim).__name__}.")
    return None, (dim, keepdim)


def max(input, *args, **kwargs):
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``: the tuple
    ``(values, indices)`` (Int64 indices); ``max(input, other)``: :func:`maximum`.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([[1., 4.], [3., 2.]])
        >>> print(mint.max(x))
        4.0
        >>> values, indices = mint.max(x, dim=1)
        >>> print(values, indices)
        [4. 3.] [1 0]
    """
    out = _extreme("max", ops.amax, ops.maximum, input, args, dict(kwargs))
    if isinstance(out, tuple) and out[0] is None:
        return _i64(ops.max(input, *out[1]))
    return out


def min(input, *args, **kwargs):
    """``min(input)``: the smallest element; ``min(input, dim, keepdim=False)``: the tuple
    ``(values, indices)`` (Int64 indices); ``min(input, other)``: :func:`minimum`.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([[1., 4.], [3., 2.]])
        >>> print(mint.min(x))
        1.0
        >>> print(mint.min(x, mint.Tensor(2.)))
        [[1. 2.]
         [2. 2.]]
    """
    out = _extreme("min", ops.amin, ops.minimum, input, args, dict(kwargs))
    if isinstance(out, tuple) and out[0] is None:
        return _i64(ops.min(input, *out[1]))
    return out


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over ``dim`` (all dimensions when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.mean(mint.Tensor([[1., 2.], [3., 4.]]), dim=0))
        [2. 3.]
    """
    return ops.mean(cast(input, dtype), reduce_dim(dim), keepdim)


def median(input, dim=None, keepdim=False):
    """``median(input)``: the lower median of all elements; ``median(input, dim, keepdim)``:
    ``(values, indices)`` along ``dim`` (Int64 indices).

    Examples:
        >>> from cellax import mint
        >>> print(mint.median(mint.Tensor([3., 1., 2., 4.])))
        2.0
    """
    if dim is None:
        return ops.median(ops.reshape(input, (-1,)), 0)[0]
    return _i64(ops.median(input, dim, keepdim))


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product over ``dim`` (all dimensions when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.prod(mint.Tensor([[1., 2.], [3., 4.]]), dim=1))
        [ 2. 12.]
    """
    return ops.prod(input, dim, keepdim, dtype)


def std(input, dim=None, *, correction=1, keepdim=False):
    """Standard deviation over ``dim`` with ``correction`` (Bessel's by default).

    Examples:
        >>> from cellax import mint
        >>> print(mint.std(mint.Tensor([1., 3.])))
        1.4142135
    """
    return ops.std(input, reduce_dim(dim), correction, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):
    """Variance over ``dim`` with ``correction`` (Bessel's by default).

    Examples:
        >>> from cellax import mint
        >>> print(mint.var(mint.Tensor([1., 3.])))
        2.0
    """
    return ops.var(input, reduce_dim(dim), correction, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(std, mean)`` over ``dim``.

    Examples:
        >>> from cellax import mint
        >>> s, m = mint.std_mean(mint.Tensor([1., 3.]))
        >>> print(s, m)
        1.4142135 2.0
    """
    return ops.std_mean(input, reduce_dim(dim), correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(var, mean)`` over ``dim``.

    Examples:
        >>> from cellax import mint
        >>> v, m = mint.var_mean(mint.Tensor([1., 3.]))
        >>> print(v, m)
        2.0 2.0
    """
    return ops.var_mean(input, reduce_dim(dim), correction, keepdim)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` treating NaN as zero.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nansum(mint.Tensor([1., float('nan'), 2.])))
        3.0
    """
    return ops.nansum(input, reduce_dim(dim), keepdim, dtype=dtype)


def count_nonzero(input, dim=None):
    """Number (Int64) of non-zero elements over ``dim`` (all when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.count_nonzero(mint.Tensor([[0, 1], [2, 3]]), dim=0))
        [1 2]
    """
    axis = () if dim is None else dim
    return ops.count_nonzero(input, axis, False, _I64)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """Vector norm of order ``p`` over ``dim`` (``'fro'``: the 2-norm; ``'nuc'``: the
    nuclear matrix norm over two dims).

    Examples:
        >>> from cellax import mint
        >>> print(mint.norm(mint.Tensor([3., 4.])))
        5.0
    """
    if p == "nuc":
        return ops.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    order = 2 if p == "fro" else p
    return ops.vector_norm(input, order, reduce_dim(dim), keepdim, dtype=dtype)


def cumsum(input, dim, dtype=None):
    """Cumulative sum along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.cumsum(mint.Tensor([1, 2, 3]), dim=0))
        [1 3 6]
    """
    return ops.cumsum(input, dim, dtype)


def cummax(input, dim):
    """Running maximum along ``dim``: ``(values, indices)`` (Int64 indices).

    Examples:
        >>> from cellax import mint
        >>> values, indices = mint.cummax(mint.Tensor([1., 3., 2.]), 0)
        >>> print(values, indices)
        [1. 3. 3.] [0 1 1]
    """
    return _i64(ops.cummax(input, dim))


def cummin(input, dim):
    """Running minimum along ``dim``: ``(values, indices)`` (Int64 indices).

    Examples:
        >>> from cellax import mint
        >>> values, indices = mint.cummin(mint.Tensor([3., 1., 2.]), 0)
        >>> print(values, indices)
        [3. 1. 1.] [0 1 1]
    """
    return _i64(ops.cummin(input, dim))


def sort(input, *, dim=-1, descending=False, stable=False):
    """Sort along ``dim``: ``(values, indices)`` (Int64 indices; cellax's sort is stable).

    Examples:
        >>> from cellax import mint
        >>> values, indices = mint.sort(mint.Tensor([1., 3., 2.]), descending=True)
        >>> print(values, indices)
        [3. 2. 1.] [1 2 0]
    """
    return _i64(ops.sort(input, dim, descending))


def argsort(input, dim=-1, descending=False, stable=False):
    """Int64 indices that sort ``input`` along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.argsort(mint.Tensor([1., 3., 2.])))
        [0 2 1]
    """
    return ops.cast(ops.argsort(input, dim, descending), _I64)


def topk(input, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) entries along ``dim``: ``(values, indices)`` (Int64).

    Examples:
        >>> from cellax import mint
        >>> values, indices = mint.topk(mint.Tensor([1., 3., 2.]), 2)
        >>> print(values, indices)
        [3. 2.] [1 2]
    """
    return _i64(ops.topk(input, k, dim, largest, sorted))


def kthvalue(input, k, dim=-1, keepdim=False):
    """The ``k``-th smallest entry along ``dim``: ``(values, indices)`` (Int64 indices).

    Examples:
        >>> from cellax import mint
        >>> values, indices = mint.kthvalue(mint.Tensor([3., 1., 2.]), 2)
        >>> print(values, indices)
        2.0 2
    """
    return statistics.kthvalue(input, k, dim, keepdim)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The sorted unique elements of ``input`` (flattened, or slices along ``dim``), with
    the inverse indices and counts (Int64) on request (eager only).

    Examples:
        >>> from cellax import mint
        >>> out, counts = mint.unique(mint.Tensor([3, 1, 3]), return_counts=True)
        >>> print(out, counts)
        [1 3] [1 2]
    """
    return statistics.unique_sorted(input, return_inverse, return_counts, dim)


def histc(input, bins=100, min=0, max=0):
    """Histogram of ``input`` with ``bins`` equal bins over ``[min, max]`` (the data's range
    when both are 0).

    Examples:
        >>> from cellax import mint
        >>> print(mint.histc(mint.Tensor([1., 2., 1.]), bins=4, min=0, max=3))
        [0. 2. 1. 0.]
    """
    return statistics.histc(input, bins, min, max)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """``n``-th forward difference along ``dim``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.diff(mint.Tensor([1, 3, 6])))
        [2 3]
    """
    return ops.diff(input, n, dim, prepend, append)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise ``p``-norm distances between the rows of ``x1`` and ``x2``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.cdist(mint.Tensor([[0., 0.]]), mint.Tensor([[3., 4.]])))
        [[5.]]
    """
    return ops.cdist(x1, x2, p)
