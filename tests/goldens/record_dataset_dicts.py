"""Record MindSpore 2.10's handling of dict columns -> dataset_dicts.json.

Run from /tmp with the oracle interpreter: ``/root/ms-ref/bin/python
/path/to/tests/goldens/record_dataset_dicts.py`` (the cases: dataset_dict_cases.py).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dataset_dict_cases as cases  # noqa: E402

import mindspore.dataset as ds  # noqa: E402


def main() -> None:
    results = {name: cases.run(ds, name) for name in cases.CASES}
    with open(os.path.join(HERE, "dataset_dicts.json"), "w") as file:
        json.dump(results, file, indent=1, sort_keys=True)
        file.write("\n")
    print(json.dumps(results)[:3000])


if __name__ == "__main__":
    main()
