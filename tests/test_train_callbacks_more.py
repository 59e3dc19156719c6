"""ReduceLROnPlateau, EarlyStopping, LearningRateScheduler and OnRequestExit against MindSpore 2.10 (tests/goldens/callbacks_more.json,
recorded by tests/goldens/record_callback_more.py from tests/goldens/callback_more_cases.py)."""

import os
import signal

import numpy as np
import pytest

import cellax as ms
from cellax import dataset as ds
from cellax import nn, train

from ._goldens import load_json, load_module

GOLDEN = load_json("callbacks_more.json")
CASES = load_module("callback_more_cases")
# MindSpore's TrainOneStepCell gains these Parameters under MS_ENABLE_GRACEFUL_EXIT=1; cellax's
# does not (a documented difference).
_GRACEFUL_PARAMS = {"graceful_exit", "graceful_init"}


@pytest.mark.parametrize("case", sorted(GOLDEN["plateau"]))
def test_reduce_lr_on_plateau_sequence_matches_mindspore(case):
    got = CASES.plateau(ms, nn, train, case)
    expected = GOLDEN["plateau"][case]
    assert len(got) == len(expected)
    for epoch, (row, want) in enumerate(zip(got, expected), 1):
        assert row[1:3] == want[1:3], epoch
        assert row[0] == pytest.approx(want[0], rel=1e-6), epoch
        assert row[3] == pytest.approx(want[3], rel=1e-6), epoch


def test_reduce_lr_on_plateau_errors_match_mindspore():
    assert CASES.plateau_errors(train) == GOLDEN["plateau_errors"]
    assert CASES.plateau_dynamic_lr(ms, nn, train) == GOLDEN["plateau_dynamic_lr"]


@pytest.mark.parametrize("case", sorted(GOLDEN["early"]))
def test_early_stopping_sequence_matches_mindspore(case, monkeypatch):
    messages = _record_log_warnings(monkeypatch)
    got = CASES.early(ms, nn, train, case)
    expected = GOLDEN["early"][case]
    assert got == expected
    if case == "missing_monitor":
        assert (
            messages
            == [
                "Early stopping is conditioned on eval_loss, which is not available. "
                "Available choices are: ['acc', 'loss']"
            ]
            * 3
        )


def test_early_stopping_errors_match_mindspore():
    assert CASES.early_errors(train) == GOLDEN["early_errors"]


@pytest.mark.parametrize("case", sorted(GOLDEN["lr_scheduler"]))
def test_learning_rate_scheduler_sequence_matches_mindspore(case):
    got = CASES.lr_scheduler(ms, nn, ds, train, case)
    expected = GOLDEN["lr_scheduler"][case]
    # The rates the function is given are exactly MindSpore's (printed float32 values).
    assert got["calls"] == expected["calls"]
    assert got["final"] == pytest.approx(expected["final"], rel=1e-7)


def test_learning_rate_scheduler_dynamic_rate_fails_as_mindspore():
    got = CASES.lr_scheduler_dynamic(ms, nn, ds, train)
    assert got is not None and got[0] == GOLDEN["lr_scheduler_dynamic"][0]


def _record_log_warnings(monkeypatch):
    messages = []
    monkeypatch.setattr(ms.log, "warning", lambda msg, *args: messages.append(msg % args))
    return messages


def test_reduce_lr_on_plateau_in_model_fit_and_import_paths(capsys, monkeypatch):
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    model = train.Model(net, nn.MSELoss(), opt)
    data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))]
    plateau = train.ReduceLROnPlateau(
        monitor="loss", factor=0.5, patience=0, verbose=True, min_delta=1.0
    )
    model.train(3, data, callbacks=[plateau])
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.025)
    assert (
        "Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.05.\nEpoch 00003"
        in capsys.readouterr().out
    )
    messages = _record_log_warnings(monkeypatch)
    model.train(1, data, callbacks=[train.ReduceLROnPlateau()])
    assert messages == [
        "Learning rate reduction is conditioned on eval_loss, which is not available. "
        "Available choices are: ['loss']"
    ]
    from cellax.train.callback import OnRequestExit, ReduceLROnPlateau
    from cellax.train.callback._on_request_exit import OnRequestExit as exit_cls
    from cellax.train.callback._reduce_lr_on_plateau import ReduceLROnPlateau as plateau_cls

    assert ReduceLROnPlateau is train.ReduceLROnPlateau is plateau_cls is ms.ReduceLROnPlateau
    assert OnRequestExit is train.OnRequestExit is exit_cls is ms.OnRequestExit
    assert {"ReduceLROnPlateau", "OnRequestExit"} <= set(train.callback.__all__)


def test_on_request_exit_errors_match_mindspore(tmp_path):
    assert CASES.exit_errors(train, str(tmp_path)) == GOLDEN["exit_errors"]


@pytest.fixture
def restore_sigusr1():
    old = signal.getsignal(signal.SIGUSR1)
    yield
    signal.signal(signal.SIGUSR1, old)


@pytest.mark.parametrize("case", sorted(GOLDEN["exit"]))
def test_on_request_exit_matches_mindspore(case, tmp_path, restore_sigusr1):
    got = CASES.run_exit(ms, nn, ds, train, case, str(tmp_path))
    expected = dict(GOLDEN["exit"][case])
    if "ckpt_keys" in expected:
        expected["ckpt_keys"] = sorted(set(expected["ckpt_keys"]) - _GRACEFUL_PARAMS)
    assert got == expected


def _tiny_model():
    net = nn.Dense(2, 1)
    model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    data = [(np.full((2, 2), i, np.float32), np.ones((2, 1), np.float32)) for i in range(4)]
    return net, model, data


def test_on_request_exit_stops_early_and_saves_loadable_files(
    tmp_path, monkeypatch, restore_sigusr1
):
    """Under MS_ENABLE_GRACEFUL_EXIT=1 the signal stops training at the next step's end; the
    checkpoint loads into a fresh net, the .mindir runs in a GraphCell."""
    monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    net, model, data = _tiny_model()
    steps = []
    ask = train.LambdaCallback(
        on_train_step_end=lambda ctx: (
            steps.append(ctx.original_args().cur_step_num),
            steps[-1] == 2 and os.kill(os.getpid(), signal.SIGUSR1),
        )
    )
    on_exit = train.OnRequestExit(directory=str(tmp_path), sig=signal.SIGUSR1)
    messages = _record_log_warnings(monkeypatch)
    model.train(5, data, callbacks=[ask, on_exit])
    assert messages == ["Graceful exit is triggered, stop training."]
    assert steps == [1, 2, 3] and on_exit.exit and on_exit.stop_train
    folder = tmp_path / "rank_0"
    assert sorted(os.listdir(folder)) == ["Net_train.ckpt", "Net_train.mindir"]
    fresh = nn.Dense(2, 1)
    ms.load_param_into_net(fresh, ms.load_checkpoint(str(folder / "Net_train.ckpt")))
    np.testing.assert_array_equal(fresh.weight.asnumpy(), net.weight.asnumpy())
    graph = nn.GraphCell(ms.load(str(folder / "Net_train.mindir")))
    x, y = (ms.Tensor(a) for a in data[0])
    assert np.isfinite(float(graph(x, y).asnumpy()))

    # A restarted run resumes from the saved checkpoint (loaded at on_train_begin).
    saved = net.weight.asnumpy().copy()
    net.weight.set_data(ms.Tensor(np.zeros((1, 2), np.float32)))
    seen = []
    peek = train.LambdaCallback(on_train_begin=lambda ctx: seen.append(net.weight.asnumpy().copy()))
    monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT")
    model.train(
        1, data, callbacks=[train.OnRequestExit(directory=str(tmp_path), sig=signal.SIGUSR1), peek]
    )
    np.testing.assert_array_equal(seen[0], saved)


def test_on_request_exit_without_request_saves_nothing(tmp_path, restore_sigusr1):
    _, model, data = _tiny_model()
    on_exit = train.OnRequestExit(directory=str(tmp_path), sig=signal.SIGUSR1, save_mindir=False)
    model.train(1, data, callbacks=[on_exit])
    assert os.listdir(tmp_path / "rank_0") == [] and not on_exit.exit


def test_on_request_exit_saving_nothing(tmp_path, monkeypatch, restore_sigusr1):
    monkeypatch.chdir(tmp_path)
    _, model, data = _tiny_model()
    on_exit = train.OnRequestExit(save_ckpt=False, save_mindir=False, sig=signal.SIGUSR1)
    ask = train.LambdaCallback(on_train_step_end=lambda ctx: os.kill(os.getpid(), signal.SIGUSR1))
    model.train(1, data, callbacks=[ask, on_exit])
    assert on_exit.exit and os.listdir(tmp_path) == []
