"""cellax.train: Model, callbacks and metrics."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn
from cellax.train import (
    Accuracy,
    CheckpointConfig,
    History,
    LossMonitor,
    MAE,
    MSE,
    Model,
    ModelCheckpoint,
    Top1CategoricalAccuracy,
    TopKCategoricalAccuracy,
)


def _dataset(n_batches=6, batch=16, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(3, 4)) * 3
    batches = []
    for _ in range(n_batches):
        labels = rng.integers(0, 3, batch)
        data = centers[labels] + rng.normal(size=(batch, 4)) * 0.3
        batches.append((data.astype(np.float32), labels.astype(np.int32)))
    return batches


def test_model_trains_and_evaluates(capsys):
    net = nn.Dense(4, 3)
    model = Model(
        net,
        nn.CrossEntropyLoss(),
        nn.SGD(net.trainable_params(), 0.1),
        metrics={"accuracy", "loss"},
    )
    data = _dataset()
    before = model.eval(data)
    history = History()
    model.train(5, data, callbacks=[LossMonitor(6), history])
    after = model.eval(data)
    assert after["loss"] < before["loss"]
    assert after["accuracy"] > 0.9
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("epoch: 1 step: 6, loss is ")
    assert len(history.history["net_output"]) == 5
    assert model.predict(ms.Tensor(data[0][0])).shape == (16, 3)


def test_model_checkpoint_callback(tmp_path):
    net = nn.Dense(4, 3)
    model = Model(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.1))
    callback = ModelCheckpoint(
        "net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2)
    )
    model.train(1, _dataset(), callbacks=callback)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net-1_3.ckpt", "net-1_6.ckpt"]
    loaded = ms.load_checkpoint(str(tmp_path / "net-1_6.ckpt"))
    np.testing.assert_allclose(loaded["weight"].asnumpy(), net.weight.asnumpy())


def test_model_errors():
    net = nn.Dense(4, 3)
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(RuntimeError, match="needs 'metrics'"):
        Model(net, nn.CrossEntropyLoss()).eval(_dataset())
    with pytest.raises(ValueError, match="'per_print_times' must be a non-negative int"):
        LossMonitor(-1)


def test_model_without_optimizer_trains_its_network():
    # MindSpore 2.10: with a loss and no optimizer Model.train runs WithLossCell (no update);
    # with neither, the network itself is the training cell (mindcv's custom TrainStep).
    net = nn.Dense(4, 3)
    before = net.weight.asnumpy().copy()
    model = Model(net, nn.CrossEntropyLoss())
    assert type(model.train_network).__name__ == "WithLossCell"
    model.train(1, _dataset())
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    step = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 0.1)
    )
    model = Model(step)
    assert model.train_network is step
    model.train(1, _dataset())
    assert not np.allclose(net.weight.asnumpy(), before)


def test_metrics_against_numpy():
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(20, 5))
    labels = rng.integers(0, 5, 20)
    acc = Accuracy()
    acc.update(ms.Tensor(logits), ms.Tensor(labels))
    assert acc.eval() == pytest.approx((logits.argmax(-1) == labels).mean())
    top2 = TopKCategoricalAccuracy(2)
    top2.update(logits, labels)
    expected = (np.argsort(-logits, -1)[:, :2] == labels[:, None]).any(-1).mean()
    assert top2.eval() == pytest.approx(expected)
    top1 = Top1CategoricalAccuracy()
    top1.update(logits, np.eye(5)[labels])
    assert top1.eval() == pytest.approx(acc.eval())
    y, p = rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
    mae, mse = MAE(), MSE()
    mae.update(p, y)
    mse.update(p, y)
    assert mae.eval() == pytest.approx(np.abs(p - y).mean())
    assert mse.eval() == pytest.approx(((p - y) ** 2).mean())
    with pytest.raises(RuntimeError, match="needs at least one update"):
        Accuracy().eval()


# Every MindSpore 2.10 metric, from nn, nn.metrics, train and train.metrics alike.
def test_nn_metrics_module_matches_mindspore():
    from cellax.train import metrics

    from ._goldens import load_json

    expected = set(load_json("nn_metrics.json", "all"))
    assert nn.metrics.Loss is metrics.Loss and nn.metrics.__all__ == metrics.__all__
    assert set(nn.metrics.__all__) == expected
    for name in expected:
        assert getattr(nn, name) is getattr(nn.metrics, name) is getattr(ms.train, name)
    assert metrics.names() == load_json("nn_metrics.json", "names")
    assert isinstance(nn.metrics.get_metrics({"acc", "loss"})["loss"], nn.metrics.Loss)
    with pytest.raises(TypeError, match="should be None, dict or set"):
        nn.metrics.get_metrics(["acc"])


def test_rearrange_inputs_reads_the_indexes():
    class Second(nn.metrics.Metric):
        def clear(self):
            self.seen = None

        @nn.metrics.rearrange_inputs
        def update(self, *inputs):
            self.seen = inputs

        def eval(self):
            return self.seen

    metric = Second().set_indexes([2, 0])
    metric.update("a", "b", "c")
    assert metric.eval() == ("c", "a") and metric.indexes == [2, 0]
