"""``mindspore._c_expression``: MindSpore's C++ binding. cellax has no C++ layer; the few
names that model code takes from here map onto cellax's Python objects (``Tensor``, the dtype
constants of ``typing``, the mixed-precision strategies of ``amp``, ``MSContext``), and any
other name raises an ``AttributeError`` saying so."""

from .._tensor import Tensor as Tensor
from .._tensor import Tensor as TensorPy
from . import amp as amp
from . import typing as typing
from ._context import MSContext as MSContext

__all__ = ["Tensor", "TensorPy", "MSContext", "amp", "typing"]


def is_reboot_node() -> bool:
    """Whether this process was restarted by MindSpore's cluster fault recovery: never."""
    return False


def disable_multi_thread() -> None:
    """MindSpore's runtime thread switch; XLA manages its own threads, so nothing to do."""


def _ms_memory_recycle() -> None:
    """Free cached device memory: JAX frees arrays when they are collected; nothing to do."""


def _framework_profiler_step_start() -> None:
    """A profiler step mark of MindSpore's runtime; ``cellax.Profiler`` records XLA's trace."""


def _framework_profiler_step_end() -> None:
    """See :func:`_framework_profiler_step_start`."""


def swap_cache(host, device, block_mapping, is_device_to_host) -> None:
    """Swap PagedAttention key/value blocks between host and an Ascend device."""
    raise NotImplementedError(
        "For 'swap_cache', cellax can not run it: it moves the blocks of Ascend's PagedAttention "
        "cache, which cellax does not have."
    )


class ParamInfo:
    """The record behind a Parameter's name and flags (MindSpore's C++ ``ParamInfo``)."""

    def __init__(self) -> None:
        self.name = ""
        self.requires_grad = True
        self.layerwise_parallel = False
        self.parallel_optimizer = True
        self.comm_fusion = 1
        self.init_in_server = False


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"For 'mindspore._c_expression', the name '{name}' belongs to MindSpore's C++ runtime, "
        "which cellax does not provide."
    )
