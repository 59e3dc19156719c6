"""W9 compile-depth: first-call time of a transformer train step against its depth.

A stack of 4, 8, 16, 32 W8 encoder layers (d_model 128, 4 heads, feed-forward 512, ReLU,
post-norm, dropout 0; sequence 64, batch 16), mean over the sequence, ``nn.Dense(128, 10)``,
softmax cross-entropy, SGD. Timed: the first call of the jitted train step (trace + compile +
run) in a fresh process, for

- ``cellax CellList``: the blocks in an ``nn.CellList``, called in a Python loop (unrolled);
- ``cellax ScanCell``: the same blocks in ``nn.ScanCell`` (one ``lax.scan``);
- ``jax unrolled``: hand-written JAX + optax, a Python loop over per-layer weights;
- ``jax lax.scan``: hand-written JAX + optax, one ``lax.scan`` over stacked weights.

Every implementation starts from the same weights (``cellax.set_seed(0)``) and the parent
checks that all of them compute the same first loss. Issue 24's target: ScanCell flat in depth
(32 blocks at most 1.3x 4 blocks) and within 1.2x of ``jax lax.scan``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from benchmarks._harness import main, result, stats

WORKLOAD = "W9"
TITLE = "compile-depth: first call (trace + compile + run) of a transformer step, by depth"

IMPLS = ("cellax CellList", "cellax ScanCell", "jax unrolled", "jax lax.scan")
DEPTHS = {"full": (4, 8, 16, 32), "quick": (4, 16), "tiny": (2,)}
D_MODEL, HEADS, FF, SEQ, BATCH = 128, 4, 512, 64, 16


def cellax_encoder(depth: int, scan: bool):
    import cellax as ms
    from cellax import nn, ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            blocks = nn.CellList(
                [
                    nn.TransformerEncoderLayer(
                        D_MODEL, HEADS, dim_feedforward=FF, dropout=0.0, batch_first=True
                    )
                    for _ in range(depth)
                ]
            )
            self.blocks = nn.ScanCell(blocks) if scan else blocks
            self.head = nn.Dense(D_MODEL, 10)

        def construct(self, x):
            if scan:
                x = self.blocks(x)
            else:
                for block in self.blocks:
                    x = block(x)
            return self.head(ops.mean(x, 1))

    ms.set_seed(0)
    return Net()


def _raw_losses(depth: int):
    """(unrolled loss over {name: array}, scan loss over {"blocks": stacked, "head.*": ...})."""
    import jax
    import optax

    from benchmarks.w8_transformer_train_jit import _encoder_layer

    def head_loss(p, x, y):
        logits = x.mean(1) @ p["head.weight"].T + p["head.bias"]
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    def unrolled(p, x, y):
        for i in range(depth):
            x = _encoder_layer(p, f"blocks.{i}.", x)
        return head_loss(p, x, y)

    def scanned(p, x, y):
        x, _ = jax.lax.scan(lambda h, block: (_encoder_layer(block, "", h), None), x, p["blocks"])
        return head_loss(p, x, y)

    return unrolled, scanned


def child(impl: str, depth: int) -> tuple[float, float, float]:
    """(wall seconds of the first call, its CPU seconds over all threads, its loss) of ``impl``
    at ``depth`` in this process. On a machine other work shares, the CPU time is the steadier
    measure of the work done (tracing and XLA compilation are mostly CPU work)."""
    import jax
    import numpy as np

    import cellax as ms
    from benchmarks import _models as m

    x, y = m.mlp_data(BATCH, (SEQ, D_MODEL))
    net = cellax_encoder(depth, scan=impl == "cellax ScanCell")
    if impl.startswith("cellax"):
        train_step = m.cellax_train_step(net)
        xt, yt = ms.Tensor(x), ms.Tensor(y)
        jax.block_until_ready([p.jax for p in net.trainable_params()])
        start, cpu = time.perf_counter(), time.process_time()
        loss = train_step(xt, yt).jax.block_until_ready()
        return time.perf_counter() - start, time.process_time() - cpu, float(loss)
    weights = m.named_weights(net)
    unrolled, scanned = _raw_losses(depth)
    if impl == "jax unrolled":
        stepper = m.raw_stepper(unrolled, weights, x, y)
    elif impl == "jax lax.scan":
        suffixes = sorted({k.split(".", 2)[2] for k in weights if k.startswith("blocks.")})
        stacked = {
            s: np.stack([weights[f"blocks.{i}.{s}"] for i in range(depth)]) for s in suffixes
        }
        params = {"blocks": stacked, "head.weight": weights["head.weight"]}
        params["head.bias"] = weights["head.bias"]
        stepper = m.raw_stepper(scanned, params, x, y)
    else:
        raise ValueError(impl)
    start, cpu = time.perf_counter(), time.process_time()
    loss = stepper()
    return time.perf_counter() - start, time.process_time() - cpu, float(loss)


def _spawn(impl: str, depth: int) -> tuple[float, float, float]:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "benchmarks.w9_compile_depth", "--child", impl, str(depth)]
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"W9 child {impl} {depth} failed: {proc.stderr.strip()[-800:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["seconds"], out["cpu_seconds"], out["loss"]


def run(level: str = "full", spawn=_spawn, reps: int | None = None) -> dict:
    reps = reps or {"full": 2, "quick": 1, "tiny": 1}[level]
    depths = DEPTHS[level]
    samples: dict = {(impl, d): [] for d in depths for impl in IMPLS}
    cpu_samples: dict = {key: [] for key in samples}
    losses: dict = {d: {} for d in depths}
    for r in range(reps):
        for d in depths:
            shift = r % len(IMPLS)
            for impl in IMPLS[shift:] + IMPLS[:shift]:
                seconds, cpu_seconds, loss = spawn(impl, d)
                samples[impl, d].append(seconds * 1e3)
                cpu_samples[impl, d].append(cpu_seconds * 1e3)
                losses[d][impl] = loss
    for d, by_impl in losses.items():  # all four do the same work
        ref = by_impl["jax unrolled"]
        for impl, loss in by_impl.items():
            assert abs(loss - ref) <= 1e-4 * max(1.0, abs(ref)), (d, impl, loss, ref)
    rows = {}
    for (impl, d), values in samples.items():
        row = stats(values)
        row["cpu_median"] = stats(cpu_samples[impl, d])["median"]  # ms of CPU, all threads
        # the reference of each row: the same implementation at the smallest depth
        # (flat in depth = ratio near 1), except the smallest depth itself (against jax unrolled)
        base = f"{impl} x{depths[0]}"
        row["vs"] = base if d != depths[0] else f"jax unrolled x{depths[0]}"
        rows[f"{impl} x{d}"] = row
    target = {f"cellax ScanCell x{depths[-1]}": 1.3}
    return result(WORKLOAD, TITLE, "ms", rows, baseline=f"jax unrolled x{depths[0]}", target=target)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        seconds, cpu_seconds, loss = child(sys.argv[2], int(sys.argv[3]))
        out = {"seconds": seconds, "cpu_seconds": cpu_seconds, "loss": loss}
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        main(run)
