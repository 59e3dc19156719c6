"""Shape manipulation of cellax.numpy: reshape, transpose, stacking, splitting, tiling."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .. import ops
from .._tensor import wrap
from ._utils import arr as asjax
from ._utils import axis_arg, check_int, out, shape_arg

__all__ = [
    "reshape",
    "ravel",
    "transpose",
    "expand_dims",
    "squeeze",
    "swapaxes",
    "moveaxis",
    "rollaxis",
    "concatenate",
    "stack",
    "hstack",
    "vstack",
    "dstack",
    "column_stack",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "split",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "tile",
    "repeat",
    "roll",
    "flip",
    "fliplr",
    "flipud",
    "rot90",
    "broadcast_to",
    "broadcast_arrays",
    "append",
    "size",
]


def reshape(x, new_shape):
    """Gives ``x`` a new shape (one dimension may be -1) without changing its data.

    Args:
        x (Tensor): The input.
        new_shape (Union[int, tuple[int], list[int]]): The new shape.

    Returns:
        Tensor.

    Raises:
        ValueError: If the number of elements does not match.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.reshape(mnp.ones((2, 3)), (3, -1)).shape
        (3, 2)
    """
    a = asjax(x, "reshape", "x")
    shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    try:
        return out(jnp.reshape(a, shape))
    except (TypeError, ValueError):
        raise ValueError(
            f"For 'reshape', the shape {a.shape} cannot be reshaped to {shape}."
        ) from None


def ravel(x):
    """The flattened (1-D) Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.ravel(mnp.ones((2, 3))).shape
        (6,)
    """
    return out(jnp.ravel(asjax(x, "ravel", "x")))


def transpose(a, axes=None):
    """Permutes the dimensions (reversed when ``axes`` is None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.transpose(mnp.ones((1, 2, 3))).shape
        (3, 2, 1)
    """
    x = asjax(a, "transpose", "a")
    if axes is not None:
        axes = axis_arg("transpose", tuple(axes), x.ndim, "axes")
        if len(axes) != x.ndim:
            raise ValueError(
                f"For 'transpose', 'axes' must have {x.ndim} entries, but got {len(axes)}."
            )
    return out(jnp.transpose(x, axes))


def expand_dims(a, axis):
    """Inserts new axes of length 1 at ``axis`` (an int or a tuple of ints).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.expand_dims(mnp.ones((2, 2)), 0).shape
        (1, 2, 2)
    """
    x = asjax(a, "expand_dims", "a")
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    axes = axis_arg("expand_dims", axis, x.ndim + count)
    return out(jnp.expand_dims(x, axes))


def squeeze(a, axis=None):
    """Removes axes of length 1 (all of them, or those in ``axis``).

    Listed axes whose length is not 1 are kept, as in MindSpore 2.10 (NumPy raises).

    Raises:
        ValueError: If an axis is out of range.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.squeeze(mnp.ones((1, 2, 1))).shape
        (2,)
    """
    x = asjax(a, "squeeze", "a")
    axes = axis_arg("squeeze", axis, x.ndim)
    if axes is not None:
        # MindSpore 2.10 leaves listed axes whose length is not 1 in place.
        axes = tuple(
            ax for ax in (axes if isinstance(axes, tuple) else (axes,)) if x.shape[ax] == 1
        )
    return out(jnp.squeeze(x, axes))


def swapaxes(x, axis1, axis2):
    """Interchanges two axes.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.swapaxes(mnp.ones((1, 2, 3)), 0, 2).shape
        (3, 2, 1)
    """
    a = asjax(x, "swapaxes", "x")
    return out(
        jnp.swapaxes(
            a, axis_arg("swapaxes", axis1, a.ndim, "axis1"), axis_arg("swapaxes", axis2, a.ndim)
        )
    )


def moveaxis(a, source, destination):
    """Moves axes ``source`` to positions ``destination``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.moveaxis(mnp.ones((1, 2, 3)), 0, -1).shape
        (2, 3, 1)
    """
    x = asjax(a, "moveaxis", "a")
    src = axis_arg("moveaxis", source, x.ndim, "source")
    dst = axis_arg("moveaxis", destination, x.ndim, "destination")
    return out(jnp.moveaxis(x, src, dst))


def rollaxis(x, axis, start=0):
    """Rolls ``axis`` backwards until it lies before position ``start``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.rollaxis(mnp.ones((1, 2, 3)), 2).shape
        (3, 1, 2)
    """
    a = asjax(x, "rollaxis", "x")
    axis = axis_arg("rollaxis", axis, a.ndim)
    start = check_int("rollaxis", "start", start)
    if not -a.ndim <= start <= a.ndim:
        raise ValueError(
            f"For 'rollaxis', 'start' must be in [{-a.ndim}, {a.ndim}], but got {start}."
        )
    return out(jnp.rollaxis(a, axis, start))


def _seq(api, arrays, name="arrays"):
    if isinstance(arrays, (list, tuple)):
        return [asjax(a, api, name) for a in arrays]
    x = asjax(arrays, api, name)
    return [x[i] for i in range(x.shape[0])]


def concatenate(arrays, axis=0):
    """Joins Tensors along an existing axis (``axis=None`` flattens them first).

    Args:
        arrays (Union[Tensor, tuple[Tensor], list[Tensor]]): The Tensors.
        axis (int, optional): The axis. Default: ``0``.

    Returns:
        Tensor.

    Raises:
        ValueError: If the shapes differ outside ``axis``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.concatenate((mnp.array([1, 2]), mnp.array([3]))))
        [1 2 3]
    """
    xs = _seq("concatenate", arrays)
    if axis is None:
        return out(jnp.concatenate([x.reshape(-1) for x in xs]))
    axis = axis_arg("concatenate", axis, xs[0].ndim)
    try:
        return out(jnp.concatenate(xs, axis))
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'concatenate', {error}") from None


def stack(arrays, axis=0):
    """Joins same-shaped Tensors along a new axis.

    Raises:
        ValueError: If the shapes differ.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.stack([mnp.ones(3), mnp.zeros(3)], axis=1).shape
        (3, 2)
    """
    xs = _seq("stack", arrays)
    axis = axis_arg("stack", axis, xs[0].ndim + 1)
    if len({x.shape for x in xs}) > 1:
        raise ValueError(
            f"For 'stack', all inputs must have the same shape, but got "
            f"{[tuple(x.shape) for x in xs]}."
        )
    return out(jnp.stack(xs, axis))


def hstack(tup):
    """Stacks horizontally (along axis 1; axis 0 for 1-D inputs).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.hstack((mnp.ones((2, 1)), mnp.ones((2, 2)))).shape
        (2, 3)
    """
    return out(jnp.hstack(_seq("hstack", tup, "tup")))


def vstack(tup):
    """Stacks vertically (1-D inputs become rows).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.vstack((mnp.ones(3), mnp.ones(3))).shape
        (2, 3)
    """
    return out(jnp.vstack(_seq("vstack", tup, "tup")))


def dstack(tup):
    """Stacks along the third axis.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.dstack((mnp.ones(3), mnp.ones(3))).shape
        (1, 3, 2)
    """
    return out(jnp.dstack(_seq("dstack", tup, "tup")))


def column_stack(tup):
    """Stacks 1-D inputs as columns of a 2-D Tensor.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.column_stack((mnp.ones(3), mnp.ones(3))).shape
        (3, 2)
    """
    return out(jnp.column_stack(_seq("column_stack", tup, "tup")))


def _atleast(api, fn, arys):
    results = [fn(asjax(a, api, "arys")) for a in arys]
    return out(results[0]) if len(results) == 1 else out(results)


def atleast_1d(*arys):
    """Views with at least one dimension (one Tensor, or a list for several inputs).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.atleast_1d(mnp.array(1)).shape
        (1,)
    """
    return _atleast("atleast_1d", jnp.atleast_1d, arys)


def atleast_2d(*arys):
    """Views with at least two dimensions (one Tensor, or a list for several inputs).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.atleast_2d(mnp.array(1)).shape
        (1, 1)
    """
    return _atleast("atleast_2d", jnp.atleast_2d, arys)


def atleast_3d(*arys):
    """Views with at least three dimensions (one Tensor, or a list for several inputs).

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.atleast_3d(mnp.ones(2)).shape
        (1, 2, 1)
    """
    return _atleast("atleast_3d", jnp.atleast_3d, arys)


def _sections(api, indices_or_sections):
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
        indices_or_sections, bool
    ):
        return int(indices_or_sections)
    if isinstance(indices_or_sections, (list, tuple)):
        return [check_int(api, "indices_or_sections", i) for i in indices_or_sections]
    raise TypeError(
        f"For '{api}', 'indices_or_sections' must be an int, a list or a tuple of ints, but got "
        f"{indices_or_sections!r}."
    )


def _split(api, x, indices_or_sections, axis, even):
    a = asjax(x, api, "x")
    if a.ndim == 0:
        raise ValueError(f"For '{api}', 'x' must have at least one dimension, but got a scalar.")
    axis = axis_arg(api, axis, a.ndim)
    sections = _sections(api, indices_or_sections)
    if isinstance(sections, int):
        if sections <= 0:
            raise ValueError(
                f"For '{api}', 'indices_or_sections' must be positive, but got {sections}."
            )
        if even and a.shape[axis] % sections:
            raise ValueError(
                f"For '{api}', the dimension {a.shape[axis]} of axis {axis} cannot be split "
                f"evenly into {sections} sections."
            )
        return out(tuple(jnp.array_split(a, sections, axis)))
    return out(list(jnp.split(a, sections, axis)))


def split(x, indices_or_sections, axis=0):
    """Splits ``x`` into equal sections (an int) or at the given indices (a list).

    Args:
        x (Tensor): The input.
        indices_or_sections (Union[int, tuple[int], list[int]]): Number of equal sections, or
            the split indices along ``axis``.
        axis (int): The axis. Default: ``0``.

    Returns:
        A tuple of Tensors for an int, a list of Tensors for indices (as MindSpore 2.10).

    Raises:
        ValueError: If an int does not divide the dimension.

    Examples:
        >>> import cellax.numpy as mnp
        >>> [t.shape for t in mnp.split(mnp.arange(6), 3)]
        [(2,), (2,), (2,)]
    """
    return _split("split", x, indices_or_sections, axis, even=True)


def array_split(x, indices_or_sections, axis=0):
    """Like :func:`split`, but an int need not divide the dimension (first parts are longer).

    Examples:
        >>> import cellax.numpy as mnp
        >>> [t.shape for t in mnp.array_split(mnp.arange(5), 3)]
        [(2,), (2,), (1,)]
    """
    return _split("array_split", x, indices_or_sections, axis, even=False)


def hsplit(x, indices_or_sections):
    """Splits along axis 1 (axis 0 for 1-D input).

    Examples:
        >>> import cellax.numpy as mnp
        >>> len(mnp.hsplit(mnp.ones((2, 4)), 2))
        2
    """
    ndim = asjax(x, "hsplit", "x").ndim
    return _split("hsplit", x, indices_or_sections, 1 if ndim > 1 else 0, even=True)


def vsplit(x, indices_or_sections):
    """Splits along axis 0.

    Examples:
        >>> import cellax.numpy as mnp
        >>> len(mnp.vsplit(mnp.ones((4, 2)), 2))
        2
    """
    return _split("vsplit", x, indices_or_sections, 0, even=True)


def dsplit(x, indices_or_sections):
    """Splits along axis 2.

    Raises:
        ValueError: If ``x`` has fewer than 3 dimensions.

    Examples:
        >>> import cellax.numpy as mnp
        >>> len(mnp.dsplit(mnp.ones((1, 1, 4)), 2))
        2
    """
    if asjax(x, "dsplit", "x").ndim < 3:
        raise ValueError("For 'dsplit', 'x' must have at least 3 dimensions.")
    return _split("dsplit", x, indices_or_sections, 2, even=True)


def tile(a, reps):
    """Repeats ``a`` ``reps`` times along each axis (``cellax.ops.tile``).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.tile(mnp.array([1, 2]), 2))
        [1 2 1 2]
    """
    x = asjax(a, "tile", "a")
    reps = shape_arg("tile", reps, "reps")
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + reps
    return ops.tile(wrap(x), reps)


def repeat(a, repeats, axis=None):
    """Repeats each element ``repeats`` times (flattened when ``axis`` is None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.repeat(mnp.array([1, 2]), 2))
        [1 1 2 2]
    """
    x = asjax(a, "repeat", "a")
    if axis is not None:
        axis = axis_arg("repeat", axis, x.ndim)
    if isinstance(repeats, (list, tuple)):
        repeats = np.asarray([check_int("repeat", "repeats", r, 0) for r in repeats])
    else:
        repeats = check_int("repeat", "repeats", repeats, 0)
    return out(jnp.repeat(x, repeats, axis))


def roll(a, shift, axis=None):
    """Rolls elements along ``axis`` by ``shift`` (flattened when ``axis`` is None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.roll(mnp.array([1, 2, 3]), 1))
        [3 1 2]
    """
    x = asjax(a, "roll", "a")
    if axis is None:
        return ops.roll(wrap(x.reshape(-1)), shift, 0).reshape(x.shape)
    return ops.roll(wrap(x), shift, axis_arg("roll", axis, x.ndim))


def flip(m, axis=None):
    """Reverses the order of elements along ``axis`` (all axes when None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.flip(mnp.array([1, 2, 3])))
        [3 2 1]
    """
    x = asjax(m, "flip", "m")
    return out(jnp.flip(x, axis_arg("flip", axis, x.ndim)))


def fliplr(m):
    """Reverses the order along axis 1.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.fliplr(mnp.array([[1, 2]])))
        [[2 1]]
    """
    x = asjax(m, "fliplr", "m")
    if x.ndim < 2:
        raise ValueError(f"For 'fliplr', 'm' must be at least 2-D, but got {x.ndim}-D.")
    return out(jnp.fliplr(x))


def flipud(m):
    """Reverses the order along axis 0.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.flipud(mnp.array([1, 2])))
        [2 1]
    """
    x = asjax(m, "flipud", "m")
    if x.ndim < 1:
        raise ValueError("For 'flipud', 'm' must be at least 1-D, but got a scalar.")
    return out(jnp.flipud(x))


def rot90(a, k=1, axes=(0, 1)):
    """Rotates by 90 degrees ``k`` times in the plane ``axes``.

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.rot90(mnp.array([[1, 2], [3, 4]])))
        [[2 4]
         [1 3]]
    """
    x = asjax(a, "rot90", "a")
    if x.ndim < 2:
        raise ValueError(f"For 'rot90', 'a' must be at least 2-D, but got {x.ndim}-D.")
    axes = axis_arg("rot90", tuple(axes), x.ndim, "axes")
    if len(axes) != 2:
        raise ValueError(f"For 'rot90', 'axes' must have 2 entries, but got {axes}.")
    return out(jnp.rot90(x, check_int("rot90", "k", k), axes))


def broadcast_to(array, shape):
    """Broadcasts ``array`` to ``shape``.

    Raises:
        ValueError: If the shapes are not compatible.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.broadcast_to(mnp.array([1, 2]), (3, 2)).shape
        (3, 2)
    """
    x = asjax(array, "broadcast_to", "array")
    shape = shape_arg("broadcast_to", shape)
    try:
        return out(jnp.broadcast_to(x, shape))
    except ValueError:
        raise ValueError(
            f"For 'broadcast_to', cannot broadcast shape {x.shape} to {shape}."
        ) from None


def broadcast_arrays(*args):
    """Broadcasts the inputs against each other (a list of Tensors).

    Examples:
        >>> import cellax.numpy as mnp
        >>> [t.shape for t in mnp.broadcast_arrays(mnp.ones(2), mnp.ones((3, 1)))]
        [(3, 2), (3, 2)]
    """
    arrays = [asjax(a, "broadcast_arrays", "args") for a in args]
    try:
        return out(list(jnp.broadcast_arrays(*arrays)))
    except ValueError:
        raise ValueError(
            f"For 'broadcast_arrays', shapes {[tuple(a.shape) for a in arrays]} cannot be "
            f"broadcast together."
        ) from None


def append(arr, values, axis=None):
    """Appends ``values`` to the end of ``arr`` (both flattened when ``axis`` is None).

    Examples:
        >>> import cellax.numpy as mnp
        >>> print(mnp.append(mnp.array([1, 2]), mnp.array([3])))
        [1 2 3]
    """
    a = asjax(arr, "append", "arr")
    v = asjax(values, "append", "values")
    if axis is None:
        return out(jnp.concatenate([a.reshape(-1), v.reshape(-1)]))
    return concatenate((a, v), axis)


def size(a, axis=None):
    """The number of elements (along ``axis``), as a Python int.

    Examples:
        >>> import cellax.numpy as mnp
        >>> mnp.size(mnp.ones((2, 3)))
        6
    """
    x = asjax(a, "size", "a")
    if axis is None:
        return int(np.prod(x.shape, dtype=np.int64))
    return int(x.shape[axis_arg("size", axis, x.ndim)])
