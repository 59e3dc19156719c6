"""nn.Optimizer: the base of cellax's optax-backed optimizers.

An optimizer is a Cell whose state (the ``global_step``, learning-rate Parameters, moments and
other per-parameter slots) is held in Parameters it owns, so that ``cellax.jit`` carries it
through compiled train steps like any other state. A step reads the slot values, runs a pure
function (optax transformations, ``tx.update(grads, state, params)``) on arrays, and writes
the new parameter and slot values back through the state frame.

Subclasses (``_algorithms.py``) declare their slots in ``__init__`` with
:meth:`Optimizer._clone_state` / :meth:`Optimizer._add_hyper` and implement
``_update(lr, weight_decay, param, grad, state, hyper, count, index)``.
"""

from __future__ import annotations

import collections.abc
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from ..._errors import check_number
from ... import _core, _parallel_state
from ..._parameter import Parameter, ParameterTuple
from ..._stacked import (
    find_row_groups,
    grouped_updates,
    optimizer_gradient,
    stack_state_rows,
    whole_stack_gradients,
)
from ..._tensor import Tensor, unwrap, wrap
from .._cell import Cell
from .._lr_schedule import LearningRateSchedule
from ._checks import centralize as _centralize
from ._checks import check_parameter_list as _check_parameter_list
from ._protected_api import OptimizerProtectedAPI

__all__ = ["Optimizer"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


# --------------------------------------------------------------------------------------------
# checkers


def _f32(value):
    return jnp.asarray(value, jnp.float32)


# --------------------------------------------------------------------------------------------
# learning-rate and weight-decay holders


class _IteratorLearningRate(LearningRateSchedule):
    """Per-step rates from a 1-D Tensor (or list): the rate at ``global_step``.

    A negative step counts from the end, as MindSpore's gather does (``global_step - 1`` before
    the first step reads the last rate); past the end the last rate is used (MindSpore's
    gather is undefined there).
    """

    def __init__(self, learning_rate, name: str) -> None:
        super().__init__()
        self.learning_rate = Parameter(learning_rate, name=name)

    def construct(self, global_step):
        rates = self.learning_rate._value
        index = jnp.asarray(unwrap(global_step)).astype(jnp.int32)
        index = jnp.clip(jnp.where(index < 0, index + rates.shape[0], index), 0, rates.shape[0] - 1)
        return wrap(rates[index])


class _ScaledWeightDecay(Cell):
    """A dynamic weight-decay Cell, multiplied by the optimizer's loss scale."""

    def __init__(self, weight_decay: Cell, loss_scale: float) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = loss_scale

    def construct(self, global_step):
        value = jnp.asarray(unwrap(self.weight_decay(global_step)), jnp.float32)
        return wrap(value * np.float32(self.loss_scale))


# --------------------------------------------------------------------------------------------
# the base class


class Optimizer(OptimizerProtectedAPI, Cell):
    """Base class of optimizers: updates Parameters from their gradients.

    ``optimizer(grads)`` applies one step, eagerly or inside ``cellax.jit``; ``grads`` is a
    tuple with one gradient per Parameter, in the order of ``optimizer.parameters`` (what
    ``value_and_grad(fn, None, optimizer.parameters)`` returns). All state lives in
    Parameters owned by the optimizer, so a jitted train step that closes over the network and
    the optimizer updates both.

    Args:
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): A fixed rate
            (float or 0-D Tensor); per-step rates (1-D Tensor or list, indexed by
            ``global_step``); or a :class:`LearningRateSchedule` Cell called with
            ``global_step``.
        parameters (Union[list[Parameter], list[dict]]): The Parameters to update, or groups:
            dicts with ``'params'`` and optionally ``'lr'``, ``'weight_decay'``,
            ``'grad_centralization'``; one dict ``{'order_params': params}`` fixes the order.
        weight_decay (Union[float, int, Cell]): L2 penalty; a Cell is called with
            ``global_step``. Parameters whose name contains 'beta' or 'gamma' are not decayed
            (unless given in a group). Default: ``0.0``.
        loss_scale (float): Gradients are divided by it. Default: ``1.0``.

    Raises:
        TypeError: If ``parameters`` holds something other than Parameters or dicts, or an
            argument has the wrong type.
        ValueError: If ``parameters`` is empty or a rate is negative.
        KeyError: If a group dict has an unknown key.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        >>> print(opt.get_lr())
        Parameter (name=learning_rate, shape=(), dtype=Float32, requires_grad=True)
        >>> print(opt.global_step.asnumpy())
        [0]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Optimizer.html
    """

    # Subclasses that apply weight decay themselves (decoupled) set this to False.
    _decay_in_gradient = True

    @property
    def target(self):
        """Where parameters are updated (``'CPU'``, ``'GPU'`` or ``'Ascend'``): the context's
        device target, as cellax updates parameters where JAX computes."""
        from ..._context import get_context

        return self.__dict__.get("_target") or get_context("device_target")

    @target.setter
    def target(self, value):
        """Subclasses that choose between host and device updates override this setter."""
        raise NotImplementedError

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0) -> None:
        super().__init__(auto_prefix=False)
        api = type(self).__name__
        items = _check_parameter_list(api, "parameters", parameters)
        if not (
            all(isinstance(x, Parameter) for x in items) or all(isinstance(x, dict) for x in items)
        ):
            bad = next(x for x in items if not isinstance(x, (Parameter, dict)))
            raise TypeError(
                f"For '{api}', every element of 'parameters' must be a Parameter (or every "
                f"element a group dict), but got {bad!r} of type {type(bad).__name__}."
            )
        self.loss_scale = check_number(api, "loss_scale", loss_scale, positive=True)
        self.dynamic_lr = False
        self.dynamic_weight_decay = False
        self.is_group = isinstance(items[0], dict)
        self.is_group_lr = False
        self.is_group_params_ordered = False
        self.grad_centralization = False
        self.global_step = Parameter(np.zeros((1,), np.int32), name="global_step")
        default_lr = self._preprocess_single_lr(learning_rate)
        self._lr_sources: list = []
        if self.is_group:
            params, lrs, wds, gcs = self._parse_groups(items, default_lr, weight_decay)
        else:
            params = items
            wd = self._preprocess_weight_decay(weight_decay)
            lrs = [default_lr] * len(params)
            wds = [wd] * len(params)
            gcs = [False] * len(params)
        self._init_learning_rates(lrs)
        self._init_weight_decay(params, wds)
        self._gc_flags = tuple(gcs)
        self.parameters = ParameterTuple(params)
        self._parameters = self.parameters
        self.param_length = len(params)
        # the stacks of ScanCell rows updated as one array each (cellax/_stacked.py)
        object.__setattr__(self, "_row_groups", find_row_groups(self))
        for param in params:
            self._own(param)
        self._state_tuples: list = []
        self._hyper: list = []
        object.__setattr__(self, "_step_fn", None)
        self._init_protected_api()

    # -- construction helpers ----------------------------------------------------------------
    def _own(self, param: Parameter, key: str | None = None) -> None:
        """Register ``param`` in this Cell (so walks, checkpoints and jit find it)."""
        key = key or param.name
        while key in self._params and self._params[key] is not param:
            key = "_" + key
        self._params[key] = param

    def _clone_state(self, prefix: str, init=0.0) -> ParameterTuple:
        """One slot per parameter, named ``prefix.<param name>``, filled with ``init``."""
        clones = ParameterTuple(
            Parameter(
                jnp.full(p.shape, init, p._data.dtype),
                name=f"{prefix}.{p.name}",
                requires_grad=p.requires_grad,
            )
            for p in self._parameters
        )
        for clone, param in zip(clones, self._parameters):
            self._own(clone)
            # enable_parallel_optimizer shards the state of the Parameters it may split
            clone.parallel_optimizer = getattr(param, "parallel_optimizer", True)
            if clone.parallel_optimizer:
                _parallel_state.OPTIMIZER_STATE[id(clone)] = clone
        self._state_tuples.append(clones)
        if self._row_groups:
            stack_state_rows(self, clones)
        return clones

    def _add_hyper(self, name: str, value, dtype=np.float32) -> Parameter:
        """A scalar state Parameter (e.g. ``momentum``, ``beta1_power``) set as attribute."""
        param = Parameter(np.asarray(value, dtype), name=name)
        setattr(self, name, param)
        self._hyper.append(param)
        return param

    def _preprocess_single_lr(self, learning_rate):
        api = type(self).__name__
        if isinstance(learning_rate, LearningRateSchedule):
            self.dynamic_lr = True
            return learning_rate
        if isinstance(learning_rate, numbers.Real) and not isinstance(learning_rate, bool):
            return check_number(api, "learning_rate", learning_rate)
        if isinstance(learning_rate, Tensor):
            value = np.asarray(learning_rate.asnumpy(), np.float32)
        elif isinstance(learning_rate, collections.abc.Iterable) and not isinstance(
            learning_rate, (str, bytes, dict)
        ):
            try:
                value = np.asarray(list(learning_rate), np.float32)
            except (TypeError, ValueError):
                raise ValueError(
                    f"For '{api}', 'learning_rate' as a list must hold one number per step, "
                    f"but got {learning_rate!r}."
                ) from None
        else:
            # MindSpore 2.10 reads a str or dict as a list of steps: a ValueError there
            error = ValueError if isinstance(learning_rate, (str, dict)) else TypeError
            raise error(
                f"For '{api}', 'learning_rate' must be a float, int, Tensor, list or "
                f"LearningRateSchedule, but got {type(learning_rate).__name__}."
            )
        if value.ndim > 1:
            raise ValueError(
                f"For '{api}', a Tensor 'learning_rate' must be 0-D or 1-D, but got shape "
                f"{value.shape}."
            )
        if (value < 0).any():
            raise ValueError(f"For '{api}', 'learning_rate' must be non-negative, but got {value}.")
        if value.ndim == 1:
            self.dynamic_lr = True
        return value

    def _build_lr(self, value, name: str):
        """A float/array rate -> a Parameter (fixed) or an _IteratorLearningRate (per step)."""
        if isinstance(value, LearningRateSchedule):
            return value
        if np.ndim(value) == 1:
            return _IteratorLearningRate(value, name)
        return Parameter(np.asarray(value, np.float32), name=name)

    def _preprocess_weight_decay(self, weight_decay):
        api = type(self).__name__
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _ScaledWeightDecay(weight_decay, self.loss_scale)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, numbers.Real):
            raise TypeError(
                f"For '{api}', 'weight_decay' must be a float, int or Cell, but got "
                f"{type(weight_decay).__name__}."
            )
        return check_number(api, "weight_decay", weight_decay) * self.loss_scale

    def _parse_groups(self, groups, default_lr, weight_decay):
        api = type(self).__name__
        params, lrs, wds, gcs, order = [], [], [], [], None
        names: set = set()
        default_wd = self._preprocess_weight_decay(weight_decay)
        lr_length = np.shape(default_lr)[0] if np.ndim(default_lr) == 1 else None
        for number, group in enumerate(groups):
            unknown = [key for key in group if key not in _GROUP_KEYS]
            if unknown:
                raise KeyError(
                    f"For '{api}', the keys of a parameter group must be among {_GROUP_KEYS}, "
                    f"but got {unknown}."
                )
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError(
                        f"For '{api}', the 'order_params' group must hold only the "
                        f"'order_params' key, but got {sorted(group)}."
                    )
                order = _check_parameter_list(api, "order_params", group["order_params"])
                self.is_group_params_ordered = True
                continue
            if "params" not in group:
                raise KeyError(f"For '{api}', every parameter group needs a 'params' key.")
            members = _check_parameter_list(api, "params", group["params"])
            for index, param in enumerate(members):
                if not isinstance(param, Parameter):
                    raise TypeError(
                        f"For '{api}', the group 'params' must hold Parameters, but got "
                        f"{type(param).__name__} at index {index}."
                    )
                if param.name in names:
                    raise RuntimeError(
                        f"For '{api}', the Parameter '{param.name}' is in two parameter "
                        f"groups. Give each Parameter to one group only."
                    )
                names.add(param.name)
            if "lr" in group:
                self.is_group_lr = True
                lr = self._preprocess_single_lr(group["lr"])
                if np.ndim(lr) == 1:
                    if lr_length is None:
                        lr_length = np.shape(lr)[0]
                    elif np.shape(lr)[0] != lr_length:
                        raise ValueError(
                            f"For '{api}', per-step learning rates of all groups must have the "
                            f"same length, but got {lr_length} and {np.shape(lr)[0]}."
                        )
                lr = ("group", number, lr)
            else:
                lr = default_lr
            wd = (
                self._preprocess_weight_decay(group["weight_decay"])
                if "weight_decay" in group
                else default_wd
            )
            gc = group.get("grad_centralization", False)
            if not isinstance(gc, bool):
                raise TypeError(
                    f"For '{api}', 'grad_centralization' must be a bool, but got "
                    f"{type(gc).__name__}."
                )
            self.grad_centralization = self.grad_centralization or gc
            params += members
            lrs += [lr] * len(members)
            wds += [wd] * len(members)
            gcs += [gc] * len(members)
        if order is not None:
            if len(order) != len(params):
                raise ValueError(
                    f"For '{api}', 'order_params' must hold as many Parameters as the groups "
                    f"({len(params)}), but got {len(order)}."
                )
            position = {id(p): i for i, p in enumerate(params)}
            try:
                index = [position[id(p)] for p in order]
            except KeyError:
                raise ValueError(
                    f"For '{api}', every Parameter of 'order_params' must be in a group."
                ) from None
            params = [params[i] for i in index]
            lrs, wds, gcs = ([seq[i] for i in index] for seq in (lrs, wds, gcs))
        return params, lrs, wds, gcs

    def _init_learning_rates(self, lrs) -> None:
        """Build one lr source per distinct rate; ``_lr_of[i]`` indexes parameter i's."""
        sources: list = []
        built: dict = {}
        lr_of = []
        for spec in lrs:
            key = id(spec)
            if key not in built:
                if isinstance(spec, tuple) and spec[0] == "group":
                    source = self._build_lr(spec[2], f"learning_rate_group_{spec[1]}")
                else:
                    source = self._build_lr(spec, "learning_rate")
                built[key] = len(sources)
                sources.append(source)
            lr_of.append(built[key])
        self._lr_of = tuple(lr_of)
        self._lr_sources = sources
        if not self.is_group_lr:
            self.learning_rate = sources[0]
            return
        for number, source in enumerate(sources):
            if isinstance(source, Parameter):
                self._own(source)
            else:
                self.insert_child_to_cell(f"learning_rate_{number}", source)
        per_param = [sources[i] for i in lr_of]
        if all(isinstance(s, Parameter) for s in per_param):
            per_param = ParameterTuple(per_param)
        # A plain attribute: the sources are registered above under their own names.
        object.__setattr__(
            self,
            "learning_rate",
            tuple(per_param) if not isinstance(per_param, ParameterTuple) else per_param,
        )

    def _init_weight_decay(self, params, wds) -> None:
        def nonzero(wd):
            return isinstance(wd, Cell) or wd > 0

        if self.is_group:
            flags = [nonzero(wd) for wd in wds]
            self.weight_decay = tuple(
                wd if isinstance(wd, Cell) else Tensor(wd, np.float32) for wd in wds
            )
            for number, wd in enumerate(dict.fromkeys(wds, None)):
                if isinstance(wd, Cell):
                    self.insert_child_to_cell(f"weight_decay_{number}", wd)
        else:
            flags = [
                nonzero(wds[0]) and "beta" not in p.name and "gamma" not in p.name for p in params
            ]
            wd = wds[0]
            self.weight_decay = wd if isinstance(wd, Cell) else Tensor(wd, np.float32)
        self._wd_of = tuple(wds)
        self._decay_flags = tuple(flags)
        self.exec_weight_decay = any(flags)

    # -- public queries ----------------------------------------------------------------------
    def get_lr(self):
        """The learning rate of the current step.

        Returns:
            The ``learning_rate`` Parameter for a fixed rate; a Tensor of shape ``()`` for a
            dynamic one; a tuple (one per parameter) with group learning rates.
        """
        if not self.dynamic_lr:
            return self.learning_rate
        rates = [wrap(v) for v in self._lr_values(self.global_step._value)]
        if self.is_group_lr:
            return tuple(rates[i] for i in self._lr_of)
        return rates[0]

    def get_lr_parameter(self, param):
        """The learning rate (Parameter or schedule Cell) of ``param`` (or a list of them).

        Raises:
            TypeError: If ``param`` is not a Parameter or list of Parameters.
            ValueError: If a Parameter is not updated by this optimizer.
        """
        api = "get_lr_parameter"
        if isinstance(param, Parameter):
            params = [param]
        elif isinstance(param, list):
            params = param
        else:
            raise TypeError(
                f"For '{api}', 'param' must be a Parameter or a list of Parameters, but got "
                f"{type(param).__name__}."
            )
        ids = [id(p) for p in self._parameters]
        result = []
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"For '{api}', every element must be a Parameter, got {p!r}.")
            if id(p) not in ids:
                raise ValueError(
                    f"For '{api}', the Parameter '{p.name}' is not updated by this "
                    f"{type(self).__name__}."
                )
            source = self._lr_sources[self._lr_of[ids.index(id(p))]]
            if isinstance(source, _IteratorLearningRate):
                source = source.learning_rate
            result.append(source)
        return result if isinstance(param, list) else result[0]

    def get_weight_decay(self):
        """The weight decay of the current step (a tuple per parameter with groups)."""
        step = self.global_step._value
        if self.is_group:
            return tuple(wrap(v) for v in self._wd_values(step))
        return wrap(self._wd_values(step)[0]) if self.dynamic_weight_decay else self.weight_decay

    # -- the step ----------------------------------------------------------------------------
    def _lr_values(self, step, raw: bool = False) -> list:
        """The step's learning rates; ``raw``: a learning-rate Parameter's value as it is (the
        compiled update casts it, so an eager step dispatches nothing for it)."""
        values = []
        for source in self._lr_sources:
            if isinstance(source, Parameter):
                value = source._value
                values.append(value if raw else value.astype(jnp.float32).reshape(()))
            else:
                value = jnp.asarray(unwrap(source(wrap(step))), jnp.float32)
                values.append(value.reshape(()))
        return values

    def _wd_values(self, step) -> list:
        cache: dict = {}
        fixed = self.__dict__.setdefault("_fixed_wd", {})  # made once, as float32 arrays
        values = []
        for wd in self._wd_of:
            if id(wd) not in cache:
                if isinstance(wd, Cell):
                    cache[id(wd)] = jnp.asarray(unwrap(wd(wrap(step))), jnp.float32).reshape(())
                elif wd in fixed:
                    cache[id(wd)] = fixed[wd]
                else:
                    cache[id(wd)] = fixed[wd] = _f32(wd)
            values.append(cache[id(wd)])
        return values

    def _check_gradients(self, gradients) -> list:
        api = type(self).__name__
        if not isinstance(gradients, (tuple, list)):
            raise TypeError(
                f"For '{api}', 'gradients' must be a tuple of Tensors (one per parameter), but "
                f"got {type(gradients).__name__}."
            )
        if len(gradients) != self.param_length:
            raise ValueError(
                f"For '{api}', 'gradients' must hold one gradient per parameter "
                f"({self.param_length}), but got {len(gradients)}."
            )
        arrays = []
        for param, grad in zip(self._parameters, gradients):
            array, shape = optimizer_gradient(grad)  # a row's gradient stays lazy
            if shape != tuple(param.shape):
                raise ValueError(
                    f"For '{api}', the gradient of Parameter '{param.name}' must have the "
                    f"parameter's shape {tuple(param.shape)}, but got {shape}."
                )
            arrays.append(array)
        return whole_stack_gradients(self._row_groups, arrays)

    def construct(self, gradients):
        grads = self._check_gradients(gradients)
        step = self.global_step._value
        lrs = self._lr_values(step, raw=True)
        wds = self._wd_values(step)
        hyper = [h._value for h in self._hyper]
        if self._row_groups:
            params, states = self._grouped_values()
        else:
            params = [p._value for p in self._parameters]
            states = [[t[i]._value for t in self._state_tuples] for i in range(self.param_length)]
        # One compiled program per optimizer (as MindSpore compiles its optimizer's
        # construct); under an enclosing cellax.jit it is inlined into the train step.
        step_fn = self._step_fn
        if step_fn is None:
            step_fn = jax.jit(self._pure_step)
            object.__setattr__(self, "_step_fn", step_fn)
        new_params, new_states, new_hyper, next_step = step_fn(
            lrs, wds, hyper, step, params, grads, states
        )
        for param, value in zip(self._parameters, new_params):
            if value is not None:  # None: a grouped row, written with its stack
                _core.write(_core.backing(param), value)
        for i, values in enumerate(new_states):
            if values is None:  # this parameter's state is unchanged by the update
                continue
            for slots, value in zip(self._state_tuples, values):
                _core.write(_core.backing(slots[i]), value)
        if new_hyper is not None:
            for slot, value in zip(self._hyper, new_hyper):
                slot._value = value
        self.global_step._value = next_step
        return True

    def _pure_step(self, lrs, wds, hyper, step, params, grads, states):
        """Pure: arrays in, (new params, new per-parameter states, new hyper values, the next
        global step) out."""
        lrs = [jnp.asarray(lr, jnp.float32).reshape(()) for lr in lrs]
        hyper_now = self._advance_hyper(hyper)
        count = step.reshape(()).astype(jnp.int32)
        new_params, new_states = [], []
        grouped = {}
        if self._row_groups:  # a ScanCell's stacks: one vectorized update each
            grouped = grouped_updates(
                self, self._step_one, lrs, wds, hyper_now, count, params, grads, states
            )
        for i, (param, grad) in enumerate(zip(params, grads)):
            if param is None:  # a row of a stack updated in ``grouped``
                new_param, new_state = None, None
            elif i in grouped:
                new_param, new_state = grouped[i]
            else:
                new_param, new_state = self._step_one(
                    lrs, wds, hyper_now, count, i, param, grad, states[i]
                )
            new_params.append(new_param)
            new_states.append(new_state)
        # hyper values are written back only by optimizers that advance them (Adam's powers):
        # returning unchanged state would make the compiled step copy it every call
        advances = type(self)._advance_hyper is not Optimizer._advance_hyper
        return new_params, new_states, list(hyper_now) if advances else None, step + 1

    def _step_one(self, lrs, wds, hyper_now, count, i, param, grad, state):
        """``(new param, new state or None)`` of parameter ``i`` (pure)."""
        grad = grad.astype(param.dtype)
        if self._decay_in_gradient and self._decay_flags[i]:
            grad = grad + param * wds[i].astype(param.dtype)
        if self._gc_flags[i]:
            grad = _centralize(grad)
        inv_scale = 1.0 / self.loss_scale
        if inv_scale != 1.0:
            grad = grad * jnp.asarray(inv_scale, param.dtype)
        weight_decay = wds[i] if self._decay_flags[i] else _f32(0.0)
        new_param, new_state = self._update(
            lrs[self._lr_of[i]], weight_decay, param, grad, tuple(state), hyper_now, count, i
        )
        if new_state is not None:
            new_state = [s.astype(old.dtype) for s, old in zip(new_state, state)]
        return new_param.astype(param.dtype), new_state

    def _grouped_values(self):
        """Parameter and state values for the step: a row group's stacks at its first row,
        None at its other rows."""
        params: list = [None] * self.param_length
        states: list = [None] * self.param_length
        grouped = set()
        for positions, stack in self._row_groups:
            grouped.update(positions)
            first = positions[0]
            params[first] = stack._value
            states[first] = [_core.backing(t[first])._value for t in self._state_tuples]
        for i, param in enumerate(self._parameters):
            if i not in grouped:
                params[i] = param._value
                states[i] = [t[i]._value for t in self._state_tuples]
        return params, states

    def _advance_hyper(self, hyper):
        """Hyper values used by this step (and stored after it); e.g. Adam's beta powers."""
        return list(hyper)

    def _update(self, lr, weight_decay, param, grad, state, hyper, count, index):
        """Return ``(new_param, new_state_tuple)`` for one parameter (pure); the state may be
        None when the update leaves it unchanged."""
        raise NotImplementedError(f"'{type(self).__name__}' must define '_update'.")

    def __getstate__(self):
        state = super().__getstate__()
        state["_step_fn"] = None
        return state
