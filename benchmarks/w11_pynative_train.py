"""W11 pynative-train: PyNative (no jit) training of LeNet-5 and W8's transformer vs PyTorch eager.

cellax runs the MindSpore tutorial's step without ``jit`` in the default context:
``value_and_grad(forward_fn, None, optimizer.parameters)`` (on the eager tape) and
``nn.SGD``. ``*-torch`` rows are the PyTorch eager twins (``benchmarks/_torch_twins.py``):
same weights, data, mean softmax cross entropy and SGD lr 0.01; ``*-jax`` rows are the
hand-written JAX networks of W7/W8 stepped without ``jax.jit`` (``jax.value_and_grad`` and
optax, one dispatch per primitive). First losses (and the inference logits) are checked equal.

- ``lenet-*``: W7's LeNet-5 (MindSpore's model zoo: Conv2d 5x5 valid without bias, ReLU,
  MaxPool 2x2, Dense 400-120-84-10), 1x32x32, batch 32.
- ``transformer-*``: W8's network (2-layer TransformerEncoder, d 128, 4 heads, ff 512,
  post-norm, dropout 0; mean over the sequence, Dense 128->10), seq 64, batch 16.
- ``lenet-infer-*``: one forward pass of a LeNet-5 in eval mode, no gradient (cellax: the
  Cell called in PyNative; torch: under ``no_grad``), batch 32.
- ``lenet-cellax-first`` / ``lenet-cellax-steady-new``: the first PyNative step after the
  batch changes (32 -> 48, 40, 56, ...: each a shape no kernel was compiled for), timed
  alone, next to a steady step at that same new shape; each repetition takes a fresh shape.

Targets: with PyTorch, the cellax training steps at most 2x their torch twins (``vs``); the
inference row has none (it is there to show that inference did not regress). Without
PyTorch the rows are compared with eager JAX and carry no target (the contract is against
PyTorch).
"""

from __future__ import annotations

import time

import jax.numpy as jnp
import numpy as np

from benchmarks._harness import Settings, main, measure, result, stats
from benchmarks._models import (
    cellax_train_step,
    check_same_loss,
    mlp_data,
    named_weights,
    raw_stepper,
)
from benchmarks._torch_twins import (
    TorchStepper,
    torch_available,
    torch_infer,
    torch_lenet,
    torch_note,
    torch_transformer,
)
from benchmarks.w7_cnn_train_jit import cellax_lenet, raw_lenet_logits, raw_lenet_loss
from benchmarks.w8_transformer_train_jit import cellax_transformer, raw_transformer_loss

WORKLOAD = "W11"
TITLE = (
    "pynative-train: LeNet-5 (batch 32) and 2-layer transformer (d 128, seq 64, batch 16), "
    "PyNative (no jit) step vs PyTorch eager"
)

LENET_IN = (1, 32, 32)
SHAPES = {  # level -> (lenet batch, transformer (d_model, ff, seq, batch), new lenet batches)
    "full": (32, (128, 512, 64, 16), (48, 40, 56, 44, 52)),
    "quick": (32, (128, 512, 64, 16), (48, 40, 56)),
    "tiny": (4, (16, 32, 8, 2), (6,)),
}
HEADS, LAYERS = 4, 2
TARGET = 2.0


def _cellax_stepper(net, x, y):
    import cellax as ms

    train_step = cellax_train_step(net, jit=False)
    xt, yt = ms.Tensor(x), ms.Tensor(y)

    def step():
        return train_step(xt, yt).jax.block_until_ready()

    step.train_step = train_step
    return step


def _first_losses(steps: dict, family: str) -> dict:
    """Runs each step of ``family`` once (timed: the cold first call), checks the losses."""
    first, cold = {}, {}
    for name, step in steps.items():
        if name.startswith(family + "-"):
            start = time.perf_counter()
            first[name] = float(step())
            cold[name] = time.perf_counter() - start
    first["jax"] = first[family + "-jax"]
    check_same_loss(first)
    return cold


def _new_shape_steps(call, batches, steady_calls: int = 3):
    """(first call times, steady times) in microseconds at each new batch in ``batches``."""
    first, steady = [], []
    for batch in batches:
        run = call(batch)
        start = time.perf_counter()
        run()
        first.append((time.perf_counter() - start) * 1e6)
        run()  # one more call before the steady ones
        times = []
        for _ in range(steady_calls):
            start = time.perf_counter()
            run()
            times.append((time.perf_counter() - start) * 1e6)
        steady.append(float(np.median(times)))
    return first, steady


def run(level: str = "full") -> dict:
    import cellax as ms

    settings = Settings.for_level(level, full=(20, 3, 3), quick=(5, 2, 1))
    infer_settings = Settings.for_level(level, full=(20, 20, 5), quick=(5, 10, 2))
    batch, (d_model, ff, seq, tr_batch), new_batches = SHAPES[level]
    with_torch = torch_available()

    lenet, transformer = cellax_lenet(), cellax_transformer(d_model, HEADS, ff, LAYERS)
    transformer.set_train(True)
    lx, ly = mlp_data(batch, LENET_IN)
    tx, ty = mlp_data(tr_batch, (seq, d_model))
    steps = {
        "lenet-jax": raw_stepper(raw_lenet_loss, named_weights(lenet), lx, ly, jit=False),
        "transformer-jax": raw_stepper(
            raw_transformer_loss, named_weights(transformer), tx, ty, jit=False
        ),
    }
    if with_torch:  # twins first: the cellax steps below change the weights
        steps["lenet-torch"] = TorchStepper(torch_lenet(lenet), lx, ly)
        steps["transformer-torch"] = TorchStepper(
            torch_transformer(transformer, d_model, HEADS, ff, LAYERS), tx, ty
        )
    steps["lenet-cellax"] = _cellax_stepper(lenet, lx, ly)
    steps["transformer-cellax"] = _cellax_stepper(transformer, tx, ty)
    cold = _first_losses(steps, "lenet")
    cold.update(_first_losses(steps, "transformer"))
    rows = measure(steps, settings)

    # inference: a fresh LeNet-5 in eval mode, one forward pass, no gradient
    infer_net = cellax_lenet()
    infer_net.set_train(False)
    params = {k: jnp.asarray(v) for k, v in named_weights(infer_net).items()}
    xj, xt = jnp.asarray(lx), ms.Tensor(lx)
    infers = {
        "lenet-infer-jax": lambda: raw_lenet_logits(params, xj).block_until_ready(),
        "lenet-infer-cellax": lambda: infer_net(xt).jax.block_until_ready(),
    }
    if with_torch:
        twin = torch_infer(torch_lenet(infer_net), lx)
        infers["lenet-infer-torch"] = lambda: twin().numpy()
    outs = {name: np.asarray(f()) for name, f in infers.items()}
    for name, out in outs.items():
        np.testing.assert_allclose(out, outs["lenet-infer-jax"], rtol=1e-4, atol=1e-5)
    rows.update(measure(infers, infer_settings))

    # the first PyNative step at a new input shape vs a steady step at that shape
    train_step = steps["lenet-cellax"].train_step

    def cellax_at(new_batch):
        x, y = mlp_data(new_batch, LENET_IN, seed=new_batch)
        xt, yt = ms.Tensor(x), ms.Tensor(y)
        return lambda: train_step(xt, yt).jax.block_until_ready()

    first, steady = _new_shape_steps(cellax_at, new_batches)
    rows["lenet-cellax-first"] = dict(stats(first), vs="lenet-cellax-steady-new")
    rows["lenet-cellax-steady-new"] = dict(stats(steady), vs="lenet-cellax-steady-new")

    ref = "torch" if with_torch else "jax"
    for name, row in rows.items():
        if "vs" not in row:
            row["vs"] = name.rsplit("-", 1)[0] + "-" + ref
    notes = [
        f"lenet-cellax-first: the first cellax PyNative step after the batch changes from "
        f"{batch} to a new size ({', '.join(map(str, new_batches))}; each compiles new "
        f"per-op kernels), over a steady step at the same new size "
        f"(lenet-cellax-steady-new; medians over {len(new_batches)} sizes)",
        "cold first calls (the very first step, every kernel compiled): "
        + ", ".join(f"{name} {t:.2f} s" for name, t in cold.items()),
        "jax rows: hand-written JAX without jax.jit (jax.value_and_grad + optax, one "
        "dispatch per primitive; inference: the forward alone)",
    ]
    target = {}
    if with_torch:
        tmodel = torch_lenet(lenet)  # one model: only the batch size changes
        tfirst, tsteady = _new_shape_steps(
            lambda b: TorchStepper(tmodel, *mlp_data(b, LENET_IN, seed=b)), new_batches
        )
        notes.append(
            f"torch's first step at a new batch size: {np.median(tfirst) / 1e3:.2f} ms, "
            f"{np.median(tfirst) / np.median(tsteady):.2f}x its steady step"
        )
        notes.append(torch_note())
        target = {"lenet-cellax": TARGET, "transformer-cellax": TARGET}
    else:
        notes.append("PyTorch does not import here: cellax rows are compared with eager JAX")
    return result(
        WORKLOAD,
        TITLE,
        "us/step",
        rows,
        baseline="lenet-" + ref,
        target=target,
        notes=notes,
    )


if __name__ == "__main__":
    main(run)
