"""``mindspore.device_context.ascend.op_debug``: Ascend runtime debugging options.

Checked as MindSpore checks them, then one ``UserWarning`` each and no effect.
"""

from __future__ import annotations

from ..._checkparam import args_type_check
from ._ignored import ignored

__all__ = ["execute_timeout", "debug_option", "aclinit_config"]

_ACLINIT = {
    "max_opqueue_num": (str,),
    "err_msg_mode": ["0", "1"],
    "dump": [{"dump_scene": "lite_exception"}, {"dump_scene": "lite_exception:disable"}],
}


@args_type_check(op_timeout=int)
def execute_timeout(op_timeout: int) -> None:
    """The Ascend operator execution timeout in seconds (checked; no effect on XLA).

    Raises:
        TypeError: If ``op_timeout`` is not an int.
        ValueError: If it is negative.
    """
    if op_timeout < 0:
        raise ValueError("The num of execute_timeout must bigger than or equal to 0.")
    ignored("op_debug", "execute_timeout", op_timeout)


def debug_option(option_value: str) -> None:
    """Ascend debugging options, only ``"oom"`` (checked; no effect on XLA).

    Raises:
        TypeError: If ``option_value`` is not a str.
        ValueError: If it is not ``"oom"``.
    """
    api = "device_context.ascend.op_debug.debug_option(option_value)"
    if not isinstance(option_value, str):
        raise TypeError(
            f"For '{api}', the type of 'option_value' must be str, but got {type(option_value)}."
        )
    if option_value != "oom":
        raise ValueError(
            f"For '{api}', the 'option_value' supports being set to 'oom' currently, but got "
            f"{option_value}."
        )
    ignored("op_debug", "debug_option", option_value)


def aclinit_config(config: dict) -> None:
    """Options for Ascend's ``aclInit`` (checked; no effect on XLA).

    Raises:
        ValueError: If a key is unknown or a value not one MindSpore allows.
        TypeError: If ``max_opqueue_num`` is not a str.
    """
    api = "ms.device_context.ascend.op_debug.aclinit_config"
    for key, value in config.items():
        if key not in _ACLINIT:
            raise ValueError(
                f"For '{api}', the key must be one of {tuple(_ACLINIT)}, but got {key}."
            )
        allowed = _ACLINIT[key]
        if isinstance(allowed, list) and value not in allowed:
            raise ValueError(
                f"For '{api}', the value of argument {key} must be one of {allowed}, but got "
                f"{value}."
            )
        if isinstance(allowed, tuple) and not isinstance(value, allowed):
            raise TypeError(
                f"For '{api}', the type of argument {key} must be one of {allowed}, but got "
                f"{type(value)}."
            )
    ignored("op_debug", "aclinit_config", config)
