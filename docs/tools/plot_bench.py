"""The results chart and table that open the performance page.

The data are whole runs of ``benchmarks/run.py`` stored with ``--json``: ``data/bench_cpu.json``
(recorded on a CPU) and, when a GPU run has been recorded, ``data/bench_gpu.json``. This module
draws them when the site is built (matplotlib, SVG) and writes what replaces
``<!-- bench results -->`` on the performance page: per recording, the figure, a table of the
rows the figure shows, and the machine and command that produced them.

Every bar is a ratio of medians measured in the same run (the harness alternates the
implementations round by round), so machine drift cancels; lower is faster.
"""

from __future__ import annotations

import io
import json
import pathlib

DATA = pathlib.Path(__file__).parent / "data"
RECORDS = (("cpu", "CPU"), ("gpu", "GPU"))
MARKER = "<!-- bench results -->"

# (panel title, reference label, [(workload, network, reference row, {label: row}), ...])
PANELS = (
    (
        "Compiled training step (jit or GRAPH_MODE)",
        "hand-written JAX + optax",
        (
            (
                "W1",
                "MLP 784-512-512-10",
                "jax",
                {"cellax": "cellax", "Flax NNX": "nnx.jit", "Equinox": "eqx.filter_jit"},
            ),
            (
                "W3",
                "tiny MLP (dispatch-bound)",
                "jax",
                {"cellax": "cellax", "Flax NNX": "nnx.jit", "Equinox": "eqx.filter_jit"},
            ),
            ("W7", "LeNet-5", "jax", {"cellax": "cellax"}),
            ("W8", "2-layer transformer", "jax", {"cellax": "cellax"}),
            (
                "W5",
                "first call: trace + compile",
                "jax",
                {"cellax": "cellax", "Flax NNX": "nnx.jit", "Equinox": "eqx.filter_jit"},
            ),
        ),
    ),
    (
        "PyNative training step (no jit)",
        "PyTorch eager",
        (
            (
                "W2",
                "MLP 784-512-512-10",
                "torch",
                {"cellax": "cellax", "cellax, grad replay": "cellax-replay", "eager JAX": "jax"},
            ),
            (
                "W11",
                "LeNet-5",
                "lenet-torch",
                {"cellax": "lenet-cellax", "eager JAX": "lenet-jax"},
            ),
            (
                "W11",
                "2-layer transformer",
                "transformer-torch",
                {"cellax": "transformer-cellax", "eager JAX": "transformer-jax"},
            ),
        ),
    ),
)
COLORS = {
    "cellax": "tab:blue",
    "cellax, grad replay": "tab:cyan",
    "Flax NNX": "tab:orange",
    "Equinox": "tab:green",
    "eager JAX": "tab:red",
}


def load(kind: str) -> dict | None:
    path = DATA / f"bench_{kind}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def _medians(record: dict) -> dict[str, tuple[dict[str, float], str]]:
    """{workload: ({row: median}, unit)} of the workloads that ran without error."""
    out = {}
    for res in record["results"]:
        if "error" not in res:
            out[res["workload"]] = ({r["impl"]: r["median"] for r in res["rows"]}, res["unit"])
    return out


def bars(record: dict) -> list[tuple[str, str, list[tuple[str, str, float, float, str]]]]:
    """Per panel present in the record: (title, reference label, [(case, label, ratio, median,
    unit)]); a case whose reference row is missing (no PyTorch in that run) is left out."""
    medians = _medians(record)
    panels = []
    for title, ref_label, cases in PANELS:
        rows = []
        for workload, network, ref, labels in cases:
            got, unit = medians.get(workload, ({}, ""))
            if not got.get(ref):
                continue
            case = f"{workload} {network}"
            rows.append((case, ref_label, 1.0, got[ref], unit))
            for label, row in labels.items():
                if row in got:
                    rows.append((case, label, got[row] / got[ref], got[row], unit))
        if rows:
            panels.append((title, ref_label, rows))
    return panels


def figure(record: dict, device: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401  (matplotlib.ticker below)

    panels = bars(record)
    heights = [len({case for case, *_ in rows}) for _, _, rows in panels]
    fig, axes = plt.subplots(
        len(panels),
        1,
        figsize=(8.5, 1.2 + 0.7 * sum(heights)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for axis, (title, ref_label, rows) in zip(axes[:, 0], panels):
        cases = list(dict.fromkeys(case for case, *_ in rows))
        labels = [lab for lab in COLORS if any(r[1] == lab for r in rows)]
        width = 0.8 / max(len(labels), 1)
        for k, label in enumerate(labels):
            ys, xs = [], []
            for case, lab, ratio, *_ in rows:
                if lab == label:
                    ys.append(cases.index(case) + (k - (len(labels) - 1) / 2) * width)
                    xs.append(ratio)
            # each bar runs from the reference (1) to the ratio: left is faster, right slower
            widths = [x - 1.0 for x in xs]
            axis.barh(ys, widths, left=1.0, height=width, color=COLORS[label], label=label)
            for y, x in zip(ys, xs):
                side = ("left", 1.04) if x >= 1.0 else ("right", 1 / 1.04)
                axis.text(x * side[1], y, f"{x:.2f}", ha=side[0], va="center", fontsize=7)
        ratios = [ratio for _, _, ratio, *_ in rows]
        axis.set_xscale("log", base=2)
        axis.set_xlim(min(min(ratios), 1.0) / 1.6, max(max(ratios), 1.0) * 1.6)
        axis.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%gx"))
        axis.axvline(1.0, color="black", linewidth=1)
        axis.set_yticks(range(len(cases)), cases)
        axis.invert_yaxis()
        axis.set_title(f"{title}, {device}")
        axis.set_xlabel(f"time relative to {ref_label} (log scale; left of 1x is faster)")
        axis.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if value >= 1e4 else f"{value:.1f}" if value >= 100 else f"{value:.2f}"


def table(record: dict, kind: str, device: str) -> str:
    lines = [
        f"![{device}: cellax against hand-written JAX, Flax NNX, Equinox and PyTorch]"
        f"(images/bench_{kind}.svg)",
        "",
        "| workload | implementation | median | ratio |",
        "|---|---|---:|---:|",
    ]
    for _, ref_label, rows in bars(record):
        for case, label, ratio, median, unit in rows:
            shown = f"**{ratio:.2f}**" if label == "cellax" else f"{ratio:.2f}"
            lines.append(f"| {case} | {label} | {_fmt(median)} {unit} | {shown} |")
    env = record["env"]
    torch = next(
        (n for res in record["results"] for n in res.get("notes", ()) if n.startswith("torch ")),
        None,
    )
    lines += [
        "",
        f"Recorded {env.get('date', '')} by `{record['command']}`: {env.get('platform', '')}, "
        f"{env.get('cores', '?')} cores, {env.get('device', '')}, Python {env.get('python', '')}, "
        f"jax {env.get('jax', '')}, optax {env.get('optax', '-')}, flax {env.get('flax', '-')}, "
        f"equinox {env.get('equinox', '-')}; 1-minute load average at the start "
        f"{env.get('load average', '?').split()[0]}."
        + (f" PyTorch rows: {torch}." if torch else ""),
    ]
    return "\n".join(lines)


def pages() -> dict[str, bytes]:
    out = {}
    for kind, device in RECORDS:
        record = load(kind)
        if record:
            out[f"images/bench_{kind}.svg"] = figure(record, device)
    return out


def on_page_markdown(markdown: str) -> str:
    if MARKER not in markdown:
        return markdown
    parts = []
    for kind, device in RECORDS:
        record = load(kind)
        if record:
            parts += [f"### {device}", "", table(record, kind, device), ""]
        else:
            parts += [
                f"### {device}",
                "",
                f"No {device} run has been recorded yet: on a machine with one, "
                f"`python benchmarks/run.py --json docs/tools/data/bench_{kind}.json`.",
                "",
            ]
    return markdown.replace(MARKER, "\n".join(parts))
