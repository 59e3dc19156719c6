"""Record MindSpore 2.10 goldens for the issue 23 conformance cases.

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_conformance.py
It writes tests/goldens/conformance.json; ``conformance_cases.py`` holds the cases, which the
tests run again with ``import cellax as ms``.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance_cases as cc  # noqa: E402

import mindspore as ms  # noqa: E402

ms.set_context(pynative_synchronize=True)


def main() -> None:
    base = cc.make_namespace(ms)
    results = {key: cc.run_case(code, base, ms) for key, code in cc.all_cases().items()}
    for key, code in cc.FRESH.items():
        script = "import mindspore as ms\n" + code
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        results["fresh_" + key] = {"stdout": run.stdout.strip().splitlines()[-1]}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance.json")
    with open(out, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": results}, f, indent=0, sort_keys=True)
    print(f"wrote {len(results)} cases to {out}")


if __name__ == "__main__":
    main()
