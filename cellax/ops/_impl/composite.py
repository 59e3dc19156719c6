"""MindSpore's composite helpers: ``MultitypeFuncGraph``, ``HyperMap``, ``Map``, ``partial``,
``clip_by_global_norm``, ``tuple_to_array``, ``mixed_precision_cast``; ``ReduceOp`` and
``AllReduce`` are re-exported from ``communication`` (MindSpore lists them here too)."""

from __future__ import annotations

import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._tensor import Tensor
from .communication import AllReduce, ReduceOp
from .primitive import Primitive
from .utils import arr, wrap

__all__ = [
    "MultitypeFuncGraph",
    "HyperMap",
    "Map",
    "partial",
    "Partial",
    "clip_by_global_norm",
    "tuple_to_array",
    "mixed_precision_cast",
    "ReduceOp",
    "AllReduce",
    "DataType",
]

partial = functools.partial


class Partial(Primitive):
    """``mindspore.ops.Partial``: ``Partial()(fn, *args)`` is ``fn`` with its first arguments
    bound, as :func:`partial` (``functools.partial``).

    See https://www.mindspore.cn/docs/en/r2.7.0/api_python/ops/mindspore.ops.Partial.html

    Examples:
        >>> import cellax as ms
        >>> add_one = ms.ops.Partial()(ms.ops.add, ms.Tensor(1.0))
        >>> print(add_one(ms.Tensor(2.0)))
        3.0
    """

    def __init__(self):
        Primitive.__init__(self, "Partial")

    def __call__(self, fn, *args):
        return functools.partial(fn, *args)


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, jax.Array))


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, Tensor)


_TYPE_CHECKS = {
    "Tensor": _is_tensor,
    "Number": _is_number,
    "Int": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "Float": lambda x: isinstance(x, float),
    "Bool": lambda x: isinstance(x, bool),
    "String": lambda x: isinstance(x, str),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dict": lambda x: isinstance(x, dict),
    "None": lambda x: x is None,
    "Function": callable,
    "Slice": lambda x: isinstance(x, slice),
    "Ellipsis": lambda x: x is Ellipsis,
    "TypeType": lambda x: isinstance(x, (type, _dtype.Type)),
}


def _type_check(name: str):
    check = _TYPE_CHECKS.get(name)
    if check is not None:
        return check
    # Sparse and map tensors (RowTensor, COOTensor, CSRTensor, MapTensor) match by class name:
    # they live in higher layers (cellax.common) than ops.
    return lambda x: any(c.__name__ == name for c in type(x).__mro__)


class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments (``mindspore.ops.MultitypeFuncGraph``).

    Register implementations with ``@fn.register("Tensor", "Number")``; a call runs the first
    registration whose type names all match its arguments. Type names: ``"Tensor"``,
    ``"Number"``, ``"Int"``, ``"Float"``, ``"Bool"``, ``"String"``, ``"Tuple"``, ``"List"``,
    ``"Dict"``, ``"None"``, ``"Function"``, and sparse-tensor class names such as
    ``"RowTensor"``.

    Args:
        name (str): The name, used in error messages.
        read_value (bool): Accepted for compatibility. Default: ``False``.
        doc_url (str): Accepted for compatibility. Default: ``""``.

    Raises:
        ValueError: If no registration matches the arguments.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> add = ops.MultitypeFuncGraph("add")
        >>> @add.register("Number", "Number")
        ... def _(x, y):
        ...     return x + y
        >>> @add.register("Tensor", "Tensor")
        ... def _(x, y):
        ...     return ops.add(x, y)
        >>> add(1, 2), add(ms.Tensor([1.0]), ms.Tensor([2.0]))
        (3, Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00]))
    """

    def __init__(self, name, read_value=False, doc_url=""):
        self.name = name
        self.entries: list = []

    def register(self, *type_names):
        """Decorator registering an implementation for the given argument type names."""
        checks = tuple(_type_check(t) for t in type_names)

        def deco(fn):
            self.entries.append((type_names, checks, fn))
            return fn

        return deco

    def __call__(self, *args):
        for _, checks, fn in self.entries:
            if len(checks) == len(args) and all(c(a) for c, a in zip(checks, args)):
                return fn(*args)
        sigs = [names for names, _, _ in self.entries]
        got = tuple(type(a).__name__ for a in args)
        raise ValueError(
            f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs): {sigs}, "
            f"and (types of args): {got}. Register an implementation for these types."
        )


def _hyper_map(fn, args):
    if args and isinstance(args[0], (tuple, list)):
        lengths = {len(a) for a in args if isinstance(a, (tuple, list))}
        if len(lengths) != 1 or not all(isinstance(a, (tuple, list)) for a in args):
            raise ValueError(
                f"For 'HyperMap', the sequences must all have the same length, but got lengths "
                f"{[len(a) if isinstance(a, (tuple, list)) else type(a).__name__ for a in args]}."
            )
        return tuple(_hyper_map(fn, items) for items in zip(*args))
    return fn(*args)


class HyperMap:
    """Apply an operation to every leaf of nested tuples/lists (``mindspore.ops.HyperMap``).

    Args:
        ops (callable): The operation. Default: ``None`` (the first call argument is it).
        reduce_event (bool): Accepted for compatibility. Default: ``False``.

    Inputs:
        - **args** (tuple[sequence]) - Sequences of equal structure; leaves are passed to
          ``ops`` together. Sequences come back as tuples.

    Examples:
        >>> from cellax import ops
        >>> ops.HyperMap(lambda a, b: a * b)((1, [2, 3]), (4, [5, 6]))
        (4, (10, 18))
    """

    def __init__(self, ops=None, reduce_event=False):
        self.ops = ops

    def __call__(self, *args):
        fn, args = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return _hyper_map(fn, args)


class Map:
    """Apply an operation to the elements of sequences, one level deep (``mindspore.ops.Map``).

    Args:
        ops (callable): The operation. Default: ``None`` (the first call argument is it).
        reduce_event (bool): Accepted for compatibility. Default: ``False``.

    Examples:
        >>> from cellax import ops
        >>> ops.Map()(lambda a, b: a + b, (1, 2), (3, 4))
        (4, 6)
    """

    def __init__(self, ops=None, reduce_event=False):
        self.ops = ops

    def __call__(self, *args):
        fn, args = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return tuple(fn(*items) for items in zip(*args))


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale a tuple of Tensors so that their global L2 norm is at most ``clip_norm``.

    Args:
        x (Union(tuple[Tensor], list[Tensor])): The Tensors.
        clip_norm (Union(float, int)): The maximum global norm. Default: ``1.0``.
        use_norm (None): Must be ``None``. Default: ``None``.

    Returns:
        tuple[Tensor], ``x[i] * clip_norm / max(global_norm, clip_norm)``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> out = ops.clip_by_global_norm((ms.Tensor([3.0, 4.0]), ms.Tensor([12.0])), 1.0)
        >>> print(out[0].asnumpy().round(4), out[1].asnumpy().round(4))
        [0.2308 0.3077] [0.9231]
    """
    if use_norm is not None:
        raise ValueError(
            f"For 'clip_by_global_norm', 'use_norm' must be None, but got {use_norm!r}."
        )
    if not isinstance(x, (tuple, list)):
        raise TypeError(
            f"For 'clip_by_global_norm', 'x' must be a tuple or list of Tensors, "
            f"but got {type(x).__name__}."
        )
    values = [arr(t, "clip_by_global_norm", "x") for t in x]
    sq = sum(jnp.sum(jnp.square(v.astype(jnp.float32))) for v in values)
    norm = jnp.sqrt(sq)
    scale = clip_norm / jnp.maximum(norm, clip_norm)
    return tuple(wrap((v * scale).astype(v.dtype)) for v in values)


def tuple_to_array(input_x):
    """A Tensor from a tuple of numbers: int32 for integers, float32 for floats.

    Examples:
        >>> from cellax import ops
        >>> ops.tuple_to_array((1, 2, 3))
        Tensor(shape=[3], dtype=Int32, value= [1, 2, 3])
    """
    if not isinstance(input_x, (tuple, list)):
        raise TypeError(
            f"For 'tuple_to_array', 'input_x' must be a tuple, but got {type(input_x).__name__}."
        )
    if not all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in input_x):
        raise TypeError(
            f"For 'tuple_to_array', every element of 'input_x' must be an int or a float, but "
            f"got {input_x!r}."
        )
    is_int = all(isinstance(v, (int, np.integer)) for v in input_x)
    return wrap(jnp.asarray(input_x, dtype=jnp.int32 if is_int else jnp.float32))


def mixed_precision_cast(dst_type, input_x):
    """Cast every floating-point Tensor in ``input_x`` (a Tensor or nested sequence) to
    ``dst_type``; other values pass through.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> out = ops.mixed_precision_cast(ms.float16, (ms.Tensor([1.0]), 3))
        >>> out[0].dtype, out[1]
        (cellax.float16, 3)
    """
    if not isinstance(dst_type, _dtype.Type):
        raise TypeError(
            f"For 'mixed_precision_cast', 'dst_type' must be a cellax dtype, but got {dst_type!r}."
        )
    target = _dtype.to_dtype(dst_type).np_dtype

    def cast(v):
        if isinstance(v, (tuple, list)):
            return type(v)(cast(i) for i in v)
        if isinstance(v, Tensor) and _dtype.is_floating(v._value.dtype):
            return wrap(v._value.astype(target))
        return v

    return cast(input_x)


class _DataTypeMeta(type):
    _FORMATS = (
        "Default",
        "Default_Tuple",
        "Default_List",
        "5HD",
        "FracZ",
        "FracNZ",
        "C1HWNCoC0",
        "NCHW",
        "NHWC",
        "HWCN",
        "NDHWC",
        "ChannelLast",
        "None",
    )
    _TYPES = {
        "BOOL": "bool",
        "I8": "int8",
        "U8": "uint8",
        "I16": "int16",
        "U16": "uint16",
        "I32": "int32",
        "U32": "uint32",
        "I64": "int64",
        "U64": "uint64",
        "F16": "float16",
        "F32": "float32",
        "F64": "float64",
        "BF16": "bfloat16",
        "C64": "complex64",
        "C128": "complex128",
        "None": "",
    }

    def __getattr__(cls, name):
        prefix, _, fmt = name.partition("_")
        if prefix in cls._TYPES and fmt in cls._FORMATS:
            return (cls._TYPES[prefix], "DefaultFormat" if fmt == "Default" else fmt)
        raise AttributeError(f"type object 'DataType' has no attribute '{name}'")


class DataType(metaclass=_DataTypeMeta):
    """Dtype and format pairs used to register custom operators (``mindspore.ops.DataType``):
    ``DataType.F32_Default == ("float32", "DefaultFormat")``.

    Examples:
        >>> from cellax import ops
        >>> ops.DataType.F32_Default
        ('float32', 'DefaultFormat')
    """
