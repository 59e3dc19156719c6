"""The primitive attributes MindSpore's layers keep and real code calls directly
(``self.conv2d(x, weight)`` in a ``Conv2d`` subclass, ``dense.matmul``, ``bias_add``).

Each is a property returning a Primitive bound to the cell's current settings.
"""

from __future__ import annotations

from .. import ops
from ..ops._impl import convolution
from ..ops.primitive import Primitive


class _CellConv(Primitive):
    """``Conv2D``/``Conv3D`` configured like its cell: ``prim(x, weight)`` convolves with the
    cell's stride, pad mode, padding, dilation and group (no bias)."""

    def __init__(self, name: str, cell, fn) -> None:
        super().__init__(name)
        self._cell, self._fn = cell, fn
        self.attrs.update(
            out_channel=cell.out_channels,
            kernel_size=cell.kernel_size,
            pad_mode=cell.pad_mode,
            stride=cell.stride,
            dilation=cell.dilation,
            group=cell.group,
            data_format=cell.data_format,
        )

    def __call__(self, x, weight):
        cell = self._cell
        return self._fn(
            x, weight, None, cell.stride, cell.pad_mode, cell.padding, cell.dilation, cell.group
        )


def _conv2d(self):
    """``Conv2D`` primitive with this cell's settings: ``self.conv2d(x, weight)``."""
    return _CellConv("Conv2D", self, convolution.conv2d_any_padding)


def _conv3d(self):
    """``Conv3D`` primitive with this cell's settings: ``self.conv3d(x, weight)``."""
    return _CellConv("Conv3D", self, ops.conv3d)


def _bias_add(self):
    """``BiasAdd`` primitive (``bias_add(x, bias)`` over the channel axis)."""
    return ops.BiasAdd(data_format="NCDHW" if getattr(self, "_nd", 2) == 3 else "NCHW")


def _matmul(self):
    """``MatMul(transpose_b=True)``: ``matmul(x, weight)`` is ``x @ weight.T``."""
    return ops.MatMul(transpose_b=True)


def _layer_norm(self):
    """``LayerNorm`` primitive with this cell's axes and epsilon:
    ``y, mean, variance = self.layer_norm(x, self.gamma, self.beta)``."""
    return ops.LayerNorm(self.begin_norm_axis, self.begin_params_axis, self.epsilon)


def install(conv2d_cls, conv3d_cls, dense_cls, layer_norm_cls) -> None:
    """Attach the attributes to the layer classes (called once by ``cellax.nn``)."""
    layer_norm_cls.layer_norm = property(_layer_norm)
    conv2d_cls.conv2d = property(_conv2d)
    conv3d_cls.conv3d = property(_conv3d)
    for cls in (conv2d_cls, conv3d_cls, dense_cls):
        cls.bias_add = property(_bias_add)
    dense_cls.matmul = property(_matmul)
