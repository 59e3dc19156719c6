"""Record MindSpore 2.10 CPU results of the lr_scheduler cases (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_lr_scheduler.py

Writes tests/goldens/lr_scheduler.json: case name -> [(last lrs, Parameter values)] per epoch,
or {"error": type name, "message": first line}.
"""

import json
import os
import pathlib
import sys

import mindspore as ms
from mindspore import mint
from mindspore.experimental.optim import lr_scheduler

sys.path.insert(0, os.path.dirname(__file__))
import lr_scheduler_cases as cases  # noqa: E402


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {}
    for case in cases.CASES:
        try:
            out[case] = cases.run(ms, mint, lr_scheduler, case)
        except Exception as exc:  # noqa: BLE001 - the error is the golden
            out[case] = {"error": type(exc).__name__, "message": str(exc).strip()[:200]}
        print(case, out[case] if "error" in out[case] else [r[0] for r in out[case]])
    path = pathlib.Path(__file__).with_name("lr_scheduler.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
