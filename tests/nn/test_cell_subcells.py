"""Sub-Cells: cells, name_cells, insert_child_to_cell, get_sub_cell, apply, del."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn
from cellax.common.initializer import One, initializer


class NetC(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = nn.Buffer(ms.tensor([0, 0, 0]))
        self.dense_c = nn.Dense(5, 3)


class NetB(nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = nn.Buffer(ms.tensor([1, 2, 3]))


class NetA(nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))


def test_seed_get_sub_cell():
    net_a = NetA(NetB(NetC()))
    net_c = net_a.get_sub_cell("net_b.net_c")
    assert f"net_c is {net_c}" == (
        "net_c is NetC(\n  (dense_c): Dense(input_channels=5, output_channels=3, has_bias=True)\n)"
    )
    assert net_a.get_sub_cell("") is net_a


def test_get_sub_cell_errors():
    net_a = NetA(NetB(NetC()))
    with pytest.raises(AttributeError, match="For 'get_sub_cell', NetB has no attribute `nope`"):
        net_a.get_sub_cell("net_b.nope")
    with pytest.raises(AttributeError, match="`buffer_b` is not an nn.Cell"):
        net_a.get_sub_cell("net_b.buffer_b")
    with pytest.raises(TypeError, match="For 'get_sub_cell'"):
        net_a.get_sub_cell(1)


def test_seed_apply():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
    seen = []

    def func(cell):
        seen.append(type(cell).__name__)
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))

    assert net.apply(func) is net
    assert seen == ["Dense", "Dense", "SequentialCell"]
    np.testing.assert_array_equal(net[0].weight.asnumpy(), [[1.0, 1.0], [1.0, 1.0]])


def test_insert_child_to_cell_replaces_and_errors():
    net = nn.Cell()
    net.insert_child_to_cell("child", nn.ReLU())
    net.insert_child_to_cell("child", nn.Tanh() if hasattr(nn, "Tanh") else nn.Dense(1, 1))
    assert len(net.name_cells()) == 1
    with pytest.raises(KeyError, match="For 'insert_child_to_cell', the name 'training'"):
        net.insert_child_to_cell("training", nn.ReLU())
    with pytest.raises(KeyError, match="must be non-empty and contain no '.'"):
        net.insert_child_to_cell("a.b", nn.ReLU())
    with pytest.raises(TypeError, match="For 'insert_child_to_cell', the name must be a str"):
        net.insert_child_to_cell(1, nn.ReLU())
    with pytest.raises(TypeError, match="'child_cell' must be a Cell or None, but got int"):
        net.insert_child_to_cell("q", 3)
    with pytest.raises(ValueError, match="can not be its own child"):
        net.insert_child_to_cell("me", net)


def test_cell_attribute_replace_and_delete():
    net = nn.Cell()
    net.child = nn.ReLU()
    with pytest.raises(TypeError, match="'child' is a sub-Cell of 'Cell' and can not be replaced"):
        net.child = 3
    net.child = None
    assert list(net.cells()) == [] and net.child is None
    del net.child
    assert "child" not in net._cells


def test_cells_and_names_skips_visited_and_shared():
    shared = nn.ReLU()
    net = nn.Cell()
    net.a = shared
    net.b = shared
    assert [n for n, _ in net.cells_and_names()] == ["", "a"]
    assert list(net.name_cells()) == ["a"]
    assert [n for n, _ in net.cells_and_names(cells={shared})] == [""]


def test_reserved_names():
    with pytest.raises(AttributeError, match="'cells' is reserved by Cell"):
        nn.Cell().cells = 3
    with pytest.raises(AttributeError, match="must not define a method named 'cast'"):
        type("Bad", (nn.Cell,), {"cast": lambda self: None})
