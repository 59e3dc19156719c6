"""ReduceLROnPlateau and OnRequestExit golden cases, run under MindSpore 2.10 (recording, by
record_callback_more.py) and cellax alike (tests/test_train_callbacks_more.py).

Plateau cases drive the callback by hand, as Model does: ``on_train_begin`` then
``on_train_epoch_end`` once per scripted monitored value, with a RunContext whose cb_params
carry the optimizer (SGD, learning rate 1.0) and ``eval_results`` (or ``net_outputs`` for
``monitor='loss'``); after each epoch the learning rate, ``wait``, ``cooldown_counter`` and
``best`` are logged. OnRequestExit cases train a Dense(2, 1) for 3 epochs of 3 steps and send
SIGUSR1 to the process at the end of step 2 (or evaluate and send it at eval step 1).
"""

import json
import os
import signal

import numpy as np

# name -> (constructor keyword arguments, monitored key, scripted values)
PLATEAU = {
    "default_patience": ({}, "eval_loss", [1.0] * 12 + [0.5] + [0.5] * 11),
    "patience1_cooldown1_minlr": (
        dict(patience=1, factor=0.5, cooldown=1, min_lr=0.1),
        "eval_loss",
        [1.0, 1.0, 0.9, 0.95, 0.96, 0.97, 0.0, 0.98, 0.99, 0.5, 0.6, 0.7, 0.8],
    ),
    "acc_auto_max": (
        dict(monitor="acc", patience=2, factor=0.2),
        "acc",
        [0.1, 0.2, 0.2, 0.2, 0.3, 0.25, 0.2, 0.2, 0.2],
    ),
    "min_delta_mode_min": (
        dict(monitor="acc", mode="min", patience=1, min_delta=0.05, factor=0.5),
        "acc",
        [1.0, 0.97, 0.9, 0.89, 0.8, 0.81],
    ),
    "negative_min_delta_max": (
        dict(mode="max", patience=0, min_delta=-0.1, factor=0.9, cooldown=2),
        "eval_loss",
        [1.0, 1.05, 1.2, 1.1, 1.0, 0.9, 2.0],
    ),
    "loss_monitor": (
        dict(monitor="loss", patience=1, factor=0.5, min_lr=0.3),
        "loss",
        [2.0, 2.0, 1.0, 1.5, 1.5, 1.5, 1.5],
    ),
}

PLATEAU_ERRORS = [
    "dict(monitor=1)",
    "dict(factor=1.0)",
    "dict(factor=0.0)",
    "dict(factor=0)",
    "dict(factor='a')",
    "dict(patience=-1)",
    "dict(patience=1.5)",
    "dict(patience=True)",
    "dict(verbose=1)",
    "dict(mode='x')",
    "dict(mode=1)",
    "dict(min_delta='a')",
    "dict(min_delta=True)",
    "dict(cooldown=-1)",
    "dict(cooldown=None)",
    "dict(min_lr='a')",
    "dict(min_lr=True)",
    "dict(min_lr=-1)",
]

EXIT_ERRORS = [
    "dict(save_ckpt=1)",
    "dict(save_mindir='a')",
    "dict(sig='x')",
    "dict(sig=signal.SIGKILL)",
    "dict(sig=True)",
    "dict(file_name=1)",
    "dict(config_file=1)",
    "dict(directory=1)",
]


def _error(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the error is the golden
        return [type(exc).__name__, str(exc).strip()]
    return None


def plateau(ms, nn, train, name):
    kwargs, key, values = PLATEAU[name]
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=1.0)
    cb = train.ReduceLROnPlateau(**kwargs)
    params = train.callback._InternalCallbackParam()
    params.optimizer = opt
    run_context = train.RunContext(params)
    cb.on_train_begin(run_context)
    log = []
    for epoch, value in enumerate(values, 1):
        params.cur_epoch_num = epoch
        if key == "loss":
            params.net_outputs = ms.Tensor(np.float32(value))
        else:
            params.eval_results = {key: value}
        cb.on_train_epoch_end(run_context)
        lr = float(opt.learning_rate.asnumpy())
        log.append([round(lr, 7), cb.wait, cb.cooldown_counter, float(cb.best)])
    return log


def plateau_dynamic_lr(ms, nn, train):
    net = nn.Dense(2, 1)
    params = train.callback._InternalCallbackParam()
    params.eval_results = {"eval_loss": 1.0}
    out = {}
    for label, lr in (
        ("list", [0.1, 0.01]),
        ("tensor_1d", ms.Tensor(np.array([0.1, 0.01], np.float32))),
    ):
        params.optimizer = nn.SGD(net.trainable_params(), learning_rate=lr)
        out[label] = _error(
            lambda: train.ReduceLROnPlateau().on_train_epoch_end(train.RunContext(params))
        )
    params.optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)
    params.eval_results = {"eval_loss": np.array([1.0, 2.0])}
    out["vector_monitor"] = _error(
        lambda: train.ReduceLROnPlateau().on_train_epoch_end(train.RunContext(params))
    )
    return out


def plateau_errors(train):
    return {text: _error(lambda: train.ReduceLROnPlateau(**eval(text))) for text in PLATEAU_ERRORS}


def exit_errors(train, directory):
    out = {}
    for text in EXIT_ERRORS:
        kwargs = eval(text)
        kwargs.setdefault("directory", directory)
        out[text] = _error(lambda: train.OnRequestExit(**kwargs))
    return out


def _dataset(ds):
    data = {
        "x": np.arange(12, dtype=np.float32).reshape(6, 2) / 10,
        "y": np.ones((6, 1), np.float32),
    }
    return ds.NumpySlicesDataset(data, shuffle=False).batch(2)


def _run_exit(ms, nn, ds, train, directory, graceful, config):
    old = os.environ.get("MS_ENABLE_GRACEFUL_EXIT")
    if graceful:
        os.environ["MS_ENABLE_GRACEFUL_EXIT"] = "1"
    try:
        net = nn.Dense(2, 1)
        opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
        model = train.Model(net, nn.MSELoss(), opt)
        config_file = None
        if config:
            config_file = os.path.join(directory, "exit.json")
            with open(config_file, "w", encoding="utf-8") as file:
                json.dump({"GracefulExit": 1}, file)
        cb = train.OnRequestExit(
            directory=directory, file_name="Tiny", config_file=config_file, sig=signal.SIGUSR1
        )
        log = []

        class Ask(train.Callback):
            def on_train_step_end(self, run_context):
                params = run_context.original_args()
                log.append([params.cur_epoch_num, params.cur_step_num])
                if params.cur_step_num == 2 and not config:
                    os.kill(os.getpid(), signal.SIGUSR1)

            def on_train_end(self, run_context):
                log.append("end")

        model.train(3, _dataset(ds), callbacks=[Ask(), cb])
    finally:
        if old is None:
            os.environ.pop("MS_ENABLE_GRACEFUL_EXIT", None)
        else:
            os.environ["MS_ENABLE_GRACEFUL_EXIT"] = old
    folder = os.path.join(directory, "rank_0")
    ckpt = ms.load_checkpoint(os.path.join(folder, "Tiny_train.ckpt"))
    appended = {
        k: np.asarray(ckpt[k].asnumpy()).tolist()
        for k in ("epoch_num", "step_num", "batch_num", "global_step")
        if k in ckpt
    }
    return {
        "log": log,
        "exit": cb.exit,
        "files": sorted(f for f in os.listdir(folder)),
        "ckpt_keys": sorted(ckpt),
        "appended": appended,
    }


def _run_eval_exit(ms, nn, ds, train, directory):
    net = nn.Dense(2, 1)
    model = train.Model(net, nn.MSELoss(), metrics={"mae"})
    cb = train.OnRequestExit(directory=directory, sig=signal.SIGUSR1)
    log = []

    class Ask(train.Callback):
        def on_eval_step_end(self, run_context):
            log.append(run_context.original_args().cur_step_num)
            if len(log) == 1:
                os.kill(os.getpid(), signal.SIGUSR1)

    model.eval(_dataset(ds), callbacks=[Ask(), cb])
    folder = os.path.join(directory, "rank_0")
    return {"log": log, "files": sorted(os.listdir(folder))}


EXIT_CASES = {
    "signal": dict(graceful=False, config=False),
    "signal_graceful_env": dict(graceful=True, config=False),
    "config_graceful_env": dict(graceful=True, config=True),
}


def run_exit(ms, nn, ds, train, case, directory):
    if case == "eval":
        return _run_eval_exit(ms, nn, ds, train, directory)
    return _run_exit(ms, nn, ds, train, directory, **EXIT_CASES[case])
