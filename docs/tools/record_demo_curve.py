"""Record the training curve of ``make demo`` into ``docs/tools/data/demo_curve.json``.

Run from the repository root (takes as long as ``make demo``)::

    python docs/tools/record_demo_curve.py

It runs ``examples/quickstart.py``'s ``main`` with its default (``make demo``) settings and
stores the per-epoch mean training loss and test accuracy; ``plot_training.py`` draws them when
the site is built.
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import pathlib
import platform

import jax

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(__file__).parent / "data" / "demo_curve.json"


def main() -> None:
    spec = importlib.util.spec_from_file_location("quickstart", ROOT / "examples" / "quickstart.py")
    quickstart = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quickstart)
    history = quickstart.main(progress=False)
    record = {
        "command": "make demo (examples/quickstart.py, default settings)",
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.system()} {platform.machine()}, jax {jax.__version__} "
        f"({jax.default_backend()})",
        "loss": [round(v, 6) for v in history["losses"]],
        "test_accuracy": [round(v, 6) for v in history["accuracy"]],
        "seconds": round(history.get("seconds", 0.0), 1),
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record))


if __name__ == "__main__":
    main()
