"""W7 cnn-train-jit: LeNet-5 (Conv2d/ReLU/MaxPool2d x2, Dense 400-120-84-10) on 32x32x1.

Batch 64, NCHW, softmax cross-entropy, SGD lr 0.01, one jitted step written the MindSpore way
(as W1), next to the same network in hand-written JAX (``lax.conv_general_dilated``,
``lax.reduce_window``) + optax. MindSpore's LeNet uses ``pad_mode='valid'`` and Conv2d has no
bias by default. Target: cellax at most 1.05x.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
from jax import lax

from benchmarks._harness import Settings, main, measure, result
from benchmarks._models import mlp_data, same_work_note, train_steppers

WORKLOAD = "W7"
TITLE = "cnn-train-jit: LeNet-5, 1x32x32, batch 64, SGD, one jitted step"


def cellax_lenet():
    from cellax import nn

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10, num_channel=1):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return LeNet5()


def _conv(x, w):
    return lax.conv_general_dilated(
        x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW")
    )


def _pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def raw_lenet_logits(p, x):
    x = _pool(jax.nn.relu(_conv(x, p["conv1.weight"])))
    x = _pool(jax.nn.relu(_conv(x, p["conv2.weight"])))
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(x @ p["fc1.weight"].T + p["fc1.bias"])
    x = jax.nn.relu(x @ p["fc2.weight"].T + p["fc2.bias"])
    return x @ p["fc3.weight"].T + p["fc3.bias"]


def raw_lenet_loss(p, x, y):
    logits = raw_lenet_logits(p, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def run(level: str = "full") -> dict:
    settings = Settings.for_level(level, full=(40, 10, 10), quick=(6, 5, 2))
    x, y = mlp_data(64, (1, 32, 32))
    steps = train_steppers(cellax_lenet(), raw_lenet_loss, x, y)
    rows = measure(steps, settings)
    return result(
        WORKLOAD, TITLE, "us/step", rows, target={"cellax": 1.05}, notes=same_work_note(rows)
    )


if __name__ == "__main__":
    main(run)
