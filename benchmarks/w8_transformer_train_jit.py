"""W8 transformer-train-jit: 2-layer ``nn.TransformerEncoder``, d_model 128, 4 heads.

Sequence 64, batch 16 (``batch_first=True``), feed-forward 512, ReLU, post-norm, dropout 0;
mean over the sequence, ``nn.Dense(128, 10)``, softmax cross-entropy, SGD lr 0.01, one jitted
step written the MindSpore way, next to the same network hand-written in JAX + optax (weights
copied by name). Target: cellax at most 1.05x.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

from benchmarks._harness import Settings, main, measure, result
from benchmarks._models import mlp_data, named_weights, same_work_note, train_steppers

WORKLOAD = "W8"
TITLE = "transformer-train-jit: 2-layer TransformerEncoder, d 128, 4 heads, seq 64, batch 16"

D_MODEL, HEADS, FF, LAYERS, SEQ, BATCH = 128, 4, 512, 2, 64, 16


def cellax_transformer(d_model=D_MODEL, heads=HEADS, ff=FF, layers=LAYERS):
    """The network; W11 builds smaller ones for its smoke runs (``raw_transformer_loss``
    takes any ``d_model``, feed-forward width and batch/sequence shape, with 4 heads)."""
    from cellax import nn, ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(
                d_model, heads, dim_feedforward=ff, dropout=0.0, batch_first=True
            )
            self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
            self.head = nn.Dense(d_model, 10)

        def construct(self, x):
            return self.head(ops.mean(self.encoder(x), 1))

    return Net()


def _find(p: dict, prefix: str, *names):
    for name in names:
        if prefix + name in p:
            return p[prefix + name]
    raise KeyError(f"no parameter {prefix}{names} among {sorted(p)}")


def _layer_norm(x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * g + b


def _encoder_layer(p: dict, prefix: str, x):
    n, s, d = x.shape
    w_in = _find(p, prefix, "self_attn.in_proj_weight")
    b_in = _find(p, prefix, "self_attn.in_proj_bias")
    q, k, v = jnp.split(x @ w_in.T + b_in, 3, axis=-1)
    split = lambda t: t.reshape(n, s, HEADS, d // HEADS).transpose(0, 2, 1, 3)  # noqa: E731
    q, k, v = split(q), split(k), split(v)
    # a Python float: a NumPy float64 scalar would promote the attention to float64 (x64 is on)
    att = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / float(np.sqrt(d // HEADS)), axis=-1)
    a = (att @ v).transpose(0, 2, 1, 3).reshape(n, s, d)
    a = a @ _find(p, prefix, "self_attn.out_proj.weight").T + _find(
        p, prefix, "self_attn.out_proj.bias"
    )
    x = _layer_norm(
        x + a,
        _find(p, prefix, "norm1.gamma", "norm1.weight"),
        _find(p, prefix, "norm1.beta", "norm1.bias"),
    )
    w1, b1 = _find(p, prefix, "dense1.weight"), _find(p, prefix, "dense1.bias")
    w2, b2 = _find(p, prefix, "dense2.weight"), _find(p, prefix, "dense2.bias")
    h = jax.nn.relu(x @ w1.T + b1) @ w2.T + b2
    return _layer_norm(
        x + h,
        _find(p, prefix, "norm2.gamma", "norm2.weight"),
        _find(p, prefix, "norm2.beta", "norm2.bias"),
    )


def raw_transformer_loss(p, x, y):
    for i in range(LAYERS):
        x = _encoder_layer(p, f"encoder.layers.{i}.", x)
    logits = x.mean(1) @ p["head.weight"].T + p["head.bias"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def run(level: str = "full") -> dict:
    settings = Settings.for_level(level, full=(30, 5, 5), quick=(5, 3, 2))
    x, y = mlp_data(BATCH, (SEQ, D_MODEL))
    net = cellax_transformer()
    net.set_train(True)
    steps = train_steppers(net, raw_transformer_loss, x, y, raw_weights=named_weights(net))
    rows = measure(steps, settings)
    return result(
        WORKLOAD, TITLE, "us/step", rows, target={"cellax": 1.05}, notes=same_work_note(rows)
    )


if __name__ == "__main__":
    main(run)
