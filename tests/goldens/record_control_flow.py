"""Record tests/goldens/control_flow.json from MindSpore 2.10 CPU (the reference oracle).

Run: /root/ms-ref/bin/python tests/goldens/record_control_flow.py  (without PYTHONPATH)
"""

import json
import os
import sys
import tempfile

import mindspore as ms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "control_flow"))
import examples  # noqa: E402


def graph_mode(on):
    ms.set_context(mode=ms.GRAPH_MODE if on else ms.PYNATIVE_MODE)


os.chdir(tempfile.mkdtemp())  # MindSpore writes rank_0/ logs into the working directory
ms.set_context(device_target="CPU")
examples.setup(ms)
results = examples.run_all(graph_mode)
with open(os.path.join(HERE, "control_flow.json"), "w") as f:
    json.dump({"mindspore": ms.__version__, "cases": results}, f, indent=1, sort_keys=True)
for name, value in sorted(results.items()):
    print(name, value)
