"""Record MindSpore 2.10 CPU behaviour of SummaryCollector and the summary ops (oracle venv, no
PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_summary.py

Writes tests/goldens/summary.json: {"collector_errors": {kwargs: [type, message] or null},
"op_errors": [[op, name, value, error type or null]], "runs": {case: {"losses": [...],
"events": [[step, tag, kind, value]...]}}} (cases in summary_cases.py; ``value`` is the scalar,
``[min, max, count, sum]`` of a histogram, ``[dims, values]`` of a tensor, ``[height, width,
colorspace]`` of an image). The "graph" runs train in GRAPH_MODE.
"""

import glob
import json
import os
import pathlib
import struct
import sys
import tempfile

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops, train
from mindspore.train.summary_pb2 import Event

sys.path.insert(0, os.path.dirname(__file__))
import summary_cases as cases  # noqa: E402


def _records(path):
    out = []
    with open(path, "rb") as f:
        while header := f.read(12):
            (length,) = struct.unpack("<Q", header[:8])
            out.append(f.read(length))
            f.read(4)
    return out


def read(directory):
    """``[step, tag, kind, value]`` of every summary value of the run's event file."""
    (path,) = [p for p in glob.glob(os.path.join(directory, "*summary*")) if "lineage" not in p]
    events = []
    for payload in _records(path):
        event = Event.FromString(payload)
        if not event.HasField("summary"):
            continue
        for value in event.summary.value:
            kind = value.WhichOneof("value")
            if kind == "scalar_value":
                entry = ["scalar", value.scalar_value]
            elif kind == "histogram":
                h = value.histogram
                entry = ["histogram", [h.min, h.max, h.count, h.sum]]
            elif kind == "tensor":
                entry = ["tensor", [list(value.tensor.dims), list(value.tensor.float_data)]]
            elif kind == "image":
                i = value.image
                entry = ["image", [i.height, i.width, i.colorspace]]
            else:
                continue
            events.append([event.step, value.tag, *entry])
    return events


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        out["collector_errors"] = cases.collector_errors(train, tmp)
    with tempfile.TemporaryDirectory() as tmp:
        out["op_errors"] = cases.op_errors(ms, ops, tmp, record_after=True)
    out["runs"] = {}
    for mode in ("pynative", "graph"):
        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
        for name, kwargs in cases.TRAIN_RUNS.items():
            if mode == "graph" and name != "freq2":
                continue
            with tempfile.TemporaryDirectory() as tmp:
                losses = cases.train_run(ms, nn, ops, ds, train, tmp, **kwargs)
                out["runs"][f"{name}_{mode}"] = {"losses": losses, "events": read(tmp)}
    print(json.dumps(out, indent=1))
    path = pathlib.Path(__file__).with_name("summary.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
