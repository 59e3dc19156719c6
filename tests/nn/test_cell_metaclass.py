"""Cell mixes with abc.ABC and typing.Generic (CellType derives from ABCMeta)."""

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

T = TypeVar("T")


class AbstractLayer(nn.Cell, ABC):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.full((2,), 2.0, np.float32)), name="weight")

    @abstractmethod
    def transform(self, x): ...

    def construct(self, x):
        return self.transform(x) * self.weight


class Doubler(AbstractLayer):
    def transform(self, x):
        return x + 1


def test_abstract_cell_cannot_be_instantiated():
    with pytest.raises(TypeError, match="abstract"):
        AbstractLayer()


def test_concrete_subclass_registers_parameters_and_runs():
    net = Doubler()
    assert [p.name for p in net.trainable_params()] == ["weight"]
    np.testing.assert_array_equal(net(ms.Tensor([1.0, 2.0])).asnumpy(), [4.0, 6.0])
    grads = ms.grad(lambda x: net(x).sum(), grad_position=None, weights=net.trainable_params())(
        ms.Tensor([1.0, 2.0])
    )
    np.testing.assert_array_equal(grads[0].asnumpy(), [2.0, 3.0])
    assert isinstance(net, nn.Cell) and isinstance(net, ABC)


def test_generic_mixin():
    class Box(nn.Cell, Generic[T]):
        def __init__(self, scale: float):
            super().__init__()
            self.scale = scale

        def construct(self, x):
            return ops.mul(x, self.scale)

    box = Box[float](3.0)
    np.testing.assert_array_equal(box(ms.Tensor([1.0])).asnumpy(), [3.0])


def test_builtin_repr_keeps_mindspore_path():
    assert repr(nn.Conv2d) == "<class 'cellax.nn.layer.conv.Conv2d'>"
