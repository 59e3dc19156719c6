"""Model callback golden cases, run under MindSpore 2.10 (recording) and cellax alike.

Every case trains, evaluates or fits a Dense(4, 3) with SoftmaxCrossEntropyWithLogits and
Momentum on a ``NumpySlicesDataset`` of :data:`BATCHES` batches, through one recording
callback that logs each event it receives: the event name, the ``cb_params`` fields
(``sorted(cb_params)``) and the values of the counters in :data:`COUNTERS`. A context-manager
callback logs ``__enter__``/``__exit__``. ``stop`` cases call ``request_stop()`` in
``on_train_step_end`` at the given global step.
"""

import numpy as np

BATCHES = 3
BATCH_SIZE = 4
COUNTERS = ("cur_epoch_num", "cur_step_num", "epoch_num", "batch_num", "dataset_sink_mode")
EVENTS = (
    "on_train_begin",
    "on_train_epoch_begin",
    "on_train_step_begin",
    "on_train_step_end",
    "on_train_epoch_end",
    "on_train_end",
    "on_eval_begin",
    "on_eval_epoch_begin",
    "on_eval_step_begin",
    "on_eval_step_end",
    "on_eval_epoch_end",
    "on_eval_end",
)

# name -> (method, keyword arguments (a string evaluated with ``data``/``valid``), stop step)
CASES = {
    "train": ("train", "dict(epoch=2, train_dataset=data)", None),
    "train_sink": ("train", "dict(epoch=2, train_dataset=data, dataset_sink_mode=True)", None),
    "train_sink_size": (
        "train",
        "dict(epoch=2, train_dataset=data, dataset_sink_mode=True, sink_size=2)",
        None,
    ),
    "train_initial_epoch": ("train", "dict(epoch=3, train_dataset=data, initial_epoch=1)", None),
    "train_stop": ("train", "dict(epoch=3, train_dataset=data)", 2),
    "eval": ("eval", "dict(valid_dataset=valid)", None),
    "fit": ("fit", "dict(epoch=2, train_dataset=data, valid_dataset=valid)", None),
    "fit_sink": (
        "fit",
        "dict(epoch=2, train_dataset=data, valid_dataset=valid, dataset_sink_mode=True)",
        None,
    ),
}


def _value(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return type(value).__name__


def _fields(cb_params) -> list:
    keys = cb_params.keys() if hasattr(cb_params, "keys") else vars(cb_params)
    return sorted(k for k in keys if not k.startswith("_"))


def _recorder(base, log: list, stop_step):
    class Recorder(base):
        def __enter__(self):
            log.append(["__enter__"])
            return self

        def __exit__(self, *exc):
            log.append(["__exit__"])

    def make(event):
        def handler(self, run_context):
            cb_params = run_context.original_args()
            fields = _fields(cb_params)
            counters = {k: _value(getattr(cb_params, k)) for k in COUNTERS if k in fields}
            log.append([event, fields, counters])
            if event == "on_train_step_end" and cb_params.cur_step_num == stop_step:
                run_context.request_stop()

        return handler

    for event in EVENTS:
        setattr(Recorder, event, make(event))
    return Recorder()


def _dataset(ds, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCHES * BATCH_SIZE, 4)).astype(np.float32)
    y = rng.integers(0, 3, BATCHES * BATCH_SIZE).astype(np.int32)
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False)
    return data.batch(BATCH_SIZE)


def run(ms, nn, ds, train, case: str) -> dict:
    """Run ``case``; return ``{"log": [...], "result": eval's metrics or None}``."""
    method, kwargs, stop_step = CASES[case]
    ms.set_seed(0)
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = train.Model(net, loss, optimizer, metrics={"acc", "loss"})
    log: list = []
    recorder = _recorder(train.Callback, log, stop_step)
    kwargs = eval(kwargs, {"data": _dataset(ds, 0), "valid": _dataset(ds, 1)})
    result = getattr(model, method)(callbacks=[recorder], **kwargs)
    if isinstance(result, dict):
        result = {k: round(float(v), 4) for k, v in sorted(result.items())}
    return {"log": log, "result": result}
