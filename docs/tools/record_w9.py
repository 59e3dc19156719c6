"""Record W9 (compile time against depth) into ``docs/tools/data/w9_compile_depth.json``.

Run from the repository root (several minutes: one fresh process per implementation, depth and
repetition)::

    python docs/tools/record_w9.py [--reps N]

It runs ``benchmarks/w9_compile_depth.py`` at its full depths (4, 8, 16, 32) and stores the
result table with the machine and its load; ``plot_w9.py`` draws it when the site is built.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(__file__).parent / "data" / "w9_compile_depth.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1, help="samples per point (median kept)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from benchmarks import w9_compile_depth as w9
    from benchmarks._harness import env_info

    load_before = os.getloadavg()
    out = w9.run("full", reps=args.reps)
    record = {
        "command": f"python docs/tools/record_w9.py --reps {args.reps}",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "env": env_info(),
        "load_average": [round(v, 1) for v in load_before + os.getloadavg()],
        "depths": list(w9.DEPTHS["full"]),
        "reps": args.reps,
        "impls": list(w9.IMPLS),
        "result": out,
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
