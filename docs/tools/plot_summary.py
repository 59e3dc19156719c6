"""The loss curve of the "Deploy and monitor" page, drawn from event files when the site is built.

The page's code block titled ``train_with_summaries.py`` runs (in a temporary folder) and
writes TensorBoard event files through ``SummaryCollector``; this module reads the scalars
back from the files (TFRecord framing, tensorboardX's ``Event`` protocol buffer) and draws them
with matplotlib as SVG. The page marks the figure's place with :data:`MARKER`; without
tensorboardX (the ``summary`` extra) the marker becomes a note instead.
"""

from __future__ import annotations

import contextlib
import glob
import io
import os
import pathlib
import re
import struct
import tempfile

PAGE = pathlib.Path(__file__).resolve().parents[1] / "deploy.md"
TITLE = "train_with_summaries.py"
MARKER = "<!-- summary loss curve -->"
IMAGE = "images/summary_loss.svg"
_DRAWN: dict[str, bool] = {}


def script(page: pathlib.Path = PAGE) -> str:
    """The code of the page's block titled :data:`TITLE`."""
    fence = re.compile(r'^```python title="' + re.escape(TITLE) + r'"\n(.*?)^```', re.S | re.M)
    match = fence.search(page.read_text())
    if match is None:
        raise ValueError(f"{page} has no python block titled {TITLE!r}")
    return match.group(1)


def read_scalars(log_dir: str) -> dict[str, list[tuple[int, float]]]:
    """``{tag: [(step, value), ...]}`` of the scalars of the event files in ``log_dir``."""
    from tensorboardX.proto.event_pb2 import Event

    scalars: dict[str, list[tuple[int, float]]] = {}
    for path in sorted(glob.glob(os.path.join(log_dir, "*tfevents*"))):
        with open(path, "rb") as f:
            while header := f.read(12):
                (length,) = struct.unpack("<Q", header[:8])
                event = Event.FromString(f.read(length))
                f.read(4)  # the payload's checksum
                for value in event.summary.value:
                    if value.WhichOneof("value") == "simple_value":
                        scalars.setdefault(value.tag, []).append((event.step, value.simple_value))
    return scalars


def run() -> dict[str, list[tuple[int, float]]]:
    """Run the page's script in a temporary folder; the scalars of its ``summary_dir``."""
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(script(), TITLE, "exec"), {"__name__": "__main__"})
            return read_scalars(os.path.join(folder, "summary_dir"))
        finally:
            os.chdir(cwd)


def figure(scalars: dict) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, loss = zip(*sorted(dict(scalars["loss/auto"]).items()))
    fig, axis = plt.subplots(figsize=(7, 3.4))
    axis.plot(steps, loss, "o-", color="tab:blue", markersize=3, label="loss/auto")
    axis.set_xlabel("step")
    axis.set_ylabel("training loss")
    axis.set_yscale("log")
    axis.set_title("loss/auto, read back from the event file of train_with_summaries.py")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def pages() -> dict[str, bytes]:
    _DRAWN.clear()
    try:
        import tensorboardX  # noqa: F401
    except ImportError:
        return {}
    _DRAWN[IMAGE] = True
    return {IMAGE: figure(run())}


def on_page_markdown(markdown: str) -> str:
    if MARKER not in markdown:
        return markdown
    if _DRAWN.get(IMAGE):
        text = f"![Training loss read back from the event files]({IMAGE})"
    else:
        text = "(The loss curve is drawn when the site is built with `cellax[summary]`.)"
    return markdown.replace(MARKER, text)
