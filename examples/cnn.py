"""A small convolutional network (Conv2d, BatchNorm2d, ReLU, MaxPool2d, Dense) on digits.

MindSpore-style code run by cellax: a ``WithLossCell`` + ``TrainOneStepCell`` train step
compiled with ``ms.jit``, BatchNorm statistics updated inside the compiled step, and
evaluation in predict mode. Data: scikit-learn's 8x8 digits upsampled to 28x28.

    python examples/cnn.py             # full run
    python examples/cnn.py --quick     # CI size
"""

from __future__ import annotations

import argparse
import os
import sys


import cellax as ms
from cellax import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _data import fit, load_digits_28  # noqa: E402


class ConvNet(nn.Cell):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.features = nn.SequentialCell(
            nn.Conv2d(1, 16, 3, pad_mode="same"),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(16, 32, 3, pad_mode="same"),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.flatten = nn.Flatten()
        self.classifier = nn.Dense(32 * 7 * 7, num_classes)

    def construct(self, x):
        x = self.features(x)
        return self.classifier(self.flatten(x))


def main(
    epochs: int = 6,
    batch_size: int = 64,
    learning_rate: float = 0.01,
    subset: int | None = None,
    seed: int = 1,
    progress: bool = True,
) -> dict:
    """Train and evaluate; return ``{'losses': per-epoch mean losses, 'accuracy': [...]}``."""
    ms.set_seed(seed)
    train_x, train_y, test_x, test_y = load_digits_28(subset=subset)
    train_x, test_x = train_x[:, None], test_x[:, None]  # NCHW
    model = ConvNet()
    optimizer = nn.Adam(model.trainable_params(), learning_rate)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(model, nn.CrossEntropyLoss()), optimizer)
    train_step = ms.jit(train_net)
    predict = ms.jit(model)

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
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--quick", action="store_true", help="2 epochs on 600 samples")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    if args.quick:
        main(epochs=2, batch_size=args.batch_size, learning_rate=args.lr, subset=600)
    else:
        main(epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.lr)
