"""mindocr 0.5.0's own ``tools/train.py`` (CRNN: VGG7, Bi-LSTM, CTC) and ``tools/eval.py``
through ``python -m cellax run``, against what they print under MindSpore 2.10 CPU: the
per-step losses, epoch losses, validation results and checkpoint files of training, and eval.py's
results and predictions for the trained and the starting checkpoint.

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


@pytest.fixture(scope="module", params=[1, 0], ids=["pynative", "graph"])
def trained(start, request):
    """train.py's log in one mode, from the starting checkpoint into the mode's own folder."""
    root, prelude, _, init = start
    mode = request.param
    if str(mode) not in GOLDEN:
        pytest.skip(f"no MindSpore golden for mode {mode}")
    config = cases.make_data(root / f"data{mode}", root / f"save{mode}", init)
    train = os.path.join(SCRIPTS, "tools", "train.py")
    out = _run([prelude, train, *cases.train_args(mode, config)], root)
    return mode, config, out


def test_mindocr_train(start, trained):
    root = start[0]
    mode, _, out = trained
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
    assert sorted(p.name for p in (root / f"save{mode}").glob("*.ckpt")) == golden["files"]


@pytest.mark.parametrize("key", ["eval", "eval_init"])
def test_mindocr_eval(start, trained, key):
    """eval.py on the run's best checkpoint (the config's eval.ckpt_load_path) and on the
    starting one: the same results and predictions as under MindSpore."""
    root, prelude, _, init = start
    mode, config, _ = trained
    golden = GOLDEN[str(mode)].get(key)
    if golden is None:
        pytest.skip(f"no MindSpore eval golden {key!r} for mode {mode}")
    checkpoint = str(init) if key == "eval_init" else None
    evaluate = os.path.join(SCRIPTS, "tools", "eval.py")
    got = cases.parse_eval(
        _run([prelude, evaluate, *cases.eval_args(mode, config, checkpoint)], root)
    )
    print("cellax", mode, key, got)  # shown with -s
    assert got["metrics"] is not None, "eval.py printed no Performance line"
    assert got["metrics"] == pytest.approx(golden["metrics"], abs=1e-3)
    assert got["texts"] == golden["texts"]
