"""W4 op-dispatch: one eager elementwise add on two float32[3] Tensors vs ``jnp.add``.

Rows: ``ops.add(x, y)`` and ``x + y`` on cellax Tensors, ``jnp.add(a, b)`` and ``a + b`` on
jax Arrays. Every step blocks on its result. ``ops.add`` is compared with ``jnp.add`` and
``x + y`` with ``a + b`` (target: at most 1.3x).
"""

from __future__ import annotations

import jax.numpy as jnp

from benchmarks._harness import Settings, main, measure, result

WORKLOAD = "W4"
TITLE = "op-dispatch: eager add, float32[3]"


def run(level: str = "full") -> dict:
    import cellax as ms
    from cellax import ops

    settings = Settings.for_level(level, full=(300, 20, 200), quick=(40, 10, 50))
    x = ms.Tensor([1.0, 2.0, 3.0], ms.float32)
    y = ms.Tensor([4.0, 5.0, 6.0], ms.float32)
    a, b = x.jax, y.jax
    expected = jnp.add(a, b)
    for out in (ops.add(x, y), x + y):
        assert (out.jax == expected).all(), out

    steps = {
        "jax jnp.add": lambda: jnp.add(a, b).block_until_ready(),
        "cellax ops.add": lambda: ops.add(x, y).jax.block_until_ready(),
        "jax a + b": lambda: (a + b).block_until_ready(),
        "cellax x + y": lambda: (x + y).jax.block_until_ready(),
    }
    rows = measure(steps, settings)
    rows["cellax x + y"]["vs"] = "jax a + b"
    rows["jax a + b"]["vs"] = "jax a + b"
    return result(
        WORKLOAD,
        TITLE,
        "us/op",
        rows,
        baseline="jax jnp.add",
        target={"cellax ops.add": 1.3, "cellax x + y": 1.3},
    )


if __name__ == "__main__":
    main(run)
