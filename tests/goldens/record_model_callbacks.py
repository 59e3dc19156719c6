"""Record MindSpore 2.10 CPU callback logs of the Model cases (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_model_callbacks.py

Writes tests/goldens/model_callbacks.json: case name -> {"log": [[event, cb_params fields,
counters], ...], "result": eval metrics or None}, or {"error": type name, "message": ...}.
"""

import json
import os
import pathlib
import sys

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, train

sys.path.insert(0, os.path.dirname(__file__))
import model_callback_cases as cases  # noqa: E402


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {}
    for case in cases.CASES:
        try:
            out[case] = cases.run(ms, nn, ds, train, case)
        except Exception as exc:  # noqa: BLE001 - the error is the golden
            out[case] = {"error": type(exc).__name__, "message": str(exc).strip()[:200]}
        print(case, out[case] if "error" in out[case] else [e[0] for e in out[case]["log"]])
    path = pathlib.Path(__file__).with_name("model_callbacks.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
