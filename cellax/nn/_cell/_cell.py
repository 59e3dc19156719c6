"""nn.Cell: attribute routing, traversal, naming, train mode and the call pipeline."""

from __future__ import annotations

import abc
from collections import OrderedDict
from typing import Any

from ... import _context, _core, _limits, _transforms
from ..._core import HookDict, Registry, versioned
from ..._errors import MSG_TRACER_LEAK, check_bool, check_type
from ..._parameter import DEFAULT_NAME, Buffer, Parameter, ParameterTuple, is_default_name
from ..._tensor import Tensor
from ..._transforms import _custom_vjp
from ._access import CellAccessMixin
from ._call_errors import InitSignature, raise_if_init_unbound, raise_if_unbound
from ._compile import CellCompileMixin
from ._hooks import CellHooksMixin
from ._parallel import CellParallelMixin
from ._precision import CellPrecisionMixin
from ._state_dict import CellStateMixin, IncompatibleKeys

__all__ = ["Cell", "IncompatibleKeys"]

_RESERVED_ATTRIBUTES = ("cells",)


def _check_child_name(api: str, name) -> None:
    if not isinstance(name, str):
        raise TypeError(f"For '{api}', the name must be a str, but got {type(name).__name__}.")
    if not name or "." in name:
        raise KeyError(f"For '{api}', the name must be non-empty and contain no '.', got {name!r}.")


def _check_free_name(api: str, cell, name: str, table: dict) -> None:
    if hasattr(cell, name) and name not in table:
        raise KeyError(
            f"For '{api}', the name {name!r} is already an attribute of "
            f"'{type(cell).__name__}'. Use another name or delete the attribute first."
        )


class CellType(abc.ABCMeta):
    """Metaclass of Cell: built-in layers print under MindSpore's module path
    (``<class 'cellax.nn.layer.conv.Conv2d'>``, see ``_aliases.py``). It derives from
    ``ABCMeta`` so that ``class X(nn.Cell, ABC)`` works and abstract methods are enforced."""

    def __repr__(cls) -> str:
        path = cls.__dict__.get("_mindspore_path")
        return f"<class '{path}'>" if path else super().__repr__()

    # `cls` positional-only: a Cell's __init__ may take `cls=` (mindyolo's YOLOv8Loss(cls=0.5))
    def __call__(cls, /, *args, **kwargs):
        try:
            with _limits.constructing(cls.__name__):  # parameter sizes are checked as cls's
                return super().__call__(*args, **kwargs)
        except TypeError:
            raise_if_init_unbound(cls, args, kwargs)
            raise

    # inspect.signature(SomeCell) stays that of its __init__ despite __call__ above
    __signature__ = InitSignature()


class Cell(
    CellAccessMixin,
    CellStateMixin,
    CellCompileMixin,
    CellParallelMixin,
    CellHooksMixin,
    CellPrecisionMixin,
    metaclass=CellType,
):
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

    # compile-relevant fields: assigning one bumps this Cell's version (see _core/_registry.py)
    _recompute_policy = versioned(None)
    _float_dtype = versioned(None)
    _amp_output_dtype = versioned(None)
    _version = 0  # written only by _core/_registry.py

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "cast" in cls.__dict__:
            raise AttributeError(
                f"For 'Cell', the subclass '{cls.__name__}' must not define a method named "
                f"'cast': the name is reserved by Cell."
            )

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        setter = object.__setattr__
        setter(self, "_params", Registry(self))
        setter(self, "_cells", Registry(self))
        setter(self, "_buffers", Registry(self))
        setter(self, "_non_persistent_buffers", set())
        setter(self, "_auto_prefix", check_bool("Cell", "auto_prefix", auto_prefix))
        setter(self, "_param_prefix", "")
        setter(self, "_name_prefix", "")
        setter(self, "_phase", "train")
        setter(self, "_flags", {})
        setter(self, "training", False)
        setter(self, "requires_grad", False)
        setter(self, "_forward_pre_hooks", HookDict(self))
        setter(self, "_forward_hooks", HookDict(self))
        setter(self, "_backward_pre_hooks", HookDict(self))
        setter(self, "_backward_hooks", HookDict(self))
        setter(self, "_state_dict_pre_hooks", HookDict(self))
        setter(self, "_state_dict_hooks", HookDict(self))
        setter(self, "_load_state_dict_pre_hooks", HookDict(self))
        setter(self, "_load_state_dict_post_hooks", HookDict(self))
        setter(self, "_inputs", None)
        setter(self, "_jit_config", None)
        setter(self, "_graph_fn", None)
        setter(self, "_graph_pynative", None)  # why GRAPH_MODE calls run eagerly, once seen
        setter(self, "_bprop_debug", False)
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
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

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
        elif name in self._buffers and (value is None or isinstance(value, Tensor)):
            self._assign_buffer(name, value)
        elif name in self._params and isinstance(value, Tensor) and self._params[name] is not None:
            self._params[name].set_data(value)
        elif name in self._params or name in self._cells or name in self._buffers:
            self._replace_registered(name, value)
        else:
            if isinstance(value, Tensor) and _core.is_tracer(value._value):
                raise AttributeError(MSG_TRACER_LEAK.format(cell=type(self).__name__, name=name))
            if isinstance(value, ParameterTuple):
                self._set_parameter_tuple(value)
            if name == "training":  # part of jit's cache key
                _core.note_change()
            object.__setattr__(self, name, value)

    def _replace_registered(self, name: str, value) -> None:
        for kind, table in (
            ("Parameter", self._params),
            ("sub-Cell", self._cells),
            ("buffer", self._buffers),
        ):
            if name in table:
                if value is not None:
                    raise TypeError(
                        f"For 'Cell', '{name}' is a {kind} of '{type(self).__name__}' and can "
                        f"not be replaced by a {type(value).__name__}. Assign a {kind}, None, "
                        f"or delete it first with 'del'."
                    )
                table[name] = None
                return

    def _set_parameter_tuple(self, params: ParameterTuple) -> None:
        # MindSpore registers each element under its own name (dots allowed), so the elements
        # are Parameters of this Cell (optimizer states are saved this way).
        for param in dict.fromkeys(params):
            if is_default_name(param.name):
                param.name = f"{DEFAULT_NAME}${len(self._params) + 1}"
            self._params[param.name] = param

    def __delattr__(self, name: str) -> None:
        if not self._forget(name):
            object.__delattr__(self, name)

    def _forget(self, name: str) -> bool:
        for table in (self._params, self._cells, self._buffers):
            if name in table:
                del table[name]
                self._non_persistent_buffers.discard(name)
                return True
        if name in self.__dict__ and not name.startswith("_"):
            object.__delattr__(self, name)
        return False

    def _set_parameter(self, name: str, param: Parameter) -> None:
        if name in self._cells:  # MindSpore: a sub-Cell's name can not become a Parameter
            raise KeyError(
                f"For 'insert_param_to_cell', the {name} parameter already exists in the "
                f"network. Cannot insert another parameter with the same name."
            )
        if is_default_name(param.name):
            param.name = name
        self._forget(name)
        self._params[name] = param

    def _set_child(self, name: str, child: Cell) -> None:
        if child is self:
            raise ValueError(f"For 'Cell', a Cell can not be its own child ('{name}').")
        if name in self._params:  # MindSpore: a Parameter's name (even set to None) stays one
            raise KeyError(
                f"For 'insert_child_to_cell', the {name} child cell already exists in the "
                f"network. Cannot insert another child cell with the same name."
            )
        self._forget(name)
        if self._auto_prefix:
            child.update_parameters_name(name + ".")
        self._cells[name] = child

    def _assign_buffer(self, name: str, value) -> None:
        buffer = self._buffers[name]
        if value is None or buffer is None:
            self._buffers[name] = None if value is None else Buffer(value)
            return
        buffer._value = value._value

    # -- construction -------------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        """Define the computation; every subclass overrides it. Call the Cell, not this."""
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot=True):
        """Add ``param`` to this Cell under ``param_name`` (what ``self.name = param`` does).

        An unnamed Parameter takes the name ``param_name``; a named one keeps its name.

        Args:
            param_name (str): The attribute name.
            param (Parameter): The Parameter, or None to register an empty slot.
            check_name_contain_dot (bool): Reject names with a '.'. Default: ``True``.

        Raises:
            KeyError: If the name is empty, has a '.' (with ``check_name_contain_dot``) or is
                already another attribute.
            TypeError: If ``param_name`` is not a str or ``param`` not a Parameter.

        Examples:
            >>> import cellax as ms
            >>> net = ms.nn.ReLU()
            >>> net.insert_param_to_cell("bias", ms.Parameter(ms.Tensor([1, 2, 3])))
            >>> print(net.bias)
            Parameter (name=bias, shape=(3,), dtype=Int64, requires_grad=True)
        """
        if not isinstance(param_name, str):
            raise TypeError(
                f"For 'insert_param_to_cell', 'param_name' must be a str, but got "
                f"{type(param_name).__name__}."
            )
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', 'param_name' must not be empty.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(
                f"For 'insert_param_to_cell', 'param_name' must contain no '.', but got "
                f"{param_name!r}."
            )
        _check_free_name("insert_param_to_cell", self, param_name, self._params)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"For 'insert_param_to_cell', 'param' must be a Parameter or None, but got "
                f"{type(param).__name__}."
            )
        if param is None:
            self._params[param_name] = None
            return
        self._set_parameter(param_name, param)

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        """Add ``child_cell`` as a child named ``child_name`` (replacing a child of that name).

        Unlike ``self.name = cell``, the child's Parameter names are not prefixed.

        Raises:
            KeyError: If the name is empty, has a '.', or is another (non-Cell) attribute.
            TypeError: If ``child_name`` is not a str or ``child_cell`` is not a Cell.

        Examples:
            >>> from cellax import nn
            >>> net1 = nn.ReLU()
            >>> net1.insert_child_to_cell("child", nn.Dense(2, 2))
            >>> print(net1)
            ReLU(
              (child): Dense(input_channels=2, output_channels=2, has_bias=True)
            )
        """
        _check_child_name("insert_child_to_cell", child_name)
        _check_free_name("insert_child_to_cell", self, child_name, self._cells)
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(
                f"For 'insert_child_to_cell', 'child_cell' must be a Cell or None, but got "
                f"{type(child_cell).__name__}."
            )
        if child_cell is self:
            raise ValueError(f"For 'Cell', a Cell can not be its own child ('{child_name}').")
        self._cells[child_name] = child_cell

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Add a buffer: state that is saved in ``state_dict`` but not trained.

        The buffer is read as ``self.name``; assigning a Tensor to ``self.name`` later writes
        its value (also under ``jit``). Non-persistent buffers are left out of ``state_dict``.

        Args:
            name (str): The attribute name.
            tensor (Tensor): The initial value (kept as an ``nn.Buffer``), or None.
            persistent (bool): Whether ``state_dict`` includes it. Default: ``True``.

        Raises:
            TypeError: If ``name`` is not a str or ``tensor`` is not a Tensor or None.
            KeyError: If ``name`` is empty, has a '.', or is another attribute.

        Examples:
            >>> import cellax as ms
            >>> class Net(ms.nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.register_buffer("buffer0", ms.tensor([1, 2, 3]))
            >>> print(Net().buffer0)
            [1 2 3]
        """
        _check_child_name("register_buffer", name)
        _check_free_name("register_buffer", self, name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"For 'register_buffer', 'tensor' must be a Tensor or None, but got "
                f"{type(tensor).__name__}."
            )
        if tensor is not None and not isinstance(tensor, Buffer):
            tensor = Buffer(tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    # -- traversal (every walk goes through cells_and_names) ---------------------------------
    def cells_and_names(self, cells=None, name_prefix: str = ""):
        """Yield ``(name, cell)`` for this Cell and every descendant, depth first, once each.

        ``cells`` is the set of Cells already visited (shared by the recursion); Cells in it
        are skipped.

        Examples:
            >>> from cellax import nn
            >>> seq = nn.SequentialCell(nn.ReLU(), nn.Dense(2, 2))
            >>> [name for name, _ in seq.cells_and_names()]
            ['', '0', '1']
        """
        visited = cells if cells is not None else set()
        if self in visited:
            return
        visited.add(self)
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
                        slot = _core.backing(slot)  # a row view: its stack
                        slots.setdefault(id(slot), slot)
            for value in cell.__dict__.values():
                if isinstance(value, (tuple, list)):
                    for item in value:
                        if isinstance(item, _core.Slot):
                            item = _core.backing(item)
                            slots.setdefault(id(item), item)

    # -- modes and flags ----------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The compile phase name: ``'train'`` after ``set_train(True)``, ``'predict'`` after
        ``set_train(False)``; a new Cell has ``'train'`` (as in MindSpore) with
        ``training == False``.

        Raises:
            TypeError: If assigned a non-str.
        """
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        object.__setattr__(self, "_phase", check_type("Cell", "phase", value, str))

    @property
    def cls_name(self) -> str:
        """The name of the Cell's class (read-only; library code uses it in error messages)."""
        return type(self).__name__

    @property
    def bprop_debug(self) -> bool:
        """Whether a custom ``bprop`` runs in Python (cellax always traces it as Python)."""
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        object.__setattr__(self, "_bprop_debug", check_bool("Cell", "bprop_debug", value))

    def set_train(self, mode: bool = True):
        """Set the training mode of this Cell and all descendants; return self.

        Adds the flag ``training`` (see :meth:`get_flags`) and sets :attr:`phase`.

        Examples:
            >>> from cellax import nn
            >>> net = nn.SequentialCell(nn.ReLU())
            >>> net.set_train().phase, net[0].training, net.get_flags()
            ('train', True, {'training': True})
        """
        check_bool("set_train", "mode", mode)
        object.__setattr__(self, "_phase", "train" if mode else "predict")
        self.add_flags_recursive(training=mode)
        return self

    def set_grad(self, requires_grad: bool = True):
        """Mark the Cell as needing gradients (no effect on JAX, which differentiates
        anything); return self."""
        check_bool("set_grad", "requires_grad", requires_grad)
        object.__setattr__(self, "requires_grad", requires_grad)
        return self

    def add_flags(self, **flags):
        """Add custom attributes; returns self."""
        self._flags.update(flags)
        for key, value in flags.items():
            object.__setattr__(self, key, value)
        if "training" in flags:  # part of jit's cache key
            _core.note_change()
        return self

    def add_flags_recursive(self, **flags):
        """Add custom attributes to this Cell and every descendant; returns self."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self) -> dict:
        """The custom attributes added with :meth:`add_flags`.

        Examples:
            >>> from cellax import nn
            >>> print(nn.ReLU().add_flags(sink_mode=True).get_flags())
            {'sink_mode': True}
        """
        return self._flags

    # -- the call pipeline --------------------------------------------------------------------
    def __call__(self, *args, **kwargs) -> Any:
        if self._inputs is not None:
            self._check_inputs(args)
        if _context.get_mode() == _context.GRAPH_MODE and _core.current_frame() is None:
            return self._graph_call(args, kwargs)
        return self._run(*args, **kwargs)

    def _run(self, *args, **kwargs):
        if _core.CALL_OBSERVERS:  # cellax.debug watches every call (empty otherwise)
            return _core.CALL_OBSERVERS[-1][1](self, self._run_hooked, args, kwargs)
        return self._run_hooked(*args, **kwargs)

    def _run_hooked(self, *args, **kwargs):
        if self._forward_pre_hooks:
            args, kwargs = self._run_forward_pre_hooks(args, kwargs)
        call = self._construct_call
        if self._float_dtype is not None:
            args = self._cast_inputs_to(args, self._float_dtype)
            call = self._construct_in_float_dtype
        if self._backward_hooks or self._backward_pre_hooks:
            out = _custom_vjp.run_with_backward_hooks(self, call, args, kwargs)
        else:
            out = call(*args, **kwargs)
        if self._forward_hooks:
            out = self._run_forward_hooks(args, out, kwargs)
        return out

    def _construct_call(self, *args, **kwargs):
        if self._recompute_policy is not None:
            policy = self._recompute_policy
            slots: dict = {}
            self._cellax_collect(slots, {})
            return _transforms.checkpoint_call(
                self._construct_plain,
                list(slots.values()),
                args,
                kwargs,
                policy=None if policy is True else policy,
            )
        return self._construct_plain(*args, **kwargs)

    def _construct_plain(self, *args, **kwargs):
        if "bprop" in type(self).__dict__ or hasattr(type(self), "bprop"):
            return _custom_vjp.run_with_bprop(self, args, kwargs)
        try:
            if _core.LOCAL.compiling is not None:  # compiled trace: Tensor control flow
                return _transforms.call_converted(self.construct, *args, **kwargs)
            return self.construct(*args, **kwargs)
        except TypeError:
            raise_if_unbound(self, args, kwargs)
            raise

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
        return self

    # -- printing -----------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """Extra text inside this Cell's parentheses; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        lines = extra.split("\n") if extra else []
        one_line = len(lines) == 1 and not self._cells
        for name, cell in self._cells.items():
            text = repr(cell).replace("\n", "\n  ")
            lines.append(f"({name}): {text}")
        head = type(self).__name__
        if one_line or not lines:
            return f"{head}({extra})"
        body = "\n  ".join(lines)
        return f"{head}(\n  {body}\n)"

    def run_construct(self, cast_inputs: tuple, kwargs: dict):
        """Run the Cell on ``cast_inputs`` and ``kwargs`` (deprecated in MindSpore).

        Examples:
            >>> import cellax as ms
            >>> print(ms.nn.ReLU().run_construct((ms.Tensor([-1.0, 2.0]),), {}))
            [0. 2.]
        """
        return self._run(*cast_inputs, **(kwargs or {}))

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)


def check_cell(api: str, value, name: str | None = None) -> None:
    """Raise TypeError unless ``value`` is a Cell (``name``: the argument, else one element)."""
    if not isinstance(value, Cell):
        if name is None:
            raise TypeError(
                f"For '{api}', each cell must be a Cell, but got {type(value).__name__}."
            )
        raise TypeError(
            f"For '{api}', '{name}' must be a Cell, but got {value!r} of type "
            f"{type(value).__name__}."
        )
