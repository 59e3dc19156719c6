"""Model's callback protocol against MindSpore 2.10: event order, ``cb_params`` fields and
counters for train/eval/fit, with and without sink mode (tests/goldens/model_callbacks.json,
recorded by tests/goldens/record_model_callbacks.py)."""

import pytest

import cellax as ms
from cellax import dataset as ds
from cellax import nn, train

from ._goldens import load_json, load_module

GOLDEN = load_json("model_callbacks.json")
CASES = load_module("model_callback_cases")


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_callback_protocol_matches_mindspore(case):
    expected = GOLDEN[case]
    got = CASES.run(ms, nn, ds, train, case)
    assert [entry[0] for entry in got["log"]] == [entry[0] for entry in expected["log"]]
    assert got["log"] == expected["log"]
    if isinstance(expected["result"], dict):
        assert sorted(got["result"]) == sorted(expected["result"])
    else:
        assert got["result"] == expected["result"]


def _model_and_data():
    import numpy as np

    net = nn.Dense(4, 3)
    model = train.Model(
        net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"acc"}
    )
    data = [(np.ones((2, 4), np.float32), np.zeros((2,), np.int32))] * 3
    return model, data


def test_context_callbacks_exit_when_training_raises():
    events = []

    class Managed(train.Callback):
        def __enter__(self):
            events.append("enter")
            return self

        def __exit__(self, *exc):
            events.append(("exit", exc[0]))

        def on_train_step_end(self, run_context):
            raise KeyError("boom")

    model, data = _model_and_data()
    with pytest.raises(KeyError, match="boom"):
        model.train(1, data, callbacks=[Managed()])
    assert events == ["enter", ("exit", KeyError)]


def test_old_style_callback_methods_and_eval_callbacks():
    seen = []

    class OldStyle(train.Callback):
        def step_end(self, run_context):
            cb_params = run_context.original_args()
            seen.append((cb_params.mode, cb_params.cur_step_num))

    model, data = _model_and_data()
    model.train(1, data, callbacks=OldStyle())
    model.eval(data, callbacks=[OldStyle()])
    assert seen == [("train", 1), ("train", 2), ("train", 3), ("eval", 1), ("eval", 2), ("eval", 3)]


def test_cb_params_is_a_dict_with_attributes():
    params = []

    class Grab(train.Callback):
        def on_eval_end(self, run_context):
            params.append(run_context.original_args())

    model, data = _model_and_data()
    result = model.eval(data, callbacks=Grab())
    cb_params = params[0]
    assert isinstance(cb_params, dict) and cb_params.metrics == result
    assert not hasattr(cb_params, "cur_epoch_num")
    with pytest.raises(KeyError):
        cb_params.cur_epoch_num  # noqa: B018 - MindSpore raises KeyError here


def test_run_argument_errors():
    model, data = _model_and_data()
    with pytest.raises(TypeError, match="'original_args' should be dict type"):
        train.RunContext([1])
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive"):
        model.train(1, data, sink_size=0)
    with pytest.raises(ValueError, match="must bigger than parameter 'initial_epoch'"):
        model.train(2, data, initial_epoch=2)
    with pytest.raises(TypeError, match="'dataset_sink_mode' must be a bool"):
        model.train(1, data, dataset_sink_mode=1)
    with pytest.raises(ValueError, match="'eval_indexes' must be a list or None"):
        train.Model(nn.Dense(4, 3), eval_network=nn.Dense(4, 3), eval_indexes=[0, 1])
    with pytest.raises(TypeError, match="must be Callback functions"):
        model.train(1, data, callbacks=[object()])


def test_learning_rate_scheduler_sets_the_rate_each_step():
    model, data = _model_and_data()
    seen = []
    schedule = train.LearningRateScheduler(
        lambda lr, step: seen.append((lr, step)) or 0.1 / (step + 1)
    )
    model.train(1, data, callbacks=[schedule])
    assert [step for _, step in seen] == [1, 2, 3]
    assert seen[1][0] == pytest.approx(0.05) and seen[2][0] == pytest.approx(0.1 / 3)


def test_early_stopping_on_eval_loss_stops_and_restores():
    model, data = _model_and_data()
    stop = train.EarlyStopping(patience=1, mode="max", restore_best_weights=True)
    model.fit(4, data, data, callbacks=[stop])
    assert stop.stopped_epoch == 2 and stop.best_weights_param_dict is not None
    with pytest.raises(ValueError, match="mode should be"):
        train.EarlyStopping(mode="up")
    assert train.callback.EarlyStopping is train.EarlyStopping
