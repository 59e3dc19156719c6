"""Record MindSpore 2.10 goldens of deterministic vision transforms (vision_cases.py).

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_vision.py
It writes tests/goldens/vision.json: the input image and every case's output (or its error).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vision_cases as vc  # noqa: E402

import mindspore.dataset.vision as v  # noqa: E402,F401  (used by the case expressions)


def main() -> None:
    img = vc.image()
    results = {"__input__": img.tolist()}
    for name, expression in vc.CASES.items():
        try:
            out = eval(expression)(img.copy())
            results[name] = {"value": out.tolist(), "dtype": str(out.dtype)}
        except Exception as error:  # recorded: cellax must raise the same type
            results[name] = {"error": type(error).__name__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vision.json")
    with open(path, "w") as f:
        json.dump(results, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(results) - 1} cases to {path}")


if __name__ == "__main__":
    main()
