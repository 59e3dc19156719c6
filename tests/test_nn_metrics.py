"""nn.metrics' classification, confusion, similarity and language metrics against MindSpore
2.10 (tests/goldens/nn_metric_values.json, recorded by tests/goldens/record_nn_metric_values.py
from the cases in tests/goldens/nn_metric_cases.py)."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn

from ._goldens import load_json, load_module

GOLDEN = load_json("nn_metric_values.json")
CASES = load_module("nn_metric_cases")


def _assert_close(got, expected, path="value"):
    if isinstance(expected, list) and expected and isinstance(expected[0], (list, str)):
        assert isinstance(got, list) and len(got) == len(expected), path
        for index, (item, want) in enumerate(zip(got, expected)):
            _assert_close(item, want, f"{path}[{index}]")
    elif isinstance(expected, str) or (isinstance(expected, list) and not expected):
        assert got == expected, path
    else:
        np.testing.assert_allclose(
            np.asarray(got), np.asarray(expected), rtol=1e-9, atol=1e-12, err_msg=path
        )


@pytest.mark.parametrize("case", sorted(GOLDEN))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_metric_matches_mindspore(case):
    expected = GOLDEN[case]
    got = CASES.run(nn.metrics, case)
    if "error" in expected:
        assert got.get("error") == expected["error"], got
    else:
        assert "error" not in got, got
        _assert_close(got["value"], expected["value"])


def test_metrics_accept_tensors_and_lists():
    logits = ms.Tensor(np.array([[0.2, 0.8], [0.6, 0.4]], np.float32))
    assert nn.Precision()(logits, [1, 0]).tolist() == [1.0, 1.0]
    # MindSpore divides the one batch coefficient by the batch size.
    assert nn.Dice()(logits, logits) == pytest.approx(0.5, rel=1e-4)


def test_metrics_evaluate_in_model_by_name():
    net = nn.Dense(4, 3)
    model = ms.train.Model(net, nn.CrossEntropyLoss(), metrics={"precision", "F1", "acc"})
    data = [(np.eye(4, dtype=np.float32)[:3], np.array([0, 1, 2], np.int32))] * 2
    result = model.eval(data)
    assert sorted(result) == ["F1", "acc", "precision"]
    assert np.asarray(result["precision"]).shape == (3,)
