"""``mindspore.ops.auto_generate.gen_ops_prim``: the module that defines MindSpore 2.10's
generated primitive classes; here, the classes of ``ops.auto_generate`` and the few more that
model code imports from this path (``MaxPoolWithIndices``, ``Empty``...)."""

from __future__ import annotations

from .. import auto_generate as _auto_generate
from .._impl.creation import zeros
from .._impl.pooling import max_pool2d
from .._impl.primitive import primitive
from .._impl.unavailable import _unavailable_primitive

__all__ = [
    name for name in _auto_generate.__all__ if isinstance(getattr(_auto_generate, name), type)
]
globals().update({name: getattr(_auto_generate, name) for name in __all__})


def _max_pool_with_indices(self, x):
    attrs = self.attrs
    return max_pool2d(
        x,
        attrs["kernel_size"],
        attrs["strides"],
        attrs["pads"],
        attrs["dilation"],
        return_indices=True,
        ceil_mode=attrs["ceil_mode"],
    )


MaxPoolWithIndices = primitive(
    "MaxPoolWithIndices",
    None,
    {
        "kernel_size": None,
        "strides": None,
        "pads": 0,
        "dilation": (1, 1),
        "ceil_mode": False,
        "argmax_type": None,
    },
    _max_pool_with_indices,
    "2-D max pooling returning ``(output, argmax)`` (``ops.max_pool2d`` with "
    "``return_indices=True``).",
    __name__,
)
MaxPoolWithMask = _unavailable_primitive(
    "MaxPoolWithMask",
    {
        "kernel_size": None,
        "strides": None,
        "pads": 0,
        "dilation": (1, 1),
        "ceil_mode": False,
        "argmax_type": None,
    },
    "its mask output is the bit layout of an Ascend kernel; use MaxPoolWithIndices",
    __name__,
)
Empty = primitive(
    "Empty",
    None,
    None,
    lambda self, size, dtype=None, device=None, pin_memory=False: zeros(size, dtype),
    "A tensor of shape ``size`` (filled with zeros: JAX arrays are never uninitialised).",
    __name__,
)
__all__ += ["MaxPoolWithIndices", "MaxPoolWithMask", "Empty"]
