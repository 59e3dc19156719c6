"""mindcv 0.3.0's own ``train.py`` and ``validate.py``, unmodified, through
``python -m cellax run`` on a tiny synthetic ImageFolder dataset.

The scripts are third-party and never copied into this repository: the test runs only when
``CELLAX_MINDCV_SCRIPTS`` names a folder holding mindcv's ``train.py``, ``validate.py`` and
``config.py`` (from the mindcv repository at tag v0.3.0) and ``mindcv`` and Pillow import
(e.g. ``pip install --no-deps --target DIR mindcv==0.3.0`` with DIR on PYTHONPATH).
"""

import importlib.util
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

SCRIPTS = os.environ.get("CELLAX_MINDCV_SCRIPTS", "")
ROOT = pathlib.Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not (SCRIPTS and os.path.isfile(os.path.join(SCRIPTS, "train.py")))
    or importlib.util.find_spec("mindcv") is None
    or importlib.util.find_spec("PIL") is None,
    reason="set CELLAX_MINDCV_SCRIPTS to mindcv 0.3.0's scripts and install mindcv and Pillow",
)

COMMON = "--data_dir {data} --model mobilenet_v3_small_100 --image_resize 32 --batch_size 4 "
COMMON += "--num_parallel_workers 1 --num_classes 2"


def _images(root: pathlib.Path) -> None:
    from PIL import Image

    rng = np.random.default_rng(0)
    for split, count in (("train", 4), ("val", 2)):
        for label in range(2):
            folder = root / split / f"class{label}"
            folder.mkdir(parents=True)
            for index in range(count):
                pixels = (rng.random((32, 32, 3)) * 255).astype("uint8")
                Image.fromarray(pixels).save(folder / f"{index}.png")


def _run(script: str, args: str, cwd) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), SCRIPTS, env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "cellax", "run", os.path.join(SCRIPTS, script)]
    done = subprocess.run(
        command + args.split(), cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    return output


@pytest.mark.parametrize("mode", [1, 0], ids=["pynative", "graph"])
def test_mindcv_train_then_validate(tmp_path, mode):
    _images(tmp_path / "data")
    common = COMMON.format(data=tmp_path / "data")
    ckpt = tmp_path / "ckpt"
    out = _run(
        "train.py",
        f"--mode {mode} {common} --epoch_size 2 --val_while_train True --log_interval 1 "
        f"--warmup_epochs 0 --ckpt_save_dir {ckpt} --dataset_sink_mode {mode == 0}",
        tmp_path,
    )
    assert "Epoch: [2/2], batch: [2/2], loss: " in out
    assert out.count("Validation Top_1_Accuracy: ") == 2
    assert "Finish training!" in out
    saved = {p.name for p in ckpt.iterdir()}
    assert {"mobilenet_v3_small_100-1_2.ckpt", "mobilenet_v3_small_100-2_2.ckpt"} <= saved
    out = _run(
        "validate.py",
        f"--mode {mode} {common} --ckpt_path {ckpt / 'mobilenet_v3_small_100-2_2.ckpt'}",
        tmp_path,
    )
    assert "batch: 1/1, time: " in out  # the eval callbacks ran (mindcv's ValCallback)
    assert "{'Top_1_Accuracy': " in out and "'loss': " in out
