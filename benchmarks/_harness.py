"""Shared timing code: alternate between implementations so machine drift cancels.

Every workload builds a dict ``{impl name: step}``; each ``step()`` does one unit of work and
blocks until its result is ready. :func:`measure` warms every step up, then runs rounds; in
each round every implementation runs ``inner`` steps back to back (the order rotates from
round to round) and the round's time divided by ``inner`` is one sample. Medians and
p10/p90 are over samples.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Settings", "measure", "stats", "result", "main", "optional_libs"]


@dataclass
class Settings:
    """Iteration counts of one run: ``full`` (make bench), ``quick`` (--quick), ``tiny`` (tests)."""

    level: str = "full"
    rounds: int = 30
    inner: int = 20
    warmup: int = 5
    extra: dict = field(default_factory=dict)

    @classmethod
    def for_level(cls, level: str, full=(30, 20, 5), quick=(5, 5, 2), tiny=(2, 1, 1)):
        rounds, inner, warmup = {"full": full, "quick": quick, "tiny": tiny}[level]
        return cls(level, rounds, inner, warmup)


def stats(samples) -> dict:
    a = np.asarray(samples, dtype=np.float64)
    return {
        "median": float(np.median(a)),
        "p10": float(np.percentile(a, 10)),
        "p90": float(np.percentile(a, 90)),
        "min": float(a.min()),
        "n": int(a.size),
    }


def measure(steps: dict, settings: Settings, scale: float = 1e6) -> dict:
    """``{name: stats}`` of seconds per step times ``scale`` (default: microseconds)."""
    names = list(steps)
    for name in names:
        for _ in range(settings.warmup):
            steps[name]()
    samples: dict = {name: [] for name in names}
    clock = time.perf_counter
    for r in range(settings.rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            step = steps[name]
            inner = settings.inner
            start = clock()
            for _ in range(inner):
                step()
            samples[name].append((clock() - start) / inner * scale)
    return {name: stats(values) for name, values in samples.items()}


def optional_libs() -> dict:
    """Which comparison libraries import here: {'flax': bool, 'equinox': bool}."""
    found = {}
    for lib in ("flax", "equinox"):
        try:
            __import__(lib)
            found[lib] = True
        except Exception:  # noqa: BLE001 - any import failure means "not available"
            found[lib] = False
    return found


def result(
    workload: str, title: str, unit: str, rows: dict, baseline: str = "jax", target=None, notes=()
) -> dict:
    """The JSON-able result of one workload.

    ``ratio`` is each row's median over its reference row's median: the row named in the
    row's ``vs`` entry, else ``baseline``. ``target`` maps row names to the highest ratio
    allowed (the performance contract).
    """
    table = []
    for name, row in rows.items():
        ref = row.get("vs", baseline)
        base = rows[ref]["median"]
        table.append(dict(row, impl=name, vs=ref, ratio=row["median"] / base if base else None))
    return {
        "workload": workload,
        "title": title,
        "unit": unit,
        "baseline": baseline,
        "target": target,
        "rows": table,
        "notes": list(notes),
    }


def main(run, argv=None) -> dict:
    """Command line of a workload module: ``--quick``/``--tiny``, ``--json``."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="few iterations (smoke run)")
    parser.add_argument("--tiny", action="store_true", help="fewest iterations (tests)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    level = "tiny" if args.tiny else "quick" if args.quick else "full"
    out = run(level)
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        from benchmarks.run import format_results

        sys.stdout.write(format_results([out]) + "\n")
    sys.stdout.flush()
    return out


def env_info() -> dict:
    import platform

    import jax

    info = {
        "python": platform.python_version(),
        "jax": jax.__version__,
        "platform": platform.platform(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "device": str(jax.devices()[0]),
    }
    for lib in ("optax", "flax", "equinox"):
        try:
            info[lib] = __import__(lib).__version__
        except Exception:  # noqa: BLE001
            pass
    return info
