"""mindcv 0.3.0's own ``train.py`` and ``validate.py``, unmodified, through
``python -m cellax run``, against what they print under MindSpore 2.10 CPU.

The scripts are third-party and never copied into this repository: the test runs only when
``CELLAX_MINDCV_SCRIPTS`` names a folder holding mindcv's ``train.py``, ``validate.py`` and
``config.py`` (from the mindcv repository at tag v0.3.0) and ``mindcv`` and Pillow import
(e.g. ``pip install --no-deps --target DIR mindcv==0.3.0`` with DIR on PYTHONPATH).

The dataset, config (randomness off), starting weights and command lines are
tests/goldens/mindcv_scripts_cases.py's, shared with the MindSpore recording
(tests/goldens/record_mindcv_scripts.py -> mindcv_scripts.json).
"""

import importlib.util
import json
import os
import pathlib
import sys

import pytest

from ._cellax_run import cellax_run

SCRIPTS = os.environ.get("CELLAX_MINDCV_SCRIPTS", "")
ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens"
sys.path.insert(0, str(GOLDENS))
import mindcv_scripts_cases as cases  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (SCRIPTS and os.path.isfile(os.path.join(SCRIPTS, "train.py")))
    or importlib.util.find_spec("mindcv") is None
    or importlib.util.find_spec("PIL") is None,
    reason="set CELLAX_MINDCV_SCRIPTS to mindcv 0.3.0's scripts and install mindcv and Pillow",
)

GOLDEN = json.loads((GOLDENS / "mindcv_scripts.json").read_text())


def _run(script: str, args, cwd) -> str:
    return cellax_run([script, *args], cwd, paths=(SCRIPTS, GOLDENS))


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    """The dataset and the starting checkpoint, written by cellax (same values as MindSpore's)."""
    root = tmp_path_factory.mktemp("mindcv")
    _run(str(GOLDENS / "mindcv_scripts_cases.py"), [root], root)
    return root


def _tolerance(index: int) -> float:
    """Relative tolerance of step `index`'s loss: float32 rounding moves MindSpore's own run
    (golden "spread") by up to this much; cellax's different kernels round differently."""
    mine = GOLDEN["1"]["steps"]
    moved = GOLDEN["spread"]["steps"]
    spread = max(abs(moved[i][2] - mine[i][2]) / abs(mine[i][2]) for i in range(index + 1))
    return max(2e-5, 20 * spread)


@pytest.mark.parametrize("mode", [1, 0], ids=["pynative", "graph"])
def test_mindcv_train_then_validate(start, mode):
    data, config, init = start / "data", start / "data" / "config.yaml", start / cases.INIT_CKPT
    golden = GOLDEN[str(mode)]
    ckpt = start / f"ckpt{mode}"
    args = cases.train_args(mode, data, config, ckpt, init)
    out = _run(os.path.join(SCRIPTS, "train.py"), args, start)
    got = cases.parse_train(out)
    assert "Finish training!" in out

    # the per-step losses and learning rates, the validation after each epoch
    assert [s[:2] for s in got["steps"]] == [s[:2] for s in golden["steps"]]
    for index, (mine, theirs) in enumerate(zip(got["steps"], golden["steps"])):
        assert mine[2] == pytest.approx(theirs[2], rel=_tolerance(index)), (index, mine, theirs)
        assert mine[3] == theirs[3], (index, mine, theirs)  # printed with 6 decimals
    assert got["validation"] == golden["validation"]

    # the checkpoint files: the same names, the same parameters, the same values read back
    assert got["saved"] == golden["saved"]
    files = sorted(p.name for p in ckpt.iterdir() if p.suffix == ".ckpt")
    assert files == golden["files"]
    import cellax as ms

    for name in golden["digests"]:
        digest = cases.digest(ms, ckpt / name)
        assert sorted(digest) == sorted(golden["digests"][name]), name
        for key, (total, squares) in golden["digests"][name].items():
            assert digest[key][1] == pytest.approx(squares, rel=1e-4, abs=1e-9), (name, key)
            scale = max(squares**0.5, 1e-6)  # sums near 0 compared on the tensor's norm
            assert abs(digest[key][0] - total) <= 1e-4 * scale + 1e-6, (name, key)

    # validate.py on the last checkpoint: its per-batch callback lines and its result
    last = ckpt / f"{cases.MODEL}-2_2.ckpt"
    out = _run(
        os.path.join(SCRIPTS, "validate.py"), cases.validate_args(mode, data, config, last), start
    )
    got = cases.parse_validate(out)
    assert got["batches"] == golden["validate"]["batches"] > 0  # mindcv's ValCallback ran
    result = golden["validate"]["result"]
    assert got["result"]["Top_1_Accuracy"] == result["Top_1_Accuracy"]
    assert got["result"]["loss"] == pytest.approx(result["loss"], rel=1e-4)


def test_start_checkpoint_is_mindspores(start):
    """cellax writes the starting checkpoint with exactly the values MindSpore's recording had."""
    import cellax as ms

    digest = cases.digest(ms, start / cases.INIT_CKPT)
    assert digest == GOLDEN["init"]
