"""Tensor: a box around exactly one ``jax.Array`` (or tracer), registered as a pytree.

Ways in and out of JAX, without copies:
- ``cellax.Tensor(jax_array)`` wraps an array;
- ``tensor.jax`` is the wrapped array (for a Parameter, the value current in this trace).
Raw ``jnp`` functions do not take Tensors (JAX rejects ``__jax_array__`` objects); use
``tensor.jax`` or ``jax.tree.map`` (a Tensor is a pytree with the array as its only leaf).
"""

from __future__ import annotations

import operator

import jax
import jax.numpy as jnp
import numpy as np

from . import _dtype
from ._errors import MSG_TRACER_BOOL

__all__ = ["Tensor", "tensor", "unwrap", "wrap", "is_tensor"]

_PY_SCALARS = (bool, int, float, complex)


def _infer_numpy(data, api: str = "Tensor") -> np.ndarray:
    """NumPy array for Python data with MindSpore's default dtypes (int64, float32, bool)."""
    try:
        array = np.asarray(data)
    except ValueError as error:
        raise ValueError(
            f"For '{api}', 'input_data' must be a rectangular (non-ragged) nested sequence of "
            f"numbers, but got {data!r}: {error}"
        ) from None
    if array.dtype == object:
        raise TypeError(
            f"For '{api}', 'input_data' must contain numbers or Tensors, but got {data!r}."
        )
    if array.dtype.kind == "f" and not isinstance(data, (np.ndarray, np.generic)):
        array = array.astype(np.float32)
    elif array.dtype.kind == "i" and not isinstance(data, (np.ndarray, np.generic)):
        array = array.astype(np.int64)
    elif array.dtype.kind == "U":
        raise TypeError(f"For '{api}', 'input_data' must be numeric, but got strings {data!r}.")
    return array


def as_array(data, dtype=None, api: str = "Tensor"):
    """A jax.Array (or tracer) from Tensors, arrays, NumPy data or Python data."""
    if isinstance(data, Tensor):
        array = data._value
    elif isinstance(data, (jax.Array, jax.core.Tracer)):
        array = data
    elif isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in data):
        array = jnp.stack([as_array(d, api=api) for d in data])
    else:
        array = jnp.asarray(_infer_numpy(data, api))
    if dtype is not None:
        np_dtype = _dtype.to_dtype(dtype).np_dtype
        if array.dtype != np_dtype:
            array = array.astype(np_dtype)
    return array


_new = object.__new__


def wrap(array) -> Tensor:
    """Tensor around ``array`` without copying or checking (the op fast path)."""
    tensor_ = _new(Tensor)
    tensor_._value = array
    return tensor_


def unwrap(value):
    """The array inside a Tensor; anything else is returned unchanged."""
    if isinstance(value, Tensor):
        return value._value
    return value


def is_tensor(value) -> bool:
    return isinstance(value, Tensor)


def _fix_int_float(array, other):
    """MindSpore: an integer/bool Tensor combined with a Python float gives Float32."""
    if type(other) is float and array.dtype.kind in "biu":
        return array.astype(jnp.float32)
    return array


def _binary(jfn, reflected: bool = False):
    if reflected:

        def method(self, other):
            a = self._value
            if isinstance(other, Tensor):
                other = other._value
            elif type(other) is float:
                a = _fix_int_float(a, other)
            return wrap(jfn(other, a))

    else:

        def method(self, other):
            a = self._value
            if isinstance(other, Tensor):
                other = other._value
            elif type(other) is float:
                a = _fix_int_float(a, other)
            return wrap(jfn(a, other))

    return method


def _true_divide(a, b):
    a_int = getattr(a, "dtype", None) is not None and np.dtype(a.dtype).kind in "biu"
    b_int = not hasattr(b, "dtype") or np.dtype(b.dtype).kind in "biu"
    if a_int and b_int:
        a = jnp.asarray(a).astype(jnp.float32)
    return jnp.true_divide(a, b)


def _rtrue_divide(b, a):
    return _true_divide(jnp.asarray(b) if isinstance(b, (list, tuple)) else b, a)


def _index(key):
    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, tuple):
        return tuple(k._value if isinstance(k, Tensor) else k for k in key)
    if isinstance(key, list) and any(isinstance(k, Tensor) for k in key):
        return jnp.stack([unwrap(k) for k in key])
    return key


def _format_value(array: np.ndarray) -> str:
    """The 'value=' part of MindSpore's Tensor repr."""
    if array.ndim == 0:
        return " " + _scalar_str(array)
    kind = array.dtype.kind
    if kind == "f" or array.dtype == jnp.bfloat16:
        body = np.array2string(
            array.astype(np.float64) if array.dtype == jnp.bfloat16 else array,
            separator=", ",
            formatter={"float_kind": lambda v: f"{v: .8e}"},
            threshold=1000,
            max_line_width=1000,
        )
    else:
        body = np.array2string(array, separator=", ", threshold=1000, max_line_width=1000)
    return (" " if array.ndim == 1 else "\n") + body


def _scalar_str(array: np.ndarray) -> str:
    value = array.item()
    if isinstance(value, float):
        return np.format_float_positional(np.float32(value) if array.dtype.itemsize <= 4
                                          else value, trim="-")
    return str(value)


class Tensor:
    """A multi-dimensional array, MindSpore's ``mindspore.Tensor`` on a ``jax.Array``.

    Args:
        input_data (Union[Tensor, jax.Array, numpy.ndarray, list, tuple, bool, int, float]):
            The data. Python ints become Int64 and Python floats Float32, as in MindSpore.
            Default: ``None``.
        dtype (cellax.dtype): Cast the data to this type. Default: ``None`` (inferred).
        shape (Union[tuple, list, int]): With ``input_data=None``, declares a placeholder
            whose ``None`` dimensions vary (used by ``Cell.set_inputs``), or the shape to
            fill with ``init``. Default: ``None``.
        init (Initializer): Fill a Tensor of ``shape`` and ``dtype``. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1, 2, 3], ms.float32)
        >>> print(x + x)
        [2. 4. 6.]
        >>> x
        Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00,  3.00000000e+00])
        >>> ms.Tensor(x.jax * 2).asnumpy()
        array([2., 4., 6.], dtype=float32)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.Tensor.html
    """

    __slots__ = ("_value", "_spec", "_hooks")
    __array_priority__ = 100

    def __init__(
        self,
        input_data=None,
        dtype=None,
        shape=None,
        init=None,
        internal: bool = False,
        const_arg: bool = False,
        device=None,
    ) -> None:
        if input_data is None:
            if shape is None:
                if init is None:
                    raise TypeError(
                        "For 'Tensor', 'input_data' or 'shape' must be given, but both are None."
                    )
            shape = (shape,) if isinstance(shape, int) else tuple(shape or ())
            if dtype is None:
                raise TypeError("For 'Tensor', 'dtype' is required when 'input_data' is None.")
            type_ = _dtype.to_dtype(dtype)
            if init is None:
                if any(d is None or d == -1 for d in shape):
                    self._value = None
                    self._spec = (tuple(-1 if d is None else d for d in shape), type_)
                    return
                self._value = jnp.zeros(shape, type_.np_dtype)
                return
            from ._initializer import initializer

            self._value = initializer(init, shape, type_)._value
            return
        if shape is not None:
            raise ValueError("For 'Tensor', 'shape' must be None when 'input_data' is given.")
        self._value = as_array(input_data, dtype)

    # -- identity in JAX ----------------------------------------------------------------
    @property
    def jax(self) -> jax.Array:
        """The wrapped ``jax.Array`` (a tracer inside a transform), without a copy."""
        return self._value

    def __jax_array__(self):
        return self._value

    # -- MindSpore properties -------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        value = self._value
        if value is None:
            return self._spec[0]
        return tuple(value.shape)

    @property
    def dtype(self) -> _dtype.Type:
        value = self._value
        if value is None:
            return self._spec[1]
        return _dtype.from_numpy_dtype(value.dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self.dtype.np_dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple:
        return np.empty(self.shape, self.dtype.np_dtype).strides

    @property
    def T(self) -> Tensor:
        return wrap(jnp.transpose(self._value))

    @property
    def mT(self) -> Tensor:
        return wrap(jnp.swapaxes(self._value, -1, -2))

    @property
    def has_init(self) -> bool:
        return False

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None) -> Tensor:
        return self

    def dim(self) -> int:
        return self.ndim

    def numel(self) -> int:
        return self.size

    def nelement(self) -> int:
        return self.size

    def is_contiguous(self) -> bool:
        return True

    def contiguous(self) -> Tensor:
        return self

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating

    # -- conversion -----------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """A NumPy copy of the value (MindSpore returns a writable array, so do we)."""
        self._check_concrete("asnumpy")
        return np.array(self._value)

    def numpy(self) -> np.ndarray:
        return self.asnumpy()

    def __array__(self, dtype=None, copy=None):
        array = self.asnumpy()
        return array if dtype is None else array.astype(dtype)

    def item(self, index=None):
        self._check_concrete("item")
        array = np.asarray(self._value)
        if index is None:
            if array.size != 1:
                raise ValueError(
                    f"For 'Tensor.item', the Tensor must have exactly one element, "
                    f"but it has shape {self.shape}."
                )
            return array.item()
        return array.item(index)

    def tolist(self):
        return self.asnumpy().tolist()

    def astype(self, dtype, copy: bool = True) -> Tensor:
        np_dtype = _dtype.to_dtype(dtype).np_dtype
        value = self._value
        return wrap(value if value.dtype == np_dtype else value.astype(np_dtype))

    def to(self, dtype) -> Tensor:
        return self.astype(dtype)

    def float(self) -> Tensor:
        return self.astype(_dtype.float32)

    def half(self) -> Tensor:
        return self.astype(_dtype.float16)

    def double(self) -> Tensor:
        return self.astype(_dtype.float64)

    def int(self) -> Tensor:
        return self.astype(_dtype.int32)

    def long(self) -> Tensor:
        return self.astype(_dtype.int64)

    def bool(self) -> Tensor:
        return self.astype(_dtype.bool_)

    def copy(self) -> Tensor:
        return wrap(jnp.array(self._value, copy=True))

    def clone(self) -> Tensor:
        return self.copy()

    def set_dtype(self, dtype) -> Tensor:
        self._value = self.astype(dtype)._value
        return self

    def assign_value(self, value) -> Tensor:
        self._value = as_array(value)
        return self

    def reshape(self, *shape) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return wrap(jnp.reshape(self._value, shape))

    def view(self, *shape) -> Tensor:
        return self.reshape(*shape)

    @staticmethod
    def from_numpy(array: np.ndarray) -> Tensor:
        return wrap(jnp.asarray(array))

    def _check_concrete(self, api: str) -> None:
        if self._value is None:
            raise ValueError(f"For 'Tensor.{api}', the Tensor is a shape placeholder with no data.")
        if isinstance(self._value, jax.core.Tracer):
            raise RuntimeError(
                f"For 'Tensor.{api}', the Tensor is traced inside cellax.jit / GRAPH_MODE or a "
                f"grad transform and has no concrete value. Return it from the compiled "
                f"function and call {api}() outside, or use ops.print_ / jax.debug.print."
            )

    # -- Python protocol ------------------------------------------------------------------
    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            raise TypeError("For 'Tensor.__len__', len() of a 0-d Tensor is not defined.")
        return shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("For 'Tensor.__iter__', iteration over a 0-d Tensor is not defined.")
        value = self._value
        for i in range(self.shape[0]):
            yield wrap(value[i])

    def __bool__(self) -> bool:
        try:
            return bool(self._value)
        except jax.errors.TracerBoolConversionError:
            raise TypeError(MSG_TRACER_BOOL.format(api="Tensor.__bool__")) from None

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __index__(self) -> int:
        if np.dtype(self._value.dtype).kind not in "iu":
            raise TypeError(f"For 'Tensor.__index__', the Tensor must be integer, got {self.dtype}.")
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        if spec and self._value is not None and self.size == 1:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __str__(self) -> str:
        if self._value is None:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value= )"
        if isinstance(self._value, jax.core.Tracer):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        array = np.asarray(self._value)
        if array.dtype == jnp.bfloat16:
            array = array.astype(np.float32)
        return str(array)

    def __repr__(self) -> str:
        head = f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value="
        if self._value is None:
            return head + " )"
        if isinstance(self._value, jax.core.Tracer):
            return head + "<traced>)"
        return head + _format_value(np.asarray(self._value)) + ")"

    def __getitem__(self, key) -> Tensor:
        return wrap(self._value[_index(key)])

    def __setitem__(self, key, value) -> None:
        new = unwrap(value)
        current = self._value
        self._value = current.at[_index(key)].set(jnp.asarray(new, current.dtype))

    def __copy__(self):
        return wrap(self._value)

    def __deepcopy__(self, memo):
        return wrap(jnp.array(self._value, copy=True))

    def __reduce__(self):
        return (Tensor, (np.asarray(self._value),))

    # -- operators (one table below) -------------------------------------------------------
    def __neg__(self) -> Tensor:
        return wrap(jnp.negative(self._value))

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return wrap(jnp.abs(self._value))

    def __invert__(self) -> Tensor:
        return wrap(jnp.invert(self._value))

    def __truediv__(self, other) -> Tensor:
        return wrap(_true_divide(self._value, unwrap(other)))

    def __rtruediv__(self, other) -> Tensor:
        return wrap(_rtrue_divide(unwrap(other), self._value))

    def __eq__(self, other) -> Tensor:  # type: ignore[override]
        if other is None:
            return False
        return wrap(jnp.equal(self._value, unwrap(other)))

    def __ne__(self, other) -> Tensor:  # type: ignore[override]
        if other is None:
            return True
        return wrap(jnp.not_equal(self._value, unwrap(other)))

    def __iadd__(self, other):
        self._value = Tensor.__add__(self, other)._value
        return self

    def __isub__(self, other):
        self._value = Tensor.__sub__(self, other)._value
        return self

    def __imul__(self, other):
        self._value = Tensor.__mul__(self, other)._value
        return self

    def __itruediv__(self, other):
        self._value = Tensor.__truediv__(self, other)._value
        return self

    @classmethod
    def _register_methods(cls, methods: dict) -> None:
        """Attach methods implemented by higher layers (cellax.ops); called once at import."""
        for name, method in methods.items():
            if name not in cls.__dict__:
                setattr(cls, name, method)


_OPERATORS = {
    "add": jnp.add,
    "sub": jnp.subtract,
    "mul": jnp.multiply,
    "floordiv": jnp.floor_divide,
    "mod": jnp.remainder,
    "pow": jnp.power,
    "matmul": jnp.matmul,
    "and": jnp.bitwise_and,
    "or": jnp.bitwise_or,
    "xor": jnp.bitwise_xor,
    "lshift": jnp.left_shift,
    "rshift": jnp.right_shift,
}
for _name, _fn in _OPERATORS.items():
    setattr(Tensor, f"__{_name}__", _binary(_fn))
    setattr(Tensor, f"__r{_name}__", _binary(_fn, reflected=True))
for _name, _fn in {"lt": jnp.less, "le": jnp.less_equal, "gt": jnp.greater,
                   "ge": jnp.greater_equal}.items():  # fmt: skip
    setattr(Tensor, f"__{_name}__", _binary(_fn))


def _flatten(t):
    return (t._value,), None


def _unflatten(_, children):
    return wrap(children[0])


jax.tree_util.register_pytree_node(Tensor, _flatten, _unflatten)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False) -> Tensor:
    """Create a Tensor (``mindspore.tensor``), same arguments as :class:`Tensor`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.tensor([1, 2, 3]).dtype)
        Int64
    """
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg)


del operator
