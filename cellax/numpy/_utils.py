"""Helpers of cellax.numpy: unwrap inputs with MindSpore's mnp default dtypes, wrap outputs.

``mindspore.numpy`` turns Python data into Tensors with its own defaults: ints become Int32,
floats Float32 and bools Bool (``cellax.Tensor`` makes Python ints Int64). Python scalars are
converted to such Tensors before type promotion, as MindSpore does.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._errors import check_int_arg
from .._tensor import Tensor, wrap

_PY_TYPES = {bool: np.bool_, int: np.int32, float: np.float32, complex: np.complex64}

MSG_EAGER = (
    "For '{api}', the output shape depends on the values of the input, so it can only run "
    "eagerly, but the input is traced (inside cellax.jit, GRAPH_MODE, jax.jit or a grad "
    "transform)."
)


def _from_python(x, api: str, name: str):
    try:
        data = np.asarray(x)
    except (ValueError, TypeError):
        raise TypeError(
            f"For '{api}', '{name}' must be a rectangular nested list or tuple of numbers, "
            f"but got {x!r}."
        ) from None
    kind = data.dtype.kind
    if kind == "i":
        data = data.astype(np.int32)
    elif kind == "f":
        data = data.astype(np.float32)
    elif kind == "c":
        data = data.astype(np.complex64)
    elif kind not in "bu":
        raise TypeError(
            f"For '{api}', '{name}' must be a Tensor, a list, a tuple or a number, but got {x!r}."
        )
    return jnp.asarray(data)


def arr(x, api: str = "mindspore.numpy", name: str = "x"):
    """The jax array for ``x`` (Tensor, jax array, NumPy data, or Python data with mnp defaults)."""
    if isinstance(x, Tensor):
        if x._value is None:
            raise ValueError(f"For '{api}', '{name}' is a Tensor placeholder without data.")
        return x._value
    if isinstance(x, (jax.Array, jax.core.Tracer)):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return jnp.asarray(x)
    if isinstance(x, (list, tuple)) and any(isinstance(e, (Tensor, jax.Array)) for e in x):
        return jnp.stack([arr(e, api, name) for e in x])
    if isinstance(x, (bool, int, float, complex, list, tuple)):
        return _from_python(x, api, name)
    raise TypeError(
        f"For '{api}', '{name}' must be a Tensor, a list, a tuple or a number, "
        f"but got {type(x).__name__}."
    )


def out(value):
    """Wrap jax arrays (also inside tuples and lists) as Tensors."""
    if isinstance(value, (jax.Array, jax.core.Tracer)):
        return wrap(value)
    if isinstance(value, tuple):
        return tuple(out(v) for v in value)
    if isinstance(value, list):
        return [out(v) for v in value]
    return value


def np_dtype(dtype, api: str = "mindspore.numpy"):
    """The NumPy dtype for a MindSpore dtype argument (``int`` -> int32, ``float`` -> float32)."""
    if dtype is None:
        return None
    if dtype in _PY_TYPES:
        return np.dtype(_PY_TYPES[dtype])
    try:
        return _dtype.to_dtype(dtype).np_dtype
    except TypeError:
        raise TypeError(
            f"For '{api}', 'dtype' must be a cellax dtype such as cellax.float32, but got "
            f"{dtype!r}."
        ) from None


def cast(x, dtype, api: str = "mindspore.numpy"):
    """Cast a jax array to ``dtype`` (a MindSpore dtype argument; None keeps it)."""
    target = np_dtype(dtype, api)
    if target is None or x.dtype == target:
        return x
    return x.astype(target)


def is_int(x) -> bool:
    return np.dtype(x.dtype).kind in "biu"


def to_float(x):
    """Integer and bool arrays become Float32 (mnp's result type for float-only math)."""
    return x.astype(jnp.float32) if is_int(x) else x


def check_eager(api: str, *values) -> None:
    for value in values:
        if isinstance(value, jax.core.Tracer):
            raise RuntimeError(MSG_EAGER.format(api=api))


def check_int(api: str, name: str, value, minimum=None) -> int:
    if isinstance(value, Tensor) and value.ndim == 0 and is_int(value._value):
        check_eager(api, value._value)
        value = int(value._value)
    return check_int_arg(api, name, value, minimum)


def axis_arg(api: str, axis, ndim: int, name: str = "axis"):
    """None, an int or a tuple/list of ints, normalised to non-negative ints."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        axes = tuple(axis_arg(api, a, ndim, name) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"For '{api}', '{name}' has duplicate axes: {axis}.")
        return axes
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(
            f"For '{api}', '{name}' must be an int or a tuple of ints, but got {axis!r}."
        )
    bound = max(ndim, 1)
    if not -bound <= axis < bound:
        raise ValueError(
            f"For '{api}', '{name}' must be in range [{-bound}, {bound}), but got {axis}."
        )
    return int(axis) % bound


def shape_arg(api: str, shape, name: str = "shape") -> tuple:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().reshape(-1).tolist()
    if not isinstance(shape, (list, tuple)) or not all(
        isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape
    ):
        raise TypeError(
            f"For '{api}', '{name}' must be an int or a tuple of ints, but got {shape!r}."
        )
    if any(d < 0 for d in shape):
        raise ValueError(f"For '{api}', '{name}' must not be negative, but got {shape!r}.")
    return tuple(int(d) for d in shape)


def set_doc(fn, name: str, doc: str):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn
