"""``mindspore.parallel.algo_parameter_config``: the strategy-search settings.

MindSpore's AUTO_PARALLEL searches operator strategies with these settings; on JAX, XLA's
sharding propagation places the unannotated operators, so the values are validated and
stored (as MindSpore does) and setting one warns once that it has no effect.
"""

from __future__ import annotations

import warnings

import numpy as np

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

_DEFAULTS = {
    "fully_use_devices": False,
    "elementwise_op_strategy_follow": False,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": float(np.float32(0.1)),  # stored in float32, as MindSpore
    "tensor_slice_align_enable": False,
    "tensor_slice_align_size": 16,
}
_TYPES = {name: type(value) for name, value in _DEFAULTS.items()}
_values = dict(_DEFAULTS)
_warned: set = set()


def set_algo_parameters(**kwargs) -> None:
    """Set strategy-search parameters (``fully_use_devices``,
    ``elementwise_op_strategy_follow``, ``enable_algo_approxi``, ``algo_approxi_epsilon``,
    ``tensor_slice_align_enable``, ``tensor_slice_align_size``).

    Raises:
        ValueError: If a keyword is unknown or ``tensor_slice_align_size`` is outside
            [1, 1024].
        TypeError: If a value has the wrong type.
        RuntimeError: If ``algo_approxi_epsilon`` is outside (0, 1].

    Examples:
        >>> import warnings
        >>> from cellax.parallel import get_algo_parameters, set_algo_parameters
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     set_algo_parameters(fully_use_devices=True)
        >>> get_algo_parameters("fully_use_devices")
        True
        >>> from cellax.parallel import reset_algo_parameters
        >>> reset_algo_parameters()

    Differences from MindSpore: no strategy search runs (XLA's sharding propagation places
    unannotated operators): the values are stored, and each setting warns once.
    """
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if type(value) is not _TYPES[key]:
            raise TypeError(f"The parameter '{key}' must be {_TYPES[key]}, but got {type(value)}")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon" and not 0 < value <= 1:
            raise RuntimeError("'epsilon' must be in (0, 1]")
        if key not in _warned:
            _warned.add(key)
            warnings.warn(
                f"For 'set_algo_parameters', '{key}' has no JAX counterpart (XLA's sharding "
                "propagation searches no strategies): it is stored but has no effect.",
                UserWarning,
                stacklevel=2,
            )
        _values[key] = float(np.float32(value)) if key == "algo_approxi_epsilon" else value


def get_algo_parameters(attr_key):
    """The value of one strategy-search parameter.

    Raises:
        ValueError: If ``attr_key`` is unknown.

    Examples:
        >>> from cellax.parallel import get_algo_parameters
        >>> get_algo_parameters("tensor_slice_align_size")
        16
    """
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters() -> None:
    """Restore the default strategy-search parameters.

    Examples:
        >>> from cellax.parallel import get_algo_parameters, reset_algo_parameters
        >>> reset_algo_parameters()
        >>> get_algo_parameters("fully_use_devices")
        False
    """
    _values.clear()
    _values.update(_DEFAULTS)
