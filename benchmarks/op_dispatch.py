"""Eager op dispatch overhead: ``ops.add(x, y)`` and ``x + y`` on two float32[3] Tensors
against ``jnp.add`` on the raw arrays, interleaved in one run (medians and ratios).

    /tmp/venv/bin/python benchmarks/op_dispatch.py [--rounds 30] [--calls 2000]

Target (DESIGN.md): cellax <= 1.3x the jnp call.
"""

import argparse
import json
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import cellax as ms


def _time(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        out = fn()
    jax.block_until_ready(out.jax if isinstance(out, ms.Tensor) else out)
    return (time.perf_counter() - start) / calls * 1e6  # microseconds per call


def run(rounds: int = 30, calls: int = 2000) -> dict:
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    y = ms.Tensor(np.array([4.0, 5.0, 6.0], np.float32))
    a, b = x.jax, y.jax
    impls = {
        "jnp.add(a, b)": lambda: jnp.add(a, b),
        "ops.add(x, y)": lambda: ms.ops.add(x, y),
        "x + y": lambda: x + y,
    }
    for fn in impls.values():  # warm up (compile once)
        _time(fn, 50)
    samples = {name: [] for name in impls}
    for _ in range(rounds):  # interleaved: every round times each implementation
        for name, fn in impls.items():
            samples[name].append(_time(fn, calls))
    base = statistics.median(samples["jnp.add(a, b)"])
    rows = {
        name: {
            "median_us": round(statistics.median(v), 3),
            "ratio": round(statistics.median(v) / base, 3),
        }
        for name, v in samples.items()
    }
    return {"rounds": rounds, "calls": calls, "rows": rows, "target_ratio": 1.3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    result = run(args.rounds, args.calls)
    for name, row in result["rows"].items():
        print(f"{name:16s} median {row['median_us']:8.3f} us   ratio {row['ratio']:.3f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
