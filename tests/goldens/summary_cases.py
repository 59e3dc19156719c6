"""SummaryCollector and summary-op golden cases, run under MindSpore 2.10 (recording, by
record_summary.py) and cellax alike (tests/test_summary_collector.py).

``collector_errors``: the exception (type and message) of each bad SummaryCollector argument.
``op_errors``: the exception type of each bad input to the summary ops (MindSpore raises them at
the next ``SummaryRecord.record``, cellax when the op is called). ``train_run``: a Dense(2, 1)
with fixed weights and a ScalarSummary/HistogramSummary/TensorSummary/ImageSummary in its
``construct`` trains for 2 epochs of 3 steps under a SummaryCollector; the event file it
writes is read back (by the caller's ``read``) as ``[step, tag, kind, value]`` in file order.
"""

import numpy as np

COLLECTOR_ERRORS = [
    "dict(summary_dir=1)",
    "dict(summary_dir='')",
    "dict(summary_dir='  ')",
    "dict(collect_freq=0)",
    "dict(collect_freq=-2)",
    "dict(collect_freq=1.5)",
    "dict(collect_freq=True)",
    "dict(collect_tensor_freq=0)",
    "dict(collect_tensor_freq='a')",
    "dict(max_file_size=-1)",
    "dict(max_file_size=1.0)",
    "dict(keep_default_action=1)",
    "dict(collect_specified_data=[])",
    "dict(collect_specified_data={'unknown': True})",
    "dict(collect_specified_data={1: True})",
    "dict(collect_specified_data={'collect_metric': 1})",
    "dict(collect_specified_data={'collect_graph': 'yes'})",
    "dict(collect_specified_data={'histogram_regular': 1})",
    "dict(collect_specified_data={'histogram_regular': '('})",
    "dict(collect_specified_data={'collect_landscape': 1})",
    "dict(collect_specified_data={'collect_landscape': {'bad': 1}})",
    "dict(collect_specified_data={'collect_landscape': {'landscape_size': 2, 'intervals': [[1, 2, 3]]}})",
    "dict(collect_specified_data={'collect_landscape': {'unit': 'x', 'intervals': [[1, 2, 3]]}})",
    "dict(collect_specified_data={'collect_landscape': {'intervals': [[1, 2]]}})",
    "dict(custom_lineage_data=[])",
    "dict(custom_lineage_data={1: 'a'})",
    "dict(custom_lineage_data={'a': [1]})",
    "dict(export_options=[])",
    "dict(export_options={'unknown': 'npy'})",
    "dict(export_options={'tensor_format': 'png'})",
]

# (op, name, value) with value built by the caller's Tensor: None for a non-Tensor value
OP_ERRORS = [
    ("ScalarSummary", "''", "np.float32(1.0)"),
    ("ScalarSummary", "1", "np.float32(1.0)"),
    ("ScalarSummary", "'s'", "None"),
    ("ScalarSummary", "'s'", "np.ones((2, 2), np.float32)"),
    ("TensorSummary", "'t'", "np.float32(1.0)"),
    ("HistogramSummary", "'h'", "np.float32(1.0)"),
    ("ImageSummary", "'i'", "np.ones((3, 4, 4), np.float32)"),
    ("ImageSummary", "'i'", "None"),
]

WEIGHT = np.array([[0.5, -0.25]], np.float32)
BIAS = np.array([0.1], np.float32)


def _error(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the error is the golden
        return [type(exc).__name__, str(exc).strip()]
    return None


def collector_errors(train, directory):
    out = {}
    for text in COLLECTOR_ERRORS:
        kwargs = eval(text)
        kwargs.setdefault("summary_dir", directory)
        out[text] = _error(lambda: train.SummaryCollector(**kwargs))
    return out


def op_errors(ms, ops, directory, record_after):
    """``record_after``: call ``SummaryRecord.record`` after the op (MindSpore checks there)."""
    out = []
    for op, name, value in OP_ERRORS:
        array = eval(value)
        tensor = "not a tensor" if array is None else ms.Tensor(array)

        def run():
            with ms.SummaryRecord(directory) as record:
                getattr(ops, op)()(eval(name), tensor)
                if record_after:
                    record.record(1)

        error = _error(run)
        out.append([op, name, value, None if error is None else error[0]])
    return out


def _network(ms, nn, ops):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 1, weight_init=ms.Tensor(WEIGHT), bias_init=ms.Tensor(BIAS))
            self.scalar = ops.ScalarSummary()
            self.histogram = ops.HistogramSummary()
            self.tensor = ops.TensorSummary()
            self.image = ops.ImageSummary()

        def construct(self, x):
            out = self.dense(x)
            self.scalar("x_sum", x.sum())
            self.histogram("out_hist", out)
            self.tensor("out", out)
            self.image("x_image", x.reshape(1, 1, 2, 2))
            return out

    return Net()


def _dataset(ds):
    x = (np.arange(12, dtype=np.float32).reshape(6, 2) - 5) / 4
    y = (x[:, :1] * 0.3 - x[:, 1:] * 0.2 + 0.05).astype(np.float32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)


def train_run(ms, nn, ops, ds, train, directory, **collector_kwargs):
    """Train under a SummaryCollector; return the losses of every step (for comparison)."""
    net = _network(ms, nn, ops)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    model = train.Model(net, nn.MSELoss(), opt)
    losses = []

    def keep(run_context):
        losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    collector = train.SummaryCollector(directory, **collector_kwargs)
    model.train(
        2,
        _dataset(ds),
        callbacks=[collector, train.LambdaCallback(on_train_step_end=keep)],
        dataset_sink_mode=False,
    )
    return losses


TRAIN_RUNS = {
    "freq2": dict(collect_freq=2),
    "freq4_histograms": dict(
        collect_freq=4, collect_specified_data={"histogram_regular": "^dense.weight"}
    ),
    "only_metric": dict(
        collect_freq=3,
        collect_specified_data={"collect_metric": True},
        keep_default_action=False,
    ),
}
