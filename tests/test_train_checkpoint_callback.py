"""ModelCheckpoint / CheckpointConfig and save_checkpoint's duplicate names against MindSpore 2.10
(tests/goldens/checkpoint_callback.json, recorded by tests/goldens/record_checkpoint_callback.py
from tests/goldens/checkpoint_callback_cases.py)."""

import os

import numpy as np
import pytest

import cellax as ms
from cellax._serialization._format import schema

from ._goldens import load_json, load_module

GOLDEN = load_json("checkpoint_callback.json")
CASES = load_module("checkpoint_callback_cases")


def raw_names(path):
    """The entry names of a .ckpt file in file order, straight from its protobuf records."""
    checkpoint_cls, _ = schema()
    checkpoint = checkpoint_cls()
    with open(path, "rb") as file:
        checkpoint.ParseFromString(file.read())
    return [value.tag for value in checkpoint.value]


def _close(got, expected):
    """JSON values equal, floats to float32 precision (the trained bias)."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(expected)
        for key in expected:
            _close(got[key], expected[key])
    elif isinstance(expected, list) and len(expected) == 2 and isinstance(expected[1], str):
        assert got == expected
    elif isinstance(expected, list) and len(expected) == 2 and isinstance(expected[0], str):
        assert got[0] == expected[0]  # [dtype, value]
        np.testing.assert_allclose(got[1], expected[1], rtol=1e-5)
    else:
        assert got == expected


@pytest.mark.parametrize("case", sorted(CASES.RUNS))
def test_model_checkpoint_run_matches_mindspore(case, tmp_path, monkeypatch):
    if case == "keep_per_minutes":
        # MindSpore's run took seconds, within the one-minute window; keep it so however
        # slowly this one runs: the callback's clock stands still at the start.
        import cellax.train._callback_checkpoint as module

        start = module.time.time()
        monkeypatch.setattr(module.time, "time", lambda: start)
    got = CASES.RUNS[case](ms, str(tmp_path), raw_names)
    _close(got, GOLDEN["runs"][case])


def test_model_checkpoint_in_graph_mode_names_files_as_mindspore(tmp_path):
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = CASES.naming(ms, str(tmp_path), raw_names)
    finally:
        ms.set_context(mode=mode)
    expected = GOLDEN["naming_graph"]
    for run, want in zip(got, expected):
        # MindSpore's GRAPH_MODE also writes its graph as '<prefix>-graph.meta' (a documented
        # difference: cellax writes no graph file); everything else is the same.
        meta = [f for f in want["files"] if f.endswith("-graph.meta")]
        assert meta
        assert run["files"] == [f for f in want["files"] if f not in meta]
        assert run["latest"] == want["latest"] and run["before"] == want["before"]


def test_checkpoint_config_matches_mindspore():
    assert CASES.configs(ms) == GOLDEN["configs"]
    got = CASES.config_errors(ms)
    for text, expected in GOLDEN["config_errors"].items():
        assert got[text] is not None and got[text][0] == expected[0], text


def test_model_checkpoint_errors_match_mindspore(tmp_path):
    got = CASES.checkpoint_errors(ms, str(tmp_path))
    for text, expected in GOLDEN["checkpoint_errors"].items():
        assert got[text] is not None and got[text][0] == expected[0], text
    assert "'directory'" in got["dict(directory=1)"][1]
    assert "'prefix'" in got["dict(prefix=1)"][1]


def test_model_checkpoint_callable_prefix_and_directory(tmp_path):
    net = ms.nn.Dense(2, 1)
    model = ms.train.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1))
    data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))] * 2
    cb = ms.train.ModelCheckpoint(
        prefix=lambda p: f"step{p.cur_step_num}",
        directory=lambda p: str(tmp_path / f"epoch{p.cur_epoch_num}"),
        config=ms.train.CheckpointConfig(save_checkpoint_steps=1),
    )
    model.train(2, data, callbacks=[cb])
    found = sorted(
        os.path.relpath(os.path.join(root, f), tmp_path)
        for root, _, files in os.walk(tmp_path)
        for f in files
    )
    assert found == [
        "epoch1/step1.ckpt",
        "epoch1/step2.ckpt",
        "epoch2/step3.ckpt",
        "epoch2/step4.ckpt",
    ]
    assert cb.latest_ckpt_file_name == str(tmp_path / "epoch2" / "step4.ckpt")
    bad = ms.train.ModelCheckpoint(prefix=lambda p: "a/b", directory=str(tmp_path))
    with pytest.raises(ValueError, match="'prefix' must return a str without '/'"):
        model.train(1, data, callbacks=[bad])
