"""Quickstart: train the MindSpore tutorial's MLP on handwritten digits with cellax.

This is MindSpore's beginner quickstart (network, loss, optimizer, ``value_and_grad`` and a
``jit``-compiled train step) with ``import mindspore as ms`` changed into
``import cellax as ms``. The data is scikit-learn's bundled 8x8 digits, upsampled to 28x28,
so nothing is downloaded.

    python examples/quickstart.py            # full run (>= 95% test accuracy)
    python examples/quickstart.py --quick    # a few seconds (CI size)
"""

from __future__ import annotations

import argparse
import os
import sys


import cellax as ms
from cellax import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _data import fit, load_digits_28  # noqa: E402


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 10, weight_init="normal", bias_init="zeros"),
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def main(
    epochs: int = 12,
    batch_size: int = 64,
    learning_rate: float = 0.02,
    subset: int | None = None,
    seed: int = 1,
    progress: bool = True,
) -> dict:
    """Train and evaluate; return ``{'losses': per-epoch mean losses, 'accuracy': [...]}``."""
    ms.set_seed(seed)
    train_x, train_y, test_x, test_y = load_digits_28(subset=subset)
    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Momentum(model.trainable_params(), learning_rate, 0.9)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    @ms.jit
    def predict(data):
        return model(data)

    data = (train_x, train_y, test_x, test_y)
    return fit(
        model,
        train_step,
        predict,
        data,
        epochs=epochs,
        batch_size=batch_size,
        seed=seed,
        progress=progress,
    )


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--quick", action="store_true", help="4 epochs on 600 samples")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    if args.quick:
        main(epochs=4, batch_size=args.batch_size, learning_rate=0.05, subset=600)
    else:
        main(epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.lr)
