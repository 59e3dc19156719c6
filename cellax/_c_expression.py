"""``mindspore._c_expression``: MindSpore's C++ binding. cellax has no C++ layer; the few
names that model code takes from here map onto cellax's Python classes, and any other name
raises an ``AttributeError`` saying so."""

from ._tensor import Tensor as Tensor
from ._tensor import Tensor as TensorPy

__all__ = ["Tensor", "TensorPy"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"For 'mindspore._c_expression', the name '{name}' belongs to MindSpore's C++ runtime, "
        "which cellax does not provide."
    )
