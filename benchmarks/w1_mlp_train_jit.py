"""W1 mlp-train-jit: seed 004's network (Flatten, Dense 784-512-512-10, ReLU), batch 64.

One jitted train step (softmax cross-entropy, SGD lr 0.01) written the MindSpore way
(``ms.value_and_grad(forward_fn, None, optimizer.parameters)`` + ``optimizer(grads)`` inside
``@ms.jit``), next to hand-written JAX + optax (state donated, as cellax donates it),
Flax NNX and Equinox. Target: cellax at most 1.05x hand-written JAX.
"""

from __future__ import annotations

from benchmarks._harness import Settings, main, measure, result
from benchmarks._models import mlp_steppers, same_work_note

WORKLOAD = "W1"
TITLE = "mlp-train-jit: MLP 784-512-512-10, batch 64, SGD, one jitted step"


def run(level: str = "full") -> dict:
    settings = Settings.for_level(level, full=(40, 10, 10), quick=(6, 5, 2))
    if level == "tiny":  # smoke tests: same code, small shapes
        steps = mlp_steppers((48, 32, 32, 10), 4, (3, 4, 4), libs=False)
    else:
        steps = mlp_steppers((784, 512, 512, 10), 64, (1, 28, 28))
    rows = measure(steps, settings)
    return result(
        WORKLOAD, TITLE, "us/step", rows, target={"cellax": 1.05}, notes=same_work_note(rows)
    )


if __name__ == "__main__":
    main(run)
