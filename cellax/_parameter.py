"""StateTensor, Parameter, Buffer and ParameterTuple: Tensors whose value is a state slot."""

from __future__ import annotations

import itertools
import re

import jax
import jax.numpy as jnp
import numpy as np

from . import _core, _dtype
from ._errors import check_bool, check_type
from ._initializer import initializer
from ._tensor import Tensor, as_array, wrap

__all__ = ["StateTensor", "Parameter", "ParameterTuple", "Buffer"]

_AUTO_NAME = re.compile(r"Parameter#\d+")
DEFAULT_NAME = "Parameter"
# MindSpore 2.10 creates one unnamed Parameter while importing: user Parameters start at #2.
_counter = itertools.count(2)
_local = _core.LOCAL


def is_default_name(name: str) -> bool:
    """Whether ``name`` is an automatic name (the Parameter was created without one)."""
    return name == DEFAULT_NAME or _AUTO_NAME.fullmatch(name) is not None


def _slot_array(data, api: str):
    """A fresh, owned jax.Array for a slot (copied so donation never deletes a user's array).

    Python scalars follow MindSpore's Parameter rules: int -> Int32, float -> Float32.
    """
    if isinstance(data, (bool, np.bool_)):
        raise ValueError(f"For '{api}', 'default_input' can not be a bool, but got {data!r}.")
    if isinstance(data, int):
        return jnp.asarray(np.asarray(data, np.int32))
    if (
        isinstance(data, (float, np.floating))
        and np.ndim(data) == 0
        and not isinstance(data, np.ndarray)
    ):
        return jnp.asarray(np.asarray(data, np.float32))
    if isinstance(data, np.ndarray):
        return jnp.asarray(data)
    array = as_array(data, api=api)
    if isinstance(array, jax.core.Tracer):
        return array
    return jnp.array(array, copy=True)


class StateTensor(Tensor, _core.Slot):
    """A Tensor whose value is a state slot: the base of Parameter and Buffer.

    The eager value lives in ``_data``; ``_value``, the one accessor the state frame
    intercepts, reads and writes through the current frame (see ``cellax/_core/README.md``).
    Every subclass is a pytree node whose one child is the current value and which unflattens
    to a plain Tensor (``jax.tree_util`` sees a Parameter as its array).
    """

    __slots__ = ("_data", "__weakref__")

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, _flatten_state, _unflatten_state)

    @property
    def _value(self):
        frame = _local.frame
        if frame is None:
            return self._data
        return frame.read(self)

    @_value.setter
    def _value(self, value) -> None:
        _core.write(self, value)


def _flatten_state(tensor):
    return (tensor._value,), None


def _unflatten_state(_, children):
    return wrap(children[0])


jax.tree_util.register_pytree_node(StateTensor, _flatten_state, _unflatten_state)


class _DataView(Tensor):
    """``Parameter.data``: a plain Tensor sharing the Parameter's value (reads and writes)."""

    __slots__ = ("_param",)

    def __init__(self, param) -> None:  # noqa: D107
        object.__setattr__(self, "_param", param)

    @property
    def _value(self):
        return self._param._value

    @_value.setter
    def _value(self, value) -> None:
        self._param._value = value

    def set_data(self, data, slice_shape: bool = False) -> Tensor:
        """Replace the Parameter's value (``Parameter.set_data``).

        MindSpore before 2.9 returned the Parameter itself from ``Parameter.data``, so code
        written for it (mindone 0.5.0's weight initialisers: ``zeros_(module.bias.data)``)
        calls ``set_data`` on it; MindSpore 2.10's plain Tensor has no ``set_data``.
        """
        self._param.set_data(data, slice_shape)
        return self


_DataView.__name__ = _DataView.__qualname__ = "Tensor"  # type(p.data).__name__ as MindSpore


class Parameter(StateTensor):
    """A Tensor that is state of a network: trained by optimizers, saved in checkpoints.

    Reads and writes go through the state frame, so the same Parameter works eagerly, under
    ``cellax.jit`` and under ``grad`` (inside a transform its value is the traced one).

    Args:
        default_input (Union[Tensor, numpy.ndarray, int, float]): Initial value; an
            ``initializer(...)`` result works too.
        name (str): Name; a Cell renames an unnamed Parameter to its attribute path.
            Default: ``None``.
        requires_grad (bool): Whether optimizers and ``trainable_params`` include it.
            Default: ``True``.
        layerwise_parallel (bool): Accepted for compatibility. Default: ``False``.
        parallel_optimizer (bool): Accepted for compatibility. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> w = ms.Parameter(ms.Tensor(np.ones((2, 3)), ms.float32), name="w")
        >>> w
        Parameter (name=w, shape=(2, 3), dtype=Float32, requires_grad=True)
        >>> w[0] = 5.
        >>> print(w.asnumpy()[:, 0])
        [5. 1.]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.Parameter.html
    """

    __slots__ = (
        "_name",
        "_requires_grad",
        "_layerwise_parallel",
        "_parallel_optimizer",
        "_comm_fusion",
        "_cache_enable",
        "_cache_shape",
        "_key",
        "_parallel_optimizer_comm_recompute",
        "requires_aggr",
        "sliced",
        "unique",
        "is_init",
        "init_mode",
    )

    def __init__(
        self,
        default_input=None,
        name: str | None = None,
        requires_grad: bool = True,
        layerwise_parallel: bool = False,
        parallel_optimizer: bool = True,
        storage_format: str = "",
        device=None,
    ) -> None:
        if default_input is None:
            raise TypeError("For 'Parameter', 'default_input' must be given, but got None.")
        _core.store(self, _slot_array(default_input, "Parameter"))
        _core.born(self)
        if name is not None and not isinstance(name, str):
            raise ValueError(
                f"For 'Parameter', 'name' must be a str or None, but got {name!r} of type "
                f"{type(name).__name__}."
            )
        self.name = f"Parameter#{next(_counter)}" if name is None else name
        self.requires_grad = requires_grad
        self._layerwise_parallel = check_bool("Parameter", "layerwise_parallel", layerwise_parallel)
        self._parallel_optimizer = check_bool("Parameter", "parallel_optimizer", parallel_optimizer)
        # MindSpore 2.10's values on one device (its ParamInfo defaults).
        self._comm_fusion = 1
        self._cache_enable = False
        self._cache_shape: list = []
        self._key = -1
        self._parallel_optimizer_comm_recompute = False
        self.requires_aggr = True
        self.sliced = False
        self.unique = False
        self.is_init = False
        self.init_mode = None

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        check_type("Parameter", "name", value, str)
        self._name = value

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._requires_grad = check_bool("Parameter", "requires_grad", value)

    @property
    def data(self) -> Tensor:
        """The value as a Tensor that shares this Parameter's storage: reading it sees the
        current value, ``param.data[0] = 1.`` writes into the Parameter."""
        return _DataView(self)

    @property
    def inited_param(self):
        return None

    @property
    def layerwise_parallel(self) -> bool:
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value: bool) -> None:
        self._layerwise_parallel = _check_attribute_bool("layerwise_parallel", value)

    @property
    def parallel_optimizer(self) -> bool:
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value: bool) -> None:
        self._parallel_optimizer = _check_attribute_bool("parallel_optimizer", value)

    @property
    def parallel_optimizer_comm_recompute(self) -> bool:
        return self._parallel_optimizer_comm_recompute

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(
                f"For 'Parameter.parallel_optimizer_comm_recompute', the input value must be a "
                f"bool, but got {type(value).__name__}."
            )
        self._parallel_optimizer_comm_recompute = value

    @property
    def comm_fusion(self) -> int:
        """The fusion group of the Parameter's gradient communication. Default: ``1``."""
        return self._comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(
                f"For 'Parameter.comm_fusion', the input value must be int and must >= 0, but "
                f"got {value!r} with type '{type(value).__name__}'."
            )
        if value < 0:
            raise ValueError(
                f"For 'Parameter.comm_fusion', the input value must be int and must >= 0, but "
                f"got '{value}' with type 'int'."
            )
        self._comm_fusion = value

    @property
    def cache_enable(self) -> bool:
        """Whether the Parameter lives in a host cache (embedding cache); always ``False``
        unless set: cellax keeps every Parameter on its device."""
        return self._cache_enable

    @cache_enable.setter
    def cache_enable(self, value: bool) -> None:
        self._cache_enable = _check_attribute_bool("cache_enable", value)

    @property
    def cache_shape(self) -> list:
        """The shape of the cached slice as a list. Default: ``[]``."""
        return self._cache_shape

    @cache_shape.setter
    def cache_shape(self, value) -> None:
        if not isinstance(value, (tuple, list)):
            raise TypeError(
                f"For 'Parameter.cache_shape', the argument `cache_shape` must be tuple or list "
                f"type, but got {type(value).__name__}."
            )
        self._cache_shape = list(value)

    @property
    def key(self) -> int:
        """The parameter-server key. Default: ``-1`` (no parameter server)."""
        return self._key

    @key.setter
    def key(self, value: int) -> None:
        if not isinstance(value, int):
            raise TypeError(
                f"For 'Parameter.key', the argument `key` must be int type, but got "
                f"{type(value).__name__}."
            )
        self._key = int(value)

    @property
    def param_info(self) -> ParamInfo:
        """A ``ParamInfo`` view of this Parameter's attributes (reads and writes go to it)."""
        return ParamInfo(self)

    @param_info.setter
    def param_info(self, info: ParamInfo) -> None:
        if not isinstance(info, ParamInfo):
            raise TypeError(
                f"For 'Parameter.param_info', the value must be a ParamInfo (another "
                f"Parameter's 'param_info'), but got {type(info).__name__}."
            )
        for field in ParamInfo.FIELDS:
            setattr(self, field, getattr(info, field))

    def flush_from_cache(self) -> None:
        """Write a cached Parameter back to the host: nothing to do in cellax (no cache)."""

    def value(self) -> Tensor:
        """The current value as a plain Tensor."""
        return wrap(self._value)

    def set_data(self, data, slice_shape: bool = False) -> Parameter:
        """Replace the value; the new data is cast to the Parameter's dtype.

        Like MindSpore 2.10, the shape may change (outside ``jit``/``grad``); Python ints and
        floats become a Tensor of the Parameter's dtype.

        Args:
            data (Union[Tensor, int, float]): The new value (a ``jax.Array`` works too).
            slice_shape (bool): Accepted for compatibility. Default: ``False``.

        Returns:
            Parameter, this Parameter.

        Raises:
            TypeError: If ``data`` is not a Tensor, int or float, or is a float for an
                integer Parameter.
            ValueError: If the shape changes inside ``jit`` or ``grad``.

        Examples:
            >>> import cellax as ms
            >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
            >>> p.set_data(ms.Tensor([3, 4]))
            Parameter (name=p, shape=(2,), dtype=Float32, requires_grad=True)
            >>> print(p.asnumpy())
            [3. 4.]
        """
        current = self._value
        current_dtype = np.dtype(current.dtype)
        if isinstance(data, (bool, int, float)) and not isinstance(data, Tensor):
            if isinstance(data, float) and _dtype.is_integer_like(current_dtype):
                raise TypeError(
                    f"For 'Parameter.set_data', a float can not be converted implicitly to the "
                    f"dtype {self.dtype} of Parameter '{self.name}'; use set_dtype() first."
                )
            new = jnp.asarray(np.asarray(data, current_dtype))
        elif isinstance(data, Tensor):
            new = data._value
        elif isinstance(data, (jax.Array, jax.core.Tracer)):  # cellax internals (ckpt, optim)
            new = data
        else:
            raise TypeError(
                f"For 'Parameter.set_data', 'data' must be a Tensor, int or float, but got "
                f"{type(data).__name__}."
            )
        if tuple(new.shape) != tuple(current.shape) and _local.frame is not None:
            raise ValueError(
                f"For 'Parameter.set_data', the shape of Parameter '{self.name}' can not change "
                f"inside jit or grad: it is {tuple(current.shape)}, but the new data has shape "
                f"{tuple(new.shape)}."
            )
        if new.dtype != current.dtype:
            new = new.astype(current.dtype)
        elif isinstance(data, Tensor) and new is not current and not _core.is_tracer(new):
            new = jnp.array(new, copy=True)
        self._value = new
        return self

    def _check_new_value(self, value):
        return value

    def clone(self, init: str = "same") -> Parameter:
        """A new Parameter with the same name and attributes and a copy of the data."""
        if init == "same":
            data = wrap(self._value)
        else:
            data = initializer(init, self.shape, self.dtype)
        clone = Parameter(
            data,
            name=self.name,
            requires_grad=self.requires_grad,
            layerwise_parallel=self.layerwise_parallel,
            parallel_optimizer=self.parallel_optimizer,
        )
        clone.param_info = self.param_info
        return clone

    def copy(self) -> Parameter:
        return self.clone()

    def init_data(self, layout=None, set_sliced: bool = False) -> Parameter:
        return self

    def __repr__(self) -> str:
        return (
            f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
            f"requires_grad={self.requires_grad})"
        )

    __str__ = __repr__

    def __reduce__(self):
        return (
            _rebuild_parameter,
            (np.asarray(self._value), self.name, self.requires_grad),
        )

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()


def _check_attribute_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(
            f"For 'Parameter.{name}', the argument `{name}` must be bool type, but got "
            f"{value!r} of type {type(value).__name__}."
        )
    return value


class ParamInfo:
    """``Parameter.param_info``: MindSpore's ParamInfo as a live view of one Parameter.

    Examples:
        >>> import cellax as ms
        >>> p = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> info = p.param_info
        >>> info.name, info.cache_enable, info.key, info.comm_fusion
        ('w', False, -1, 1)
        >>> info.comm_fusion = 3
        >>> p.comm_fusion
        3
    """

    FIELDS = (
        "name",
        "requires_grad",
        "layerwise_parallel",
        "parallel_optimizer",
        "parallel_optimizer_comm_recompute",
        "comm_fusion",
        "cache_enable",
        "cache_shape",
        "key",
        "requires_aggr",
    )

    __slots__ = ("obj",)

    def __init__(self, param: Parameter) -> None:
        object.__setattr__(self, "obj", param)

    @property
    def parameter_shape(self) -> list:
        return list(self.obj.shape)

    @property
    def storage_format(self) -> str:
        return ""

    def __getattr__(self, name: str):
        if name in ParamInfo.FIELDS:
            return getattr(self.obj, name)
        raise AttributeError(f"'ParamInfo' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        if name not in ParamInfo.FIELDS:
            raise AttributeError(f"'ParamInfo' object has no attribute '{name}'")
        setattr(self.obj, name, value)


def _rebuild_parameter(array, name, requires_grad):
    return Parameter(array, name=name, requires_grad=requires_grad)


class ParameterTuple(tuple):
    """A tuple of Parameters with :meth:`clone`.

    Examples:
        >>> import cellax as ms
        >>> params = ms.ParameterTuple((ms.Parameter(1.0, name="a"), ms.Parameter(2.0, name="b")))
        >>> params.clone("copy")
        (Parameter (name=copy.a, shape=(), dtype=Float32, requires_grad=True), Parameter (name=copy.b, shape=(), dtype=Float32, requires_grad=True))
    """

    def __new__(cls, iterable=()) -> ParameterTuple:
        items = tuple(iterable)
        names: set[str] = set()
        seen: set[int] = set()
        for item in items:
            if not isinstance(item, Parameter):
                raise TypeError(
                    f"For 'ParameterTuple', every element must be a Parameter, but got "
                    f"{item!r} of type {type(item).__name__}."
                )
            if id(item) in seen:
                continue
            if item.name in names:
                raise ValueError(
                    f"For 'ParameterTuple', the name '{item.name}' appears twice; Parameter "
                    f"names must be unique. Give each Parameter its own name."
                )
            names.add(item.name)
            seen.add(id(item))
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> ParameterTuple:
        """Clone every Parameter, naming each ``prefix.name``."""
        check_type("ParameterTuple.clone", "prefix", prefix, str)
        clones = []
        for param in self:
            new = param.clone(init)
            new.name = f"{prefix}.{param.name}"
            clones.append(new)
        return ParameterTuple(clones)


class Buffer(StateTensor):
    """A Tensor that is non-trainable state of a Cell (``nn.Buffer``): saved in ``state_dict``
    and updated eagerly or under ``jit`` like a Parameter, but never given to optimizers.

    Examples:
        >>> import cellax as ms
        >>> buf = ms.nn.Buffer(ms.tensor([1, 2, 3]))
        >>> buf
        Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])
    """

    __slots__ = ()

    def __init__(self, data=None) -> None:
        if data is None:
            raise TypeError("For 'Buffer', 'data' must be a Tensor, but got None.")
        _core.store(self, _slot_array(data, "Buffer"))
        _core.born(self)

    def __deepcopy__(self, memo):
        return Buffer(wrap(jnp.array(self._value, copy=True)))
