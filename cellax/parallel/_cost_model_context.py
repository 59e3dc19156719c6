"""``mindspore.parallel._cost_model_context``: the settings of MindSpore's auto-parallel cost
model (the strategy search's cost coefficients). cellax leaves the search to XLA's sharding
propagation, so the settings are stored and read back and have no other effect.

Examples:
    >>> from cellax.parallel import _cost_model_context as cost
    >>> cost._set_multi_subgraphs(True); cost._get_multi_subgraphs()
    True
"""

from __future__ import annotations

__all__ = [
    "set_cost_model_context",
    "get_cost_model_context",
    "reset_cost_model_context",
    "_set_multi_subgraphs",
    "_get_multi_subgraphs",
    "_set_algo_single_loop",
    "_get_algo_single_loop",
    "_set_rp_matmul_mem_coef",
    "_get_rp_matmul_mem_coef",
]

# MindSpore 2.10's defaults for the keys code reads back
_DEFAULTS = {
    "device_memory_capacity": 1073741824.0 * 16,
    "costmodel_alpha": 1.0,
    "costmodel_beta": 400.0,
    "costmodel_gamma": 0.001,
    "costmodel_communi_threshold": 2048.0,
    "costmodel_communi_const": 3072.0,
    "costmodel_communi_bias": 1024.0,
    "run_phase": 0,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": 0.1,
    "multi_subgraphs": False,
    "algo_single_loop": True,
    "rp_matmul_mem_coef": 0.1,
}
_SETTINGS = dict(_DEFAULTS)


def set_cost_model_context(**kwargs) -> None:
    """Store cost-model settings (``costmodel_alpha``...); they do not affect XLA."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(
                f"For 'set_cost_model_context', the key must be one of {sorted(_DEFAULTS)}, "
                f"but got '{key}'."
            )
        _SETTINGS[key] = value


def get_cost_model_context(attr_key: str):
    """A stored cost-model setting."""
    if attr_key not in _DEFAULTS:
        raise ValueError(
            f"For 'get_cost_model_context', the key must be one of {sorted(_DEFAULTS)}, "
            f"but got '{attr_key}'."
        )
    return _SETTINGS[attr_key]


def reset_cost_model_context() -> None:
    """Restore every cost-model setting to its default."""
    _SETTINGS.clear()
    _SETTINGS.update(_DEFAULTS)


def _set_multi_subgraphs(multi_subgraph: bool = True) -> None:
    _SETTINGS["multi_subgraphs"] = bool(multi_subgraph)


def _get_multi_subgraphs() -> bool:
    return _SETTINGS["multi_subgraphs"]


def _set_algo_single_loop(single_loop: bool = True) -> None:
    _SETTINGS["algo_single_loop"] = bool(single_loop)


def _get_algo_single_loop() -> bool:
    return _SETTINGS["algo_single_loop"]


def _set_rp_matmul_mem_coef(coef: float) -> None:
    _SETTINGS["rp_matmul_mem_coef"] = float(coef)


def _get_rp_matmul_mem_coef() -> float:
    return _SETTINGS["rp_matmul_mem_coef"]
