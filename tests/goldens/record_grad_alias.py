"""Record how MindSpore 2.10 differentiates one Tensor passed at two positions.

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_grad_alias.py
PyNative differentiates the Tensor object (both uses add up); GRAPH_MODE differentiates per
argument. The Cell lives in this file because GRAPH_MODE compiles from source.
"""

import json
import os

import numpy as np

import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = ops.Mul()

    def construct(self, x, y):
        x = x + x
        return self.mul(x, y)


def main() -> None:
    a = ms.Tensor(np.array([1.0, 3.0], np.float32))
    b = ms.Tensor(np.array([1.0, 3.0], np.float32))
    out = {}
    for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
        ms.set_context(mode=mode)
        for case, args in (("same", (a, a)), ("distinct", (a, b))):
            grads = ms.grad(Net(), grad_position=(0, 1))(*args)
            out[f"{name}_{case}"] = [g.asnumpy().tolist() for g in grads]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "grad_alias.json")
    with open(path, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": out}, f, indent=1, sort_keys=True)
    print(f"wrote {path}: {out}")


if __name__ == "__main__":
    main()
