"""Record what mindcv 0.3.0's own train.py and validate.py print under MindSpore 2.10 CPU
(oracle venv; mindcv and its scripts from outside the repository; run from a scratch folder,
MindSpore dumps into the working directory):

    cd /tmp/scratch && PYTHONPATH=/tmp/zoo /root/ms-ref/bin/python \
        /path/to/tests/goldens/record_mindcv_scripts.py /tmp/mindcv-scripts

The dataset, config, starting checkpoint and command lines are mindcv_scripts_cases'.
Writes tests/goldens/mindcv_scripts.json: "init", the starting checkpoint's digest; per mode (1 PyNative, 0 GRAPH_MODE) the parsed
train.py numbers (per-step loss and lr, per-epoch validation metrics, saved checkpoints),
the checkpoint files written (sorted names; for the last one and the optimizer's, parameter
name -> [sum, sum of squares] of the values read back), validate.py's result on the last checkpoint; and "spread": the same
train.py numbers in PyNative from a starting checkpoint scaled by (1 + 3e-7), i.e. how far
float32 rounding alone moves MindSpore's own numbers (the test's tolerance is built on it).
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import mindcv_scripts_cases as cases  # noqa: E402


def _run(scripts, script, args, cwd) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([scripts, env.get("PYTHONPATH", "")])
    command = [sys.executable, os.path.join(scripts, script), *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise SystemExit(output[-4000:])
    return output


def _moved(array):
    """Floating values scaled by (1 + 3e-7), integers (e.g. a head's strides) as they are."""
    if np.issubdtype(array.dtype, np.floating):
        return (array * np.float32(1 + 3e-7)).astype(array.dtype)
    return array


def main() -> None:
    import mindspore as ms

    scripts = sys.argv[1]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        data, config = tmp / "data", tmp / "data" / "config.yaml"
        cases.make_data(data)
        init = tmp / cases.INIT_CKPT
        cases.init_checkpoint(ms, init)
        out["init"] = cases.digest(ms, init)
        for mode in (1, 0):
            ckpt = tmp / f"ckpt{mode}"
            text = _run(scripts, "train.py", cases.train_args(mode, data, config, ckpt, init), tmp)
            got = cases.parse_train(text)
            files = sorted(p.name for p in ckpt.iterdir() if p.suffix == ".ckpt")
            got["files"] = files
            digested = (f"{cases.MODEL}-2_2.ckpt", f"optim_{cases.MODEL}.ckpt")
            got["digests"] = {f: cases.digest(ms, ckpt / f) for f in digested}
            last = ckpt / f"{cases.MODEL}-2_2.ckpt"
            text = _run(scripts, "validate.py", cases.validate_args(mode, data, config, last), tmp)
            got["validate"] = cases.parse_validate(text)
            out[str(mode)] = got
            print(mode, got["steps"], got["validation"], files, got["validate"])
        # the same run from weights moved by float32 rounding: MindSpore's own spread
        moved = tmp / "moved" / cases.INIT_CKPT
        moved.parent.mkdir()
        values = ms.load_checkpoint(str(init))
        scaled = [{"name": k, "data": ms.Tensor(_moved(v.asnumpy()))} for k, v in values.items()]
        ms.save_checkpoint(scaled, str(moved))
        text = _run(
            scripts, "train.py", cases.train_args(1, data, config, tmp / "ckptm", moved), tmp
        )
        out["spread"] = cases.parse_train(text)
        print("spread", out["spread"]["steps"])
    path = HERE / "mindcv_scripts.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
