"""Selection and indexing of cellax.numpy: where, take, choose, select, unique, apply_*."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import ops
from .._tensor import Tensor, wrap
from ._utils import arr as asjax
from ._utils import axis_arg, check_eager, out, shape_arg

__all__ = [
    "where",
    "take",
    "take_along_axis",
    "choose",
    "select",
    "unique",
    "argwhere",
    "intersect1d",
    "unravel_index",
    "array_str",
    "apply_along_axis",
    "apply_over_axes",
    "piecewise",
]


def where(condition, x=None, y=None):
    """Chooses ``x`` where ``condition`` is True and ``y`` elsewhere (with broadcasting).

    Args:
        condition (Union[Tensor, list, bool]): The condition.
        x (Union[Tensor, int, float, list], optional): Values where True.
        y (Union[Tensor, int, float, list], optional): Values where False.

    Returns:
        Tensor; with only ``condition``, a tuple of index Tensors (eager only).

    Raises:
        ValueError: If only one of ``x`` and ``y`` is given.

    Differences from MindSpore: ``where(condition)`` returns the indices of the nonzero
    elements as NumPy does (MindSpore 2.10 raises TypeError).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.where(mnp.array([True, False]), 1, 2.0))
        [1. 2.]
    """
    cond = asjax(condition, "where", "condition")
    if x is None and y is None:
        check_eager("where", cond)
        return out(tuple(jnp.nonzero(cond)))
    if x is None or y is None:
        raise ValueError("For 'where', 'x' and 'y' must be given together, but one is None.")
    a, b = asjax(x, "where", "x"), asjax(y, "where", "y")
    return out(jnp.where(cond.astype(jnp.bool_), a, b))


_MODES = ("raise", "wrap", "clip")


def _mode(api, mode):
    if mode not in _MODES:
        raise ValueError(f"For '{api}', 'mode' must be one of {_MODES}, but got {mode!r}.")
    if mode == "raise":
        return "clip"
    return mode


def take(a, indices, axis=None, mode="clip"):
    """Takes elements along ``axis`` (from the flattened ``a`` when None).

    Args:
        a (Tensor): The source.
        indices (Union[Tensor, list, int]): The indices.
        axis (int, optional): The axis. Default: ``None``.
        mode (str): Out-of-range indices: 'clip' or 'wrap' ('raise' is treated as 'clip',
            as in MindSpore). Default: ``'clip'``.

    Returns:
        Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.take(mnp.array([1, 2, 3]), mnp.array([0, 5])))
        [1 3]
    """
    x = asjax(a, "take", "a")
    idx = asjax(indices, "take", "indices")
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = axis_arg("take", axis, x.ndim)
    return out(jnp.take(x, idx, axis, mode=_mode("take", mode)))


def take_along_axis(arr, indices, axis):
    """Takes values at ``indices`` along ``axis`` (shapes broadcast as NumPy does).

    Examples:
        >>> import cellax.numpy as mnp
        >>> x = mnp.array([[10, 30, 20]])
        >>> print(mnp.take_along_axis(x, mnp.array([[0, 2]]), 1))
        [[10 20]]
    """
    x = asjax(arr, "take_along_axis", "arr")
    idx = asjax(indices, "take_along_axis", "indices")
    if axis is None:
        x, axis = x.reshape(-1), 0
    if idx.ndim != x.ndim:
        raise ValueError(
            f"For 'take_along_axis', 'indices' and 'arr' must have the same number of "
            f"dimensions, but got {idx.ndim} and {x.ndim}."
        )
    return out(jnp.take_along_axis(x, idx, axis_arg("take_along_axis", axis, x.ndim)))


def choose(a, choices, mode="clip"):
    """Picks, per element, from ``choices[a]`` (all broadcast together).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.choose(mnp.array([0, 1, 5]), [mnp.array([1, 2, 3]), mnp.array([4, 5, 6])]))
        [1 5 6]
    """
    idx = asjax(a, "choose", "a")
    options = [asjax(c, "choose", "choices") for c in choices]
    return out(jnp.choose(idx, options, mode=_mode("choose", mode)))


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds (``default`` if none).

    Raises:
        ValueError: If the two lists differ in length.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.select([mnp.array([True, False])], [mnp.array([1, 2])]))
        [1 0]
    """
    conds = [asjax(c, "select", "condlist").astype(jnp.bool_) for c in condlist]
    choices = [asjax(c, "select", "choicelist") for c in choicelist]
    if len(conds) != len(choices):
        raise ValueError(
            f"For 'select', 'condlist' and 'choicelist' must have the same length, but got "
            f"{len(conds)} and {len(choices)}."
        )
    dtype = jnp.result_type(*choices)
    default = asjax(default, "select", "default").astype(dtype)
    return out(jnp.select(conds, [c.astype(dtype) for c in choices], default))


def unique(x, return_inverse=False):
    """The unique elements of the flattened ``x``, in order of first appearance.

    Uses ``cellax.ops.unique``; the output shape depends on the values, so it runs eagerly
    only.

    Args:
        x (Tensor): The input.
        return_inverse (bool): Also return the indices that rebuild ``x``. Default: ``False``.

    Returns:
        Tensor, or ``(Tensor, Tensor)`` with ``return_inverse=True``.

    Raises:
        RuntimeError: If called inside a traced function.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.unique(mnp.array([3, 1, 1, 2])))
        [3 1 2]
    """
    a = asjax(x, "unique", "x")
    check_eager("unique", a)
    values, inverse = ops.unique(wrap(a.reshape(-1)))
    if return_inverse:
        return values, wrap(inverse._value.reshape(a.shape))
    return values


def argwhere(a):
    """The indices of the nonzero elements, one row per element (eager only).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.argwhere(mnp.array([1, 0, 2])))
        [[0]
         [2]]
    """
    x = asjax(a, "argwhere", "a")
    check_eager("argwhere", x)
    return ops.argwhere(wrap(x))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted common elements of two arrays (eager only).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.intersect1d(mnp.array([1, 3, 4]), mnp.array([3, 1, 2])))
        [1 3]
    """
    a, b = asjax(ar1, "intersect1d", "ar1"), asjax(ar2, "intersect1d", "ar2")
    check_eager("intersect1d", a, b)
    result = jnp.intersect1d(a, b, assume_unique=assume_unique, return_indices=return_indices)
    return out(tuple(result) if return_indices else result)


def unravel_index(indices, shape, order="C"):
    """Converts flat indices to a tuple of coordinate Tensors for ``shape``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> rows, cols = mnp.unravel_index(mnp.array([5, 7]), (2, 4))
        >>> print(rows, cols)
        [1 1] [1 3]
    """
    if order not in ("C", "F"):
        raise ValueError(f"For 'unravel_index', 'order' must be 'C' or 'F', but got {order!r}.")
    idx = asjax(indices, "unravel_index", "indices")
    dims = shape_arg("unravel_index", shape)
    if order == "F":
        return out(tuple(reversed(jnp.unravel_index(idx, dims[::-1]))))
    return out(tuple(jnp.unravel_index(idx, dims)))


def array_str(a):
    """The string of the data of ``a`` (as ``print`` shows it).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.array_str(mnp.array([1, 2]))
        '[1 2]'
    """
    x = asjax(a, "array_str", "a")
    return str(wrap(x))


def _tensor_fn(func, *args, **kwargs):
    """A function on jax arrays calling ``func`` on Tensors."""

    def run(v):
        result = func(wrap(v), *args, **kwargs)
        return result._value if isinstance(result, Tensor) else jnp.asarray(result)

    return run


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Applies ``func1d`` (Tensor -> Tensor) to 1-D slices along ``axis`` (vectorised).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.apply_along_axis(lambda v: v.sum(), 1, mnp.array([[1, 2], [3, 4]])))
        [3 7]
    """
    x = asjax(arr, "apply_along_axis", "arr")
    axis = axis_arg("apply_along_axis", axis, x.ndim)
    moved = jnp.moveaxis(x, axis, -1)
    fn = _tensor_fn(func1d, *args, **kwargs)
    for _ in range(moved.ndim - 1):
        fn = jax.vmap(fn)
    result = fn(moved)
    extra = result.ndim - (moved.ndim - 1)
    if extra > 0:
        result = jnp.moveaxis(result, list(range(-extra, 0)), list(range(axis, axis + extra)))
    return out(result)


def apply_over_axes(func, a, axes):
    """Applies ``func(a, axis)`` over each axis in turn, keeping the number of dimensions.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.apply_over_axes(mnp.sum, mnp.ones((2, 3)), [0, 1]).shape
        (1, 1)
    """
    x = wrap(asjax(a, "apply_over_axes", "a"))
    ndim = x.ndim
    for ax in (axes,) if isinstance(axes, int) else axes:
        ax = axis_arg("apply_over_axes", ax, ndim)
        result = func(x, ax)
        if not isinstance(result, Tensor):
            result = wrap(asjax(result))
        if result.ndim == x.ndim - 1:
            result = wrap(jnp.expand_dims(result._value, ax))
        elif result.ndim != x.ndim:
            raise ValueError(
                "For 'apply_over_axes', 'func' must keep or reduce by one the number of "
                f"dimensions, but got {result.ndim} from {x.ndim}."
            )
        x = result
    return x


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluates a piecewise function: ``funclist[i]`` (a callable or a constant) where
    ``condlist[i]`` holds; an extra last function is the default.

    Examples:
        >>> import cellax.numpy as mnp
        >>> x = mnp.array([-1.0, 2.0])
        >>> print(mnp.piecewise(x, [x < 0, x >= 0], [0.0, lambda v: v * 2]))
        [0. 4.]
    """
    a = asjax(x, "piecewise", "x")
    if isinstance(condlist, (Tensor, jax.Array)) or not isinstance(condlist, (list, tuple)):
        condlist = [condlist]
    conds = [asjax(c, "piecewise", "condlist").astype(jnp.bool_) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(
            f"For 'piecewise', 'funclist' must have {n} or {n + 1} entries, but got "
            f"{len(funclist)}."
        )
    result = jnp.zeros_like(a)
    if len(funclist) == n + 1:
        otherwise = ~jnp.any(jnp.stack(conds), axis=0) if conds else jnp.ones_like(a, bool)
        conds = conds + [otherwise]
    for cond, fn in zip(conds, funclist):
        if callable(fn):
            value = _tensor_fn(fn, *args, **kw)(a)
        else:
            value = asjax(fn, "piecewise", "funclist")
        result = jnp.where(cond, jnp.asarray(value).astype(a.dtype), result)
    return out(result)
