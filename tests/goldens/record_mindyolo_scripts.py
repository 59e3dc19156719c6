"""Record what mindyolo 0.5.0's own train.py prints under MindSpore 2.10 CPU (oracle venv;
mindyolo, OpenCV and pycocotools from outside the repository; run from a scratch folder):

    cd /tmp/scratch && PYTHONPATH=/tmp/zoo_yolo:DEPS /root/ms-ref/bin/python \
        /path/to/tests/goldens/record_mindyolo_scripts.py /tmp/yolo-scripts

where /tmp/yolo-scripts holds train.py, test.py and configs/ from the mindyolo repository at
tag v0.5.0. The dataset, config, starting checkpoint and command line are
mindyolo_scripts_cases'. Writes tests/goldens/mindyolo_scripts.json: "init", the starting
checkpoint's digest; per mode (1 PyNative, 0 GRAPH_MODE) the logged steps
([epoch, step, {loss items}, lr]) and the checkpoint files written, and for the PyNative run
(with --run_eval True) the evaluation after each epoch ("eval": pycocotools' summary and the
"eval accuracy" lines); "test": test.py in GRAPH_MODE on the PyNative run's last checkpoint;
"spread": the PyNative steps from a starting checkpoint scaled by (1 + 3e-7) (float32
rounding's own effect).
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
import mindcv_scripts_cases  # noqa: E402
import mindyolo_scripts_cases as cases  # noqa: E402


def _run(scripts, args, cwd, script="train.py") -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([scripts, env.get("PYTHONPATH", "")])
    command = [sys.executable, os.path.join(scripts, script), *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise SystemExit(output[-4000:])
    return output


def _files(save_dir) -> list:
    return sorted(p.name for p in pathlib.Path(save_dir).rglob("*.ckpt"))


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
        config = cases.make_data(tmp / "data", scripts)
        init = tmp / "init.ckpt"
        cases.init_checkpoint(ms, config, init)
        out["init"] = mindcv_scripts_cases.digest(ms, init)
        for mode in (1, 0):
            save = tmp / f"runs{mode}"
            args = cases.train_args(mode, config, save, init, run_eval=mode == 1)
            text = _run(scripts, args, tmp)
            got = cases.parse_train(text)
            got["files"] = _files(save)
            if mode == 1:
                got["eval"] = cases.parse_eval(text)
            out[str(mode)] = got
            print(mode, got)
        last = next((tmp / "runs1").rglob("tiny-2_5.ckpt"))
        args = cases.evaluate_args(0, config, tmp / "test", last)
        out["test"] = cases.parse_eval(_run(scripts, args, tmp, "test.py"))
        print("test", out["test"])
        moved = tmp / "moved.ckpt"
        values = ms.load_checkpoint(str(init))
        scaled = [{"name": k, "data": ms.Tensor(_moved(v.asnumpy()))} for k, v in values.items()]
        ms.save_checkpoint(scaled, str(moved))
        out["spread"] = cases.parse_train(
            _run(scripts, cases.train_args(1, config, tmp / "m", moved), tmp)
        )
        print("spread", out["spread"])
    path = HERE / "mindyolo_scripts.json"
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
