"""SummaryCollector and the summary ops (ScalarSummary, ImageSummary, TensorSummary,
HistogramSummary) against MindSpore 2.10 (goldens recorded by tests/goldens/record_summary.py
from tests/goldens/summary_cases.py): argument errors, and the event file of a Model.train run
read back (steps, tags, values, image shapes), eagerly and in GRAPH_MODE."""

import collections
import glob
import os

import numpy as np
import pytest

import cellax as ms
import cellax.dataset as ds
from cellax import nn, ops, train

from ._goldens import load_json, load_module
from .test_summary import _records

pytest.importorskip("tensorboardX", reason="the 'summary' extra (tensorboardX) is absent")

CASES = load_module("summary_cases")
GOLDEN = load_json("summary.json")


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def read(directory):
    """``[step, tag, kind, value]`` of every summary value, as record_summary.py reads
    MindSpore's file (``value``: scalar; histogram [min, max, count, sum]; tensor [dims,
    values]; image [height, width, colorspace])."""
    from tensorboardX.proto.event_pb2 import Event

    (path,) = glob.glob(os.path.join(directory, "*tfevents.summary*"))
    events = []
    for payload in _records(path):
        event = Event.FromString(payload)
        for value in event.summary.value:
            kind = value.WhichOneof("value")
            if kind == "simple_value":
                entry = ["scalar", value.simple_value]
            elif kind == "histo":
                h = value.histo
                entry = ["histogram", [h.min, h.max, h.num, h.sum]]
            elif kind == "tensor":
                dims = [d.size for d in value.tensor.tensor_shape.dim]
                data = np.frombuffer(value.tensor.tensor_content, np.float32)
                entry = ["tensor", [dims, data.tolist()]]
            else:
                i = value.image
                entry = ["image", [i.height, i.width, i.colorspace]]
            events.append([event.step, value.tag, *entry])
    return events


def _by_step_and_tag(events):
    """Events grouped by (step, tag), each group in file order: the order of the values
    within one step is the writer's, not part of the behaviour."""
    groups = collections.defaultdict(list)
    for step, tag, kind, value in events:
        groups[(step, tag)].append((kind, value))
    return dict(groups)


def _assert_same(actual, expected):
    actual, expected = _by_step_and_tag(actual), _by_step_and_tag(expected)
    assert sorted(actual) == sorted(expected)
    for key, values in expected.items():
        assert [k for k, _ in actual[key]] == [k for k, _ in values], key
        for (kind, got), (_, want) in zip(actual[key], values):
            if kind == "image":  # TensorBoard's colorspace is the channel count (1 here)
                assert got[:2] == want[:2], key
            elif kind == "tensor":
                assert got[0] == want[0], key
                np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-7)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7, err_msg=str(key))


def _with_learning_rate(events, rate):
    """MindSpore's events plus cellax's ``learning_rate/auto`` beside every ``loss/auto``."""
    out = []
    for event in events:
        out.append(event)
        if event[1] == "loss/auto":
            out.append([event[0], "learning_rate/auto", "scalar", rate])
    return out


def test_collector_argument_errors_match_mindspore(tmp_path):
    assert CASES.collector_errors(train, str(tmp_path)) == GOLDEN["collector_errors"]


def test_export_options_that_write_files_raise(tmp_path):
    with pytest.raises(NotImplementedError, match="'export_options' that export tensors"):
        train.SummaryCollector(str(tmp_path), export_options={"tensor_format": "npy"})
    train.SummaryCollector(str(tmp_path), export_options={"tensor_format": None})


def test_summary_op_error_types_match_mindspore(tmp_path):
    # MindSpore raises at the next SummaryRecord.record; cellax when the op is called
    assert CASES.op_errors(ms, ops, str(tmp_path), record_after=False) == GOLDEN["op_errors"]


def test_summary_op_error_names_the_op():
    with pytest.raises(ValueError, match=r"For 'ImageSummary', the input 'value' must be NCHW"):
        ops.ImageSummary()("x", ms.Tensor(np.ones((1, 2, 3, 3), np.float32)))
    with pytest.raises(TypeError, match=r"For 'ScalarSummary', the input 'name'"):
        ops.ScalarSummary()(None, ms.Tensor(1.0))


@pytest.mark.parametrize("case", sorted(CASES.TRAIN_RUNS))
def test_train_run_events_match_mindspore(case, tmp_path):
    golden = GOLDEN["runs"][f"{case}_pynative"]
    losses = CASES.train_run(ms, nn, ops, ds, train, str(tmp_path), **CASES.TRAIN_RUNS[case])
    np.testing.assert_allclose(losses, golden["losses"], rtol=1e-5)
    expected = golden["events"]
    kwargs = CASES.TRAIN_RUNS[case]
    if kwargs.get("keep_default_action", True):  # the train lineage's learning rate
        expected = _with_learning_rate(expected, 0.1)
    _assert_same(read(str(tmp_path)), expected)


def test_graph_mode_records_what_eager_records(tmp_path, graph_mode):
    golden = GOLDEN["runs"]["freq2_graph"]
    CASES.train_run(ms, nn, ops, ds, train, str(tmp_path / "graph"), collect_freq=2)
    graph = read(str(tmp_path / "graph"))
    _assert_same(graph, _with_learning_rate(golden["events"], 0.1))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    CASES.train_run(ms, nn, ops, ds, train, str(tmp_path / "eager"), collect_freq=2)
    assert _by_step_and_tag(read(str(tmp_path / "eager"))) == _by_step_and_tag(graph)


class _Summarized(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scalar = ops.ScalarSummary()
        self.tensor = ops.TensorSummary()
        self.histogram = ops.HistogramSummary()
        self.image = ops.ImageSummary()

    def construct(self, x):
        y = ops.tanh(x)
        self.scalar("mean", y.mean())
        self.tensor("y", y)
        self.histogram("y_hist", y * 2)
        self.image("y_image", (y.reshape(2, 1, 3, 2) + 1) / 2)
        return y


def _summarize(call, log_dir):
    """Run ``call`` at steps 1 and 2 (recording after each) and read the file back."""
    with ms.SummaryRecord(log_dir) as record:
        for step in (1, 2):
            call(ms.Tensor(np.linspace(-1, 2, 12, dtype=np.float32).reshape(2, 6) * step))
            record.record(step)
    return read(log_dir)


def test_summary_ops_under_jit_record_what_eager_records(tmp_path):
    net = _Summarized()
    eager = _summarize(net, str(tmp_path / "eager"))
    compiled = _summarize(ms.jit(net), str(tmp_path / "jit"))
    assert _by_step_and_tag(compiled) == _by_step_and_tag(eager)
    values = _by_step_and_tag(eager)
    y = np.tanh(np.linspace(-1, 2, 12, dtype=np.float32).reshape(2, 6) * 2)
    np.testing.assert_allclose(values[(2, "mean")][0][1], y.mean(), rtol=1e-6)
    assert values[(2, "y")][0][1][0] == [2, 6]
    np.testing.assert_allclose(values[(2, "y")][0][1][1], y.reshape(-1), rtol=1e-6)
    hist = values[(2, "y_hist")][0][1]
    np.testing.assert_allclose(hist, [2 * y.min(), 2 * y.max(), 12, 2 * y.sum()], rtol=1e-5)
    assert values[(1, "y_image")][0][1][:2] == [3, 4]  # two 3x2 images tiled side by side


def test_values_wait_for_the_next_record_and_eval_mode_keeps_them(tmp_path):
    summary = ops.ScalarSummary()
    with ms.SummaryRecord(str(tmp_path)) as record:
        summary("a", ms.Tensor(1.0))
        summary("a", ms.Tensor(2.0))  # the newest value of a tag is written
        record.set_mode("eval")
        record.record(1)  # eval: the summary ops' values wait
        record.set_mode("train")
        record.record(2)
        record.record(3)  # nothing new
        with pytest.raises(ValueError, match="'predict' is not a recognized mode"):
            record.set_mode("predict")
    assert read(str(tmp_path)) == [[2, "a", "scalar", 2.0]]


def test_dynamic_learning_rate_is_the_rate_of_each_step(tmp_path):
    rates = [0.1, 0.05, 0.02, 0.01, 0.005, 0.001]
    net = nn.Dense(2, 1)
    model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), learning_rate=rates))
    collector = train.SummaryCollector(str(tmp_path), collect_freq=2)
    model.train(2, CASES._dataset(ds), callbacks=[collector])
    recorded = {s: v for s, tag, _, v in read(str(tmp_path)) if tag == "learning_rate/auto"}
    assert recorded == pytest.approx({1: rates[0], 2: rates[1], 4: rates[3], 6: rates[5]})


def test_collector_is_a_context_manager_and_one_per_run(tmp_path):
    net = nn.Dense(2, 1)
    model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    collector = train.SummaryCollector(str(tmp_path / "a"), collect_freq=1)
    with collector as entered:
        assert entered is collector and not collector._record._closed
    assert collector._record._closed
    model.train(1, CASES._dataset(ds), callbacks=[collector])
    assert collector._record._closed  # Model entered and exited it
    twice = [collector, train.SummaryCollector(str(tmp_path / "b"))]
    with pytest.raises(ValueError, match="more than one SummaryCollector"):
        model.train(1, CASES._dataset(ds), callbacks=twice)


def test_tensorboard_reader(tmp_path):
    accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator",
        reason="TensorBoard is not installed: its own reader is not checked",
    )
    CASES.train_run(ms, nn, ops, ds, train, str(tmp_path), collect_freq=2)
    acc = accumulator.EventAccumulator(str(tmp_path), size_guidance={"scalars": 0})
    acc.Reload()
    golden = GOLDEN["runs"]["freq2_pynative"]["losses"]
    loss = [(e.step, e.value) for e in acc.Scalars("loss/auto")]
    assert [s for s, _ in loss] == [1, 2, 4, 6, 6]
    np.testing.assert_allclose([v for _, v in loss], [golden[i - 1] for i, _ in loss], rtol=1e-5)


def test_fit_with_evaluation_keeps_one_record(tmp_path):
    # Model.fit enters the callbacks again for each evaluation: the run's file stays open and
    # the summary ops' values are written after the evaluation too
    net = CASES._network(ms, nn, ops)
    model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss"})
    collector = train.SummaryCollector(str(tmp_path), collect_freq=3)
    model.fit(2, CASES._dataset(ds), CASES._dataset(ds), callbacks=[collector])
    assert collector._record._closed
    steps = {
        tag: sorted({s for s, t, _, _ in read(str(tmp_path)) if t == tag})
        for tag in ("loss/auto", "x_sum")
    }
    assert steps == {"loss/auto": [1, 3, 6], "x_sum": [1, 3, 6]}
