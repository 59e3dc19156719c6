"""nn.Cell: attribute routing, traversal, naming, train mode and the call pipeline."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

from .. import _context, _dtype, _state
from .._errors import MSG_TRACER_LEAK, check_bool, check_type
from .._hooks import HookDict, add_hook
from .._parameter import DEFAULT_NAME, Buffer, Parameter, ParameterTuple
from .._tensor import Tensor, wrap
from .. import _transforms

__all__ = ["Cell", "IncompatibleKeys"]

IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])

_RESERVED_ATTRIBUTES = ("phase", "cells")


def _check_child_name(api: str, name) -> None:
    if not isinstance(name, str):
        raise TypeError(f"For '{api}', the name must be a str, but got {type(name).__name__}.")
    if not name or "." in name:
        raise KeyError(f"For '{api}', the name must be non-empty and contain no '.', got {name!r}.")


class Cell:
    """The base class of every network and layer (``mindspore.nn.Cell``).

    Subclasses define ``construct``; Parameters, sub-Cells and buffers assigned as attributes
    are registered, and Parameter names follow attribute paths (``net.weight``).

    Args:
        auto_prefix (bool): Prefix the Parameter names of child Cells with the attribute name.
            Default: ``True``.
        flags (dict): Custom attributes added with :meth:`add_flags`. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn, ops
        >>> class MyCell(nn.Cell):
        ...     def __init__(self, forward_net):
        ...         super().__init__(auto_prefix=False)
        ...         self.net = forward_net
        ...         self.relu = ops.ReLU()
        ...     def construct(self, x):
        ...         return self.relu(self.net(x))
        >>> my_net = MyCell(nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal'))
        >>> print(my_net.trainable_params())
        [Parameter (name=weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Cell.html
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "cast" in cls.__dict__:
            raise AttributeError(
                f"For 'Cell', the subclass '{cls.__name__}' must not define a method named "
                f"'cast': the name is reserved by Cell."
            )

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        setter = object.__setattr__
        setter(self, "_params", OrderedDict())
        setter(self, "_cells", OrderedDict())
        setter(self, "_buffers", OrderedDict())
        setter(self, "_non_persistent_buffers", set())
        setter(self, "_auto_prefix", check_bool("Cell", "auto_prefix", auto_prefix))
        setter(self, "_param_prefix", "")
        setter(self, "_flags", {})
        setter(self, "training", False)
        setter(self, "requires_grad", False)
        setter(self, "_forward_pre_hooks", HookDict())
        setter(self, "_forward_hooks", HookDict())
        setter(self, "_backward_pre_hooks", HookDict())
        setter(self, "_backward_hooks", HookDict())
        setter(self, "_state_dict_pre_hooks", HookDict())
        setter(self, "_state_dict_hooks", HookDict())
        setter(self, "_load_state_dict_pre_hooks", HookDict())
        setter(self, "_load_state_dict_post_hooks", HookDict())
        setter(self, "_recompute_policy", None)
        setter(self, "_float_dtype", None)
        setter(self, "_inputs", None)
        setter(self, "_jit_config", None)
        setter(self, "_graph_fn", None)
        setter(self, "bprop_debug", False)
        setter(self, "cell_init_args", "")
        if flags:
            self.add_flags(**flags)

    # -- attribute routing --------------------------------------------------------------------
    def __getattr__(self, name: str):
        registries = self.__dict__
        for registry in ("_params", "_cells", "_buffers"):
            table = registries.get(registry)
            if table is not None and name in table:
                return table[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        if "_params" not in self.__dict__:
            if isinstance(value, (Parameter, Cell, Buffer)):
                raise AttributeError(
                    f"For '{type(self).__name__}', call super().__init__() before assigning "
                    f"the Parameter/Cell/Buffer '{name}'."
                )
            object.__setattr__(self, name, value)
            return
        if name in _RESERVED_ATTRIBUTES:
            raise AttributeError(
                f"For 'Cell', '{name}' is reserved by Cell and can not be assigned on "
                f"'{type(self).__name__}'. Use another attribute name."
            )
        if isinstance(value, Parameter):
            self._set_parameter(name, value)
        elif isinstance(value, Cell):
            self._set_child(name, value)
        elif isinstance(value, Buffer):
            self._forget(name)
            self._buffers[name] = value
            _state.bump_structure_version()
        elif name in self._buffers and (value is None or isinstance(value, Tensor)):
            self._assign_buffer(name, value)
        elif name in self._params and value is None:
            self._params[name] = None
        elif name in self._cells and value is None:
            self._cells[name] = None
            _state.bump_structure_version()
        else:
            if isinstance(value, Tensor) and _state.is_tracer(value._value):
                raise AttributeError(MSG_TRACER_LEAK.format(cell=type(self).__name__, name=name))
            if isinstance(value, ParameterTuple):
                _state.bump_structure_version()
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if not self._forget(name):
            object.__delattr__(self, name)

    def _forget(self, name: str) -> bool:
        for table in (self._params, self._cells, self._buffers):
            if name in table:
                del table[name]
                self._non_persistent_buffers.discard(name)
                _state.bump_structure_version()
                return True
        if name in self.__dict__ and not name.startswith("_"):
            object.__delattr__(self, name)
        return False

    def _set_parameter(self, name: str, param: Parameter) -> None:
        if param.name == DEFAULT_NAME:
            param.name = name
        if self._param_prefix and self._auto_prefix and "." not in param.name:
            param.name = f"{self._param_prefix}.{param.name}"
        self._forget(name)
        self._params[name] = param
        _state.bump_structure_version()

    def _set_child(self, name: str, child: Cell) -> None:
        if child is self:
            raise ValueError(f"For 'Cell', a Cell can not be its own child ('{name}').")
        self._forget(name)
        if self._auto_prefix:
            child._prefix_parameters(name)
        self._cells[name] = child
        _state.bump_structure_version()

    def _prefix_parameters(self, prefix: str) -> None:
        for param in self.get_parameters():
            param.name = f"{prefix}.{param.name}"

    def _assign_buffer(self, name: str, value) -> None:
        buffer = self._buffers[name]
        if value is None or buffer is None:
            self._buffers[name] = None if value is None else Buffer(value)
            _state.bump_structure_version()
            return
        buffer._value = value._value

    # -- construction -------------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        """Define the computation; every subclass overrides it. Call the Cell, not this."""
        raise NotImplementedError(f"'{type(self).__name__}' must define 'construct'.")

    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot=True):
        """Add ``param`` to this Cell under ``param_name``.

        Raises:
            KeyError: If the name is empty or (with ``check_name_contain_dot``) has a '.'.
            TypeError: If ``param`` is not a Parameter.
        """
        if not isinstance(param_name, str):
            raise TypeError(f"For 'insert_param_to_cell', 'param_name' must be a str, got {param_name!r}.")
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', 'param_name' must not be empty.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(
                f"For 'insert_param_to_cell', 'param_name' must contain no '.', got {param_name!r}."
            )
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"For 'insert_param_to_cell', 'param' must be a Parameter, but got "
                f"{type(param).__name__}."
            )
        if param is None:
            self._params[param_name] = None
            return
        if hasattr(self, param_name) and param_name not in self._params:
            raise KeyError(f"For 'insert_param_to_cell', the attribute {param_name!r} already exists.")
        self._set_parameter(param_name, param)

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        """Add ``child_cell`` as a child named ``child_name``.

        Raises:
            KeyError: If the name is empty, has a '.', or names an existing attribute.
            TypeError: If ``child_name`` is not a str or ``child_cell`` is not a Cell.
        """
        _check_child_name("insert_child_to_cell", child_name)
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(
                f"For 'insert_child_to_cell', 'child_cell' must be a Cell, but got "
                f"{type(child_cell).__name__}."
            )
        if child_name in self.__dict__ or child_name in self._params or child_name in self._buffers:
            raise KeyError(f"For 'insert_child_to_cell', the name {child_name!r} already exists.")
        if child_cell is None:
            self._cells[child_name] = None
            return
        self._set_child(child_name, child_cell)

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Add a buffer: state that is saved in ``state_dict`` but not trained.

        Raises:
            TypeError: If ``name`` is not a str or ``tensor`` is not a Tensor or None.
            KeyError: If ``name`` is empty, has a '.', or is an existing attribute.
        """
        _check_child_name("register_buffer", name)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"For 'register_buffer', 'tensor' must be a Tensor or None, but got "
                f"{type(tensor).__name__}."
            )
        if name in self.__dict__ or name in self._params or name in self._cells:
            raise KeyError(f"For 'register_buffer', the attribute {name!r} already exists.")
        self._buffers[name] = tensor if tensor is None or isinstance(tensor, Buffer) else Buffer(tensor)
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)
        _state.bump_structure_version()

    # -- traversal (every walk goes through cells_and_names) ---------------------------------
    def cells_and_names(self, cells=None, name_prefix: str = ""):
        """Yield ``(name, cell)`` for this Cell and every descendant, depth first, once each.

        ``cells`` is the set of Cells already visited (shared by the recursion).
        """
        visited = cells if cells is not None else set()
        if id(self) in visited:
            return
        visited.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                path = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(visited, path)

    def cells(self):
        """The direct children (``odict_values``)."""
        return self.name_cells().values()

    def name_cells(self) -> OrderedDict:
        """OrderedDict of the direct children by attribute name."""
        result: OrderedDict = OrderedDict()
        seen: set = set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                result[name] = cell
        return result

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True):
        """Yield ``(attribute path, Parameter)``; with ``expand`` through all descendants."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen: set = set()
        for prefix, cell in cells:
            for name, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{prefix}.{name}" if prefix else name), param

    def get_parameters(self, expand: bool = True):
        """A generator over the Parameters (of all descendants with ``expand``)."""
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse: bool = True) -> list:
        """The Parameters with ``requires_grad=True``."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list:
        """The Parameters with ``requires_grad=False``."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        """OrderedDict ``{param.name: Parameter}``.

        Raises:
            ValueError: If two different Parameters have the same name.
        """
        result: OrderedDict = OrderedDict()
        for param in self.get_parameters(expand=recurse):
            if param.name in result:
                raise ValueError(
                    f"For 'parameters_dict', the Parameter name '{param.name}' appears twice in "
                    f"'{type(self).__name__}'. Parameter names must be unique: use "
                    f"auto_prefix=True or give the Parameters distinct names."
                )
            result[param.name] = param
        return result

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict:
        """Like :meth:`parameters_dict`, restricted to Parameters that are broadcast (all)."""
        return OrderedDict(
            (p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel
        )

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        """Yield ``(path, buffer)`` pairs."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen: set = set()
        for cell_prefix, cell in cells:
            for name, buffer in cell._buffers.items():
                if buffer is None or (remove_duplicate and id(buffer) in seen):
                    continue
                seen.add(id(buffer))
                yield (f"{cell_prefix}.{name}" if cell_prefix else name), buffer

    def buffers(self, recurse: bool = True):
        """Yield the buffers."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_sub_cell(self, target: str):
        """The descendant at the dotted path ``target`` ('' is this Cell).

        Raises:
            AttributeError: If a path component is missing or not a Cell.
        """
        check_type("get_sub_cell", "target", target, str)
        cell = self
        if not target:
            return cell
        walked = []
        for part in target.split("."):
            walked.append(part)
            child = cell._cells.get(part)
            if child is None:
                raise AttributeError(
                    f"For 'get_sub_cell', '{type(cell).__name__}' has no sub-Cell "
                    f"'{part}' (path '{'.'.join(walked)}' of '{target}')."
                )
            cell = child
        return cell

    def get_buffer(self, target: str):
        """The buffer at the dotted path ``target``.

        Raises:
            AttributeError: If the path or the buffer does not exist.
        """
        check_type("get_buffer", "target", target, str)
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if name not in cell._buffers:
            raise AttributeError(
                f"For 'get_buffer', '{type(cell).__name__}' has no buffer '{name}' "
                f"(path '{target}')."
            )
        return cell._buffers[name]

    def apply(self, fn):
        """Call ``fn`` on every child Cell (recursively), then on this Cell; return self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def _cellax_collect(self, slots: dict, cells: dict) -> None:
        """State-frame protocol: every slot and Cell this Cell reaches (for cellax.jit)."""
        for _, cell in self.cells_and_names():
            cells[id(cell)] = cell
            for table in (cell._params, cell._buffers):
                for slot in table.values():
                    if slot is not None:
                        slots.setdefault(id(slot), slot)
            for value in cell.__dict__.values():
                if isinstance(value, (tuple, list)):
                    for item in value:
                        if isinstance(item, _state.Slot):
                            slots.setdefault(id(item), item)

    # -- names --------------------------------------------------------------------------------
    @property
    def param_prefix(self) -> str:
        """The name prefix of this Cell (set by :meth:`update_cell_prefix`)."""
        return self._param_prefix

    def update_cell_prefix(self) -> None:
        """Set every descendant's ``param_prefix`` to its attribute path."""
        for name, cell in self.cells_and_names():
            if cell is not self:
                object.__setattr__(cell, "_param_prefix", name)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Prefix every Parameter name with ``prefix``."""
        check_type("update_parameters_name", "prefix", prefix, str)
        for param in self.get_parameters(expand=recurse):
            param.name = prefix + param.name

    def check_names(self) -> None:
        """Raise ValueError if two Parameters share a name."""
        self.parameters_dict()

    # -- modes and flags ----------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """'train' after ``set_train(True)``, else 'predict'."""
        return "train" if self.training else "predict"

    def set_train(self, mode: bool = True):
        """Set the training mode of this Cell and all descendants; return self."""
        check_bool("set_train", "mode", mode)
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", mode)
        return self

    def set_grad(self, requires_grad: bool = True):
        """Mark the Cell as needing gradients (no effect on JAX, which differentiates
        anything); return self."""
        object.__setattr__(self, "requires_grad", check_bool("set_grad", "requires_grad", requires_grad))
        return self

    def add_flags(self, **flags):
        """Add custom attributes; returns self."""
        self._flags.update(flags)
        for key, value in flags.items():
            object.__setattr__(self, key, value)
        return self

    def add_flags_recursive(self, **flags):
        """Add custom attributes to this Cell and every descendant; returns self."""
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict:
        """The custom attributes added with :meth:`add_flags`."""
        return self._flags

    # -- the call pipeline --------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _context.get_mode() == _context.GRAPH_MODE and _state.current_frame() is None:
            graph_fn = self._graph_fn
            if graph_fn is None:
                graph_fn = _transforms.jit(self._run)
                object.__setattr__(self, "_graph_fn", graph_fn)
            return graph_fn(*args, **kwargs)
        return self._run(*args, **kwargs)

    def _run(self, *args, **kwargs):
        if self._forward_pre_hooks:
            args = self._run_forward_pre_hooks(args)
        if self._float_dtype is not None:
            args = self._cast_inputs_to(args, self._float_dtype)
        if self._backward_hooks or self._backward_pre_hooks:
            from .._hook_ops import run_with_backward_hooks

            out = run_with_backward_hooks(self, self._construct_call, args, kwargs)
        else:
            out = self._construct_call(*args, **kwargs)
        if self._forward_hooks:
            out = self._run_forward_hooks(args, out)
        return out

    def _construct_call(self, *args, **kwargs):
        if self._recompute_policy is not None:
            policy = self._recompute_policy
            slots: dict = {}
            self._cellax_collect(slots, {})
            return _transforms.checkpoint_call(
                self._construct_plain, list(slots.values()), args, kwargs,
                policy=None if policy is True else policy,
            )  # fmt: skip
        return self._construct_plain(*args, **kwargs)

    def _construct_plain(self, *args, **kwargs):
        if "bprop" in type(self).__dict__ or hasattr(type(self), "bprop"):
            from .._hook_ops import run_with_bprop

            return run_with_bprop(self, args, kwargs)
        return self.construct(*args, **kwargs)

    def _run_forward_pre_hooks(self, args: tuple) -> tuple:
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        return args

    def _run_forward_hooks(self, args: tuple, out):
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out

    def register_forward_pre_hook(self, hook_fn):
        """Register ``hook_fn`` to run before ``construct``.

        Signature::

            hook_fn(cell, inputs) -> None or new inputs

        ``inputs`` is the tuple of positional inputs; a returned value replaces them (a
        non-tuple becomes a 1-tuple). Returns a handle whose ``remove()`` unregisters it.

        Raises:
            TypeError: If ``hook_fn`` is not callable.
        """
        return add_hook(self._forward_pre_hooks, hook_fn, "register_forward_pre_hook")

    def register_forward_hook(self, hook_fn):
        """Register ``hook_fn`` to run after ``construct``.

        Signature::

            hook_fn(cell, inputs, outputs) -> None or new outputs

        A returned value replaces the outputs. Returns a removable handle.

        Raises:
            TypeError: If ``hook_fn`` is not callable.
        """
        return add_hook(self._forward_hooks, hook_fn, "register_forward_hook")

    def register_backward_pre_hook(self, hook_fn):
        """Register ``hook_fn`` to see the gradient arriving at this Cell's outputs.

        Signature::

            hook_fn(cell, grad_output) -> None or new grad_output

        ``grad_output`` is a tuple; a returned tuple replaces it. Returns a removable handle.

        Raises:
            TypeError: If ``hook_fn`` is not callable.
        """
        return add_hook(self._backward_pre_hooks, hook_fn, "register_backward_pre_hook")

    def register_backward_hook(self, hook_fn):
        """Register ``hook_fn`` to see the gradients of this Cell's inputs and outputs.

        Signature::

            hook_fn(cell, grad_input, grad_output) -> None or new grad_input

        ``grad_input`` (gradients w.r.t. the Cell's inputs) and ``grad_output`` (gradients
        arriving at its outputs) are tuples; a returned tuple replaces ``grad_input``.
        Returns a removable handle.

        Raises:
            TypeError: If ``hook_fn`` is not callable.
        """
        return add_hook(self._backward_hooks, hook_fn, "register_backward_hook")

    def recompute(self, **kwargs):
        """Recompute this Cell's activations in the backward pass (``jax.checkpoint``).

        Args:
            mp_comm_recompute (bool): Accepted (no model-parallel communication on one
                device). Default: ``True``.
            parallel_optimizer_comm_recompute (bool): Accepted. Default: ``False``.
            policy (Callable): cellax extra: a ``jax.checkpoint_policies`` policy, e.g.
                ``jax.checkpoint_policies.dots_saveable``. Default: save nothing.
        """
        unknown = set(kwargs) - {"mp_comm_recompute", "parallel_optimizer_comm_recompute", "policy"}
        if unknown:
            raise TypeError(f"For 'recompute', unexpected keyword arguments {sorted(unknown)}.")
        object.__setattr__(self, "_recompute_policy", kwargs.get("policy") or True)
        _state.bump_structure_version()
        return self

    # -- mixed precision facade ---------------------------------------------------------------
    def to_float(self, dst_type):
        """Run this Cell and its children in ``dst_type`` (float16, bfloat16 or float32).

        Raises:
            ValueError: If ``dst_type`` is not float16, bfloat16 or float32.
        """
        if dst_type not in (_dtype.float16, _dtype.bfloat16, _dtype.float32):
            raise ValueError(
                f"For 'to_float', 'dst_type' must be float16, bfloat16 or float32, but got "
                f"{dst_type!r}."
            )
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_float_dtype", None if dst_type == _dtype.float32 else dst_type)
        _state.bump_structure_version()
        return self

    @staticmethod
    def _cast_inputs_to(inputs: tuple, dst_type) -> tuple:
        np_dtype = _dtype.to_dtype(dst_type).np_dtype

        def cast(x):
            if isinstance(x, Tensor) and x.dtype.is_floating and x._value.dtype != np_dtype:
                return wrap(x._value.astype(np_dtype))
            return x

        return tuple(cast(x) for x in inputs)

    def cast_inputs(self, inputs, dst_type) -> tuple:
        """Cast the floating Tensors among ``inputs`` to ``dst_type``."""
        return self._cast_inputs_to(tuple(inputs), dst_type)

    def auto_cast_inputs(self, inputs) -> tuple:
        """Cast ``inputs`` to the dtype set by :meth:`to_float` (unchanged if none)."""
        if self._float_dtype is None:
            return tuple(inputs)
        return self._cast_inputs_to(tuple(inputs), self._float_dtype)

    def cast_param(self, param):
        """The value of ``param`` in the dtype set by :meth:`to_float`."""
        if self._float_dtype is None or not param.dtype.is_floating:
            return param
        return wrap(param._value.astype(self._float_dtype.np_dtype))

    # -- printing -----------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """Extra text inside this Cell's parentheses; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        lines = extra.split("\n") if extra else []
        for name, cell in self._cells.items():
            text = repr(cell).replace("\n", "\n  ")
            lines.append(f"({name}): {text}")
        head = type(self).__name__
        if not self._cells:
            return f"{head}({extra})"
        body = "\n  ".join(lines)
        return f"{head}(\n  {body}\n)"

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)
