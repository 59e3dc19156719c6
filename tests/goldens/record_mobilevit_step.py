"""Record one mindcv mobilevit_xx_small gradient step in MindSpore 2.10 (needs mindcv 0.3.0 on
PYTHONPATH), in GRAPH_MODE (jit) and in PyNative.

    PYTHONPATH=/path/to/mindcv /root/ms-ref/bin/python tests/goldens/record_mobilevit_step.py

Writes mobilevit_step.json: ``graph`` and ``pynative``, each with the loss and every trainable
parameter's gradient sum and norm (plus the whole gradient of a few). The two MindSpore modes
disagree on this model: PyNative's Softmax gradient in the attention blocks departs from the
softmax derivative (see docs' differences page); ``graph`` is the reference the tests use.
"""

import json
import pathlib
import sys

import mindcv
import mindspore as ms

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import mobilevit_step_case as case  # noqa: E402

out = {}
for mode, jit in (("graph", True), ("pynative", False)):
    ms.set_seed(0)
    net = case.build(ms, mindcv)
    out[mode] = case.summary(*case.step(ms, net, jit=jit))
(HERE / "mobilevit_step.json").write_text(json.dumps(out, indent=1) + "\n")
print("loss", out["graph"]["loss"], out["pynative"]["loss"])
