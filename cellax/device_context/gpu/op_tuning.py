"""``mindspore.device_context.gpu.op_tuning``: cuDNN convolution algorithms.

XLA picks convolution algorithms itself (by autotuning); these check their argument as
MindSpore does, then give one ``UserWarning`` each and change nothing.
"""

from __future__ import annotations

from ..._device import warn_once

__all__ = ["conv_fprop_algo", "conv_wgrad_algo", "conv_dgrad_algo"]

_FPROP = [
    "normal",
    "performance",
    "implicit_gemm",
    "precomp_gemm",
    "gemm",
    "direct",
    "fft",
    "fft_tiling",
    "winograd",
    "winograd_nonfused",
]
_WGRAD = [
    "normal",
    "performance",
    "algo_0",
    "algo_1",
    "fft",
    "algo_3",
    "fft_tiling",
    "winograd_nonfused",
]
_DGRAD = [
    "normal",
    "performance",
    "algo_0",
    "algo_1",
    "fft",
    "fft_tiling",
    "winograd",
    "winograd_nonfused",
]


def _set(name: str, mode, choices: list) -> None:
    api = f"mindspore.device_context.gpu.op_tuning.{name}"
    if mode not in choices:
        raise ValueError(f"For '{api}', the argument must be in {choices} but got {mode}.")
    warn_once(
        f"device_context.gpu.op_tuning.{name}",
        f"'{mode}': XLA chooses convolution algorithms itself (autotuning); the setting has "
        "no effect.",
        stacklevel=4,
    )


def conv_fprop_algo(mode: str) -> None:
    """The cuDNN forward-convolution algorithm (checked; no effect on XLA).

    Raises:
        ValueError: If ``mode`` is not one of MindSpore's names.
    """
    _set("conv_fprop_algo", mode, _FPROP)


def conv_wgrad_algo(mode: str) -> None:
    """The cuDNN weight-gradient algorithm (checked; no effect on XLA).

    Raises:
        ValueError: If ``mode`` is not one of MindSpore's names.
    """
    _set("conv_wgrad_algo", mode, _WGRAD)


def conv_dgrad_algo(mode: str) -> None:
    """The cuDNN data-gradient algorithm (checked; no effect on XLA).

    Raises:
        ValueError: If ``mode`` is not one of MindSpore's names.
    """
    _set("conv_dgrad_algo", mode, _DGRAD)
