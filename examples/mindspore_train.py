"""A MindSpore training script, written for MindSpore and left unmodified.

It imports ``mindspore``, never ``cellax``. Run it on cellax with the import alias:

    python -m cellax run examples/mindspore_train.py --steps 3

or on MindSpore 2.10 itself with ``python examples/mindspore_train.py --steps 3``; both print the
same lines. The data are random NumPy arrays read through ``mindspore.dataset`` (no download).
"""

import argparse

import numpy as np

import mindspore as ms
from mindspore import dataset as ds
from mindspore import nn


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layers = nn.SequentialCell(nn.Dense(8 * 8, 32), nn.ReLU(), nn.Dense(32, 10))

    def construct(self, x):
        return self.layers(self.flatten(x))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3, help="training steps")
    args = parser.parse_args()

    ms.set_seed(0)
    rng = np.random.default_rng(0)
    images = rng.random((16, 1, 8, 8)).astype(np.float32)
    labels = rng.integers(0, 10, 16).astype(np.int32)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    data = data.batch(16).repeat(args.steps)  # the same batch at every step

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), learning_rate=0.1)

    def forward_fn(x, y):
        return loss_fn(model(x), y)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    model.set_train()
    losses = [float(train_step(x, y).asnumpy()) for x, y in data.create_tuple_iterator()]
    print(f"mindspore {ms.__version__}: {len(losses)} steps")
    print(f"loss went down: {losses[-1] < losses[0]}")


if __name__ == "__main__":
    main()
