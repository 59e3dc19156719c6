"""A small MindSpore-style program, type-checked (basic mode) against cellax's public API.

Never run by pytest as a test (no ``test_`` prefix); it runs fine as a script.
"""

from __future__ import annotations

import numpy as np

import cellax as ms
from cellax import nn, ops


class Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()
        self.scale = ms.Parameter(ms.Tensor(np.ones((2,), np.float32)), name="scale")

    def construct(self, x):
        return self.relu(self.dense(x)) * self.scale


def train() -> float:
    net = Net()
    loss_fn = nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    x = ms.Tensor(np.ones((3, 4), np.float32))
    y = ops.zeros((3, 2), ms.float32)
    loss = step(x, y)
    values = ms.state(net)
    out, _ = ms.functional_call(net, values, x)
    ms.load_state(net, values)
    ms.save_checkpoint(net, "typecheck.ckpt")
    return float(loss.asnumpy()) + float(np.asarray(out).sum())


if __name__ == "__main__":
    print(train())
