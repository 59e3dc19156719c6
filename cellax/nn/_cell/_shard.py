"""Cell.shard and Cell.set_data_parallel: strategies on a Cell's inputs, outputs, Parameters.

The plan is kept on the Cell; ``construct`` is rebound to a method that constrains the
inputs and outputs while SEMI_AUTO/AUTO_PARALLEL runs over several devices
(``_parallel_state.global_view()``), and plain ``construct`` otherwise.
"""

from __future__ import annotations

import functools
import types

import jax

from ... import _core, _parallel_state
from ...ops._impl import sharding

__all__ = ["set_shard", "set_data_parallel", "shard_function"]


def _check(api: str, in_strategy, out_strategy, parameter_plan) -> None:
    if not isinstance(in_strategy, tuple):
        raise TypeError(
            f"For '{api}', 'in_strategy' must be a tuple, but got {type(in_strategy).__name__}."
        )
    if out_strategy is not None and not isinstance(out_strategy, tuple):
        raise TypeError(
            f"For '{api}', 'out_strategy' must be a tuple or None, but got "
            f"{type(out_strategy).__name__}."
        )
    if parameter_plan is not None and not isinstance(parameter_plan, dict):
        raise TypeError(
            f"For '{api}', 'parameter_plan' must be a dict or None, but got "
            f"{type(parameter_plan).__name__}."
        )


def _constrain_all(api: str, values, strategies):
    if strategies is None:
        return values
    single = not isinstance(values, (tuple, list))
    items = (values,) if single else tuple(values)
    if len(strategies) != len(items):
        raise ValueError(
            f"For '{api}', the strategy has {len(strategies)} entries, but there are "
            f"{len(items)} tensor(s)."
        )
    out = []
    for index, (value, strategy) in enumerate(zip(items, strategies)):
        if strategy is None or not sharding._is_tensor(value):
            out.append(value)
            continue
        shape = jax.numpy.shape(sharding.unwrap(value))
        placement = sharding.operand_sharding(api, strategy, shape, index)
        out.append(sharding.constrain(value, placement))
    return out[0] if single else type(values)(out) if isinstance(values, tuple) else out


def _sharded_construct(self, *args, **kwargs):
    construct = type(self).construct
    plan = self.__dict__.get("_cellax_shard_plan")
    if plan is None or not _parallel_state.global_view():
        return construct(self, *args, **kwargs)
    in_strategy, out_strategy, parameter_plan = plan
    api = f"{type(self).__name__}.shard"
    if parameter_plan:
        _place_parameters(self, api, parameter_plan)
    if in_strategy == "data_parallel":
        args = tuple(_split_batch(x) for x in args)
    elif in_strategy is not None:
        args = _constrain_all(api, tuple(args), in_strategy)
    return _constrain_all(api, construct(self, *args, **kwargs), out_strategy)


def _split_batch(value):
    if not sharding._is_tensor(value):
        return value
    shape = jax.numpy.shape(sharding.unwrap(value))
    mesh = _parallel_state.world_mesh()
    if not shape or shape[0] % mesh.size:
        return value
    spec = jax.sharding.PartitionSpec(_parallel_state.DATA_AXIS)
    return sharding.constrain(value, jax.sharding.NamedSharding(mesh, spec))


def _find(cell, api: str, name: str):
    key = name[len("self.") :] if name.startswith("self.") else name
    params = dict(cell.parameters_and_names())
    for candidate in (key, key.split(".", 1)[-1]):
        if candidate in params:
            return params[candidate]
    for pname, param in params.items():
        if key.endswith("." + pname) or pname.endswith("." + key) or param.name == key:
            return param
    raise ValueError(
        f"For '{api}', 'parameter_plan' names '{name}', which is no Parameter of the Cell "
        f"(it has {sorted(params)})."
    )


def _place_parameters(cell, api: str, parameter_plan: dict) -> None:
    for name, strategy in parameter_plan.items():
        param = _find(cell, api, name)
        placement = sharding.operand_sharding(f"{api}", strategy, param.shape)
        if getattr(param._data, "sharding", None) != placement:
            _core.store(param, jax.device_put(param._data, placement))


def _install(cell) -> None:
    if "construct" not in cell.__dict__:
        method = types.MethodType(_sharded_construct, cell)
        functools.update_wrapper(method.__func__, type(cell).construct, updated=())
        object.__setattr__(cell, "construct", method)


def set_shard(cell, in_strategy, out_strategy=None, parameter_plan=None) -> None:
    """Store ``cell``'s shard plan (checked) and place its planned Parameters now if the
    parallel mode already applies."""
    _check("shard", in_strategy, out_strategy, parameter_plan)
    object.__setattr__(cell, "_cellax_shard_plan", (in_strategy, out_strategy, parameter_plan))
    _install(cell)
    if parameter_plan and _parallel_state.global_view():
        _place_parameters(cell, f"{type(cell).__name__}.shard", parameter_plan)


def set_data_parallel(cell) -> None:
    """Split every input of ``cell`` on dim 0 over all devices."""
    object.__setattr__(cell, "_cellax_shard_plan", ("data_parallel", None, None))
    _install(cell)


def shard_function(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """``parallel.shard`` for a plain function: constrain its inputs and outputs."""
    _check("shard", in_strategy, out_strategy, parameter_plan)
    if parameter_plan:
        raise ValueError(
            "For 'shard', 'parameter_plan' needs a Cell (it names the Cell's Parameters), but "
            f"got the function {getattr(fn, '__name__', fn)!r}."
        )

    @functools.wraps(fn)
    def sharded(*args, **kwargs):
        if not _parallel_state.global_view():
            return fn(*args, **kwargs)
        api = f"shard({getattr(fn, '__name__', 'fn')})"
        args = _constrain_all(api, tuple(args), in_strategy)
        return _constrain_all(api, fn(*args, **kwargs), out_strategy)

    return sharded
