"""MindSpore 2.10's Tensor methods for element access, random fills that return a new Tensor,
the autograd flag and the device, storage and runtime bookkeeping that code reads (registered
on Tensor once, at import, like :mod:`.tensor_method_forms`).

Features of MindSpore's own device runtime that XLA has no counterpart for (memory offload,
device addresses, shared storage, sparse conversion) raise a ``NotImplementedError`` naming the
feature when called.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ... import _device
from ..._core._seams import TENSOR_METHODS
from ..._parameter import Parameter
from ..._tensor import Tensor
from . import inplace, random
from .tensor_methods import _in_place
from .tensor_method_forms import _sizes
from .utils import arr, np_dtype, wrap

# -- reductions and element access ---------------------------------------------------------


def _with_value(fn):
    def method(self, axis=0, keep_dims=False):
        data = self._value
        if axis is None:
            data, axis = data.reshape(-1), 0
        index = fn(data, axis=axis, keepdims=keep_dims)
        values = jnp.take_along_axis(
            data, index if keep_dims else jnp.expand_dims(index, axis), axis
        )
        values = values if keep_dims else jnp.squeeze(values, axis)
        return wrap(values), wrap(index.astype(jnp.int64))

    return method


def ptp(self, axis=None, keepdims=False) -> Tensor:
    """Peak to peak: the maximum minus the minimum along ``axis`` (all elements when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.Tensor([[1.0, 5.0], [2.0, 2.0]]).ptp(1))
        [4. 0.]
    """
    data = self._value
    return wrap(jnp.max(data, axis, keepdims=keepdims) - jnp.min(data, axis, keepdims=keepdims))


def sum_to_size(self, *size) -> Tensor:
    """The sum of this Tensor down to ``size`` (which must broadcast to this Tensor's shape).

    Raises:
        ValueError: If ``size`` does not expand to this Tensor's shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).sum_to_size(1, 2))
        [[4. 6.]]
    """
    size = _sizes("Tensor.sum_to_size", size)
    data = self._value
    lead = data.ndim - len(size)
    if lead < 0 or any(s not in (1, d) for s, d in zip(size, data.shape[lead:])):
        raise ValueError(
            f"For sum_to_size, size {size} is not expandable to the tensor size "
            f"{tuple(data.shape)}."
        )
    if lead:
        data = data.sum(tuple(range(lead)))
    axes = tuple(i for i, (s, d) in enumerate(zip(size, data.shape)) if s == 1 and d != 1)
    return wrap(data.sum(axes, keepdims=True) if axes else data)


def resize(self, *new_shape) -> Tensor:
    """A new Tensor of ``new_shape`` holding this Tensor's elements in order, cut short or
    padded with zeros (this Tensor is unchanged, as in MindSpore).

    Examples:
        >>> import cellax as ms
        >>> print(ms.Tensor([1, 2, 3]).resize(2, 2))
        [[1 2]
         [3 0]]
    """
    size = _sizes("Tensor.resize", new_shape)
    flat = self._value.reshape(-1)
    count = math.prod(size)
    if count <= flat.size:
        flat = flat[:count]
    else:
        flat = jnp.concatenate([flat, jnp.zeros(count - flat.size, flat.dtype)])
    return wrap(flat.reshape(size))


def itemset(self, *args) -> Tensor:
    """A copy with one element set (MindSpore returns a new Tensor; this one is unchanged):
    ``itemset(value)`` for a one-element Tensor, ``itemset(flat_index, value)`` or
    ``itemset((i, j, ...), value)``.

    Raises:
        IndexError: With one argument, if the Tensor has more than one element.
        ValueError: If a tuple index does not have one entry per dimension.

    Examples:
        >>> import cellax as ms
        >>> print(ms.Tensor([[1, 2], [3, 4]]).itemset((0, 1), 9))
        [[1 9]
         [3 4]]
    """
    data = self._value
    if not args or len(args) > 2:
        raise TypeError(f"For 'Tensor.itemset', expected 1 or 2 arguments, but got {len(args)}.")
    if len(args) == 1:
        if data.size != 1:
            raise IndexError(
                "For 'Tensor.itemset', one argument sets a one-element Tensor only, but the "
                f"Tensor has shape {tuple(data.shape)}."
            )
        return wrap(jnp.full_like(data, arr(args[0])))
    index, item = args
    if isinstance(index, (tuple, list)):
        if len(index) != data.ndim:
            raise ValueError(
                f"For 'Tensor.itemset', the index must have {data.ndim} entries, but got {index}."
            )
        return wrap(data.at[tuple(index)].set(arr(item)))
    return wrap(data.reshape(-1).at[index].set(arr(item)).reshape(data.shape))


def choose(self, choices, mode="clip") -> Tensor:
    """The element of ``choices[self[i]]`` at each position ``i`` (all broadcast together).

    Examples:
        >>> import cellax as ms
        >>> index = ms.Tensor([0, 1, 0])
        >>> print(index.choose([ms.Tensor([1, 2, 3]), ms.Tensor([4, 5, 6])]))
        [1 5 3]
    """
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(
            f"For 'Tensor.choose', 'mode' must be 'clip', 'wrap' or 'raise', but got {mode!r}."
        )
    if isinstance(choices, Tensor):
        options = choices._value
    else:
        options = jnp.stack(
            jnp.broadcast_arrays(*(arr(c, "Tensor.choose", "choices") for c in choices))
        )
    index = self._value
    count = options.shape[0]
    if mode == "raise":
        if not isinstance(index, jax.core.Tracer) and bool(((index < 0) | (index >= count)).any()):
            raise ValueError(f"For 'Tensor.choose', indices must be in [0, {count}).")
        mode = "clip"
    index = index % count if mode == "wrap" else jnp.clip(index, 0, count - 1)
    shape_ = jnp.broadcast_shapes(index.shape, options.shape[1:])
    options = jnp.broadcast_to(options, (count, *shape_))
    return wrap(jnp.take_along_axis(options, jnp.broadcast_to(index, shape_)[None], 0)[0])


def _fill(self, value):
    return wrap(jnp.full_like(self._value, arr(value)))


def fill_diagonal(self, fill_value, wrap=False) -> Tensor:  # noqa: A002 (MindSpore's name)
    """A copy with its main diagonal set to ``fill_value`` (all dimensions equal beyond 2-D;
    a tall matrix restarts the diagonal every ``columns + 1`` rows with ``wrap=True``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.zeros((2, 3)).fill_diagonal(5.0))
        [[5. 0. 0.]
         [0. 5. 0.]]
    """
    data = self._value
    if data.ndim < 2:
        raise ValueError(
            f"For 'Tensor.fill_diagonal', the Tensor must have at least 2 dimensions, but got "
            f"shape {tuple(data.shape)}."
        )
    if data.ndim > 2 and len(set(data.shape)) != 1:
        raise ValueError(
            "For 'Tensor.fill_diagonal', all dimensions must be equal beyond 2-D, but got "
            f"shape {tuple(data.shape)}."
        )
    if data.ndim == 2:
        rows, cols = data.shape
        step = cols + 1
        end = data.size if wrap or rows <= cols else cols * cols
    else:
        step = 1 + sum(int(np.prod(data.shape[i:])) // data.shape[0] for i in range(1, data.ndim))
        end = data.size
    index = np.arange(0, end, step)
    flat = data.reshape(-1).at[index].set(arr(fill_value))
    return _wrap_value(flat.reshape(data.shape))


_wrap_value = wrap


def _stride(self, dim=None):
    strides = [int(np.prod(self.shape[i + 1 :], dtype=np.int64)) for i in range(self.ndim)]
    if dim is None:
        return strides
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"For 'Tensor.stride', 'dim' must be an int, but got {dim!r}.")
    return strides[dim]


def _is_signed(self):
    kind = np.dtype(self._value.dtype).kind
    return kind in "ifc" or self._value.dtype == jnp.bfloat16


def _data_ptr(self):
    value = self._value
    try:
        return value.unsafe_buffer_pointer()
    except (AttributeError, RuntimeError, ValueError):
        return id(value)


# -- random fills that return a new Tensor ------------------------------------------------------


def _uniform_like(api, self, generator=None):
    seed = inplace._seed(api, generator)
    return random.rand(*self.shape, dtype=None, seed=seed)._value


def uniform(self, from_=0.0, to=1.0, generator=None) -> Tensor:
    """A new Tensor of this shape and dtype with samples uniform in ``[from_, to)``.

    Raises:
        TypeError: If ``from_`` is larger than ``to``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.zeros((3,)).uniform(2.0, 3.0)
        >>> bool(((x >= 2) & (x < 3)).all())
        True
    """
    if from_ > to:
        raise TypeError(
            f"For 'Tensor.uniform', 'from_' must not be larger than 'to', but got "
            f"from_={from_}, to={to}."
        )
    u = _uniform_like("Tensor.uniform", self, generator)
    return wrap((from_ + (to - from_) * u).astype(self._value.dtype))


def cauchy(self, median=0.0, sigma=1.0) -> Tensor:
    """A new Tensor of this shape and dtype with Cauchy samples (``median``, ``sigma``).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.zeros((2, 3)).cauchy().shape
        (2, 3)
    """
    u = _uniform_like("Tensor.cauchy", self)
    return wrap((median + sigma * jnp.tan(jnp.pi * (u - 0.5))).astype(self._value.dtype))


def log_normal(self, mean=1.0, std=2.0) -> Tensor:
    """A new Tensor of this shape and dtype with samples ``exp(N(mean, std))``.

    Examples:
        >>> import cellax as ms
        >>> bool((ms.ops.zeros((4,)).log_normal() > 0).all())
        True
    """
    u = jnp.clip(_uniform_like("Tensor.log_normal", self), 1e-7, 1 - 1e-7)
    normal = jnp.sqrt(2.0) * jax.scipy.special.erfinv(2 * u - 1)
    return wrap(jnp.exp(mean + std * normal).astype(self._value.dtype))


# -- autograd, device and storage bookkeeping ---------------------------------------------------


def requires_grad_(self, requires_grad=True):
    """Set whether this Parameter is trained (a plain Tensor has no such flag: no-op).

    Returns the Tensor. Differences from MindSpore: MindSpore 2.10 returns None; cellax returns
    the Tensor so that torch-style chains (``x.detach().requires_grad_()``) work.

    Examples:
        >>> import cellax as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = w.requires_grad_(False)
        >>> w.requires_grad
        False
    """
    if isinstance(self, Parameter):
        self.requires_grad = requires_grad
    return self


def _device_name(self):
    """Where the data lives, in MindSpore's names (``'CPU'``, ``'GPU'``; ``'TPU'``)."""
    value = self._value
    devices = getattr(value, "devices", None)
    if devices is not None and not isinstance(value, jax.core.Tracer):
        platform = next(iter(devices())).platform
        return _device._TARGET_OF_PLATFORM.get(platform, platform.upper())
    return _device.running_target()


_TARGETS = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "ascend": "Ascend", "npu": "Ascend"}


def _put_on(api, self, target):
    name = _TARGETS.get(str(target).lower()) if isinstance(target, str) else None
    if name is None:
        raise ValueError(
            f"For '{api}', the device must be one of 'Ascend', 'GPU', 'CPU', but got {target!r}."
        )
    devices = _device.devices_of(name)
    if not devices:
        _device.warn_once(
            api,
            f"For '{api}', there is no {name} device under JAX; the Tensor stays on "
            f"{_device.running_target()}.",
        )
        return self._value
    return jax.device_put(self._value, devices[0])


def move_to(self, to, blocking=True) -> Tensor:
    """A copy on device ``to`` (``'CPU'``, ``'GPU'``; ``'Ascend'`` stays on the current device
    with one warning, since no JAX platform is an Ascend NPU).

    Examples:
        >>> import cellax as ms
        >>> print(ms.Tensor([1, 2]).move_to("CPU"))
        [1 2]
    """
    if not isinstance(blocking, bool):
        raise ValueError(f"For 'Tensor.move_to', 'blocking' must be a bool, but got {blocking!r}.")
    return wrap(_put_on("Tensor.move_to", self, to))


def _to_(self, device=None, non_blocking=False):
    if device is not None:
        value = _put_on("Tensor.to_", self, device)
        if isinstance(self, Parameter):
            return inplace._overwrite("Tensor.to_", self, value)
        self._value = value
    return self


def _hooks(self):
    hooks = getattr(self, "_hooks", None)
    return list(hooks.values()) if hooks else []


def _remove_hook(handle):
    remove = getattr(handle, "remove", None)
    if remove is None:
        raise TypeError(
            "For 'Tensor.remove_hook', pass the handle that Tensor.register_hook returned, but "
            f"got {handle!r}."
        )
    remove()


def _set_(self, source=None, storage_offset=0, size=None, stride=None):
    if isinstance(source, Tensor) and storage_offset == 0 and size is None and stride is None:
        return inplace._overwrite("Tensor.set_", self, source._value)
    if source is None and size is None:
        self._value = jnp.zeros((0,), self._value.dtype)
        return self
    raise NotImplementedError(
        "For 'Tensor.set_', storages with offsets, sizes and strides are MindSpore runtime "
        "memory that XLA does not expose; only set_() and set_(tensor) are supported."
    )


def _convert_bytes_to_tensor(bytes_data, shape, dtype):
    array = np.frombuffer(bytes_data, dtype=np_dtype(dtype)).reshape(shape)
    return Tensor(array.copy())


def _unavailable(name, feature):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"For 'Tensor.{name}', {feature} belongs to MindSpore's own device runtime and has "
            f"no counterpart on JAX/XLA, so cellax does not provide it."
        )

    method.__name__ = name
    method.__doc__ = f"Not available on JAX: {feature} (raises NotImplementedError)."
    return method


def _nothing(self, *args, **kwargs):
    return None


def _self(self, *args, **kwargs):
    return self


def _constant(value, doc):
    return property(lambda self: value, doc=doc)


def _data_get(self):
    return self


def _data_set(self, value):
    self.assign_value(value)


_METHODS = {
    "argmax_with_value": _with_value(jnp.argmax),
    "argmin_with_value": _with_value(jnp.argmin),
    "ptp": ptp,
    "sum_to_size": sum_to_size,
    "resize": resize,
    "itemset": itemset,
    "choose": choose,
    "fill": _fill,
    "fills": _fill,
    "fill_diagonal": fill_diagonal,
    "uniform": uniform,
    "cauchy": cauchy,
    "log_normal": log_normal,
    "fill_diagonal_": _in_place(fill_diagonal, "fill_diagonal_"),
    "requires_grad_": requires_grad_,
    # properties
    "data": property(_data_get, _data_set, doc="The Tensor itself (MindSpore's ``.data``)."),
    "device": property(_device_name),
    "init": _constant(None, "The initializer still to run (None: the data is there)."),
    "init_finished": _constant(True, "Whether the data is initialised (always True)."),
    "init_flag": _constant(False, "MindSpore's internal init flag (always False)."),
    "is_meta": _constant(False, "Whether the Tensor is on the meta device (never)."),
    "const_arg": _constant(False, "Whether the Tensor is a constant argument of a graph."),
    "param_info": _constant(None, "A plain Tensor's ParamInfo (None)."),
    "symbolic_shape": _constant(None, "The symbolic shape (None: static shapes)."),
    "virtual_flag": _constant(False, "MindSpore's internal virtual flag (False)."),
    "index_of_parent_": _constant(None, "MindSpore's view bookkeeping (None)."),
    "parent_tensor_": _constant(None, "MindSpore's view bookkeeping (None)."),
    "delta_seed": 0,
    # device, storage and runtime bookkeeping
    "value": _self,
    "stride": _stride,
    "storage_offset": lambda self: 0,
    "data_ptr": _data_ptr,
    "is_signed": _is_signed,
    "is_pinned": lambda self, device=None: False,
    "is_shared": lambda self: False,
    "is_init": lambda self: False,
    "set_init_flag": _nothing,
    "pin_memory": _self,
    "set_const_arg": _self,
    "move_to": move_to,
    "to_": _to_,
    "delete_": _self,
    "data_sync": _nothing,
    "wait_pipeline": _nothing,
    "flush_from_cache": _nothing,
    "set_cast_dtype": _nothing,
    "hooks": _hooks,
    "remove_hook": staticmethod(_remove_hook),
    "set_": _set_,
    "assign_value_cpp": lambda self, value: self.assign_value(value),
    "get_bytes": lambda self: self.asnumpy().tobytes(),
    "convert_bytes_to_tensor": staticmethod(_convert_bytes_to_tensor),
    "from_dlpack": staticmethod(lambda dlpack: wrap(jax.dlpack.from_dlpack(dlpack))),
    "to_dlpack": lambda self: self._value.__dlpack__(),
    "storage": _unavailable("storage", "shared Tensor storage"),
    "untyped_storage": _unavailable("untyped_storage", "shared Tensor storage"),
    "offload": _unavailable("offload", "offloading Tensor data to a file"),
    "offload_file_path": _unavailable("offload_file_path", "offloading Tensor data"),
    "set_device_address": _unavailable("set_device_address", "setting a device address"),
    "set_param_info": staticmethod(_unavailable("set_param_info", "ParamInfo of a Tensor")),
    "getitem_index_info": staticmethod(_unavailable("getitem_index_info", "the C++ indexing plan")),
    "setitem_index_info": staticmethod(_unavailable("setitem_index_info", "the C++ indexing plan")),
    "to_coo": _unavailable("to_coo", "COOTensor conversion"),
    "to_csr": _unavailable("to_csr", "CSRTensor conversion"),
}


TENSOR_METHODS.fill(_METHODS)
