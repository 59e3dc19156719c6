"""mindocr 0.5.0's own ``tools/train.py`` (CRNN: VGG7, Bi-LSTM, CTC) through ``python -m cellax
run``, against what it prints under MindSpore 2.10 CPU: the per-step losses, epoch losses,
validation results and checkpoint files.

mindocr's top package imports ``mindspore.parallel._transformer``, which MindSpore 2.10 (and
so cellax) lacks; both runs go through tests/goldens/mindocr_scripts_cases.PRELUDE, which
registers a stand-in for that module and then runs the script unmodified.

The scripts are third-party and never copied into this repository: the test runs only when
``CELLAX_MINDOCR_SCRIPTS`` names a folder holding mindocr's ``tools/`` and ``configs/`` and
``mindocr`` (``pip install --no-deps --target DIR mindocr==0.5.0``) and its dependencies
(OpenCV, shapely 1.8, pyclipper, lmdb, addict, rapidfuzz, seqeval, sentencepiece,
huggingface_hub) import. Golden: tests/goldens/record_mindocr_scripts.py.
"""

import importlib.util
import json
import os
import pathlib
import sys

import pytest

from ._cellax_run import cellax_run

SCRIPTS = os.environ.get("CELLAX_MINDOCR_SCRIPTS", "")
ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens"
sys.path.insert(0, str(GOLDENS))
import mindcv_scripts_cases  # noqa: E402
import mindocr_scripts_cases as cases  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (SCRIPTS and os.path.isfile(os.path.join(SCRIPTS, "tools", "train.py")))
    or any(importlib.util.find_spec(m) is None for m in ("mindocr", "cv2", "shapely", "addict")),
    reason="set CELLAX_MINDOCR_SCRIPTS to mindocr 0.5.0's tools/ and configs/ and install "
    "mindocr and its dependencies",
)

GOLDEN = json.loads((GOLDENS / "mindocr_scripts.json").read_text())


def _run(args, cwd) -> str:
    return cellax_run(args, cwd, timeout=1800)


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    root = tmp_path_factory.mktemp("mindocr")
    prelude = root / "prelude.py"
    prelude.write_text(cases.PRELUDE)
    init = root / "init.ckpt"
    config = cases.make_data(root / "data", root / "save", init)
    script = root / "init.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(GOLDENS)!r})\nimport mindspore as ms\n"
        f"import mindocr_scripts_cases as cases\ncases.init_checkpoint(ms, {config!r}, {str(init)!r})\n"
    )
    _run([prelude, script], root)
    return root, prelude, config, init


def test_start_checkpoint_is_mindspores(start):
    import cellax as ms

    assert mindcv_scripts_cases.digest(ms, start[3]) == GOLDEN["init"]


@pytest.mark.parametrize("mode", [1, 0], ids=["pynative", "graph"])
def test_mindocr_train(start, mode):
    root, prelude, config, _ = start
    if str(mode) not in GOLDEN:
        pytest.skip(f"no MindSpore golden for mode {mode}")
    train = os.path.join(SCRIPTS, "tools", "train.py")
    out = _run([prelude, train, *cases.train_args(mode, config)], root)
    assert "Training completed!" in out
    got, golden = cases.parse_train(out), GOLDEN[str(mode)]
    print("cellax", mode, got["steps"])  # shown with -s
    assert [s[:2] for s in got["steps"]] == [s[:2] for s in golden["steps"]]
    for mine, theirs in zip(got["steps"], golden["steps"]):
        assert mine[2] == pytest.approx(theirs[2], rel=2e-4), mine
        assert mine[3] == pytest.approx(theirs[3], rel=1e-6), mine  # the printed lr
    losses = [s[2] for s in got["steps"]]
    assert losses[-1] < losses[0]
    for mine, theirs in zip(got["epochs"], golden["epochs"]):
        assert mine[1] == pytest.approx(theirs[1], rel=2e-4)
    assert len(got["evals"]) == len(golden["evals"])
    for mine, theirs in zip(got["evals"], golden["evals"]):
        assert mine == pytest.approx(theirs, abs=1e-3)
    assert sorted(p.name for p in (root / "save").glob("*.ckpt")) == golden["files"]
