"""Record MindSpore 2.10 goldens of the Tensor methods in tensor_methods_cases.py.

Run with the oracle interpreter from /tmp (never from the tests):
    cd /tmp && /root/ms-ref/bin/python REPO/tests/goldens/record_tensor_methods_more.py
It writes tests/goldens/tensor_methods_more.json: the public names of MindSpore's Tensor
("__names__") and each case's encoded result, or its error as
"Type: message". For a case given as a pair, MindSpore's CPU build has no kernel for the
form (an error), so the reference form's result is recorded, marked "reference".
"""

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tensor_methods_cases as tc  # noqa: E402

import mindspore as ms  # noqa: E402

ms.runtime.launch_blocking()  # a failed kernel raises at its own call, not at a later one


def _drain() -> None:
    # MindSpore reports a failed kernel again at the next few calls: let it do so here.
    for _ in range(20):
        try:
            (ms.Tensor([1.0]) + 1).asnumpy()
            return
        except Exception:
            continue


def _reference(fn):
    _drain()
    return tc.encode(ms, np, fn(ms, np))


def main() -> None:
    out = {}
    for name, case in tc.CASES.items():
        entry = {}
        try:
            entry["result"] = tc.encode(ms, np, tc.run(ms, np, name))
        except Exception as error:  # recorded: cellax must raise the same type
            _drain()
            if isinstance(case, tuple):
                entry["reference"] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
                entry["result"] = _reference(case[1])
            else:
                entry["error"] = f"{type(error).__name__}: {str(error).splitlines()[0]}"[:300]
        out[name] = entry
    out["__names__"] = sorted(n for n in dir(ms.Tensor) if not n.startswith("_"))
    with open(os.path.join(HERE, "tensor_methods_more.json"), "w") as f:
        json.dump(out, f, sort_keys=True, indent=1)
        f.write("\n")
    print(f"wrote {len(out) - 1} cases, {sum('error' in e for e in out.values())} errors")


if __name__ == "__main__":
    main()
