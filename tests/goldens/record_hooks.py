"""Record the printed output of the hook/bprop examples with MindSpore (the oracle).

    /tmp/ms/bin/python tests/goldens/record_hooks.py

Writes hooks.json: ``{example name: printed text}`` (MindSpore's log lines dropped).
"""

import contextlib
import io
import json
import os
import runpy
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from hook_examples import EXAMPLES  # noqa: E402


def main():
    import numpy as np
    import mindspore as ms
    from mindspore import Parameter, Tensor, nn, ops

    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = {}
    for name, code in EXAMPLES.items():
        buf = io.StringIO()
        scope = dict(ms=ms, nn=nn, ops=ops, Tensor=Tensor, Parameter=Parameter, np=np)
        path = os.path.join(tempfile.mkdtemp(), f"{name}.py")  # MindSpore reads the source
        with open(path, "w") as f:
            f.write(code)
        with contextlib.redirect_stdout(buf):
            runpy.run_path(path, init_globals=scope)
        lines = [ln for ln in buf.getvalue().splitlines(True) if not ln.startswith("[WARNING]")]
        out[name] = "".join(lines)
        print(f"== {name}\n{out[name]}")
    with open(os.path.join(HERE, "hooks.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
