"""print(net) against MindSpore 2.10 goldens and the seed examples."""

import pytest

import cellax as ms
from cellax import nn

from tests._goldens import load_cases, load_module

CASES = load_cases("cell.json")
BUILDERS = load_module("record_cell").builders(ms)


@pytest.mark.parametrize("case", sorted(CASES))
def test_repr_matches_mindspore(case):
    net = BUILDERS[case]()
    assert repr(net) == CASES[case]["repr"]
    assert str(net) == CASES[case]["repr"]


def test_seed_cells_and_name_cells_print():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

    net = Net()
    assert str(net.cells()) == (
        "odict_values([Dense(input_channels=2, output_channels=2, has_bias=True)])"
    )
    assert str(net.name_cells()) == (
        "OrderedDict([('dense', Dense(input_channels=2, output_channels=2, has_bias=True))])"
    )


def test_seed_insert_child_print():
    net1 = nn.ReLU()
    net1.insert_child_to_cell("child", nn.Dense(2, 2))
    assert str(net1) == (
        "ReLU(\n  (child): Dense(input_channels=2, output_channels=2, has_bias=True)\n)"
    )


def test_none_child_prints_none():
    net = nn.Cell()
    net.insert_child_to_cell("slot", None)
    assert repr(net) == "Cell(\n  (slot): None\n)"
