"""Record nn.Cell naming, traversal and printing goldens from real MindSpore.

Run with the oracle venv: /tmp/ms/bin/python tests/goldens/record_cell.py
The same builders run under cellax in tests/nn/test_cell_naming.py and test_cell_printing.py.
"""

import json
import os
import sys
from collections import OrderedDict

import numpy as np


def builders(ms):
    nn, Parameter, Tensor = ms.nn, ms.Parameter, ms.Tensor

    def ones(n):
        return Tensor(np.ones(n, np.float32))

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(ones(2))
            self.d = nn.Dense(2, 2)

    class Mid(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.seq = nn.SequentialCell(
                nn.Dense(2, 2), nn.SequentialCell(nn.ReLU(), nn.Dense(2, 3))
            )
            self.lst = nn.CellList([nn.Dense(2, 2), nn.ReLU()])

    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mid = Mid()
            self.v = Parameter(ones(2), name="vv")

    class NoPrefix(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.mid = Mid()

    class Wrap(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

    class Multi(nn.Cell):
        def extend_repr(self):
            return "a=1\nb=2"

    class WithExtra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(1, 1)
            self.empty = None

        def extend_repr(self):
            return "k=3"

    def shared():
        p = Parameter(ones(2), name="shared")

        class A(nn.Cell):
            def __init__(self):
                super().__init__()
                self.p = p

        class B(nn.Cell):
            def __init__(self):
                super().__init__()
                self.a1 = A()
                self.a2 = A()

        return B()

    def nested_later():
        mid = Mid()
        Wrap(mid)
        return mid

    def inserted():
        net = nn.ReLU()
        net.insert_child_to_cell("child", nn.Dense(2, 2))
        net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
        return Wrap(net)

    def seq_del():
        seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 3)])
        del seq[1]
        seq.append(nn.Dense(3, 3))
        return Wrap(seq)

    def list_ops():
        lst = nn.CellList([nn.Dense(2, 2), nn.ReLU()])
        lst.insert(0, nn.Dense(1, 1))
        lst.extend([nn.Dense(1, 1)])
        del lst[1]
        return lst

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(2, 2) for _ in range(2)])

    def append_later():
        holder = Holder()
        holder.layers.append(nn.Dense(2, 2))
        return holder

    def odict():
        return nn.SequentialCell(OrderedDict([("conv", nn.Dense(2, 2)), ("act", nn.ReLU())]))

    def celldict():
        return Wrap(nn.CellDict({"a": nn.Dense(1, 1), "b": nn.ReLU()}))

    return {
        "top": Top,
        "noprefix": NoPrefix,
        "nested_later": nested_later,
        "shared": shared,
        "inserted": inserted,
        "seq_del": seq_del,
        "list_ops": list_ops,
        "append_later": append_later,
        "odict": odict,
        "celldict": celldict,
        "multi_repr": Multi,
        "with_extra": WithExtra,
        "empty": nn.Cell,
        "empty_seq": nn.SequentialCell,
        "empty_list": nn.CellList,
    }


def describe(net):
    return {
        "param_names": [p.name for p in net.get_parameters()],
        "param_paths": [n for n, _ in net.parameters_and_names()],
        "cell_paths": [n for n, _ in net.cells_and_names()],
        "trainable": [p.name for p in net.trainable_params()],
        "repr": repr(net),
    }


if __name__ == "__main__":
    import mindspore as ms

    out = {name: describe(build()) for name, build in builders(ms).items()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cell.json")
    with open(path, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": out}, f, indent=1, sort_keys=True)
    sys.stdout.write(f"wrote {path}\n")
