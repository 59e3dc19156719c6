"""What ``grad`` of a Cell does when its custom ``bprop`` returns the wrong thing.

Run under MindSpore 2.10 CPU (``python tests/goldens/bprop_returns.py``) to record the outcomes
``tests/test_bprop.py::test_bad_bprop_returns_like_mindspore`` expects (exception types; an
extra gradient is ignored); the test builds the same Cells with cellax.
"""

import numpy as np

KINDS = ["str", "shape", "count", "int", "none", "dtype"]


def make_net(ms, kind):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            returns = {
                "str": lambda: ("abc",),
                "shape": lambda: (ms.ops.ones((3, 3)),),
                "count": lambda: (dout, dout),
                "int": lambda: (1,),
                "none": lambda: None,
                "dtype": lambda: (ms.ops.ones((2,), ms.int32),),
            }
            return returns[kind]()

    return Net()


def outcome(ms, kind) -> str:
    try:
        ms.grad(make_net(ms, kind))(ms.Tensor(np.ones(2, np.float32)))
    except Exception as error:  # noqa: BLE001 - the type is the outcome
        return type(error).__name__
    return "ok"


if __name__ == "__main__":
    import mindspore

    print({kind: outcome(mindspore, kind) for kind in KINDS})
