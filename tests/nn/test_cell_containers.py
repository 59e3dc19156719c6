"""SequentialCell, CellList, CellDict (naming and printing against MindSpore 2.10)."""

from collections import OrderedDict

import numpy as np
import pytest

import cellax as ms
from cellax import nn


def names(cell):
    return [p.name for p in cell.get_parameters()]


def test_sequential_basics():
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 3)])
    assert len(seq) == 3 and bool(seq) and not bool(nn.SequentialCell())
    assert [type(c).__name__ for c in seq] == ["Dense", "ReLU", "Dense"]
    assert seq[-1] is seq[2]
    assert seq(ms.ops.ones((1, 2))).shape == (1, 3)
    del seq[1]
    assert names(seq) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert seq.append(nn.ReLU()) is None and len(seq) == 3
    seq.insert(0, nn.Dense(2, 2))
    assert names(seq) == ["0.weight", "0.bias", "1.weight", "1.bias", "2.weight", "2.bias"]
    seq.extend([nn.ReLU()])
    del seq[0:2]
    assert names(seq) == ["0.weight", "0.bias"] and len(seq) == 3
    seq[1] = nn.Dense(3, 3)
    assert names(seq) == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_sequential_odict_and_slice():
    seq = nn.SequentialCell(OrderedDict([("conv", nn.Dense(2, 2)), ("act", nn.ReLU())]))
    assert names(seq) == ["conv.weight", "conv.bias"]
    part = seq[0:1]
    assert repr(part) == (
        "SequentialCell(\n  (conv): Dense(input_channels=2, output_channels=2, has_bias=True)\n)"
    )
    del seq[0]
    seq.append(nn.ReLU())
    assert list(seq._cells) == ["act", "1"]


@pytest.mark.parametrize(
    "action, error, match",
    [
        (lambda s: s[5], IndexError, r"'index' must be in range \[-2, 2\), but got 5"),
        (lambda s: s["0"], TypeError, "the type of 'index' must be int, but got str"),
        (lambda s: s.__setitem__(0, 3), TypeError, "each cell must be a Cell, but got int"),
        (lambda s: s.insert(5, nn.ReLU()), IndexError, r"range \[-2, 2\]"),
        (lambda s: s.extend(nn.ReLU()), TypeError, "'cells' must be a list"),
    ],
)
def test_sequential_errors(action, error, match):
    with pytest.raises(error, match=f"For 'SequentialCell', .*{match}"):
        action(nn.SequentialCell(nn.ReLU(), nn.ReLU()))


def test_sequential_ctor_errors():
    with pytest.raises(TypeError, match="'args\\[0\\]' must be a Cell, list or OrderedDict"):
        nn.SequentialCell(3)
    with pytest.raises(TypeError, match="For 'insert_child_to_cell'"):
        nn.SequentialCell([3])


def test_celllist():
    layers = nn.CellList([nn.Dense(2, 2), nn.ReLU()])
    layers.insert(0, nn.Dense(1, 1))
    assert names(layers) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert layers.extend([nn.Dense(1, 1)]) is layers
    del layers[1]
    assert names(layers) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    layers[0] = nn.Dense(4, 4)
    assert layers[0].weight.shape == (4, 4)
    layers += [nn.ReLU()]
    assert len(layers) == 4 and len(layers[1:3]) == 2
    unprefixed = nn.CellList([nn.Dense(1, 1)], auto_prefix=False)
    assert names(unprefixed) == ["weight", "bias"]


@pytest.mark.parametrize(
    "action, error, match",
    [
        (lambda cells: cells[10], IndexError, "in range"),
        (lambda cells: cells.append(3), TypeError, "each cell must be a Cell"),
        (lambda cells: cells.extend(3), TypeError, "the Cells to append must be a list"),
        (
            lambda cells: cells.extend([nn.CellDict()]),
            TypeError,
            "a CellDict can not be an element",
        ),
        (lambda cells: cells(ms.Tensor([1.0])), NotImplementedError, "can not be called"),
    ],
)
def test_celllist_errors(action, error, match):
    with pytest.raises(error, match=f"For 'CellList', .*{match}"):
        action(nn.CellList([nn.ReLU()]))


def test_celldict():
    d = nn.CellDict({"a": nn.Dense(1, 1), "b": nn.ReLU()})
    assert names(d) == ["a.weight", "a.bias"]
    assert list(d) == ["a", "b"] and "a" in d and len(d) == 2
    assert isinstance(d.pop("b"), nn.ReLU) and list(d.keys()) == ["a"]
    d.update([("z", nn.ReLU())])
    assert [k for k, _ in d.items()] == ["a", "z"] and len(list(d.values())) == 2
    d.clear()
    assert len(d) == 0


@pytest.mark.parametrize(
    "key, cell, error, match",
    [
        (1, nn.ReLU(), TypeError, "a key must be a str"),
        ("c.d", nn.ReLU(), KeyError, "non-empty with no '.'"),
        ("training", nn.ReLU(), KeyError, "is an attribute of Cell"),
        ("c", 3, TypeError, "the type of cell must be Cell, but got int"),
        ("c", nn.CellList(), TypeError, "can not be a CellDict, CellList or SequentialCell"),
    ],
)
def test_celldict_errors(key, cell, error, match):
    with pytest.raises(error, match=f"For 'CellDict', .*{match}"):
        nn.CellDict()[key] = cell


def test_nested_container_trains_under_grad():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    grads = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(ms.ops.ones((1, 2)))
    assert len(grads) == 2 and np.all(np.isfinite(grads[0].asnumpy()))
