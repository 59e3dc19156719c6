"""Parameter and ParameterTuple. A Parameter is a Tensor whose value is a state slot."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from . import _dtype, _state
from ._errors import check_bool, check_type
from ._tensor import Tensor, as_array, wrap

__all__ = ["Parameter", "ParameterTuple", "Buffer"]

DEFAULT_NAME = "Parameter"
_local = _state._local


def _slot_array(data, api: str):
    """A fresh, owned jax.Array for a slot (copied so donation never deletes a user's array)."""
    if isinstance(data, (bool, int, float)) and not isinstance(data, Tensor):
        return jnp.asarray(np.asarray(data, np.float32 if isinstance(data, float) else None))
    if isinstance(data, np.ndarray):
        return jnp.asarray(data)
    array = as_array(data, api=api)
    if isinstance(array, jax.core.Tracer):
        return array
    return jnp.array(array, copy=True)


class Parameter(Tensor, _state.Slot):
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
        "_data",
        "_name",
        "_requires_grad",
        "layerwise_parallel",
        "parallel_optimizer",
        "comm_fusion",
        "__weakref__",
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
        self._data = _slot_array(default_input, "Parameter")
        self.name = DEFAULT_NAME if name is None else name
        self.requires_grad = requires_grad
        self.layerwise_parallel = check_bool("Parameter", "layerwise_parallel", layerwise_parallel)
        self.parallel_optimizer = check_bool("Parameter", "parallel_optimizer", parallel_optimizer)
        self.comm_fusion = 1

    # The one accessor the state frame intercepts (see cellax/_state.py).
    @property
    def _value(self):
        frame = _local.frame
        if frame is None:
            return self._data
        return frame.read(self)

    @_value.setter
    def _value(self, value) -> None:
        _state.write(self, value)

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
    def data(self) -> Parameter:
        """The Parameter itself (MindSpore returns the Parameter from ``.data``)."""
        return self

    @property
    def inited_param(self):
        return None

    @property
    def param_info(self):
        return self

    @property
    def sliced(self) -> bool:
        return False

    def value(self) -> Tensor:
        """The current value as a plain Tensor."""
        return wrap(self._value)

    def set_data(self, data, slice_shape: bool = False) -> Parameter:
        """Replace the value; the shape must match and the dtype is cast to the Parameter's.

        Raises:
            ValueError: If the shape differs (and ``slice_shape`` is False).
        """
        new = as_array(data, api="Parameter.set_data")
        current = self._value
        if not slice_shape and tuple(new.shape) != tuple(current.shape):
            raise ValueError(
                f"For 'Parameter.set_data', the shape of the new data must equal the shape "
                f"{tuple(current.shape)} of Parameter '{self.name}', but got {tuple(new.shape)}."
            )
        if new.dtype != current.dtype:
            new = new.astype(current.dtype)
        elif isinstance(data, Tensor) and new is not current and not _state.is_tracer(new):
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
            from ._initializer import initializer

            data = initializer(init, self.shape, self.dtype)
        return Parameter(
            data,
            name=self.name,
            requires_grad=self.requires_grad,
            layerwise_parallel=self.layerwise_parallel,
            parallel_optimizer=self.parallel_optimizer,
        )

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


def _rebuild_parameter(array, name, requires_grad):
    return Parameter(array, name=name, requires_grad=requires_grad)


def _flatten_parameter(p):
    return (p._value,), None


def _unflatten_parameter(_, children):
    return wrap(children[0])


jax.tree_util.register_pytree_node(Parameter, _flatten_parameter, _unflatten_parameter)


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
            if item.name != DEFAULT_NAME and item.name in names:
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

    def __add__(self, other) -> ParameterTuple:
        return ParameterTuple(tuple(self) + tuple(other))


del _dtype


class Buffer(Tensor, _state.Slot):
    """A Tensor that is non-trainable state of a Cell (``nn.Buffer``): saved in ``state_dict``
    and updated eagerly or under ``jit`` like a Parameter, but never given to optimizers.

    Examples:
        >>> import cellax as ms
        >>> buf = ms.nn.Buffer(ms.tensor([1, 2, 3]))
        >>> buf
        Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])
    """

    __slots__ = ("_data", "__weakref__")

    def __init__(self, data=None) -> None:
        if data is None:
            raise TypeError("For 'Buffer', 'data' must be a Tensor, but got None.")
        self._data = _slot_array(data, "Buffer")

    @property
    def _value(self):
        frame = _local.frame
        if frame is None:
            return self._data
        return frame.read(self)

    @_value.setter
    def _value(self, value) -> None:
        _state.write(self, value)

    def __deepcopy__(self, memo):
        return Buffer(wrap(jnp.array(self._value, copy=True)))


jax.tree_util.register_pytree_node(Buffer, _flatten_parameter, _unflatten_parameter)
