"""A small Transformer encoder classifier on digits: each image row is a token.

MindSpore-style code run by cellax: ``nn.TransformerEncoder`` over the 28 rows of a 28x28
digit (28 tokens of 28 features), a learned position embedding, mean pooling and a Dense
head; ``value_and_grad`` + an ``AdamWeightDecay`` optimizer with a warm-up/cosine
learning-rate schedule in a ``jit``-compiled train step; dropout on in training only.

    python examples/transformer.py             # full run
    python examples/transformer.py --quick     # CI size
"""

from __future__ import annotations

import argparse
import os
import sys


import cellax as ms
from cellax import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _data import fit, load_digits_28  # noqa: E402


class RowTransformer(nn.Cell):
    def __init__(
        self,
        rows: int = 28,
        features: int = 28,
        d_model: int = 32,
        nhead: int = 4,
        num_layers: int = 2,
        num_classes: int = 10,
    ):
        super().__init__()
        self.embed = nn.Dense(features, d_model)
        self.position = ms.Parameter(
            ms.common.initializer.initializer("normal", (1, rows, d_model), ms.float32),
            name="position",
        )
        layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward=2 * d_model, dropout=0.1, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Dense(d_model, num_classes)

    def construct(self, x):
        tokens = self.embed(x) + self.position
        encoded = self.encoder(tokens)
        return self.head(encoded.mean(1))


def main(
    epochs: int = 10,
    batch_size: int = 64,
    learning_rate: float = 3e-3,
    subset: int | None = None,
    seed: int = 1,
    progress: bool = True,
    num_layers: int = 2,
) -> dict:
    """Train and evaluate; return ``{'losses': per-epoch mean losses, 'accuracy': [...]}``."""
    ms.set_seed(seed)
    train_x, train_y, test_x, test_y = load_digits_28(subset=subset)
    model = RowTransformer(num_layers=num_layers)
    loss_fn = nn.CrossEntropyLoss()
    steps_per_epoch = len(train_x) // batch_size
    total = max(epochs * steps_per_epoch, 2)
    warmup = max(total // 10, 1)
    schedule = nn.warmup_lr(learning_rate, warmup, 1, warmup) + nn.cosine_decay_lr(
        learning_rate / 20, learning_rate, total - warmup, 1, total - warmup
    )
    optimizer = nn.AdamWeightDecay(model.trainable_params(), schedule, weight_decay=1e-4)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

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
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument(
        "--quick", action="store_true", help="2 epochs on 600 samples, one encoder layer"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    if args.quick:
        main(epochs=2, batch_size=args.batch_size, learning_rate=args.lr, subset=600, num_layers=1)
    else:
        main(epochs=args.epochs, batch_size=args.batch_size, learning_rate=args.lr)
