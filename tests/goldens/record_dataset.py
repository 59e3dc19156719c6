"""Record MindSpore 2.10 goldens for the cellax.dataset tests.

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_dataset.py
It writes tests/goldens/dataset.json from the pipelines of ``dataset_cases.py`` (shared with the
tests, which build the same pipelines with ``cellax.dataset``).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dataset_cases as dc  # noqa: E402

import mindspore.dataset as ds  # noqa: E402


def main() -> None:
    results = {}
    for name, (build, epochs) in dc.CASES.items():
        try:
            results[name] = dc.run(build(ds), epochs)
        except Exception as error:  # recorded: cellax must raise the same type
            results[name] = {"error": type(error).__name__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dataset.json")
    with open(path, "w") as f:
        json.dump(results, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(results)} cases to {path}")


if __name__ == "__main__":
    main()
