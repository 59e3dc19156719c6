"""W6 recompute-memory: XLA's temporary bytes for the compiled gradient, with recompute.

A stack of ``depth`` blocks (``x -> tanh(dense2(tanh(dense1(x))))``, width 1024, batch 256,
depth 16) called in a Python loop over an ``nn.CellList``; the loss is ``mean(x ** 2)``. The
gradient w.r.t. all weights is jitted and compiled, and ``memory_analysis()
.temp_size_in_bytes`` read off the executable (nothing runs). cellax's ``cell.recompute()`` on
every block is compared with the same network written in JAX with ``jax.checkpoint`` on every
block (target: within 5%); both without recompute are shown for scale.

The scan form: ``nn.ScanCell`` over the same blocks (its Parameters stored pre-stacked, one
``[depth, ...]`` array per Parameter position) against ``jax.lax.scan`` over pre-stacked
parameters returning the stacked gradient. ``ms.grad`` w.r.t. ``trainable_params()`` returns
one gradient per block Parameter, each a row of the stacked gradient that the compiled program
returns once (sliced when read), so both programs hold the same temporaries. The train-step
rows (gradient + SGD update in one jitted step, parameters donated) have no gradient outputs:
there ScanCell + ``nn.SGD`` is compared with hand-written ``lax.scan`` + ``p - lr * g``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks._harness import main, result

WORKLOAD = "W6"
TITLE = "recompute-memory: grad temp bytes, 16 blocks x (2 matmuls + tanh), width 1024, batch 256"

SIZES = {"full": (16, 1024, 256), "quick": (16, 1024, 256), "tiny": (4, 64, 8)}


def cellax_net(depth: int, width: int, recompute: bool, scan: bool = False):
    from cellax import nn, ops

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense1 = nn.Dense(width, width)
            self.dense2 = nn.Dense(width, width)

        def construct(self, x):
            return ops.tanh(self.dense2(ops.tanh(self.dense1(x))))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            blocks = nn.CellList([Block() for _ in range(depth)])
            if scan:  # the scan form: one lax.scan over the stacked blocks
                self.blocks = nn.ScanCell(blocks)
                if recompute:
                    self.blocks.recompute()
            else:
                self.blocks = blocks
                if recompute:
                    for block in self.blocks:
                        block.recompute()

        def construct(self, x):
            if scan:
                x = self.blocks(x)
            else:
                for block in self.blocks:
                    x = block(x)
            return ops.mean(x * x)

    return Net()


def cellax_grad(net):
    import cellax as ms

    return ms.jit(ms.grad(net, None, net.trainable_params()))


def raw_block(p, x):
    w1, b1, w2, b2 = p
    return jnp.tanh(jnp.tanh(x @ w1.T + b1) @ w2.T + b2)


def raw_loss(params, x, recompute: bool):
    block = jax.checkpoint(raw_block) if recompute else raw_block
    for p in params:
        x = block(p, x)
    return (x * x).mean()


def raw_scan_loss(stacked, x, recompute: bool):
    block = jax.checkpoint(raw_block) if recompute else raw_block

    def body(h, p):
        return block(p, h), None

    h, _ = jax.lax.scan(body, x, stacked)
    return (h * h).mean()


def raw_scan_step(recompute: bool, lr: float = 0.01):
    def step(stacked, x):
        g = jax.grad(lambda p, x: raw_scan_loss(p, x, recompute))(stacked, x)
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, stacked, g)

    return jax.jit(step, donate_argnums=0)


def cellax_step(net, lr: float = 0.01):
    import cellax as ms
    from cellax import nn

    opt = nn.SGD(net.trainable_params(), lr)
    grad = ms.grad(net, None, opt.parameters)

    def step(x):
        opt(grad(x))
        return 0

    return ms.jit(step)


def temp_bytes(lowered) -> int:
    return int(lowered.compile().memory_analysis().temp_size_in_bytes)


def dot_counts(lowered) -> tuple:
    """(dot_general ops in the lowered StableHLO, dots left in the optimized HLO)."""
    import re

    compiled = lowered.compile().as_text()
    return (
        lowered.as_text().count("stablehlo.dot_general"),
        len(re.findall(r"\} dot\(", compiled)),
    )


def _row(nbytes: int, vs: str | None = None) -> dict:
    mib = nbytes / 2**20
    row = {"median": mib, "p10": mib, "p90": mib, "n": 1, "bytes": nbytes}
    if vs:
        row["vs"] = vs
    return row


def run(level: str = "full") -> dict:
    import cellax as ms

    depth, width, batch = SIZES[level]
    x = np.random.default_rng(0).standard_normal((batch, width), dtype=np.float32)
    rows: dict = {}
    notes = []
    for recompute in (True, False):
        tag = "recompute" if recompute else "no recompute"
        net = cellax_net(depth, width, recompute)
        weights = [p.asnumpy() for p in net.trainable_params()]
        params = [tuple(jnp.asarray(w) for w in weights[4 * i : 4 * i + 4]) for i in range(depth)]
        raw = jax.jit(jax.grad(lambda p, x: raw_loss(p, x, recompute)))
        raw_lowered = raw.lower(params, x)
        rows[f"jax checkpoint ({tag})"] = _row(temp_bytes(raw_lowered))
        grad = cellax_grad(net)
        lowered = grad.lower(ms.Tensor(x))
        rows[f"cellax ({tag})"] = _row(temp_bytes(lowered), vs=f"jax checkpoint ({tag})")
        notes.append(
            f"{tag}: dot ops lowered/optimized: cellax {dot_counts(lowered)}, "
            f"jax {dot_counts(raw_lowered)}"
        )
        if level == "tiny":  # same gradients, so both do the same work
            got = [g.asnumpy() for g in grad(ms.Tensor(x))]
            want = jax.tree_util.tree_leaves(raw(params, x))
            for g, w in zip(got, want):
                np.testing.assert_allclose(g, np.asarray(w), rtol=2e-4, atol=1e-6)
        scan_net = cellax_net(depth, width, recompute, scan=True)
        scan_weights = [p.asnumpy() for p in scan_net.trainable_params()]
        stacked = [jnp.asarray(np.stack(scan_weights[k::4])) for k in range(4)]
        raw_scan = jax.jit(jax.grad(lambda p, x: raw_scan_loss(p, x, recompute)))
        rows[f"jax lax.scan ({tag})"] = _row(
            temp_bytes(raw_scan.lower(stacked, x)), vs=f"jax checkpoint ({tag})"
        )
        scan_grad = cellax_grad(scan_net)
        rows[f"cellax ScanCell ({tag})"] = _row(
            temp_bytes(scan_grad.lower(ms.Tensor(x))), vs=f"jax lax.scan ({tag})"
        )
        if level == "tiny":  # per-block gradients, rows of the stacked ones
            got = [g.asnumpy() for g in scan_grad(ms.Tensor(x))]
            stacked_grad = raw_scan(stacked, x)
            want = [gk[i] for i in range(depth) for gk in stacked_grad]
            for g, w in zip(got, want):
                np.testing.assert_allclose(g, np.asarray(w), rtol=2e-4, atol=1e-6)
        step = f"jax lax.scan + SGD step ({tag})"
        rows[step] = _row(temp_bytes(raw_scan_step(recompute).lower(stacked, x)))
        rows[f"cellax ScanCell + nn.SGD step ({tag})"] = _row(
            temp_bytes(cellax_step(scan_net).lower(ms.Tensor(x))), vs=step
        )
        rows[step]["vs"] = step
        del net, grad, scan_net, scan_grad
    notes.append(
        "ScanCell stores its blocks' Parameters stacked; ms.grad returns one gradient per block "
        "Parameter as a row of the stacked gradient, which the program returns once"
    )
    base = "jax checkpoint (recompute)"
    # the baseline row of the table is the hand-written recompute
    ordered = {base: rows.pop(base)}
    ordered.update(rows)
    for name, row in ordered.items():
        row.setdefault("vs", base)
    return result(
        WORKLOAD,
        TITLE,
        "MiB temp",
        ordered,
        baseline=base,
        target={
            "cellax (recompute)": 1.05,
            "cellax ScanCell (recompute)": 1.1,
            "cellax ScanCell (no recompute)": 1.1,
            "cellax ScanCell + nn.SGD step (recompute)": 1.1,
            "cellax ScanCell + nn.SGD step (no recompute)": 1.1,
        },
        notes=notes,
    )


if __name__ == "__main__":
    main(run)
