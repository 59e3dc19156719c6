"""W3 tiny-train-jit: the same train step on MLP 32-64-10, batch 8 (dispatch-bound).

The compiled program is a few microseconds, so this measures per-call Python overhead of the
jit wrapper: argument flattening, cache lookup, state in/out. Targets: cellax at most 1.15x
hand-written JAX (issue 24; the design's contract is 1.3x), and faster than ``nnx.jit`` and
Equinox ``filter_jit``.
"""

from __future__ import annotations

from benchmarks._harness import Settings, main, measure, result
from benchmarks._models import mlp_steppers, same_work_note

WORKLOAD = "W3"
TITLE = "tiny-train-jit: MLP 32-64-10, batch 8, SGD, one jitted step (dispatch-bound)"


def run(level: str = "full") -> dict:
    settings = Settings.for_level(level, full=(60, 50, 50), quick=(8, 20, 10))
    steps = mlp_steppers((32, 64, 10), 8, (32,))
    rows = measure(steps, settings)
    notes = same_work_note(rows)
    for lib in ("nnx.jit", "eqx.filter_jit"):
        if lib in rows:
            faster = rows["cellax"]["median"] < rows[lib]["median"]
            verdict = "faster" if faster else "NOT faster"
            notes.append(
                f"cellax {verdict} than {lib} ({rows['cellax']['median']:.1f} vs "
                f"{rows[lib]['median']:.1f} us)"
            )
    return result(WORKLOAD, TITLE, "us/step", rows, target={"cellax": 1.15}, notes=notes)


if __name__ == "__main__":
    main(run)
