"""Cell.state_dict / load_state_dict and their four hooks (a mixin of nn.Cell)."""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import jax.numpy as jnp
import numpy as np

from ..._core import add_hook
from ..._tensor import Tensor, as_array

__all__ = ["IncompatibleKeys", "CellStateMixin"]


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """``(missing_keys, unexpected_keys)`` of ``Cell.load_state_dict``; shown as MindSpore does."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


EXTRA_STATE_SUFFIX = "_extra_state"


def _overrides(cell, name: str) -> bool:
    return getattr(type(cell), name) is not getattr(CellStateMixin, name)


class CellStateMixin:
    """state_dict machinery; relies on ``_params``, ``_buffers``, ``_cells`` of nn.Cell."""

    # -- extra state --------------------------------------------------------------------------
    def get_extra_state(self):
        """Extra (picklable) state to store in :meth:`state_dict` under ``'_extra_state'``.

        Override it together with :meth:`set_extra_state`; the base method is never called.

        Raises:
            RuntimeError: If called without being overridden.
        """
        raise RuntimeError(
            f"For 'get_extra_state', '{type(self).__name__}' does not override it: implement "
            f"get_extra_state and set_extra_state in the Cell to store extra state."
        )

    def set_extra_state(self, state) -> None:
        """Restore the extra state found by :meth:`load_state_dict` (override it).

        Raises:
            RuntimeError: If called without being overridden.
        """
        raise RuntimeError(
            f"For 'set_extra_state', '{type(self).__name__}' does not override it: implement "
            f"get_extra_state and set_extra_state in the Cell to load extra state."
        )

    # -- hooks --------------------------------------------------------------------------------
    def register_state_dict_pre_hook(self, hook):
        """Register ``hook`` to run before :meth:`state_dict` collects this Cell.

        Signature::

            hook(cell, prefix, keep_vars) -> None

        Returns:
            HookHandle, whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: If ``hook`` is not callable.

        Examples:
            >>> import cellax as ms
            >>> class NetA(ms.nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.param_a = ms.Parameter(ms.tensor([1, 2, 3]))
            >>> def add_extra_param(cell, prefix, keep_vars):
            ...     cell._params["extra_param"] = ms.Parameter(ms.tensor([4, 5, 6]))
            >>> net = NetA()
            >>> handle = net.register_state_dict_pre_hook(add_extra_param)
            >>> print("extra_param" in net.state_dict())
            True
            >>> handle.remove()
        """
        return add_hook(self._state_dict_pre_hooks, hook, "register_state_dict_pre_hook")

    def register_state_dict_post_hook(self, hook):
        """Register ``hook`` to run after :meth:`state_dict` collected this Cell.

        Signature::

            hook(cell, state_dict, prefix, local_metadata) -> None

        The hook may change ``state_dict`` in place; it must return None.

        Raises:
            TypeError: If ``hook`` is not callable.
        """
        return add_hook(self._state_dict_hooks, hook, "register_state_dict_post_hook")

    def register_load_state_dict_pre_hook(self, hook):
        """Register ``hook`` to run before :meth:`load_state_dict` reads this Cell's entries.

        Signature::

            hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs) -> None

        ``state_dict`` holds the entries under ``prefix`` and may be changed in place.

        Raises:
            TypeError: If ``hook`` is not callable.
        """
        return add_hook(self._load_state_dict_pre_hooks, hook, "register_load_state_dict_pre_hook")

    def register_load_state_dict_post_hook(self, hook):
        """Register ``hook`` to run after :meth:`load_state_dict` loaded this Cell.

        Signature::

            hook(cell, incompatible_keys) -> None

        ``incompatible_keys`` has the lists ``missing_keys`` and ``unexpected_keys``; changing
        them in place changes what ``strict=True`` reports.

        Raises:
            TypeError: If ``hook`` is not callable.
        """
        return add_hook(
            self._load_state_dict_post_hooks, hook, "register_load_state_dict_post_hook"
        )

    # -- state_dict ---------------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An OrderedDict of the Parameters and persistent buffers, by attribute path.

        Args:
            destination (dict): Dict to fill and return instead of a new OrderedDict.
                Default: ``None``.
            prefix (str): Prefix of every key. Default: ``''``.
            keep_vars (bool): Passed to the hooks; entries are always the Parameter and buffer
                objects themselves (references). Default: ``False``.

        Returns:
            OrderedDict, ``{path: Parameter or buffer}``; with ``'_extra_state'`` entries for
            Cells that override :meth:`get_extra_state`.

        Raises:
            TypeError: If ``destination`` is not a dict, ``prefix`` not a str or ``keep_vars``
                not a bool.

        Examples:
            >>> import cellax as ms
            >>> class Model(ms.nn.Cell):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.buffer_a = ms.nn.Buffer(ms.tensor([4, 5, 6]))
            ...         self.param_a = ms.Parameter(ms.tensor([1, 2, 3]))
            >>> print(Model().state_dict())
            OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, requires_grad=True)), ('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])
        """
        if args:
            warnings.warn(
                "For 'state_dict', positional arguments are deprecated: pass destination, "
                "prefix and keep_vars by keyword.",
                FutureWarning,
                stacklevel=2,
            )
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(
                f"For 'state_dict', 'destination' must be a dict, but got "
                f"{type(destination).__name__}."
            )
        if not isinstance(prefix, str):
            raise TypeError(f"For 'state_dict', 'prefix' must be a str, but got {prefix!r}.")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"For 'state_dict', 'keep_vars' must be a bool, but got {keep_vars!r}.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        self._collect_state(destination, prefix, keep_vars)
        return destination

    def _collect_state(self, destination, prefix: str, keep_vars: bool) -> None:
        local_metadata: dict = {}
        metadata = getattr(destination, "_metadata", None)
        if metadata is not None:
            metadata[prefix[:-1]] = local_metadata
        for hook in list(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        for name, param in self._params.items():
            if param is not None:
                destination[prefix + name] = param
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers:
                destination[prefix + name] = buffer
        if _overrides(self, "get_extra_state"):
            destination[prefix + EXTRA_STATE_SUFFIX] = self.get_extra_state()
        for name, cell in self._cells.items():
            if cell is not None:
                cell._collect_state(destination, f"{prefix}{name}.", keep_vars)
        for hook in list(self._state_dict_hooks.values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError(
                    "For 'register_state_dict_post_hook', the hook must return None and change "
                    "the state_dict in place."
                )

    # -- load_state_dict ----------------------------------------------------------------------
    def load_state_dict(self, state_dict, strict: bool = True) -> IncompatibleKeys:
        """Copy Parameters and persistent buffers from ``state_dict`` into this Cell.

        Args:
            state_dict (dict): ``{path: Tensor}`` as returned by :meth:`state_dict` (or
                ``cellax.load_checkpoint``).
            strict (bool): Require the keys to match :meth:`state_dict` exactly.
                Default: ``True``.

        Returns:
            IncompatibleKeys, a namedtuple ``(missing_keys, unexpected_keys)``.

        Raises:
            TypeError: If ``state_dict`` is not a Mapping.
            RuntimeError: If a value is not a Tensor, a shape differs, or (with ``strict``)
                keys are missing or unexpected. Nothing is loaded then.

        Examples:
            >>> import cellax as ms
            >>> net = ms.nn.Dense(2, 1)
            >>> state = {"weight": ms.ops.ones((1, 2)), "bias": ms.ops.zeros((1,))}
            >>> net.load_state_dict(state)
            <All keys matched successfully>
            >>> print(net.weight.asnumpy())
            [[1. 1.]]

        Differences from MindSpore: all entries are checked before any is written, and a load
        that fails (including a strict-key failure left by a post-hook) restores every value,
        so the Cell is never half-loaded. ``set_extra_state`` runs only after success.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(
                f"For 'load_state_dict', 'state_dict' must be a dict-like Mapping, but got "
                f"{type(state_dict).__name__}."
            )
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        missing: list = []
        unexpected: list = []
        errors: list = []
        plan: list = []
        extra: list = []
        cells: list = []
        self._plan_load(
            state_dict, "", metadata, strict, missing, unexpected, errors, plan, extra, cells
        )
        if errors:
            raise RuntimeError(_load_error(self, errors, [], []))
        old = [(slot, slot._value) for slot, _ in plan]
        for slot, value in plan:
            slot._value = value
        keys = IncompatibleKeys(missing, unexpected)
        for cell in cells:
            for hook in list(cell._load_state_dict_post_hooks.values()):
                if hook(cell, keys) is not None:
                    errors.append("a load_state_dict post-hook returned a value instead of None")
        if errors or (strict and (missing or unexpected)):
            for slot, value in old:
                slot._value = value
            raise RuntimeError(
                _load_error(self, errors, missing if strict else [], unexpected if strict else [])
            )
        for cell, state in extra:
            cell.set_extra_state(state)
        return keys

    def _plan_load(
        self, state_dict, prefix, metadata, strict, missing, unexpected, errors, plan, extra, cells
    ) -> None:
        local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
        for hook in list(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing, unexpected, errors)
        local = {k: v for k, v in self._params.items() if v is not None}
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers:
                local[name] = buffer
        for name, slot in local.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing.append(key)
                continue
            value = _checked_value(key, state_dict[key], slot, errors)
            if value is not None:
                plan.append((slot, value))
        extra_key = prefix + EXTRA_STATE_SUFFIX
        if _overrides(self, "set_extra_state"):
            if extra_key in state_dict:
                extra.append((self, state_dict[extra_key]))
            elif strict:
                missing.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected.append(extra_key)
        if strict:
            for key in state_dict:
                if not key.startswith(prefix) or key == extra_key:
                    continue
                head, dot, _ = key[len(prefix) :].partition(".")
                known = self._cells if dot else local
                if head not in known or known[head] is None:
                    unexpected.append(key)
        for name, child in self._cells.items():
            if child is not None:
                child_prefix = f"{prefix}{name}."
                child_state = {k: v for k, v in state_dict.items() if k.startswith(child_prefix)}
                child._plan_load(
                    child_state,
                    child_prefix,
                    metadata,
                    strict,
                    missing,
                    unexpected,
                    errors,
                    plan,
                    extra,
                    cells,
                )
        cells.append(self)


def _checked_value(key: str, value, slot, errors: list):
    if not isinstance(value, (Tensor, np.ndarray)):
        errors.append(f"the value of '{key}' must be a Tensor, but got {type(value).__name__}.")
        return None
    array = as_array(value, api="load_state_dict")
    current = slot._value
    if tuple(array.shape) != tuple(current.shape):
        errors.append(
            f"size mismatch for '{key}': the shape in state_dict is {tuple(array.shape)}, but "
            f"the shape in the current Cell is {tuple(current.shape)}."
        )
        return None
    # A copy: the source array may belong to another slot, and jit donates slot buffers.
    return jnp.array(array, dtype=current.dtype, copy=True)


def _load_error(cell, errors: list, missing: list, unexpected: list) -> str:
    lines = []
    if missing:
        lines.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ".")
    if unexpected:
        lines.append(
            "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + "."
        )
    lines.extend(errors)
    body = "\n\t".join(lines)
    return (
        f"For 'load_state_dict', error(s) in loading state_dict for '{type(cell).__name__}' "
        f"(nothing was loaded):\n\t{body}"
    )
