"""Record what mindocr 0.5.0's own tools/train.py and tools/eval.py print under MindSpore 2.10
CPU (oracle venv; mindocr and its dependencies from outside the repository; run from a scratch
folder):

    cd /tmp/scratch && PYTHONPATH=/tmp/zoo_mindocr:DEPS /root/ms-ref/bin/python \
        /path/to/tests/goldens/record_mindocr_scripts.py /tmp/mindocr-scripts

where /tmp/mindocr-scripts holds tools/ and configs/ from the mindocr repository (v0.5.0) and
DEPS are folders with mindocr's dependencies built for the oracle venv's NumPy 1.26: OpenCV,
shapely 1.8, pyclipper, lmdb, addict, rapidfuzz, seqeval with scikit-learn, pycocotools,
sentencepiece and huggingface_hub. Modes to record may follow the scripts' folder (default: 1 0).
The dataset, config, starting checkpoint, command line and the stand-in for the
``mindspore.parallel._transformer`` module MindSpore 2.10 lacks are mindocr_scripts_cases'.
Writes tests/goldens/mindocr_scripts.json: "init", the starting checkpoint's digest; per mode
(1 PyNative, 0 GRAPH_MODE) the logged steps ([epoch, step, loss, lr]), epoch losses,
validation results, the checkpoint files written and the last epoch checkpoint's digest, and
what eval.py reports (results and each image's prediction) for the run's best checkpoint
("eval") and for the starting checkpoint ("eval_init"), whose predictions are not all empty.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import mindcv_scripts_cases  # noqa: E402
import mindocr_scripts_cases as cases  # noqa: E402


def _run(args, cwd) -> str:
    command = [sys.executable, *map(str, args)]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=3600)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise SystemExit(output[-4000:])
    return output


def main() -> None:
    import mindspore as ms

    scripts = sys.argv[1]
    modes = [int(m) for m in sys.argv[2:]] or [1, 0]
    target = HERE / "mindocr_scripts.json"
    out = json.loads(target.read_text()) if target.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        prelude = root / "prelude.py"
        prelude.write_text(cases.PRELUDE)
        init = root / "init.ckpt"
        (root / "init.py").write_text(
            f"import sys\nsys.path.insert(0, {str(HERE)!r})\nimport mindspore as ms\n"
            "import mindocr_scripts_cases as cases\n"
            f"cases.init_checkpoint(ms, sys.argv[1], {str(init)!r})\n"
        )
        for mode in modes:
            save = root / f"save{mode}"
            config = cases.make_data(root / f"data{mode}", save, init)
            if not init.exists():
                _run([prelude, root / "init.py", config], root)
                out["init"] = mindcv_scripts_cases.digest(ms, init)
            train = os.path.join(scripts, "tools", "train.py")
            text = _run([prelude, train, *cases.train_args(mode, config)], root)
            got = cases.parse_train(text)
            got["files"] = sorted(p.name for p in save.glob("*.ckpt"))
            got["last"] = mindcv_scripts_cases.digest(ms, save / "e2.ckpt")
            evaluate = os.path.join(scripts, "tools", "eval.py")
            for key, checkpoint in (("eval", None), ("eval_init", str(init))):
                text = _run([prelude, evaluate, *cases.eval_args(mode, config, checkpoint)], root)
                got[key] = cases.parse_eval(text)
            out[str(mode)] = got
            print(mode, got["steps"], got["evals"], got["eval"], got["eval_init"])
    target.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
