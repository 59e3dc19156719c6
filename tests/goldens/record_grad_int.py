"""Record MindSpore 2.10 goldens for the issue 36 cases (integer gradients, casts, grad's
return structures, small op differences).

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_grad_int.py
It writes tests/goldens/grad_int.json; ``grad_int_cases.py`` holds the cases and
``grad_int_fns.py`` the functions and Cells they differentiate.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance_cases as cc  # noqa: E402
import grad_int_cases as gc  # noqa: E402

import mindspore as ms  # noqa: E402

ms.set_context(pynative_synchronize=True)


def main() -> None:
    base = gc.make_namespace(ms)
    results = {key: cc.run_case(code, base, ms) for key, code in gc.all_cases().items()}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "grad_int.json")
    with open(out, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": results}, f, indent=0, sort_keys=True)
    print(f"wrote {len(results)} cases to {out}")


if __name__ == "__main__":
    main()
