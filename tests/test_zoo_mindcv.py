"""mindcv 0.3.0, unmodified, on cellax through alias_mindspore (runs only where mindcv is
importable; installs nothing: e.g. ``pip install --no-deps --target DIR mindcv==0.3.0`` and put
DIR on PYTHONPATH): ``import mindcv``, models built with ``mindcv.create_model`` run forward,
and one training step through mindcv's own loss, optimizer, scheduler and trainer."""

import importlib.util
import sys

import numpy as np
import pytest

import cellax

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mindcv") is None, reason="mindcv is not installed"
)

# One model per compatibility fix: nn.Pad (densenet), Conv2d.conv2d (BiT), ops.constexpr
# (convit), numpy-based stochastic depth (most of the zoo), nn.LayerNorm.layer_norm (convnext).
MODELS = [
    ("densenet121", 64),
    ("BiT_resnet50", 64),
    ("convit_tiny", 224),
    ("mobilenet_v3_small_100", 64),
    ("convnext_tiny", 64),
]


@pytest.fixture(scope="module")
def mindcv():
    handle = cellax.alias_mindspore()
    saved = {k: v for k, v in sys.modules.items() if k == "mindcv" or k.startswith("mindcv.")}
    try:
        import mindcv as module

        yield module
    finally:
        for name in [n for n in sys.modules if n == "mindcv" or n.startswith("mindcv.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        handle.remove()


@pytest.mark.parametrize("name,size", MODELS, ids=[m for m, _ in MODELS])
def test_mindcv_model_builds_and_runs(mindcv, name, size):
    import mindspore as ms

    assert name in mindcv.list_models()
    ms.set_seed(0)
    net = mindcv.create_model(name, pretrained=False, num_classes=10)
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, size, size)), ms.float32)
    out = net(x).asnumpy()
    assert out.shape == (1, 10) and np.isfinite(out).all()


@pytest.mark.parametrize("ema", [False, True], ids=["Model", "mindcv-TrainStep"])
def test_mindcv_training_steps(mindcv, ema):
    import mindspore as ms
    import mindspore.dataset as ds
    from mindcv.loss import create_loss
    from mindcv.optim import create_optimizer
    from mindcv.scheduler import create_scheduler
    from mindcv.utils import create_trainer

    ms.set_seed(0)
    rng = np.random.default_rng(0)
    images = rng.standard_normal((8, 3, 32, 32)).astype(np.float32)
    labels = rng.integers(0, 10, 8).astype(np.int32)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(4)
    net = mindcv.create_model("resnet18", pretrained=False, num_classes=10)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    loss = create_loss(name="CE", label_smoothing=0.1)
    lr = create_scheduler(steps_per_epoch=2, scheduler="cosine_decay", lr=0.01, num_epochs=2)
    opt = create_optimizer(net.trainable_params(), opt="adamw", lr=lr, weight_decay=1e-4)
    model = create_trainer(
        net, loss, opt, metrics={"acc"}, amp_level="O0", amp_cast_list=None,
        loss_scale_type="fixed", loss_scale=1.0, ema=ema,
    )  # fmt: skip
    losses = []

    class Record(ms.train.Callback):
        def on_train_step_end(self, run_context):
            out = run_context.original_args().net_outputs
            losses.append(float((out[0] if isinstance(out, tuple) else out).asnumpy()))

    model.train(1, data, callbacks=[Record()], dataset_sink_mode=False)
    assert len(losses) == 2 and all(np.isfinite(losses))
    assert int(opt.global_step.asnumpy()[0]) == 2  # mindcv's AdamW counts its own steps
    after = [p.asnumpy() for p in net.trainable_params()]
    assert all(not np.allclose(a, b) for a, b in zip(before[:3], after[:3]))
    assert 0.0 <= model.eval(data, dataset_sink_mode=False)["acc"] <= 1.0
