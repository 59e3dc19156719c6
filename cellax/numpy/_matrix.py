"""Matrix and grid creation of cellax.numpy: tri/tril/triu, diag, grids, windows, pad, random."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .. import ops
from .._tensor import wrap
from ._utils import arr as asjax
from ._utils import cast, check_int, np_dtype, out, shape_arg

__all__ = [
    "tri",
    "tril",
    "triu",
    "diag",
    "diagflat",
    "diagonal",
    "trace",
    "diag_indices",
    "tril_indices",
    "triu_indices",
    "tril_indices_from",
    "triu_indices_from",
    "meshgrid",
    "mgrid",
    "ogrid",
    "ix_",
    "indices",
    "vander",
    "hamming",
    "hanning",
    "bartlett",
    "blackman",
    "pad",
    "rand",
    "randn",
    "randint",
]


def tri(N, M=None, k=0, dtype=np.float32):
    """Ones at and below the ``k``-th diagonal, zeros elsewhere (Float32 by default).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.tri(2))
        [[1. 0.]
         [1. 1.]]
    """
    n = check_int("tri", "N", N, 0)
    m = n if M is None else check_int("tri", "M", M, 0)
    return out(jnp.tri(n, m, check_int("tri", "k", k), dtype=np_dtype(dtype, "tri")))


def _matrix(api, m):
    x = asjax(m, api, "m")
    if x.ndim < 2:
        raise ValueError(f"For '{api}', 'm' must have at least 2 dimensions, but got {x.ndim}.")
    return x


def tril(m, k=0):
    """The lower triangle of the last two dimensions of ``m`` (the rest zeroed).

    Raises:
        ValueError: If ``m`` has fewer than 2 dimensions.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.tril([[1, 2], [3, 4]]))
        [[1 0]
         [3 4]]
    """
    return out(jnp.tril(_matrix("tril", m), check_int("tril", "k", k)))


def triu(m, k=0):
    """The upper triangle of the last two dimensions of ``m`` (the rest zeroed).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.triu([[1, 2], [3, 4]]))
        [[1 2]
         [0 4]]
    """
    return out(jnp.triu(_matrix("triu", m), check_int("triu", "k", k)))


def diag(v, k=0):
    """The ``k``-th diagonal of a 2-D ``v``, or a 2-D Tensor with 1-D ``v`` on that diagonal.

    Raises:
        ValueError: If ``v`` is not 1-D or 2-D.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.diag(mnp.array([1, 2])))
        [[1 0]
         [0 2]]
    """
    x = asjax(v, "diag", "v")
    if x.ndim not in (1, 2):
        raise ValueError(f"For 'diag', 'v' must be 1-D or 2-D, but got {x.ndim}-D.")
    return out(jnp.diag(x, check_int("diag", "k", k)))


def diagflat(v, k=0):
    """A 2-D Tensor with the flattened ``v`` on the ``k``-th diagonal.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.diagflat(mnp.array([[1, 2], [3, 4]])).shape
        (4, 4)
    """
    return out(jnp.diagflat(asjax(v, "diagflat", "v"), check_int("diagflat", "k", k)))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal at ``offset`` of the plane ``(axis1, axis2)`` (moved to the last axis).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.diagonal(mnp.array([[1, 2], [3, 4]])))
        [1 4]
    """
    x = asjax(a, "diagonal", "a")
    if x.ndim < 2:
        raise ValueError(f"For 'diagonal', 'a' must be at least 2-D, but got {x.ndim}-D.")
    return out(jnp.diagonal(x, check_int("diagonal", "offset", offset), axis1, axis2))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along a diagonal (integer input sums in Int64, as MindSpore).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.trace(mnp.eye(3)))
        3.0
    """
    x = asjax(a, "trace", "a")
    if x.ndim < 2:
        raise ValueError(f"For 'trace', 'a' must be at least 2-D, but got {x.ndim}-D.")
    result = jnp.trace(x, check_int("trace", "offset", offset), axis1, axis2)
    return out(cast(result, dtype, "trace"))


def _int32(arrays):
    return tuple(a.astype(jnp.int32) for a in arrays)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an ``n``-sized, ``ndim``-D array (Int32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.diag_indices(2))
        (Tensor(shape=[2], dtype=Int32, value= [0, 1]), Tensor(shape=[2], dtype=Int32, value= [0, 1]))
    """
    n = check_int("diag_indices", "n", n, 0)
    return out(_int32(jnp.diag_indices(n, check_int("diag_indices", "ndim", ndim, 1))))


def tril_indices(n, k=0, m=None):
    """Row and column indices (Int32) of the lower triangle of an ``(n, m)`` array.

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.tril_indices(2)
        >>> print(rows, cols)
        [0 1 1] [0 0 1]
    """
    n = check_int("tril_indices", "n", n, 0)
    m = n if m is None else check_int("tril_indices", "m", m, 0)
    return out(_int32(jnp.tril_indices(n, check_int("tril_indices", "k", k), m)))


def triu_indices(n, k=0, m=None):
    """Row and column indices (Int32) of the upper triangle of an ``(n, m)`` array.

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.triu_indices(2)
        >>> print(rows, cols)
        [0 0 1] [0 1 1]
    """
    n = check_int("triu_indices", "n", n, 0)
    m = n if m is None else check_int("triu_indices", "m", m, 0)
    return out(_int32(jnp.triu_indices(n, check_int("triu_indices", "k", k), m)))


def tril_indices_from(arr, k=0):
    """:func:`tril_indices` for the shape of the 2-D ``arr``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.tril_indices_from(mnp.ones((2, 2)))
        >>> print(rows)
        [0 1 1]
    """
    shape = _matrix("tril_indices_from", arr).shape
    return tril_indices(shape[-2], k, shape[-1])


def triu_indices_from(arr, k=0):
    """:func:`triu_indices` for the shape of the 2-D ``arr``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.triu_indices_from(mnp.ones((2, 2)))
        >>> print(cols)
        [0 1 1]
    """
    shape = _matrix("triu_indices_from", arr).shape
    return triu_indices(shape[-2], k, shape[-1])


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate matrices from 1-D coordinate vectors (a list of Tensors).

    Raises:
        ValueError: If ``indexing`` is not 'xy' or 'ij'.

    Examples:
        >>> import cellax.numpy as mnp
        >>> xv, yv = mnp.meshgrid(mnp.array([1, 2]), mnp.array([3, 4, 5]))
        >>> xv.shape
        (3, 2)
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    arrays = [asjax(x, "meshgrid", "xi").reshape(-1) for x in xi]
    return out(list(jnp.meshgrid(*arrays, sparse=sparse, indexing=indexing)))


def _grid_ranges(key):
    keys = key if isinstance(key, tuple) else (key,)
    ranges = []
    for s in keys:
        if not isinstance(s, slice):
            raise TypeError(f"For 'mgrid', the index must be slices, but got {s!r}.")
        start = 0 if s.start is None else s.start
        step = 1 if s.step is None else s.step
        if isinstance(step, complex):
            values = jnp.linspace(start, s.stop, int(abs(step)), dtype=jnp.float32)
        elif any(isinstance(v, float) for v in (start, s.stop, step)):
            values = jnp.asarray(np.arange(start, s.stop, step), jnp.float32)
        else:
            values = jnp.arange(start, s.stop, step, dtype=jnp.int32)
        ranges.append(values)
    dtype = jnp.result_type(*ranges)
    return isinstance(key, tuple), [r.astype(dtype) for r in ranges]


class _MGrid:
    """``mgrid[0:3, 0:2]``: a dense mesh-grid (one Tensor stacking the coordinates)."""

    def __getitem__(self, key):
        many, ranges = _grid_ranges(key)
        if not many:
            return out(ranges[0])
        return out(jnp.stack(jnp.meshgrid(*ranges, indexing="ij")))


class _OGrid:
    """``ogrid[0:3, 0:2]``: an open mesh-grid (a list of broadcastable Tensors)."""

    def __getitem__(self, key):
        many, ranges = _grid_ranges(key)
        if not many:
            return out(ranges[0])
        return out(list(jnp.meshgrid(*ranges, indexing="ij", sparse=True)))


mgrid = _MGrid()
ogrid = _OGrid()


def ix_(*args):
    """Open-mesh index arrays from 1-D sequences (a tuple of Tensors).

    Examples:
        >>> import cellax.numpy as mnp
        >>> a, b = mnp.ix_(mnp.array([0, 1]), mnp.array([2, 3, 4]))
        >>> a.shape, b.shape
        ((2, 1), (1, 3))
    """
    arrays = [asjax(a, "ix_", "args") for a in args]
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"For 'ix_', every input must be 1-D, but got shape {a.shape}.")
    return out(tuple(jnp.ix_(*arrays)))


def indices(dimensions, dtype=np.int32, sparse=False):
    """The index grid of an array of shape ``dimensions`` (a list of Tensors, Int32).

    Differences from MindSpore: none; like MindSpore 2.10 the result is a list of Tensors
    (NumPy returns one stacked array).

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.indices((2, 3))
        >>> print(rows)
        [[0 0 0]
         [1 1 1]]
    """
    shape = shape_arg("indices", dimensions, "dimensions")
    grids = jnp.indices(shape, dtype=np_dtype(dtype, "indices"), sparse=sparse)
    return out(list(grids))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D ``x``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.vander(mnp.array([1, 2]), 3))
        [[1 1 1]
         [4 2 1]]
    """
    a = asjax(x, "vander", "x")
    if a.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got {a.ndim}-D.")
    n = None if N is None else check_int("vander", "N", N, 0)
    return out(jnp.vander(a, n, increasing=increasing))


def _window(api, fn, M):
    m = check_int(api, "M", M)
    return out(fn(max(m, 0)).astype(jnp.float32))


def hamming(M):
    """The Hamming window of ``M`` points (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.hamming(4).shape
        (4,)
    """
    return _window("hamming", jnp.hamming, M)


def hanning(M):
    """The Hann window of ``M`` points (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.hanning(4).shape
        (4,)
    """
    return _window("hanning", jnp.hanning, M)


def bartlett(M):
    """The Bartlett (triangular) window of ``M`` points (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.bartlett(4).shape
        (4,)
    """
    return _window("bartlett", jnp.bartlett, M)


def blackman(M):
    """The Blackman window of ``M`` points (Float32).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.blackman(4).shape
        (4,)
    """
    return _window("blackman", jnp.blackman, M)


_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum")
_PAD_MODES += ("reflect", "symmetric", "wrap", "empty")


def pad(
    arr,
    pad_width,
    mode="constant",
    stat_length=None,
    constant_values=0,
    end_values=0,
    reflect_type="even",
    **kwargs,
):
    """Pads ``arr`` by ``pad_width`` with one of NumPy's modes.

    Args:
        arr (Union[Tensor, list, tuple]): The input.
        pad_width (Union[int, tuple]): Widths ``((before, after), ...)`` per axis, or one pair
            or one int for all axes.
        mode (str): 'constant', 'edge', 'linear_ramp', 'maximum', 'mean', 'median',
            'minimum', 'reflect', 'symmetric', 'wrap' or 'empty'. Default: ``'constant'``.
        stat_length (Union[int, tuple], optional): Values used by the statistic modes.
        constant_values (Union[int, float, tuple]): Fill for 'constant'. Default: ``0``.
        end_values (Union[int, float, tuple]): End values for 'linear_ramp'. Default: ``0``.
        reflect_type (str): 'even' or 'odd' for 'reflect'/'symmetric'. Default: ``'even'``.

    Returns:
        Tensor of ``arr``'s dtype.

    Raises:
        ValueError: If ``mode`` is not supported.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.pad(mnp.array([1., 2.]), 1))
        [0. 1. 2. 0.]
    """
    x = asjax(arr, "pad", "arr")
    if callable(mode) or mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {_PAD_MODES}, but got {mode!r}.")
    options = {}
    if mode == "constant":
        options["constant_values"] = constant_values
    elif mode == "linear_ramp":
        options["end_values"] = end_values
    elif mode in ("maximum", "mean", "median", "minimum"):
        options["stat_length"] = stat_length
    elif mode in ("reflect", "symmetric"):
        options["reflect_type"] = reflect_type
    return out(jnp.pad(x, pad_width, mode=mode, **options).astype(x.dtype))


def _shape_from_args(api, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return shape_arg(api, shape)


def rand(*shape, dtype=np.float32):
    """Uniform samples in ``[0, 1)`` (Float32 by default), from cellax's global seed.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.rand(2, 3).shape
        (2, 3)
    """
    target = np_dtype(dtype, "rand")
    if target.kind != "f":
        raise TypeError(f"For 'rand', 'dtype' must be a float type, but got {dtype}.")
    return ops.rand(*_shape_from_args("rand", shape), dtype=dtype)


def randn(*shape, dtype=np.float32):
    """Standard normal samples (Float32 by default), from cellax's global seed.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.randn((2, 3)).shape
        (2, 3)
    """
    target = np_dtype(dtype, "randn")
    if target.kind != "f":
        raise TypeError(f"For 'randn', 'dtype' must be a float type, but got {dtype}.")
    return ops.randn(*_shape_from_args("randn", shape), dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=np.int32):
    """Random integers in ``[minval, maxval)`` (``[0, minval)`` if ``maxval`` is None), Int32.

    Raises:
        ValueError: If ``maxval <= minval``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> x = mnp.randint(1, 10, (2, 3))
        >>> print(x.shape, x.dtype)
        (2, 3) Int32
    """
    low = check_int("randint", "minval", minval)
    if maxval is None:
        low, high = 0, low
    else:
        high = check_int("randint", "maxval", maxval)
    if high <= low:
        raise ValueError(
            f"For 'randint', 'maxval' must be greater than 'minval', but got minval={low}, "
            f"maxval={high}."
        )
    size = (1,) if shape is None else shape_arg("randint", shape)
    result = ops.randint(low, high, size)
    return wrap(cast(result._value, dtype, "randint"))
