"""Cell methods about compilation: set_inputs, compile, jit config (a mixin of nn.Cell)."""

from __future__ import annotations

import enum
import functools
import inspect
import types
import warnings

import jax
import numpy as np

from ... import _transforms
from ..._jit_config import JitConfig
from ..._tensor import Tensor

__all__ = ["CellCompileMixin"]


# Arguments a compiled program takes as they are: data (Tensors, arrays, numbers, strings) and
# code; a Python object of another kind is compiled in as a constant keyed by its identity
_CARRIED_TYPES = (
    type(None), bool, int, float, complex, str, bytes, slice, type(Ellipsis), Tensor,
    np.ndarray, np.generic, jax.Array, type, enum.Enum, types.FunctionType,
    types.BuiltinFunctionType, types.MethodType, types.ModuleType, functools.partial,
)  # fmt: skip


def _holds_python_state(value) -> bool:
    """Whether ``value`` is a Python object with mutable state of its own (an instance with a
    ``__dict__`` compared by identity: a key/value cache, a counter object), not a Cell."""
    if isinstance(value, _CARRIED_TYPES) or not hasattr(value, "__dict__"):
        return False
    if isinstance(value, CellCompileMixin) or type(value).__eq__ is not object.__eq__:
        return False
    return True


def _python_state_argument(args: tuple, kwargs: dict):
    """The first argument (searched through tuples, lists and dicts) that holds Python state."""
    if not kwargs and all(type(arg) is Tensor for arg in args):
        return None
    for leaf in jax.tree_util.tree_leaves((args, kwargs)):
        if _holds_python_state(leaf):
            return leaf
    return None


def _warn_pynative(cell, what: str) -> None:
    warnings.warn(
        f"For '{type(cell).__name__}' in GRAPH_MODE, {what}: a compiled program would keep "
        f"its Tensors as constants and lose its updates, so this call runs in PyNative mode "
        f"(the results are the same, op by op). Pass Tensors and tuples of them to compile it.",
        UserWarning,
        stacklevel=4,
    )


def _construct_arity(cell):
    """(required positional count, optional count), or None if construct takes *args/**kw."""
    required = optional = 0
    for param in inspect.signature(cell.construct).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            return None
        if param.kind is param.POSITIONAL_OR_KEYWORD:
            if param.default is param.empty:
                required += 1
            else:
                optional += 1
    return required, optional


def _check_one(api: str, index: int, declared, actual) -> None:
    if not isinstance(declared, Tensor):
        return
    if not isinstance(actual, Tensor):
        raise TypeError(
            f"For '{api}', input {index} was declared by set_inputs as a Tensor, but got "
            f"{type(actual).__name__}."
        )
    if len(actual.shape) != len(declared.shape):
        raise ValueError(
            f"For '{api}', input {index} was declared by set_inputs with shape "
            f"{list(declared.shape)} (rank {len(declared.shape)}), but got shape "
            f"{list(actual.shape)}. Call set_inputs again to change the declaration."
        )
    for want, got in zip(declared.shape, actual.shape):
        if want not in (-1, None) and want != got:
            raise ValueError(
                f"For '{api}', input {index} was declared by set_inputs with shape "
                f"{list(declared.shape)} (-1 is a dynamic dimension), but got shape "
                f"{list(actual.shape)}. Call set_inputs again to change the declaration."
            )
    if declared.dtype != actual.dtype:
        raise TypeError(
            f"For '{api}', input {index} was declared by set_inputs with dtype "
            f"{declared.dtype}, but got {actual.dtype}."
        )


class CellCompileMixin:
    """set_inputs/get_inputs, compile/compile_and_run and set_jit_config for nn.Cell."""

    def set_inputs(self, *inputs, **kwargs) -> None:
        """Declare the inputs of the Cell: Tensors whose dims may be dynamic (``None``).

        Args:
            inputs (tuple): All inputs of ``construct`` in order (full mode).
            kwargs (dict): Some inputs of ``construct`` by parameter name (incremental mode).

        Raises:
            ValueError: If both ``inputs`` and ``kwargs`` are given.
            TypeError: If the number of ``inputs`` does not fit ``construct``, or a keyword is
                not a parameter of ``construct``.

        Examples:
            >>> import numpy as np
            >>> import cellax as ms
            >>> from cellax import nn, Tensor
            >>> net = nn.ReLU()
            >>> net.set_inputs(Tensor(shape=[3, None], dtype=ms.float32))
            >>> print(net.get_inputs())
            (Tensor(shape=[3, -1], dtype=Float32, value= ),)
            >>> net(Tensor(np.ones((3, 10)), ms.float32)).shape
            (3, 10)

        Differences from MindSpore: XLA compiles one program per concrete input shape (jit
        caches them), so a dynamic dimension does not share one program across shapes. The
        declaration is a contract instead: every call is checked against its rank, static
        dimensions and dtype, and a mismatch raises ``ValueError``/``TypeError``.
        """
        if inputs and kwargs:
            raise ValueError(
                f"For 'set_inputs', give either positional inputs (full mode) or keyword inputs "
                f"(incremental mode), not both, but got {len(inputs)} positional and "
                f"{sorted(kwargs)} keyword inputs."
            )
        if not kwargs:
            arity = _construct_arity(self)
            if arity is not None and not arity[0] <= len(inputs) <= arity[0] + arity[1]:
                raise TypeError(
                    f"For 'set_inputs', '{type(self).__name__}.construct' takes {arity[0]} "
                    f"positional input(s) and {arity[1]} optional one(s), but got "
                    f"{len(inputs)} input(s)."
                )
            object.__setattr__(self, "_inputs", tuple(inputs))
            return
        names = [
            p.name
            for p in inspect.signature(self.construct).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY)
        ]
        infos = []
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(
                    f"For 'set_inputs', '{key}' is not a parameter of "
                    f"'{type(self).__name__}.construct' (parameters: {names})."
                )
            infos.append([names.index(key), value])
        object.__setattr__(
            self, "_inputs", {"arg_specified_infos": infos, "total_arg_length": len(names)}
        )

    def get_inputs(self):
        """The inputs declared by :meth:`set_inputs` (None if not set).

        A tuple in full mode; in incremental mode a dict
        ``{'arg_specified_infos': [[position, Tensor], ...], 'total_arg_length': n}``.
        """
        return self._inputs

    def _check_inputs(self, args: tuple) -> None:
        declared = self._inputs
        api = type(self).__name__
        if isinstance(declared, dict):
            for index, tensor in declared["arg_specified_infos"]:
                if index < len(args):
                    _check_one(api, index, tensor, args[index])
            return
        for index, (want, got) in enumerate(zip(declared, args)):
            _check_one(api, index, want, got)

    def _graph_call(self, args: tuple, kwargs: dict):
        """A GRAPH_MODE call from eager code: compiled, unless an argument or the result is a
        Python object with its own state, which the call updates as PyNative code would."""
        stateful = _python_state_argument(args, kwargs)
        if stateful is not None:
            _warn_pynative(self, f"an argument is a {type(stateful).__name__} object")
            return self._run(*args, **kwargs)
        if self._graph_pynative is None:
            try:
                return self._graph_function()(*args, **kwargs)
            except _transforms.UncarriedOutputError as error:
                # remembered: tracing the Cell again on every call (a decoding loop) would
                # cost a whole trace per call to reach the same answer
                object.__setattr__(self, "_graph_pynative", error.kind)
        _warn_pynative(self, f"the result holds a Python object ({self._graph_pynative})")
        return self._run(*args, **kwargs)

    def _graph_function(self):
        graph_fn = self._graph_fn
        if graph_fn is None:
            graph_fn = _transforms.jit(self._run, jit_config=self._jit_config)
            object.__setattr__(self, "_graph_fn", graph_fn)
        return graph_fn

    def compile(self, *args, **kwargs) -> None:
        """Compile the Cell ahead of time for these inputs (XLA lower + compile).

        Args:
            args (tuple): Inputs of the Cell.
            kwargs (dict): Keyword inputs of the Cell.

        Raises:
            ValueError: If an input is a shape-only Tensor (give concrete inputs).

        Examples:
            >>> import cellax as ms
            >>> net = ms.nn.Dense(2, 3)
            >>> net.compile(ms.ops.ones((4, 2)))
            >>> "stablehlo" in net.get_func_graph_proto() or "mhlo" in net.get_func_graph_proto()
            True

        Differences from MindSpore: the program is compiled for the concrete shapes given;
        calling the Cell later still compiles through ``cellax.jit``'s cache (GRAPH_MODE) or
        runs eagerly (PYNATIVE_MODE). ``compile`` checks that the Cell traces and compiles
        and records the program text for :meth:`get_func_graph_proto`.
        """
        for index, arg in enumerate(args):
            if isinstance(arg, Tensor) and arg._value is None:
                raise ValueError(
                    f"For 'compile', input {index} is a shape-only Tensor "
                    f"{list(arg.shape)}: XLA compiles for concrete shapes, so pass a real "
                    f"Tensor of the shape to compile for."
                )
        if self._inputs is not None:
            self._check_inputs(args)
        lowered = self._graph_function().lower(*args, **kwargs)
        lowered.compile()
        object.__setattr__(self, "_graph_text", lowered.as_text())

    def compile_and_run(self, *args, **kwargs):
        """Compile the Cell for these inputs (once per shape) and run the program.

        Returns:
            The outputs of the Cell.

        Examples:
            >>> import cellax as ms
            >>> print(ms.nn.ReLU().compile_and_run(ms.Tensor([-1.0, 2.0])))
            [0. 2.]
        """
        if self._inputs is not None:
            self._check_inputs(args)
        return self._graph_function()(*args, **kwargs)

    def get_func_graph_proto(self) -> str:
        """The StableHLO text of the program made by the last :meth:`compile`.

        Raises:
            RuntimeError: If :meth:`compile` was not called.

        Differences from MindSpore: XLA's StableHLO text instead of a MindIR protobuf.
        """
        text = self.__dict__.get("_graph_text")
        if text is None:
            raise RuntimeError(
                f"For 'get_func_graph_proto', '{type(self).__name__}' has no compiled program: "
                f"call compile(*inputs) first."
            )
        return text

    def set_jit_config(self, jit_config) -> None:
        """Set the :class:`cellax.JitConfig` used when this Cell is compiled.

        Raises:
            TypeError: If ``jit_config`` is not a JitConfig.

        Examples:
            >>> import cellax as ms
            >>> net = ms.nn.ReLU()
            >>> net.set_jit_config(ms.JitConfig(jit_level="O1"))
            >>> net.jit_config_dict["jit_level"]
            'O1'

        Differences from MindSpore: the options are recorded; XLA picks its own optimizations.
        """
        if not isinstance(jit_config, JitConfig):
            raise TypeError(
                f"For 'set_jit_config', 'jit_config' must be a JitConfig, but got "
                f"{type(jit_config).__name__}."
            )
        object.__setattr__(self, "_jit_config", jit_config)
        object.__setattr__(self, "_graph_fn", None)  # compile again with the new options
        object.__setattr__(self, "_graph_pynative", None)

    @property
    def jit_config_dict(self) -> dict:
        """The options of the :class:`cellax.JitConfig` set on this Cell ({} if none)."""
        config = self._jit_config
        return {} if config is None else config.jit_config_dict
