"""W5 compile-latency: the first call of W1's train step (trace + compile + run).

Every sample is a fresh interpreter (``--child IMPL``) that imports the libraries, builds the
network and data (not timed), then times the first call of the jitted step until its loss is
ready. Samples alternate between implementations. Target: cellax at most 1.5x.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from benchmarks._harness import main, optional_libs, result, stats

WORKLOAD = "W5"
TITLE = "compile-latency: first call of the W1 step (trace + compile + run), fresh process"

SIZES = ((784, 512, 512, 10), 64, (1, 28, 28))


def child(impl: str) -> float:
    """Seconds for the first call of ``impl``'s W1 step in this (fresh) process."""
    import jax
    import jax.numpy as jnp

    from benchmarks import _models as m

    sizes, batch, in_shape = SIZES
    x, y = m.mlp_data(batch, in_shape, sizes[-1])
    if impl == "cellax":
        import cellax as ms

        net = m.cellax_mlp(sizes)
        train_step = m.cellax_train_step(net)
        xt, yt = ms.Tensor(x), ms.Tensor(y)
        jax.block_until_ready([p.jax for p in net.trainable_params()])
        start = time.perf_counter()
        train_step(xt, yt).jax.block_until_ready()
        return time.perf_counter() - start
    weights = [jnp.ones((b, a)) * 0.01 for a, b in zip(sizes[:-1], sizes[1:])]
    weights = [w for pair in zip(weights, [jnp.zeros(w.shape[0]) for w in weights]) for w in pair]
    weights = [jax.device_get(w) for w in weights]
    if impl == "jax":
        stepper = m.raw_stepper(m.raw_mlp_loss, weights, x, y)
    elif impl == "nnx.jit":
        stepper = m.nnx_steppers(weights, x, y)["nnx.jit"]
    elif impl == "eqx.filter_jit":
        stepper = m.eqx_stepper(weights, x, y)
    else:
        raise ValueError(impl)
    start = time.perf_counter()
    stepper()
    return time.perf_counter() - start


def _spawn(impl: str) -> float:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "benchmarks.w5_compile_latency", "--child", impl]
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"W5 child {impl} failed: {proc.stderr.strip()[-800:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])["seconds"]


def run(level: str = "full", spawn=_spawn) -> dict:
    reps = {"full": 4, "quick": 2, "tiny": 1}[level]
    impls = ["jax", "cellax"]
    if level != "tiny":
        found = optional_libs()
        impls += ["nnx.jit"] * found["flax"] + ["eqx.filter_jit"] * found["equinox"]
    samples: dict = {impl: [] for impl in impls}
    for r in range(reps):
        shift = r % len(impls)
        for impl in impls[shift:] + impls[:shift]:
            samples[impl].append(spawn(impl) * 1e3)
    rows = {impl: stats(values) for impl, values in samples.items()}
    return result(WORKLOAD, TITLE, "ms", rows, target={"cellax": 1.5})


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        sys.stdout.write(json.dumps({"seconds": child(sys.argv[2])}) + "\n")
    else:
        main(run)
