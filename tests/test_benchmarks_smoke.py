"""The benchmark workloads still run (tiny iteration counts; times are never asserted).

Each workload checks on its own that cellax and hand-written JAX compute the same first loss
(or the same gradients, W6), so these smoke runs also catch a benchmark that stopped
comparing like with like. The three slowest (W6, W11 and the dataset feed: about a minute of
compiling between them) run with ``CELLAX_BENCH_SMOKE=all`` and whenever benchmarks/run.py
runs them; ``make test`` runs the rest.
"""

import importlib
import json
import os
import subprocess
import sys

import pytest

import cellax as ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NEEDS = {  # workload module -> cellax.nn names it needs (others are being written)
    "w7_cnn_train_jit": ("Conv2d", "MaxPool2d"),
    "w8_transformer_train_jit": ("TransformerEncoder", "TransformerEncoderLayer"),
    "w11_pynative_train": (
        "Conv2d",
        "MaxPool2d",
        "TransformerEncoder",
        "TransformerEncoderLayer",
    ),
}
ALL = os.environ.get("CELLAX_BENCH_SMOKE") == "all"
SLOW = pytest.mark.skipif(not ALL, reason="a slow smoke run: set CELLAX_BENCH_SMOKE=all")
MODULES = [
    "w1_mlp_train_jit",
    "w2_mlp_train_eager",
    "w3_tiny_train_jit",
    "w4_op_dispatch",
    pytest.param("w6_recompute_memory", marks=SLOW),
    "w7_cnn_train_jit",
    "w8_transformer_train_jit",
    "w10_mint_vs_ops",
    pytest.param("w11_pynative_train", marks=SLOW),
]


def _check_result(out: dict) -> None:
    assert out["rows"], out
    names = [row["impl"] for row in out["rows"]]
    assert out["baseline"] in names
    assert any("cellax" in name for name in names)  # "cellax", "lenet-cellax", ...
    for row in out["rows"]:
        assert row["median"] > 0 and row["p10"] <= row["median"] <= row["p90"], row
        assert row["ratio"] > 0
    for name in out.get("target") or {}:
        assert name in names
    json.dumps(out)


@pytest.mark.parametrize("module", MODULES)
def test_workload_runs(module):
    missing = [n for n in NEEDS.get(module, ()) if not hasattr(ms.nn, n)]
    if missing:
        pytest.skip(f"cellax.nn has no {missing} yet")
    mod = importlib.import_module(f"benchmarks.{module}")
    _check_result(mod.run("tiny"))


def test_compile_latency_in_process():
    from benchmarks import w5_compile_latency as w5

    out = w5.run("tiny", spawn=w5.child)
    _check_result(out)
    assert {row["impl"] for row in out["rows"]} == {"jax", "cellax"}


def test_runner_fresh_process_and_table():
    from benchmarks import run

    res = run.run_workload("w4_op_dispatch", "tiny", timeout=300)
    assert "error" not in res, res
    _check_result(res)
    text = run.format_results([res, {"workload": "WX", "error": "boom"}])
    assert "cellax ops.add" in text and "ERROR: boom" in text
    md = run.format_markdown([res], {"cpu": "x"}, "python benchmarks/run.py")
    assert md.count("| W4 |") == len(res["rows"])


def test_quick_flag_parses():
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "benchmarks", "run.py"), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert "--quick" in proc.stdout


@SLOW
def test_dataset_feed_runs_and_reports_steady_state():
    # standalone benchmark (worker processes): the structure of its report, never its times
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.dataset_feed", "--quick", "--json", "--maps", "io"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": ROOT},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["images"] == 256 and out["timed_epochs"] == 4 and out["cores"] >= 1
    assert out["step"]["wall_s"] > 0
    for name in ("cellax", "grain"):
        row = out["io"][name]
        for mode in ("data", "data_step"):
            assert row[mode]["wall_s"] > 0
        assert row["floor_s"] >= max(row["data"]["wall_s"], out["step"]["wall_s"])
        assert row["fed"] == pytest.approx(row["data_step"]["wall_s"] / row["floor_s"])
