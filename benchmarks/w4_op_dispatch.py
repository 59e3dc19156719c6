"""W4 op-dispatch: eager cellax ops against their ``jnp`` twins, one op per step.

The first rows are the historical pair: ``ops.add(x, y)`` and ``x + y`` on two float32[3]
Tensors against ``jnp.add(a, b)`` and ``a + b`` on the jax Arrays. The table then covers ~20
frequent eager ops on float32[4, 4] Tensors (``ops.X`` against the ``jnp``/``jax.nn`` call
computing the same result): every step blocks on its result, so each time is dispatch plus a
tiny kernel. Every cellax row is compared with its twin (target: at most 1.3x); the notes give
the same ratios from the minimum sample of each row (the least disturbed by other load).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks._harness import Settings, main, measure, result

WORKLOAD = "W4"
TITLE = "op-dispatch: eager ops vs their jnp twins (float32[3] add, then float32[4, 4])"


def op_pairs(ms, ops, x, y, a, b):
    """{op label: (cellax call, jax call)}: each pair computes the same values."""
    return {
        "sub": (lambda: ops.sub(x, y), lambda: jnp.subtract(a, b)),
        "mul": (lambda: ops.mul(x, y), lambda: jnp.multiply(a, b)),
        "div": (lambda: ops.div(x, y), lambda: jnp.divide(a, b)),
        "maximum": (lambda: ops.maximum(x, y), lambda: jnp.maximum(a, b)),
        "matmul": (lambda: ops.matmul(x, y), lambda: jnp.matmul(a, b)),
        "reshape": (lambda: ops.reshape(x, (2, 8)), lambda: jnp.reshape(a, (2, 8))),
        "transpose": (lambda: ops.transpose(x, (1, 0)), lambda: jnp.transpose(a, (1, 0))),
        "expand_dims": (lambda: ops.expand_dims(x, 0), lambda: jnp.expand_dims(a, 0)),
        "sum": (lambda: ops.sum(x, 1), lambda: jnp.sum(a, 1)),
        "mean": (lambda: ops.mean(x, 1), lambda: jnp.mean(a, 1)),
        "argmax": (lambda: ops.argmax(x, 1), lambda: jnp.argmax(a, 1)),
        "softmax": (lambda: ops.softmax(x, -1), lambda: jax.nn.softmax(a, -1)),
        "relu": (lambda: ops.relu(x), lambda: jnp.maximum(a, 0)),
        "exp": (lambda: ops.exp(x), lambda: jnp.exp(a)),
        "tanh": (lambda: ops.tanh(x), lambda: jnp.tanh(a)),
        "sigmoid": (lambda: ops.sigmoid(x), lambda: jax.nn.sigmoid(a)),
        "concat": (lambda: ops.concat((x, y), 0), lambda: jnp.concatenate((a, b), 0)),
        "stack": (lambda: ops.stack((x, y), 0), lambda: jnp.stack((a, b), 0)),
        "where": (lambda: ops.where(x > 0, x, y), lambda: jnp.where(a > 0, a, b)),
        "cast": (lambda: ops.cast(x, ms.float16), lambda: a.astype(jnp.float16)),
        "getitem [0]": (lambda: x[0], lambda: a[0]),
        "getitem [:, 1]": (lambda: x[:, 1], lambda: a[:, 1]),
    }


def _ready(out):
    return jax.block_until_ready(out.jax if hasattr(out, "jax") else out)


def run(level: str = "full") -> dict:
    import cellax as ms
    from cellax import ops

    settings = Settings.for_level(level, full=(200, 20, 100), quick=(30, 10, 20))
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
    vs = {"cellax x + y": "jax a + b", "jax a + b": "jax a + b"}
    rng = np.random.default_rng(0)
    x2 = ms.Tensor(rng.standard_normal((4, 4)).astype(np.float32))
    y2 = ms.Tensor(rng.standard_normal((4, 4)).astype(np.float32))
    for label, (mine, twin) in op_pairs(ms, ops, x2, y2, x2.jax, y2.jax).items():
        got, want = np.asarray(_ready(mine())), np.asarray(_ready(twin()))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=label)
        ref = f"jax {label}"
        steps[ref] = lambda twin=twin: _ready(twin())
        steps[f"cellax {label}"] = lambda mine=mine: _ready(mine())
        vs[ref] = vs[f"cellax {label}"] = ref
    rows = measure(steps, settings)
    for name, ref in vs.items():
        rows[name]["vs"] = ref
    mins = []
    for name, row in rows.items():
        ref = row.get("vs", "jax jnp.add")
        if name.startswith("cellax"):
            mins.append(f"{name[7:]} {row['min'] / rows[ref]['min']:.2f}")
    targets = {name: 1.3 for name in rows if name.startswith("cellax")}
    return result(
        WORKLOAD,
        TITLE,
        "us/op",
        rows,
        baseline="jax jnp.add",
        target=targets,
        notes=["ratios of the minimum samples: " + ", ".join(mins)],
    )


if __name__ == "__main__":
    main(run)
