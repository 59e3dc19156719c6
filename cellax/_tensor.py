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

from . import _dtype, _init_samplers
from ._cast_grad import cast_value
from ._context import BLOCKING as _BLOCKING
from ._core import concrete as _concrete
from ._core._seams import TENSOR_METHODS, UNCONVERTED_REASON
from ._parallel_state import host_array as _host_array
from ._reshape import reshape_value as _reshape_value
from ._errors import MSG_TRACER_BOOL, check_truth_value, host_item, tracer_bool_hint, user_frame
from ._tensor_format import format_value as _format_value
from ._tensor_format import str_value as _str_value
from ._tensor_index import check_index_bounds, masked_set, raise_traced_mask, traced_mask

__all__ = ["Tensor", "tensor", "unwrap", "wrap", "wrap_tree", "is_tensor"]

_PY_SCALARS = (bool, int, float, complex)


def _infer_numpy(
    data, api: str = "Tensor", narrow: bool = True, name: str = "input_data"
) -> np.ndarray:
    """NumPy array for Python data with MindSpore's default dtypes (int64, float32, bool).

    NumPy arrays and scalars keep their dtype; Python floats become float32 unless
    ``narrow`` is False (an explicit dtype follows, so convert from full precision).
    """
    if data is None or isinstance(data, (str, bytes, dict, set)):
        raise TypeError(
            f"For '{api}', '{name}' must be a Tensor, numpy.ndarray, list, tuple, bool, int, "
            f"float or complex, but got {type(data).__name__}."
        )
    try:
        array = np.asarray(data)
    except (ValueError, TypeError):
        raise TypeError(
            f"For '{api}', '{name}' must be a rectangular (non-ragged) nested sequence of "
            f"numbers, but got {data!r}."
        ) from None
    if array.dtype not in _dtype._BY_NP:  # objects, strings, records
        shown = type(data).__name__ if " at 0x" in repr(data) else repr(data)
        raise TypeError(f"For '{api}', '{name}' must contain only numbers, but got {shown}.")
    if narrow and not isinstance(data, (np.ndarray, np.generic)):
        if array.dtype.kind == "f":
            array = array.astype(np.float32)
        elif array.dtype.kind == "i":
            array = array.astype(np.int64)
    return array


def as_array(data, dtype=None, api: str = "Tensor", name: str = "input_data"):
    """A jax.Array (or tracer) from Tensors, arrays, NumPy data or Python data."""
    if isinstance(data, Tensor):
        array = data._value
    elif isinstance(data, (jax.Array, jax.core.Tracer)):
        array = data
    elif isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in data):
        array = jnp.stack([as_array(d, api=api, name=name) for d in data])
    else:
        array = jnp.asarray(_infer_numpy(data, api, narrow=dtype is None, name=name))
    if dtype is not None:
        np_dtype = _dtype.to_dtype(dtype).np_dtype
        if array.dtype != np_dtype:
            array = array.astype(np_dtype)
    return array


_new = object.__new__
_Tracer = jax.core.Tracer


def wrap(array) -> Tensor:
    """Tensor around ``array`` without copying or checking (the op fast path)."""
    tensor_ = _new(Tensor)
    tensor_._value = array
    if _BLOCKING[0] and isinstance(array, jax.Array) and not isinstance(array, _Tracer):
        array.block_until_ready()  # launch_blocking() / pynative_synchronize
    return tensor_


def unwrap(value):
    """The array inside a Tensor; anything else is returned unchanged."""
    if isinstance(value, Tensor):
        return value._value
    return value


def wrap_tree(tree):
    """Arrays in ``tree`` -> Tensors (Tensors and other leaves are kept)."""
    return jax.tree_util.tree_map(
        lambda x: wrap(x) if isinstance(x, (jax.Array, jax.core.Tracer, np.ndarray)) else x,
        tree,
        is_leaf=lambda x: isinstance(x, Tensor),
    )


def is_tensor(value) -> bool:
    return isinstance(value, Tensor)


def _fix_int_float(array, other):
    """MindSpore: an integer/bool Tensor combined with a Python float gives Float32."""
    if type(other) is float and _dtype.is_integer_like(array.dtype):
        return array.astype(jnp.float32)
    return array


def _operator_error(error: TypeError, a, b, symbol: str) -> Exception:
    """The error of a Tensor operator that JAX refused, in MindSpore's terms."""
    if "does not accept dtype" in str(error):  # the bitwise operators on float operands
        name = lambda v: f"Tensor[{_dtype.from_numpy_dtype(v.dtype)}]"  # noqa: E731
        dtypes = " and ".join(name(v) if hasattr(v, "dtype") else type(v).__name__ for v in (a, b))
        return TypeError(
            f"For 'Tensor' operator '{symbol}', the operands must be integer or bool Tensors "
            f"(or Python ints and bools), but got {dtypes}."
        )
    if "incompatible shapes" in str(error) or "broadcast" in str(error):
        return ValueError(
            f"For 'Tensor' operators, the shapes {tuple(np.shape(a))} and {tuple(np.shape(b))} "
            f"must broadcast (each dimension equal, or 1), but they do not."
        )
    bad = [v for v in (a, b) if v is None or isinstance(v, (str, bytes, dict, set))]
    if bad:
        return TypeError(
            f"For 'Tensor' operators, the operands must be Tensors or numbers, but got "
            f"{type(bad[0]).__name__}: {bad[0]!r}."
        )
    return error


def _binary(jfn, symbol: str, reflected: bool = False):
    if reflected:

        def method(self, other):
            a = self._value
            if isinstance(other, Tensor):
                other = other._value
            elif type(other) is float:
                a = _fix_int_float(a, other)
            try:
                return wrap(jfn(other, a))
            except TypeError as error:
                raise _operator_error(error, other, self._value, symbol) from None

    else:

        def method(self, other):
            a = self._value
            if isinstance(other, Tensor):
                other = other._value
            elif type(other) is float:
                a = _fix_int_float(a, other)
            try:
                return wrap(jfn(a, other))
            except TypeError as error:
                raise _operator_error(error, self._value, other, symbol) from None

    return method


def _int_like(x) -> bool:
    """True for integer/bool arrays and Python ints/bools (not floats)."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return isinstance(x, (bool, int)) or (
            isinstance(x, (list, tuple)) and _dtype.is_integer_like(np.asarray(x).dtype)
        )
    return _dtype.is_integer_like(dtype)


def _true_divide(a, b):
    """MindSpore: integer / integer gives Float32 (never Float64)."""
    if _int_like(a) and _int_like(b):
        a = jnp.asarray(a).astype(jnp.float32)
        if isinstance(b, (list, tuple)) or (hasattr(b, "dtype") and b.dtype == jnp.int64):
            b = jnp.asarray(b).astype(jnp.float32)
    elif type(a) is float and _int_like(b):
        b = jnp.asarray(b).astype(jnp.float32)
    elif type(b) is float and _int_like(a):
        a = jnp.asarray(a).astype(jnp.float32)
    return jnp.true_divide(a, b)


def _both_bool(a, b) -> bool:
    return (getattr(a, "dtype", None) == jnp.bool_ or type(a) is bool) and (
        getattr(b, "dtype", None) == jnp.bool_ or type(b) is bool
    )


def _subtract(a, b):
    if type(a) is bool and getattr(b, "dtype", None) == jnp.bool_:
        raise TypeError(
            "For 'Tensor.__rsub__', a Python bool minus a Bool Tensor is not "
            "supported, but got bool - Tensor[Bool]."
        )
    if _both_bool(a, b):  # MindSpore: Bool - Bool stays Bool
        return jnp.not_equal(a, b)
    return jnp.subtract(a, b)


def _floor_divide(a, b):
    if _both_bool(a, b):
        return jnp.floor_divide(jnp.asarray(a, jnp.int8), jnp.asarray(b, jnp.int8)).astype(bool)
    return jnp.floor_divide(a, b)


def _power(a, b):
    """``a ** b`` with MindSpore's integer rules: Bool bases promote like Int64 with Python
    ints, and integer negative exponents truncate (2 ** -1 == 0, (-1) ** -1 == -1, 0 ** -1 is
    the type's minimum)."""
    a_dtype, b_dtype = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if a_dtype == jnp.bool_ and type(b) is int:
        a = jnp.asarray(a, jnp.int64)
    elif b_dtype == jnp.bool_ and type(a) is int:
        b = jnp.asarray(b, jnp.int64)
    if not (_int_like(a) and _int_like(b)):
        return jnp.power(a, b)
    if type(b) is int and b >= 0:
        return jnp.power(a, b)
    base, exponent = jnp.asarray(a), jnp.asarray(b)
    dtype = jnp.result_type(a, b)
    result = jnp.power(base, jnp.maximum(exponent, 0)).astype(dtype)
    odd = (exponent % 2) != 0
    negative_result = jnp.where(base == 1, 1, jnp.where(base == -1, jnp.where(odd, -1, 1), 0))
    # 0 ** -n is infinite; MindSpore 2.10 CPU casts it to the type's minimum
    negative_result = jnp.where(base == 0, jnp.iinfo(dtype).min, negative_result)
    return jnp.where(exponent < 0, negative_result.astype(dtype), result)


def _index(key):
    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, tuple):
        return tuple(_index_item(k) for k in key)
    return _index_item(key)


def _index_item(k):
    if isinstance(k, Tensor):
        return k._value
    if isinstance(k, list):
        return jnp.asarray([unwrap(v) for v in k])
    if isinstance(k, (float, complex, str, bytes, dict, set)):
        raise IndexError(
            f"For 'Tensor.__getitem__', an index must be an int, slice, ellipsis, None, bool, "
            f"Tensor, list or tuple, but got {k!r} of type {type(k).__name__}."
        )
    return k


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

    JAX interop without copies: ``Tensor(jax_array)`` wraps the array itself and
    ``tensor.jax`` returns it (see docs/tensor.md); pass ``.jax`` to raw ``jnp`` functions.

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

    __slots__ = ("_value", "_spec", "_hooks", "_grad_source")
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
                raise ValueError(
                    "For 'Tensor', 'dtype' is required when 'input_data' is None (with 'shape' "
                    "and 'init'), but got dtype=None."
                )
            type_ = _dtype.to_dtype(dtype)
            if init is None:
                if any(d is None or d == -1 for d in shape):
                    self._value = None
                    self._spec = (tuple(-1 if d is None else d for d in shape), type_)
                    return
                self._value = jnp.zeros(shape, type_.np_dtype)
                return
            if isinstance(init, Tensor):
                _init_samplers.check_init_shape(init.shape, shape)
                self._value = init._value
            else:  # sampled now, printed "<uninitialized>" until init_data(), as MindSpore's
                self._value, self._spec = _init_samplers.sample(init, shape, type_), "lazy"
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
        return getattr(self, "_spec", None) == "lazy"

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None) -> Tensor:
        if self.has_init:
            self._spec = None
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
        Tensor.init_data(self)  # MindSpore initialises a lazy Tensor here
        return _host_array(_concrete(self._value))

    def numpy(self) -> np.ndarray:
        return self.asnumpy()

    def __array__(self, dtype=None, copy=None):
        array = self.asnumpy()
        return array if dtype is None else array.astype(dtype)

    def item(self, index=None):
        self._check_concrete("item")
        array = host_item(self._value)
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
        value, twin = cast_value(
            self._value, _dtype.to_dtype(dtype).np_dtype, getattr(self, "_grad_source", None)
        )
        out = wrap(value)
        if twin is not None:  # a float -> integer cast while differentiating (_cast_grad)
            out._grad_source = twin
        return out

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
        return wrap(_reshape_value("Tensor.reshape", self._value, shape))

    @staticmethod
    def from_numpy(array: np.ndarray) -> Tensor:
        return wrap(jnp.asarray(array))

    def _check_concrete(self, api: str) -> None:
        if self._value is None:
            raise ValueError(f"For 'Tensor.{api}', the Tensor is a shape placeholder with no data.")
        if isinstance(self._value, jax.core.Tracer) and _concrete(self._value) is None:
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
        check_truth_value("Tensor.__bool__", self._value.shape)
        try:
            return bool(self._value)
        except jax.errors.TracerBoolConversionError:
            message = MSG_TRACER_BOOL.format(api="Tensor.__bool__", where=user_frame())
            raise TypeError(message + tracer_bool_hint(UNCONVERTED_REASON.value)) from None

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __index__(self) -> int:
        if not _dtype.is_integer(self._value.dtype) or self.size != 1:
            raise ValueError(
                f"For 'Tensor.__index__', only an integer Tensor of one element can be used as "
                f"an index, but got a {self.dtype} Tensor of shape {self.shape}."
            )
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
        if self._value is None or self.has_init:
            return repr(self)
        value = _concrete(self._value)
        if value is None:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        return _str_value(np.asarray(value))

    def __repr__(self) -> str:
        head = f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value="
        if self.has_init:
            return head + ("\n" if self.ndim > 1 else "") + "<uninitialized>)"
        if self._value is None:
            return head + ("\n)" if len(self.shape) > 1 else " )")
        value = _concrete(self._value)
        if value is None:
            return head + "<traced>)"
        array = np.asarray(value)
        if getattr(self, "_spec", None) == "init" and array.ndim and array.dtype.kind in "biuf":
            # MindSpore prints an initializer()'s Tensor NumPy-style ("[1., 1.]").
            lead = "\n" if array.ndim > 1 else " "
            return head + lead + np.array2string(array, separator=", ") + ")"
        return head + _format_value(array) + ")"

    def __getitem__(self, key) -> Tensor:
        value = self._value
        if type(key) is int:  # fast path
            if not value.ndim or not -value.shape[0] <= key < value.shape[0]:
                check_index_bounds(value.shape, key)
            return wrap(value[key])
        raw, key = key, _index(key)
        if isinstance(key, (tuple, jax.Array, np.ndarray)):
            check_index_bounds(value.shape, key, raw)
            if traced_mask(key):
                raise_traced_mask("__getitem__")
        return wrap(value[key])

    def __setitem__(self, key, value) -> None:
        current = self._value
        key = _index(key)
        if isinstance(key, (int, tuple)):
            check_index_bounds(current.shape, key)
        new = jnp.asarray(unwrap(value)).astype(current.dtype)
        if traced_mask(key):
            self._value = masked_set(current, key, new)
            return
        self._value = current.at[key].set(new)

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
        """MindSpore's ``~`` is a logical not for every dtype (the result is Bool)."""
        return wrap(jnp.logical_not(self._value))

    def __round__(self, ndigits=None) -> Tensor:
        return wrap(jnp.round(self._value, ndigits or 0))

    def __contains__(self, item) -> bool:
        return bool(jnp.any(self._value == unwrap(item)))

    def __truediv__(self, other) -> Tensor:
        return wrap(_true_divide(self._value, unwrap(other)))

    def __rtruediv__(self, other) -> Tensor:
        return wrap(_true_divide(unwrap(other), self._value))

    def __eq__(self, other) -> Tensor:  # type: ignore[override]
        if other is None:
            return False
        return wrap(jnp.equal(self._value, unwrap(other)))

    def __ne__(self, other) -> Tensor:  # type: ignore[override]
        if other is None:
            return True
        return wrap(jnp.not_equal(self._value, unwrap(other)))

    # MindSpore's augmented assignments build a new Tensor (``y = x; x += 1`` leaves y alone).
    def __iadd__(self, other):
        return self.__add__(other)

    def __isub__(self, other):
        return self.__sub__(other)

    def __imul__(self, other):
        return self.__mul__(other)

    def __itruediv__(self, other):
        return self.__truediv__(other)

    def __ifloordiv__(self, other):
        return self.__floordiv__(other)

    def __imod__(self, other):
        return self.__mod__(other)

    @classmethod
    def _attach_methods(cls, methods: dict) -> None:
        """Attach methods implemented by higher layers (cellax.ops, through the TENSOR_METHODS
        seam) unless Tensor defines the name itself."""
        for name, method in methods.items():
            if name not in cls.__dict__:
                setattr(cls, name, method)


TENSOR_METHODS.listen(Tensor._attach_methods)


_OPERATORS = {  # name: (function, symbol)
    "add": (jnp.add, "+"),
    "sub": (_subtract, "-"),
    "mul": (jnp.multiply, "*"),
    "floordiv": (_floor_divide, "//"),
    "mod": (jnp.remainder, "%"),
    "pow": (_power, "**"),
    "matmul": (jnp.matmul, "@"),
}
for _name, (_fn, _symbol) in _OPERATORS.items():
    setattr(Tensor, f"__{_name}__", _binary(_fn, _symbol))
    setattr(Tensor, f"__r{_name}__", _binary(_fn, _symbol, reflected=True))
# Like MindSpore: bitwise operators only with the Tensor on the left.
for _name, (_fn, _symbol) in {
    "and": (jnp.bitwise_and, "&"),
    "or": (jnp.bitwise_or, "|"),
    "xor": (jnp.bitwise_xor, "^"),
    "lt": (jnp.less, "<"),
    "le": (jnp.less_equal, "<="),
    "gt": (jnp.greater, ">"),
    "ge": (jnp.greater_equal, ">="),
}.items():
    setattr(Tensor, f"__{_name}__", _binary(_fn, _symbol))


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
