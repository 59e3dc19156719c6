"""W9 (compile time against depth) still runs and compares like with like: at depth 2, in this
process, the CellList, ScanCell, unrolled-JAX and lax.scan-JAX train steps start from the same
weights and compute the same first loss (``run`` asserts it). Times are not checked."""

import cellax as ms


def test_w9_runs_and_all_implementations_agree():
    from benchmarks import w9_compile_depth as w9

    try:
        out = w9.run("tiny", spawn=w9.child)
    finally:
        ms.set_seed(0)  # ``child`` seeds the global generator; leave it in a known state
    rows = {row["impl"]: row for row in out["rows"]}
    assert set(rows) == {f"{impl} x2" for impl in w9.IMPLS}
    assert all(row["vs"] == "jax unrolled x2" for row in rows.values())
    assert all(row["median"] > 0 and row["cpu_median"] > 0 for row in rows.values())
