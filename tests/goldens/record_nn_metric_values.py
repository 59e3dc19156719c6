"""Record MindSpore 2.10 results of the nn.metrics cases (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_nn_metric_values.py

Writes tests/goldens/nn_metric_values.json: case name -> {"value": eval results as JSON
(NaN written as -999)} or {"error": type name, "message": ...}.
"""

import json
import os
import pathlib
import sys

import mindspore
from mindspore import train

sys.path.insert(0, os.path.dirname(__file__))
import nn_metric_cases as cases  # noqa: E402


def main() -> None:
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
    names = [*cases.CASES, *cases.OCCLUSION_CASES]
    out = {case: cases.run(train, case, mindspore) for case in names}
    for case, result in out.items():
        print(case, result.get("error", ""), result.get("message", ""))
    path = pathlib.Path(__file__).with_name("nn_metric_values.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
