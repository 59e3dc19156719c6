"""Helpers shared by the op families: unwrap inputs, wrap outputs, validate arguments."""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import numpy as np

from ... import _core, _dtype
from ..._core import _seams
from ..._errors import check_int_arg as check_int_arg
from ..._limits import check_alloc
from ..._tensor import Tensor, as_array, wrap
from ..._transforms import raise_if

__all__ = [
    "arr",
    "wrap",
    "to_float",
    "check_axis",
    "check_real",
    "check_broadcast",
    "np_dtype",
]

_SCALARS = (bool, int, float, complex)


MSG_EAGER_ONLY = (
    "For '{api}', the output shape depends on the values of the input, so it can only run "
    "eagerly, but the input is traced (inside cellax.jit, GRAPH_MODE, jax.jit or a grad "
    "transform). {hint}"
)


def arr(
    x,
    api: str | None = None,
    name: str = "input",
    *,
    keep_scalars: bool = True,
    tensor=False,
    real=False,
):
    """The one way an op or a Cell unwraps an input: the jax array of a Tensor/Parameter,
    NumPy/list data converted, Python scalars kept (weakly typed, so they promote as
    MindSpore's scalars do) or, with ``keep_scalars=False``, made arrays of MindSpore's default
    dtypes; with ``tensor`` (an input MindSpore requires to be a Tensor) a Python number is
    refused, with ``real`` (a bound, weight or slope MindSpore takes as int or float) a complex
    one or a tuple or list. Anything else is a TypeError naming the API the user called (see
    :func:`_caller`), else ``api`` and ``name``."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (jax.Array, jax.core.Tracer)):
        return x
    if real and isinstance(x, (complex, np.complexfloating, tuple, list)):
        api, name = _caller(x, api, name)
        raise TypeError(
            f"For '{api}', '{name}' must be a Tensor, an int or a float, but got "
            f"{type(x).__name__}: {x!r}."
        )
    if isinstance(x, _SCALARS) and not tensor:
        return x if keep_scalars else as_array(x)
    if x is None or isinstance(x, _SCALARS + (str, bytes, dict, set)):
        api, name = _caller(x, api, name)
        kinds = "a Tensor" if tensor else "a Tensor, a NumPy array or a number"
        raise TypeError(
            f"For '{api}', '{name}' must be {kinds}, but got {type(x).__name__}: {x!r}."
        )
    try:
        return as_array(x, api=api or "Tensor", name=name)
    except TypeError:
        api, name = _caller(x, api, name)
        return as_array(x, api=api, name=name)  # the same error, naming the caller


def _caller(value, api: str | None, name: str) -> tuple:
    """(API, argument name) to blame for a bad ``value``: the outermost public cellax op (of
    ``cellax.ops`` or ``cellax.mint``) or built-in Cell (``construct``) on the stack that received ``value`` itself as an argument,
    before the user's own code; else ``api`` and ``name`` (or the nearest public op)."""
    found = None
    nearest = None
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("cellax."):
            if found or nearest or not module.startswith(("jax", "contextlib", "functools")):
                break
            frame = frame.f_back
            continue
        code = frame.f_code
        own = frame.f_locals.get("self")
        if code.co_name == "construct" and own is not None and module.startswith("cellax.nn"):
            public = type(own).__name__
        elif (
            module.startswith(("cellax.ops", "cellax.mint"))
            and not code.co_name.startswith(("_", "<"))
            and "<locals>" not in code.co_qualname  # a table's closure: named by its ``api``
        ):
            public = code.co_name
        else:
            public = None
        if public is not None:
            args = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            names = [k for k in args if k != "self" and frame.f_locals.get(k) is value]
            if names:
                found = (public, name if public == api and name in names else names[0])
            elif nearest is None:
                nearest = (public, "input")
        frame = frame.f_back
    if found is not None:
        return found
    if api is not None:
        return api, name
    return nearest or ("Tensor", "input_data")


_REALS = (int, float, np.integer, np.floating)


def check_real(api: str, name: str, value, *, optional: bool = False):
    """A real scalar argument (a bound, a slope, a threshold, a fill value): an int or a float
    (NumPy's too) or a Tensor (its array); None when ``optional``. A complex number, a str, a
    sequence or None otherwise is a TypeError naming ``api`` and ``name``: MindSpore refuses
    them where JAX would compute with them or fail with its own text."""
    if value is None and optional:
        return None
    if isinstance(value, (Tensor, jax.Array, jax.core.Tracer)):
        return arr(value, api, name)
    if isinstance(value, _REALS):
        return value
    raise TypeError(
        f"For '{api}', '{name}' must be an int or a float, but got {type(value).__name__}: "
        f"{value!r}."
    )


def to_float(x):
    """Integer/bool arrays become float32 (MindSpore's result type for float-only math)."""
    if _dtype.is_integer_like(x.dtype):
        return x.astype(jnp.float32)
    return x


def is_float(x) -> bool:
    return _dtype.is_inexact(x.dtype)


def np_dtype(dtype):
    return None if dtype is None else _dtype.to_dtype(dtype).np_dtype


def check_axis(api: str, axis: int, ndim: int, name: str = "axis", error=ValueError) -> int:
    """``axis`` normalised into ``[0, ndim)`` (a 0-D input takes 0 or -1); an axis out of range
    raises ``error`` (mint's torch-style ops raise IndexError, as MindSpore's do)."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{api}', '{name}' must be an int, but got {axis!r}.")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise error(
            f"For '{api}', '{name}' must be in range [{-max(ndim, 1)}, {max(ndim, 1)}), "
            f"but got {axis}."
        )
    return int(axis) % max(ndim, 1)


def check_axes(api: str, axis, ndim: int, name: str = "axis", repeated=ValueError):
    """None/()/[] -> None (all axes); an int or a sequence of ints -> normalised tuple. A 0-D
    input has no axis to name, but MindSpore's reductions take 0 or -1 there and return it
    unchanged: those give ``()`` (reduce nothing). An axis named twice raises ``repeated``
    (MindSpore's sum/mean/max... reductions raise RuntimeError, var/std and flip ValueError)."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = static_value(api, name, axis).tolist()
    if isinstance(axis, (list, tuple)):
        if len(axis) == 0:
            return None
        axes = tuple(check_axis(api, a, ndim, name) for a in axis)
        if len(set(axes)) != len(axes):
            raise repeated(f"For '{api}', '{name}' must not repeat an axis, but got {axis}.")
        return axes if ndim else ()
    axis = check_axis(api, axis, ndim, name)
    return (axis,) if ndim else ()


def check_float_input(api: str, x, name: str = "input"):
    if not is_float(x):
        raise TypeError(
            f"For '{api}', '{name}' must be a floating-point Tensor, but got dtype "
            f"{_dtype.from_numpy_dtype(x.dtype)}."
        )
    return x


def check_eager(api: str, *values, hint: str = "") -> None:
    """Raise when an eager-only op (output shape depends on values) receives a tracer."""
    for value in values:
        if isinstance(value, jax.core.Tracer):
            raise RuntimeError(MSG_EAGER_ONLY.format(api=api, hint=hint))


def check_index_range(
    api: str, name: str, index, size: int, error=RuntimeError, negative: bool = True, skip=None
) -> None:
    """Eagerly, raise ``error`` when an integer index falls outside ``[-size, size)`` (``[0,
    size)`` without ``negative``), as MindSpore CPU does; ``skip`` is a value ignored (e.g. a
    loss's ignore_index). Under jit the values are unknown: JAX clamps or drops them instead,
    unless the function was compiled with ``jit(check_indices=True)`` (see :func:`checked`)."""
    low = -size if negative else 0
    if isinstance(index, jax.core.Tracer):
        if checked():
            values = jnp.asarray(index)
            outside = (values < low) | (values >= size)
            if skip is not None:
                outside = outside & (values != skip)
            _record(api, name, jnp.any(outside), error, f"the range [{low}, {size})")
        return
    if not np.size(index):
        return
    values = np.asarray(index)
    if skip is not None:
        values = values[values != skip]
    bad = values[(values < low) | (values >= size)]
    if bad.size:
        raise error(
            f"For '{api}', '{name}' must be in the range [{low}, {size}), but got {int(bad.flat[0])}."
        )


def check_nd_index_range(api: str, name: str, index, shape, error=RuntimeError) -> None:
    """:func:`check_index_range` for indices whose last dimension addresses ``shape``."""
    if isinstance(index, jax.core.Tracer):
        if checked():
            values = jnp.asarray(index)
            bounds = jnp.asarray(shape[: values.shape[-1]])
            outside = jnp.any((values < -bounds) | (values >= bounds))
            _record(api, name, outside, error, f"the shape {tuple(shape)}")
        return
    if not np.size(index):
        return
    values = np.asarray(index)
    for axis in range(values.shape[-1]):
        column = values[..., axis]
        bad = column[(column < -shape[axis]) | (column >= shape[axis])]
        if bad.size:
            raise error(
                f"For '{api}', '{name}' must address dimension {axis} (size {shape[axis]}) "
                f"within [{-shape[axis]}, {shape[axis]}), but got {int(bad.flat[0])}."
            )


def shape_tuple(api: str, shape, name: str = "shape") -> tuple:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, Tensor):
        return tuple(int(d) for d in static_value(api, name, shape).reshape(-1))
    try:  # ints only: MindSpore refuses a float size rather than truncating it
        if isinstance(shape, (str, bytes, dict, set)) or not all(map(_is_int, shape)):
            raise TypeError
        return tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise TypeError(
            f"For '{api}', '{name}' must be an int or a tuple of ints, but got {shape!r}."
        ) from None


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_ints(api: str, name: str, value, *, scalar: bool = True, tensor: bool = False):
    """``value`` as an int (when ``scalar``) or a tuple of ints (from a tuple or list; from an
    integer Tensor when ``tensor``); TypeError naming ``api`` and ``name`` otherwise."""
    if scalar and _is_int(value):
        return int(value)
    if tensor and isinstance(value, Tensor) and np.dtype(value._value.dtype).kind in "iu":
        values = static_value(api, name, value)
        return int(values) if values.ndim == 0 and scalar else tuple(values.reshape(-1).tolist())
    if isinstance(value, (tuple, list)) and all(_is_int(v) for v in value):
        return tuple(int(v) for v in value)
    kinds = ("an int, " if scalar else "") + "a tuple or list of ints"
    kinds += " or an integer Tensor" if tensor else ""
    raise TypeError(f"For '{api}', '{name}' must be {kinds}, but got {value!r}.")


def check_broadcast(api: str, **arrays) -> tuple:
    """The broadcast shape of the named arrays (or scalars); a ValueError naming ``api`` and
    each argument's shape when they cannot be broadcast together (JAX's own text otherwise)."""
    shapes = {name: tuple(np.shape(value)) for name, value in arrays.items()}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = ", ".join(f"'{name}' {shape}" for name, shape in shapes.items())
        raise ValueError(
            f"For '{api}', the shapes of {listed} can not be broadcast together."
        ) from None


def check_broadcast_to(api: str, name: str, value, shape, target: str = "input"):
    """``value`` (an array or a scalar), after checking that it broadcasts to ``shape`` (the
    shape of ``target``) without changing it: a weight may not enlarge the result."""
    try:
        fits = np.broadcast_shapes(np.shape(value), tuple(shape)) == tuple(shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"For '{api}', the shape of '{name}' must broadcast to the shape of '{target}' "
            f"{tuple(shape)}, but got {tuple(np.shape(value))}."
        )
    return value


def check_window_fits(
    api: str, sizes, pads, kernel, dilation, name: str = "input", error=ValueError
) -> None:
    """``error`` (ValueError; RuntimeError for MindSpore's average pools) naming ``api`` when a
    (dilated) window is larger than the padded spatial ``sizes``: MindSpore refuses it, where
    JAX would return an empty output."""
    padded = tuple(size + lo + hi for size, (lo, hi) in zip(sizes, pads))
    extent = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation))
    if any(p < e for p, e in zip(padded, extent)):
        raise error(
            f"For '{api}', '{name}' must be at least as large as the (dilated) kernel {extent} "
            f"in its spatial dimensions after padding, but got {padded}. Pad the input or use "
            f"a smaller kernel."
        )


def alloc_shape(api: str, shape, name: str = "shape", dtype=None) -> tuple:
    """``shape_tuple`` for a shape about to be allocated: no negative dimension, and a size
    that int64 can count and the device can hold (ValueError / MemoryError naming ``api``)."""
    shape = shape_tuple(api, shape, name)
    itemsize = np.dtype(dtype).itemsize if dtype is not None else 1
    check_alloc(api, name, shape, itemsize)
    return shape


def name_op(fn, name: str, doc: str):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def check_rank(api: str, x, rank: int, name: str = "input"):
    """Raise ValueError naming ``api`` unless the array ``x`` has exactly ``rank`` dimensions."""
    if x.ndim != rank:
        raise ValueError(f"For '{api}', '{name}' must be {rank}-D, but got shape {tuple(x.shape)}.")
    return x


def check_min_rank(api: str, x, rank: int = 1, name: str = "input", error=ValueError):
    """Raise ``error`` naming ``api`` when the array ``x`` has fewer than ``rank`` dimensions."""
    if x.ndim < rank:
        raise error(
            f"For '{api}', '{name}' must have at least {rank} dimension(s), but got a "
            f"{x.ndim}-d Tensor of shape {tuple(x.shape)}."
        )
    return x


def checked() -> bool:
    """Whether the trace being built is that of ``jit(check_indices=True)``."""
    return bool(getattr(_core.LOCAL.compiling, "check_indices", False)) and (
        _core.current_frame() is not None
    )


def _record(api: str, name: str, outside, error, where: str) -> None:
    """Raise ``error`` after the compiled run when the traced ``outside`` holds (nothing of
    the run is committed): the checked mode of ``jit(check_indices=True)``."""
    raise_if(
        outside,
        error,
        f"For '{api}', '{name}' must be within {where}, but an index outside it was found "
        f"while running the compiled function (jit check_indices=True); nothing was committed.",
    )


_seams.TRACED_INDEX_CHECK.fill(check_index_range)  # Tensor[Tensor] under jit(check_indices=True)


MSG_STATIC = (
    "For '{api}', '{name}' fixes a shape, an axis or a count, so it must be known while "
    "compiling, but it is a Tensor traced inside cellax.jit, GRAPH_MODE or a grad transform. "
    "Pass it as a Python int or tuple (a compile-time constant), or take it from a static "
    "shape (x.shape) instead of a Tensor value."
)


def static_value(api: str, name: str, tensor):
    """The NumPy value of ``tensor``, an argument that must be a compile-time constant."""
    value = tensor._value
    if isinstance(value, jax.core.Tracer) and _core.concrete(value) is None:
        raise RuntimeError(MSG_STATIC.format(api=api, name=name))
    return tensor.asnumpy()
