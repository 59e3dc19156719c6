"""The W9 figure and table of the performance page (compile time against depth).

The data (``data/w9_compile_depth.json``) are recorded by ``record_w9.py`` from
``benchmarks/w9_compile_depth.py``; this module draws them when the site is built (matplotlib,
SVG) and writes the table that replaces ``<!-- W9 table -->`` on the performance page.
"""

from __future__ import annotations

import io
import json
import pathlib

DATA = pathlib.Path(__file__).parent / "data" / "w9_compile_depth.json"
IMAGE = "images/w9_compile_depth.svg"
MARKER = "<!-- W9 table -->"
STYLE = {
    "cellax CellList": ("o-", "tab:blue"),
    "cellax ScanCell": ("s-", "tab:orange"),
    "jax unrolled": ("o--", "tab:green"),
    "jax lax.scan": ("s--", "tab:red"),
}


def load() -> dict | None:
    return json.loads(DATA.read_text()) if DATA.is_file() else None


def medians(record: dict, key: str = "cpu_median") -> dict[str, dict[int, float]]:
    """{implementation: {depth: median seconds}}: of CPU time (``cpu_median``, all threads of
    the process) or of wall-clock time (``median``)."""
    out: dict[str, dict[int, float]] = {impl: {} for impl in record["impls"]}
    for row in record["result"]["rows"]:
        impl, depth = row["impl"].rsplit(" x", 1)
        out[impl][int(depth)] = row[key] / 1e3
    return out


def figure(record: dict) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(7, 3.8))
    for impl, points in medians(record).items():
        depths = sorted(points)
        marker, color = STYLE.get(impl, ("o-", None))
        axis.plot(depths, [points[d] for d in depths], marker, color=color, label=impl)
    axis.set_xscale("log", base=2)
    axis.set_xticks(record["depths"], [str(d) for d in record["depths"]])
    axis.set_xlabel("encoder layers")
    axis.set_ylabel("first call: CPU seconds")
    axis.set_title("W9: trace + compile + run of the first step, against depth")
    axis.legend()
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def table(record: dict) -> str:
    cpu, wall = medians(record), medians(record, "median")
    depths = record["depths"]
    first, last = depths[0], depths[-1]
    lines = [
        f"![W9: first-call CPU time against the number of encoder layers]({IMAGE})",
        "",
        "CPU seconds of the first call (all threads of the process; wall-clock seconds in "
        "parentheses), median of "
        f"{record['reps']} fresh process(es) per point:",
        "",
        "| implementation | "
        + " | ".join(f"{d} layers" for d in depths)
        + f" | {last} / {first} layers |",
        "|---|" + "---:|" * (len(depths) + 1),
    ]
    for impl in cpu:
        cells = [f"{cpu[impl][d]:.1f} ({wall[impl][d]:.1f})" for d in depths]
        growth = cpu[impl][last] / cpu[impl][first]
        lines.append(f"| {impl} | " + " | ".join(cells) + f" | {growth:.2f}x |")
    scan, raw = cpu.get("cellax ScanCell"), cpu.get("jax lax.scan")
    if scan and raw:
        lines += [
            "",
            f"Against issue 24's targets (CPU time): ScanCell at {last} layers takes "
            f"{scan[last] / scan[first]:.2f}x its {first}-layer time (target: at most 1.3x) and "
            f"{scan[last] / raw[last]:.2f}x hand-written `lax.scan` (target: at most 1.2x).",
        ]
    env, load = record["env"], record["load_average"]
    lines += [
        "",
        f"Recorded {record['date']} by `{record['command']}`: {env['platform']}, {env['cores']} "
        f"CPU cores, jax {env['jax']} ({env['device']}); 1-minute load average {load[0]} before "
        f"and {load[3]} after the run. Other work shared the machine, so wall-clock times are "
        "inflated and noisy; the CPU times measure the work itself.",
    ]
    return "\n".join(lines)


def pages() -> dict[str, bytes]:
    record = load()
    return {IMAGE: figure(record)} if record else {}


def on_page_markdown(markdown: str) -> str:
    if MARKER not in markdown:
        return markdown
    record = load()
    text = (
        table(record)
        if record
        else "(W9 has not been recorded yet: `python docs/tools/record_w9.py`.)"
    )
    return markdown.replace(MARKER, text)
