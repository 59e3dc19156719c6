"""``mindspore.context``: execution settings, the parallel mode and the auto-parallel context.

The auto-parallel settings are validated and stored with MindSpore 2.10's keys and defaults;
``parallel_mode`` and its companions drive how compiled steps run over the devices (see
``docs/distributed.md``).

Examples:
    >>> from cellax import context
    >>> from cellax.context import ParallelMode
    >>> context.get_auto_parallel_context("parallel_mode") == ParallelMode.STAND_ALONE
    True
"""

from __future__ import annotations

import copy
import warnings

from ._checkparam import args_type_check
from ._context import (
    COMPATIBLE,
    GRAPH_MODE,
    LAX,
    PYNATIVE_MODE,
    STRICT,
    _set_context,
    get_context,
    set_context,
)
from ._parallel_state import AUTO_PARALLEL

__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "STRICT",
    "COMPATIBLE",
    "LAX",
    "ParallelMode",
    "set_context",
    "get_context",
    "set_auto_parallel_context",
    "get_auto_parallel_context",
    "reset_auto_parallel_context",
    "set_ps_context",
    "get_ps_context",
    "reset_ps_context",
    "set_device",
]


class ParallelMode:
    """The parallel modes of ``set_auto_parallel_context(parallel_mode=...)``."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [
        STAND_ALONE,
        DATA_PARALLEL,
        HYBRID_PARALLEL,
        SEMI_AUTO_PARALLEL,
        AUTO_PARALLEL,
    ]


_DEFAULTS = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "full_batch": False,
    "enable_parallel_optimizer": False,
    "enable_alltoall": False,
    "all_reduce_fusion_config": [],
    "pipeline_stages": 1,
    "pipeline_result_broadcast": False,
    "grad_accumulation_step": 1,
    "dataset_strategy": "data_parallel",
    "comm_fusion": {
        "openstate": True,
        "allreduce": {"mode": "auto", "config": None},
        "allgather": {"mode": "auto", "config": None},
        "reducescatter": {"mode": "auto", "config": None},
    },
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "auto_pipeline": False,
    "dump_local_norm": False,
    "dump_local_norm_path": "",
    "dump_device_local_norm": False,
    "pipeline_scheduler": "1f1b",
    "pipeline_interleave": False,
    "optimizer_weight_shard_size": -1,
    "sharding_propagation": False,
    "force_fp32_communication": False,
    "loss_repeated_mean": True,
}
# Keys that can be set but are not returned by get_auto_parallel_context.
_SET_ONLY = {"parallel_optimizer_config", "pipeline_config", "enable_all_reduce_fusion"}
_BOOL_KEYS = {
    "gradients_mean",
    "gradient_fp32_sync",
    "parameter_broadcast",
    "full_batch",
    "enable_parallel_optimizer",
    "enable_alltoall",
    "pipeline_result_broadcast",
    "auto_pipeline",
    "dump_local_norm",
    "dump_device_local_norm",
    "pipeline_interleave",
    "sharding_propagation",
    "force_fp32_communication",
    "loss_repeated_mean",
}

_auto_parallel: dict = AUTO_PARALLEL  # shared with jit, ops and nn (the lowest floor)
_auto_parallel.update(copy.deepcopy(_DEFAULTS))


def set_auto_parallel_context(**kwargs) -> None:
    """Set the auto-parallel configuration (MindSpore 2.10's keys).

    Args:
        **kwargs: ``device_num``, ``global_rank``, ``gradients_mean``, ``parallel_mode``
            (a :class:`ParallelMode` value), ``full_batch``, ``pipeline_stages``... see
            :func:`get_auto_parallel_context` for every key and its default.

    Raises:
        ValueError: If a key is unknown, ``parallel_mode`` is not a :class:`ParallelMode`
            value, ``device_num`` or ``pipeline_stages`` is not positive or ``global_rank``
            is outside [0, 4095]. A failing call changes nothing.
        TypeError: If a boolean key gets a non-bool.

    Examples:
        >>> from cellax import context
        >>> context.set_auto_parallel_context(gradients_mean=True, device_num=1)
        >>> context.get_auto_parallel_context("gradients_mean")
        True
        >>> context.reset_auto_parallel_context()

    Differences from MindSpore: the modes run JAX's global view (one program over all
    devices, collectives inserted by XLA), except ``DATA_PARALLEL`` over several processes,
    where a compiled step runs per rank as in MindSpore (each rank's loss is its own
    batch's). With one process and several devices the process is the only rank: a printed
    loss is the whole batch's (docs/distributed.md).
    """
    for key, value in kwargs.items():
        if key not in _DEFAULTS and key not in _SET_ONLY:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError(
                "The context configuration parameter 'parallel_mode' only support "
                "'stand_alone', 'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and "
                f"'auto_parallel', but got the value : {value}."
            )
        if key == "device_num" and (not isinstance(value, int) or value < 1):
            raise ValueError(
                "The context configuration parameter 'device_num' must be a positive "
                f"integer, but got the value of device_num : {value}."
            )
        if key == "global_rank" and (not isinstance(value, int) or not 0 <= value <= 4095):
            raise ValueError(
                "The context configuration parameter 'global_rank' must be in [0, 4095], "
                f"but got the value of global_rank : {value}."
            )
        if key == "pipeline_stages" and (not isinstance(value, int) or value < 1):
            raise ValueError(
                "For 'set_auto_parallel_context', the argument 'pipeline_stages' should be "
                f"greater or equal 1, but got the value of stages : {value}."
            )
        if key in _BOOL_KEYS and not isinstance(value, bool):
            raise TypeError(f"The parameter '{key}' must be {bool}, but got {type(value)}")
    _auto_parallel.update(kwargs)
    _warn_ignored(kwargs)


_WARNED: set = set()


def _warn_once(key: str, text: str) -> None:
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(f"For 'set_auto_parallel_context', {text}", UserWarning, stacklevel=3)


def _warn_ignored(kwargs: dict) -> None:
    """Settings with no JAX counterpart are accepted, never silently: one warning each."""
    if _auto_parallel["parallel_mode"] == ParallelMode.AUTO_PARALLEL and (
        _auto_parallel["search_mode"] == "recursive_programming"
    ):
        _warn_once(
            "recursive_programming",
            "search_mode 'recursive_programming' (AUTO_PARALLEL's default) has no JAX "
            "counterpart: unannotated operators follow XLA's sharding propagation "
            "('sharding_propagation').",
        )
    files = [k for k in ("strategy_ckpt_load_file", "strategy_ckpt_save_file") if kwargs.get(k)]
    config = kwargs.get("strategy_ckpt_config") or {}
    if files or config.get("load_file") or config.get("save_file"):
        _warn_once(
            "strategy_files",
            "strategy files are not read or written by cellax: sharded checkpoints carry "
            "their slices' positions and are resharded on load (load_distributed_checkpoint).",
        )
    if kwargs.get("pipeline_stages", 1) > 1:
        _warn_once(
            "pipeline_stages",
            "pipeline_stages > 1 runs as one stage in cellax (GSPMD has no pipelining); "
            "PipelineCell still splits micro-batches.",
        )


def get_auto_parallel_context(attr_key: str):
    """Return one auto-parallel setting.

    Args:
        attr_key (str): A key; the defaults are ``device_num=1``, ``global_rank=0``,
            ``gradients_mean=False``, ``parallel_mode="stand_alone"``, ``full_batch=False``,
            ``pipeline_stages=1``, ``grad_accumulation_step=1``,
            ``dataset_strategy="data_parallel"`` and MindSpore 2.10's other defaults.

    Raises:
        ValueError: If ``attr_key`` is not a readable key.

    Examples:
        >>> from cellax import context
        >>> context.get_auto_parallel_context("device_num")
        1
    """
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return copy.deepcopy(_auto_parallel[attr_key])


def reset_auto_parallel_context() -> None:
    """Restore every auto-parallel setting to its default.

    Examples:
        >>> from cellax import context
        >>> context.set_auto_parallel_context(device_num=8)
        >>> context.reset_auto_parallel_context()
        >>> context.get_auto_parallel_context("device_num")
        1
    """
    _auto_parallel.clear()
    _auto_parallel.update(copy.deepcopy(_DEFAULTS))


_ps: dict = {"enable_ps": False}


def set_ps_context(**kwargs) -> None:
    """Store parameter-server settings. cellax has no parameter server: enabling it
    (``enable_ps=True``) raises.

    Raises:
        RuntimeError: If ``enable_ps`` is ``True``.

    Examples:
        >>> from cellax import context
        >>> context.set_ps_context(enable_ps=False)
        >>> context.get_ps_context("enable_ps")
        False
    """
    if kwargs.get("enable_ps"):
        raise RuntimeError(
            "For 'set_ps_context', 'enable_ps=True' needs MindSpore's parameter server, which "
            "cellax (single process on JAX) does not provide."
        )
    _ps.update(kwargs)


def get_ps_context(attr_key: str):
    """Return one parameter-server setting (``enable_ps`` is ``False``)."""
    return _ps.get(attr_key)


def reset_ps_context() -> None:
    """Restore the parameter-server settings."""
    _ps.clear()
    _ps["enable_ps"] = False


@args_type_check(device_target=str, device_id=int)
def set_device(device_target: str, device_id: int | None = None) -> None:
    """Select the device (MindSpore 2.x's ``mindspore.set_device``).

    Args:
        device_target (str): ``"CPU"``, ``"GPU"`` or ``"Ascend"``.
        device_id (int): The device index. Default: ``None`` (keep the current one).

    Raises:
        TypeError: If ``device_target`` is not a str or ``device_id`` not an int.
        ValueError: If ``device_target`` is not one of these or ``device_id`` is negative.

    Examples:
        >>> import cellax as ms
        >>> ms.set_device("CPU")

    Differences from MindSpore: JAX places work on its default backend; the target is
    recorded for :func:`get_context`. ``"Ascend"`` runs on that backend too, with one
    ``UserWarning`` saying so (the same as ``set_context(device_target="Ascend")``).
    """
    if device_target not in ("CPU", "GPU", "Ascend"):
        raise ValueError(
            "The argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend'], "
            f"but got {device_target}."
        )
    if device_id is not None and device_id < 0:
        raise ValueError("The device id must bigger than or equal to 0.")
    settings: dict = {"device_target": device_target}
    if device_id is not None:
        settings["device_id"] = device_id
    _set_context(settings, "set_device", stacklevel=5)  # under args_type_check
