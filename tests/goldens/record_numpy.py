"""Record MindSpore 2.10 goldens for tests/numpy (cellax.numpy vs mindspore.numpy).

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_numpy.py
It writes tests/goldens/numpy.json from the cases of ``numpy_cases.py``.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_cases as cases  # noqa: E402

import mindspore as ms  # noqa: E402
import mindspore.numpy as mnp  # noqa: E402

ms.set_context(pynative_synchronize=True)


def main() -> None:
    results = {key: cases.run(mnp, ms, key) for key in cases.CASES}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy.json")
    with open(out, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": results}, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(results)} cases to {out}")


if __name__ == "__main__":
    main()
