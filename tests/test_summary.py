"""SummaryRecord writes TensorBoard event files: read back with the TFRecord framing and the
Event protocol buffer (tensorboardX's), and with TensorBoard's own reader when installed."""

import os
import struct
import sys

import numpy as np
import pytest

import cellax as ms
from cellax.train import SummaryRecord


def test_missing_tensorboardx_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorboardX", None)  # import fails as if absent
    with pytest.raises(ImportError, match=r"pip install 'cellax\[summary\]'"):
        SummaryRecord(str(tmp_path))
    assert not os.listdir(tmp_path)


def test_argument_errors(tmp_path):
    with pytest.raises(TypeError, match="For 'SummaryRecord', 'log_dir' must be a str"):
        SummaryRecord(tmp_path)


def _records(path):
    """The payloads of a TFRecord file (length, crc, data, crc framing)."""
    out = []
    with open(path, "rb") as f:
        while header := f.read(12):
            (length,) = struct.unpack("<Q", header[:8])
            out.append(f.read(length))
            f.read(4)
    return out


def _write_run(log_dir):
    image = np.zeros((2, 3, 4, 5), np.float32)
    image[:, 0] = 1.0
    with SummaryRecord(log_dir, file_prefix="run", file_suffix="_x") as summary:
        for step in (1, 2):
            summary.add_value("scalar", "loss", ms.Tensor(1.0 / step))
            summary.add_value("histogram", "weight", ms.Tensor(np.arange(10.0) * step))
            summary.add_value("tensor", "logits", ms.Tensor(np.eye(2, dtype=np.float32) * step))
            assert summary.record(step)
        summary.add_value("image", "input", ms.Tensor(image))
        summary.record(3)
    return summary.log_file


def test_event_file_values_steps_tags(tmp_path):
    pytest.importorskip("tensorboardX", reason="the 'summary' extra (tensorboardX) is absent")
    from tensorboardX.proto.event_pb2 import Event

    log_file = _write_run(str(tmp_path))
    name = os.path.basename(log_file)
    assert name.startswith("run.out.tfevents.summary.") and name.endswith("_x")
    events = [Event.FromString(r) for r in _records(log_file)]
    assert events[0].file_version == "brain.Event:2"
    seen = {}
    for event in events[1:]:
        for value in event.summary.value:
            seen[(event.step, value.tag)] = value
    assert seen[(1, "loss")].simple_value == 1.0 and seen[(2, "loss")].simple_value == 0.5
    hist = seen[(2, "weight")].histo
    assert (hist.min, hist.max, hist.num, hist.sum) == (0.0, 18.0, 10, 90.0)
    tensor = seen[(2, "logits")].tensor
    assert [d.size for d in tensor.tensor_shape.dim] == [2, 2]
    np.testing.assert_array_equal(
        np.frombuffer(tensor.tensor_content, np.float32).reshape(2, 2), np.eye(2) * 2
    )
    image = seen[(3, "input")].image
    assert image.colorspace == 3 and image.encoded_image_string.startswith(b"\x89PNG")
    assert image.height == 4  # a batch of 2 is tiled into one grid row


def test_tensorboard_reader(tmp_path):
    pytest.importorskip("tensorboardX", reason="the 'summary' extra (tensorboardX) is absent")
    accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator",
        reason="TensorBoard is not installed: its own reader is not checked",
    )
    _write_run(str(tmp_path))
    # 0 keeps every event (the default keeps one histogram per tag)
    acc = accumulator.EventAccumulator(str(tmp_path), size_guidance={"images": 0, "histograms": 0})
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(1, 1.0), (2, 0.5)]
    assert [e.step for e in acc.Histograms("weight")] == [1, 2]
    assert acc.Images("input")[0].height == 4


def test_add_value_errors(tmp_path):
    pytest.importorskip("tensorboardX", reason="the 'summary' extra (tensorboardX) is absent")
    with SummaryRecord(str(tmp_path)) as summary:
        with pytest.raises(ValueError, match="a 'scalar' value must hold one element"):
            summary.add_value("scalar", "loss", ms.Tensor(np.ones(3)))
        with pytest.raises(ValueError, match="an 'image' value must be NCHW"):
            summary.add_value("image", "x", ms.Tensor(np.ones((4, 4))))
        with pytest.raises(ValueError, match="'plugin' must be one of"):
            summary.add_value("audio", "x", ms.Tensor(1.0))
        with pytest.raises(NotImplementedError, match="the 'graph' plugin is MindInsight's"):
            summary.add_value("graph", "x", None)
        with pytest.raises(TypeError, match="'step' must be an int"):
            summary.record(1.5)
