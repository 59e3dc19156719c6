"""Run every workload in a fresh process and print one table (``make bench``).

    python benchmarks/run.py                 # full run (several minutes)
    python benchmarks/run.py --quick         # smoke run
    python benchmarks/run.py --only W1,W3    # some workloads
    python benchmarks/run.py --markdown out.md
    python benchmarks/run.py --json docs/tools/data/bench_cpu.json   # the docs' recorded results

Each workload module prints one JSON result; this script starts it with
``python -m benchmarks.<module> --json`` (a fresh interpreter per workload, so compile caches,
allocator state and imported libraries of one never affect another), collects the results and
prints medians, p10/p90 and the ratio to hand-written JAX. A row's ratio is its median over
its reference row's (usually ``jax``); ``target`` is the performance contract's bound.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

WORKLOADS = [
    ("W1", "w1_mlp_train_jit"),
    ("W2", "w2_mlp_train_eager"),
    ("W3", "w3_tiny_train_jit"),
    ("W4", "w4_op_dispatch"),
    ("W5", "w5_compile_latency"),
    ("W6", "w6_recompute_memory"),
    ("W7", "w7_cnn_train_jit"),
    ("W8", "w8_transformer_train_jit"),
    ("W9", "w9_compile_depth"),
    ("W10", "w10_mint_vs_ops"),
    ("W11", "w11_pynative_train"),
]


def run_workload(module: str, level: str, timeout: float) -> dict:
    """Run ``benchmarks.<module>`` in a fresh interpreter; its JSON result or an error."""
    cmd = [sys.executable, "-m", f"benchmarks.{module}", "--json"]
    if level != "full":
        cmd.append(f"--{level}")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"workload": module, "error": f"timed out after {timeout:.0f} s"}
    wall = time.perf_counter() - start
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-6:]
        return {"workload": module, "error": " | ".join(tail) or f"exit {proc.returncode}"}
    out = json.loads(lines[-1])
    out["wall_s"] = wall
    return out


def _fmt(value) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1e4:
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.2f}"


def _rows(results):
    """(workload, impl, median, p10, p90, unit, ratio, vs, target, verdict) per row."""
    for res in results:
        if "error" in res:
            yield (res["workload"], "ERROR: " + res["error"][:200], "", "", "", "", "", "", "", "")
            continue
        targets = res.get("target") or {}
        for row in res["rows"]:
            target = targets.get(row["impl"])
            verdict = ""
            if target is not None and row["ratio"] is not None:
                verdict = "ok" if row["ratio"] <= target else "MISS"
            yield (
                res["workload"],
                row["impl"],
                _fmt(row["median"]),
                _fmt(row["p10"]),
                _fmt(row["p90"]),
                res["unit"],
                f"{row['ratio']:.3f}" if row["ratio"] else "-",
                row["vs"],
                f"<= {target}" if target is not None else "",
                verdict,
            )


HEADER = ("workload", "implementation", "median", "p10", "p90", "unit", "ratio", "vs", "target", "")


def format_results(results) -> str:
    """A plain-text table of workload results."""
    rows = [HEADER, *_rows(results)]
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(HEADER))]
    lines = []
    for k, r in enumerate(rows):
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    titles = [f"{res['workload']}: {res.get('title', '')}" for res in results if "title" in res]
    notes = [f"{res['workload']}: {n}" for res in results for n in res.get("notes", ())]
    return "\n".join(lines + [""] + titles + ([""] + notes if notes else []))


def format_markdown(results, env: dict, command: str) -> str:
    """The table as Markdown, with the machine and the command."""
    out = [
        "| workload | implementation | median | p10 | p90 | unit | ratio | vs | target | |",
        "|---|---|---:|---:|---:|---|---:|---|---|---|",
    ]
    for r in _rows(results):
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    titles = [
        f"- **{res['workload']}**: {res.get('title', '')}" for res in results if "title" in res
    ]
    notes = [f"- {res['workload']}: {n}" for res in results for n in res.get("notes", ())]
    machine = ", ".join(f"{k} {v}" for k, v in env.items())
    return "\n".join(
        [
            f"Command: `{command}`",
            "",
            f"Date: {env.get('date', '')}",
            "",
            f"Machine: {machine}",
            "",
            *out,
            "",
            *titles,
            "",
            *notes,
            "",
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few iterations (smoke run)")
    parser.add_argument("--only", default="", help="comma-separated workloads, e.g. W1,W3")
    parser.add_argument("--markdown", default="", help="also write the table to this file")
    parser.add_argument(
        "--json", default="", help="also write the results, machine and command to this file"
    )
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per workload")
    args = parser.parse_args(argv)
    wanted = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    level = "quick" if args.quick else "full"

    from benchmarks._harness import env_info

    env = env_info()
    env["date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    try:
        env["load average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        pass
    print("machine:", ", ".join(f"{k} {v}" for k, v in env.items()), flush=True)
    results = []
    for name, module in WORKLOADS:
        if wanted and name not in wanted:
            continue
        print(f"running {name} ({module}) ...", flush=True)
        res = run_workload(module, level, args.timeout)
        res.setdefault("workload", name)
        results.append(res)
        print(format_results([res]), flush=True)
    print("\n" + "=" * 30 + " summary " + "=" * 30)
    print(format_results(results))
    command = "python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(format_markdown(results, env, command.strip()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": command.strip(), "env": env, "results": results}, f, indent=1)
            f.write("\n")
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
