"""The training-curve figure of the performance page, drawn when the site is built.

The data (``data/demo_curve.json``) is recorded by ``record_demo_curve.py`` from a run of
``make demo``; this module only draws it (matplotlib, SVG) so the build stays fast.
"""

from __future__ import annotations

import io
import json
import pathlib

DATA = pathlib.Path(__file__).parent / "data" / "demo_curve.json"
IMAGE = "images/demo_curve.svg"


def figure(record: dict) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = range(1, len(record["loss"]) + 1)
    fig, loss_axis = plt.subplots(figsize=(7, 3.6))
    loss_axis.plot(epochs, record["loss"], "o-", color="tab:blue", label="training loss")
    loss_axis.set_xlabel("epoch")
    loss_axis.set_ylabel("mean training loss", color="tab:blue")
    loss_axis.set_yscale("log")
    accuracy_axis = loss_axis.twinx()
    accuracy = [100 * a for a in record["test_accuracy"]]
    accuracy_axis.plot(epochs, accuracy, "s--", color="tab:orange", label="test accuracy")
    accuracy_axis.set_ylabel("test accuracy (%)", color="tab:orange")
    loss_axis.set_title("make demo: the tutorial's MLP on handwritten digits")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def pages() -> dict[str, bytes]:
    return {IMAGE: figure(json.loads(DATA.read_text()))}
