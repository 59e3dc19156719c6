"""Record MindSpore 2.10 CPU behaviour of ModelCheckpoint / CheckpointConfig and of
save_checkpoint with duplicate names (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_checkpoint_callback.py

Writes tests/goldens/checkpoint_callback.json: {"runs": {case: ...} (PyNative), "naming_graph":
the naming case under GRAPH_MODE, "config_errors", "configs", "checkpoint_errors"}; see
checkpoint_callback_cases.py.
"""

import json
import os
import pathlib
import sys
import tempfile

import mindspore as ms
from mindspore.train import checkpoint_pb2

sys.path.insert(0, os.path.dirname(__file__))
import checkpoint_callback_cases as cases  # noqa: E402


def raw_names(path):
    checkpoint = checkpoint_pb2.Checkpoint()
    with open(path, "rb") as file:
        checkpoint.ParseFromString(file.read())
    return [value.tag for value in checkpoint.value]


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {"runs": {}}
    for name, run in cases.RUNS.items():
        with tempfile.TemporaryDirectory() as tmp:
            out["runs"][name] = run(ms, tmp, raw_names)
    ms.set_context(mode=ms.GRAPH_MODE)
    with tempfile.TemporaryDirectory() as tmp:
        out["naming_graph"] = cases.naming(ms, tmp, raw_names)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out["config_errors"] = cases.config_errors(ms)
    out["configs"] = cases.configs(ms)
    with tempfile.TemporaryDirectory() as tmp:
        out["checkpoint_errors"] = cases.checkpoint_errors(ms, tmp)
    print(json.dumps(out, indent=1))
    path = pathlib.Path(__file__).with_name("checkpoint_callback.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
