"""``mindspore.device_context.ascend.op_precision``: Ascend operator precision modes.

Checked as MindSpore checks them, then one ``UserWarning`` each; XLA keeps each operator's
dtype (use ``amp`` / ``Cell.to_float`` for mixed precision).
"""

from __future__ import annotations

import os

from ..._checkparam import args_type_check
from ._ignored import ignored

__all__ = ["precision_mode", "op_precision_mode", "matmul_allow_hf32", "conv_allow_hf32"]

_MODES = [
    "force_fp16",
    "allow_fp32_to_fp16",
    "allow_mix_precision",
    "must_keep_origin_dtype",
    "force_fp32",
    "allow_fp32_to_bf16",
    "allow_mix_precision_fp16",
    "allow_mix_precision_bf16",
]


def precision_mode(mode: str) -> None:
    """Ascend's global precision mode (checked; no effect on XLA).

    Raises:
        ValueError: If ``mode`` is not one of MindSpore's modes.

    Examples:
        >>> import warnings
        >>> import cellax as ms
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")  # the one "no effect" warning
        ...     ms.device_context.ascend.op_precision.precision_mode("force_fp32")
    """
    if mode not in _MODES:
        raise ValueError(
            f"For 'precision_mode', the value of mode {mode} must be one of {_MODES}, but got "
            f"{mode}."
        )
    ignored("op_precision", "precision_mode", mode)


@args_type_check(path=str)
def op_precision_mode(path: str) -> None:
    """A per-operator precision file (checked; no effect on XLA).

    Raises:
        TypeError: If ``path`` is not a str.
        ValueError: If the file does not exist.
    """
    if not os.path.exists(os.path.realpath(path)):
        raise ValueError(f"For 'op_precision_mode', the 'path' is invalid, got '{path}'.")
    ignored("op_precision", "op_precision_mode", path)


def _check_flag(api: str, value) -> None:
    if value not in (True, False):
        raise ValueError(
            f"For '{api}', the type of input value must be one of [True, False], but got {value}."
        )


def matmul_allow_hf32(value: bool) -> None:
    """Whether matmuls may use Ascend's HF32 (checked; no effect on XLA).

    Raises:
        ValueError: If ``value`` is not ``True`` or ``False``.
    """
    _check_flag("matmul_allow_hf32", value)
    ignored("op_precision", "matmul_allow_hf32", value)


def conv_allow_hf32(value: bool) -> None:
    """Whether convolutions may use Ascend's HF32 (checked; no effect on XLA).

    Raises:
        ValueError: If ``value`` is not ``True`` or ``False``.
    """
    _check_flag("conv_allow_hf32", value)
    ignored("op_precision", "conv_allow_hf32", value)
