"""Record which hooks MindSpore 2.10 calls under ``@jit`` and GRAPH_MODE, and with what.

    /root/ms-ref/bin/python tests/goldens/record_hooks_jit.py

Runs every example of hook_jit_examples.py in its own process (GRAPH_MODE is global, and
graph-mode ``print`` writes to the process's stdout from C++, so the whole output is
captured) and writes hooks_jit.json: ``{example: {"reports": [[tag, values]...], "out": [...],
"printed": text}}``. ``reports`` are the distinct hook reports parsed from graph-mode print
(each argument on its own line: a bool or int as a number, a Tensor as
``Tensor(shape=..., value=[...])``), sorted; ``out`` the gradients as nested lists.
"""

import json
import os
import re
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from hook_jit_examples import EXAMPLES, TAGS  # noqa: E402

_NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]\d+)?")


def _value(line: str):
    """One printed argument: an int (a bool prints as 1/0) or a list of floats."""
    if re.fullmatch(r"-?\d+", line.strip()):
        return int(line)
    body = line.split("value=", 1)[1] if "value=" in line else line
    return [float(v) for v in _NUMBER.findall(body)]


def parse_reports(text: str) -> list:
    reports, current = [], None
    for line in text.splitlines():
        if line.startswith("[WARNING]") or not line.strip():
            continue
        if line.strip() in TAGS:
            current = [line.strip(), []]
            reports.append(current)
        elif current is not None:
            current[1].append(_value(line))
    unique = {json.dumps(r) for r in reports}
    return [json.loads(r) for r in sorted(unique)]


def run_one(name: str) -> None:
    """In the child: run one example and print its gradients after a RESULT marker."""
    import numpy as np
    import mindspore as ms
    from mindspore import Parameter, Tensor, nn, ops

    path = os.path.join(tempfile.mkdtemp(), f"{name}.py")  # MindSpore parses the source
    with open(path, "w") as f:
        f.write(EXAMPLES[name])
    scope = dict(ms=ms, nn=nn, ops=ops, Tensor=Tensor, Parameter=Parameter, np=np)
    out = runpy.run_path(path, init_globals=scope)["out"]
    out = [t.asnumpy().tolist() for t in (out if isinstance(out, tuple) else (out,))]
    sys.stdout.flush()
    print("RESULT" + json.dumps(out), flush=True)


def main():
    golden = {}
    work = tempfile.mkdtemp()  # MindSpore writes rank_0/ dumps into the working directory
    for name in EXAMPLES:
        done = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--one", name],
            capture_output=True,
            text=True,
            cwd=work,
            check=True,
        )
        printed, result = done.stdout.rsplit("RESULT", 1)
        printed = "".join(ln for ln in printed.splitlines(True) if not ln.startswith("[WARNING]"))
        golden[name] = {
            "reports": parse_reports(printed),
            "out": json.loads(result),
            "printed": printed,
        }
        print(f"== {name}\n{printed}{golden[name]['reports']}\n{golden[name]['out']}")
    with open(os.path.join(HERE, "hooks_jit.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if "--one" in sys.argv:
        run_one(sys.argv[sys.argv.index("--one") + 1])
    else:
        main()
