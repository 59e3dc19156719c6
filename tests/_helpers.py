"""Small Cells shared by the transform tests (kept independent of nn.SGD & co)."""

import cellax as ms
from cellax import nn, ops


class AssignSGD(nn.Cell):
    """Plain SGD written with ops.assign, as a MindSpore user would write a custom optimizer."""

    def __init__(self, params, lr=0.1):
        super().__init__(auto_prefix=False)
        self.parameters = ms.ParameterTuple(params)
        self.lr = lr

    def construct(self, grads):
        for param, grad in zip(self.parameters, grads):
            ops.assign(param, param - self.lr * grad)
        return True


class MLP(nn.Cell):
    def __init__(self, sizes=(4, 8, 3)):
        super().__init__()
        self.l1 = nn.Dense(sizes[0], sizes[1])
        self.act = nn.ReLU()
        self.l2 = nn.Dense(sizes[1], sizes[2])

    def construct(self, x):
        return self.l2(self.act(self.l1(x)))
