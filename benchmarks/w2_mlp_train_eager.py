"""W2 mlp-train-eager: W1's train step in PyNative mode (no jit) vs eager JAX.

cellax runs ``value_and_grad`` + ``optimizer(grads)`` op by op; hand-written JAX runs
``jax.value_and_grad`` and the optax update without ``jax.jit`` (JAX dispatches each
primitive). Target: cellax at most 1.2x. ``cellax-replay`` is the same step with
``set_context(pynative_grad_replay=True)`` (issue 24: at most 3x PyTorch eager).
"""

from __future__ import annotations

from benchmarks._harness import Settings, main, measure, result
from benchmarks._models import (
    check_same_loss,
    cellax_mlp,
    cellax_train_step,
    mlp_data,
    raw_mlp_loss,
    raw_stepper,
    weights_of,
)

WORKLOAD = "W2"
TITLE = "mlp-train-eager: MLP 784-512-512-10, batch 64, SGD, PyNative (no jit)"


def run(level: str = "full") -> dict:
    import cellax as ms

    settings = Settings.for_level(level, full=(30, 4, 3), quick=(5, 2, 1))
    sizes, batch, in_shape = (784, 512, 512, 10), 64, (1, 28, 28)
    if level == "tiny":  # smoke tests: same code, small shapes
        sizes, batch, in_shape = (48, 32, 10), 4, (3, 4, 4)
    x, y = mlp_data(batch, in_shape)
    net = cellax_mlp(sizes)
    weights = weights_of(net)
    train_step = cellax_train_step(net, jit=False)
    replay_net = cellax_mlp(sizes)
    for p, w in zip(replay_net.trainable_params(), weights):
        p.set_data(ms.Tensor(w))
    replay_step = cellax_train_step(replay_net, jit=False)
    xt, yt = ms.Tensor(x), ms.Tensor(y)

    def cellax_step():
        return train_step(xt, yt).jax.block_until_ready()

    def cellax_replay_step():
        ms.set_context(pynative_grad_replay=True)
        try:
            return replay_step(xt, yt).jax.block_until_ready()
        finally:
            ms.set_context(pynative_grad_replay=False)

    steps = {
        "jax": raw_stepper(raw_mlp_loss, weights, x, y, jit=False),
        "cellax": cellax_step,
        "cellax-replay": cellax_replay_step,
    }
    check_same_loss({name: float(step()) for name, step in steps.items()})
    rows = measure(steps, settings)
    notes = [
        "cellax-replay: set_context(pynative_grad_replay=True), the gradient replayed from a "
        "compiled program after a quiet first call (the optimizer step stays eager)"
    ]
    return result(
        WORKLOAD, TITLE, "us/step", rows, target={"cellax": 1.2, "cellax-replay": 1.2}, notes=notes
    )


if __name__ == "__main__":
    main(run)
