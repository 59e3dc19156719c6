"""Record MindSpore 2.10 CPU behaviour of ReduceLROnPlateau, EarlyStopping,
LearningRateScheduler and OnRequestExit (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_callback_more.py

Writes tests/goldens/callbacks_more.json: {"plateau": {case: per-epoch [lr, wait,
cooldown_counter, best]}, "plateau_dynamic_lr": ..., "plateau_errors": {kwargs: [type,
message] or null}, "early": {case: per-epoch [wait, best, stopped_epoch, stop requested], the
weight after, printed text, baseline, min_delta}, "early_errors", "lr_scheduler": {case: the
(lr, step) calls and the final rate}, "lr_scheduler_dynamic", "exit_errors": ..., "exit":
{case: log, files, checkpoint keys}}.
"""

import json
import os
import pathlib
import sys
import tempfile

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, train

sys.path.insert(0, os.path.dirname(__file__))
import callback_more_cases as cases  # noqa: E402


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {
        "plateau": {name: cases.plateau(ms, nn, train, name) for name in cases.PLATEAU},
        "plateau_dynamic_lr": cases.plateau_dynamic_lr(ms, nn, train),
        "plateau_errors": cases.plateau_errors(train),
        "early": {name: cases.early(ms, nn, train, name) for name in cases.EARLY},
        "early_errors": cases.early_errors(train),
        "lr_scheduler": {
            name: cases.lr_scheduler(ms, nn, ds, train, name) for name in cases.LR_FUNCTIONS
        },
        "lr_scheduler_dynamic": cases.lr_scheduler_dynamic(ms, nn, ds, train),
    }
    with tempfile.TemporaryDirectory() as tmp:
        out["exit_errors"] = cases.exit_errors(train, tmp)
    out["exit"] = {}
    for case in [*cases.EXIT_CASES, "eval"]:
        with tempfile.TemporaryDirectory() as tmp:
            out["exit"][case] = cases.run_exit(ms, nn, ds, train, case, tmp)
    print(json.dumps(out, indent=1))
    path = pathlib.Path(__file__).with_name("callbacks_more.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
