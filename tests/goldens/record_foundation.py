"""Record MindSpore 2.10 goldens for the foundation tests (Tensor, dtype, Parameter, ...).

Run with the oracle interpreter (never from the tests):
    /tmp/ms/bin/python tests/goldens/record_foundation.py
It writes tests/goldens/foundation.json. ``foundation_cases.py`` holds the case list (shared with
the tests, which run the same code with ``import cellax as ms``).
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import foundation_cases as fc  # noqa: E402

import mindspore as ms  # noqa: E402

ms.set_context(pynative_synchronize=True)  # a failing kernel must not poison later cases


def main() -> None:
    namespace_base = fc.make_namespace(ms, "mindspore")
    results = {}
    for key, code in fc.all_cases():
        result = fc.run_case(code, namespace_base, ms)
        if key.startswith(("binop", "unary")):  # dtype and values only: keep the file small
            result.pop("repr", None)
            result.pop("str", None)
        if key.startswith("repr") and len(result.get("values", ())) > 50:
            result.pop("values")  # the printed text is what these cases check
        results[key] = {"code": code, "result": result}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "foundation.json")
    with open(out, "w") as f:
        json.dump(
            {"mindspore": ms.__version__, "numpy": np.__version__, "cases": results},
            f,
            indent=0,
            sort_keys=True,
            separators=(",", ":"),
        )
    print(f"wrote {len(results)} cases to {out}")


if __name__ == "__main__":
    main()
