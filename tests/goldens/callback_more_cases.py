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


# LearningRateScheduler: the learning rate function (of SGD's rate 0.1) and a training run of
# 2 epochs of 3 steps; the log holds the (lr, step) the function is given at every step.
LR_FUNCTIONS = {
    "halve": lambda lr, step: lr * 0.5,
    "every_second_step": lambda lr, step: lr * 0.1 if step % 2 == 0 else lr,
    "third": lambda lr, step: lr / 3,
    "tiny": lambda lr, step: lr * 0.003,
    "unchanged_within_tolerance": lambda lr, step: lr * (1 + 1e-12),
    "by_step": lambda lr, step: 0.05 * step,
}


def lr_scheduler(ms, nn, ds, train, name):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    model = train.Model(net, nn.MSELoss(), opt)
    log = []

    def schedule(lr, step):
        log.append([lr, step])
        return LR_FUNCTIONS[name](lr, step)

    model.train(2, _dataset(ds), callbacks=[train.LearningRateScheduler(schedule)])
    return {"calls": log, "final": float(opt.learning_rate.asnumpy())}


def lr_scheduler_dynamic(ms, nn, ds, train):
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=[0.1, 0.05, 0.01])
    model = train.Model(net, nn.MSELoss(), opt)
    cb = train.LearningRateScheduler(lambda lr, step: lr)
    return _error(lambda: model.train(1, _dataset(ds), callbacks=[cb]))


# EarlyStopping, driven by hand as Model does: on_train_begin, then on_train_epoch_end per
# scripted value until it requests the stop. Before each epoch the net's weight is set to
# [[epoch, -epoch]], so restore_best_weights shows which epoch's weights it restored.
# name -> (constructor keyword arguments, monitored key, scripted values)
EARLY = {
    "default_patience0": ({}, "eval_loss", [1.0, 0.9, 0.8]),
    "patience2_min_delta": (
        dict(patience=2, min_delta=0.05),
        "eval_loss",
        [1.0, 0.97, 0.9, 0.89, 0.88, 0.87, 0.5, 0.4],
    ),
    "acc_auto_max": (dict(monitor="acc", patience=1), "acc", [0.1, 0.2, 0.2, 0.3, 0.25, 0.4]),
    "mode_max_baseline": (
        dict(mode="max", patience=2, baseline=0.5, min_delta=0.1),
        "eval_loss",
        [0.2, 0.35, 0.4, 0.6, 0.65, 0.7, 0.9, 0.9, 0.9],
    ),
    "baseline_with_zero_min_delta": (
        dict(patience=3, baseline=2.0),
        "eval_loss",
        [1.0, 0.9, 0.8, 0.7, 0.6, 0.5],
    ),
    "restore_best_verbose": (
        dict(patience=2, restore_best_weights=True, verbose=True),
        "eval_loss",
        [1.0, 0.5, 0.7, 0.8, 0.9, 0.1],
    ),
    "restore_best_max": (
        dict(monitor="acc", patience=1, restore_best_weights=True, mode="max", min_delta=0.5),
        "acc",
        [1.0, 2.0, 2.4, 3.0, 2.0, 2.1],
    ),
    "missing_monitor": (dict(patience=1, restore_best_weights=True), "acc", [1.0, 2.0, 3.0]),
    "loss_monitor": (dict(monitor="loss", patience=1), "loss", [2.0, 1.0, 1.5, 1.4, 0.3]),
    "zero_value_skipped": (dict(patience=1), "eval_loss", [1.0, 0.0, 0.0, 1.2, 1.3]),
    "mode_min_on_acc": (dict(monitor="acc", mode="min", patience=1), "acc", [0.5, 0.4, 0.6, 0.7]),
    "negative_min_delta": (
        dict(patience=1, min_delta=-0.2, mode="min"),
        "eval_loss",
        [1.0, 1.1, 1.3, 1.2, 1.5],
    ),
}

EARLY_ERRORS = [
    "dict(monitor=1)",
    "dict(min_delta='a')",
    "dict(min_delta=True)",
    "dict(patience=-1)",
    "dict(patience=1.5)",
    "dict(patience=True)",
    "dict(verbose=1)",
    "dict(mode='up')",
    "dict(mode=1)",
    "dict(baseline='high')",
    "dict(restore_best_weights=1)",
]


def early(ms, nn, train, name):
    import contextlib
    import io

    kwargs, key, values = EARLY[name]
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    cb = train.EarlyStopping(**kwargs)
    params = train.callback._InternalCallbackParam()
    params.train_network = net
    run_context = train.RunContext(params)
    printed = io.StringIO()
    log = []
    with contextlib.redirect_stdout(printed):
        cb.on_train_begin(run_context)
        for epoch, value in enumerate(values, 1):
            params.cur_epoch_num = epoch
            net.weight.set_data(ms.Tensor(np.array([[epoch, -epoch]], np.float32)))
            if key == "loss":
                params.net_outputs = ms.Tensor(np.float32(value))
            else:
                params.eval_results = {key: value}
            cb.on_train_epoch_end(run_context)
            stop = run_context.get_stop_requested()
            log.append([cb.wait, float(cb.best), cb.stopped_epoch, stop])
            if stop:
                break
        cb.on_train_end(run_context)
    return {
        "log": log,
        "weight": net.weight.asnumpy().tolist(),
        "printed": printed.getvalue(),
        "baseline": cb.baseline,
        "min_delta": cb.min_delta,
    }


def early_errors(train):
    return {text: _error(lambda: train.EarlyStopping(**eval(text))) for text in EARLY_ERRORS}
