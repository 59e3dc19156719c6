"""Record MindSpore 2.10 CPU results of the mint.optim cases (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_mint_optim.py

Writes tests/goldens/mint_optim.json: case name -> Parameter values after every step, or
{"error": type name, "message": first line} when MindSpore CPU cannot run the case; and
"state_<case>" -> the optimizer's state Parameters and group keys when built.
"""

import json
import os
import pathlib
import sys

import mindspore as ms
from mindspore import mint

sys.path.insert(0, os.path.dirname(__file__))
import mint_optim_cases as cases  # noqa: E402


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {}
    for case in cases.CASES:
        try:
            out[case] = cases.run(ms, mint, case)
        except Exception as exc:  # noqa: BLE001 - the error is the golden
            out[case] = {"error": type(exc).__name__, "message": str(exc).strip()[:200]}
        print(case, out[case])
    for case in cases.STATE_CASES:
        try:
            out["state_" + case] = cases.state(ms, mint, case)
        except Exception as exc:  # noqa: BLE001 - the error is the golden
            out["state_" + case] = {"error": type(exc).__name__, "message": str(exc)[:200]}
        print(case, out["state_" + case])
    path = pathlib.Path(__file__).with_name("mint_optim.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
