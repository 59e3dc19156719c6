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


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"For 'mindspore._c_expression', the name '{name}' belongs to MindSpore's C++ runtime, "
        "which cellax does not provide."
    )
