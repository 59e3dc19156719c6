"""mindcv 0.3.0 models on cellax through alias_mindspore (runs only where mindcv is importable;
installs nothing: e.g. ``pip install --no-deps --target DIR mindcv==0.3.0`` and put DIR on
PYTHONPATH). ``import mindcv`` itself needs ``mindspore.dataset``, so the models are imported
through ``mindcv.models`` with the top package's ``__init__`` skipped."""

import importlib
import importlib.util
import sys
import types

import numpy as np
import pytest

import cellax

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mindcv") is None, reason="mindcv is not installed"
)

# One model per compatibility fix: nn.Pad (densenet), Conv2d.conv2d (BiT), ops.constexpr
# (convit), numpy-based stochastic depth (most of the zoo).
MODELS = ["densenet121", "BiT_resnet50", "convit_tiny", "mobilenet_v3_small_100"]


@pytest.fixture(scope="module")
def registry():
    handle = cellax.alias_mindspore()
    saved = {k: v for k, v in sys.modules.items() if k == "mindcv" or k.startswith("mindcv.")}
    spec = importlib.util.find_spec("mindcv")
    pkg = types.ModuleType("mindcv")
    pkg.__path__ = list(spec.submodule_search_locations)
    sys.modules["mindcv"] = pkg
    try:
        try:
            yield importlib.import_module("mindcv.models.registry")
        except ModuleNotFoundError as exc:
            pytest.skip(f"a module mindcv needs is missing: {exc}")
    finally:
        for name in [n for n in sys.modules if n == "mindcv" or n.startswith("mindcv.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        handle.remove()


@pytest.mark.parametrize("name", MODELS)
def test_mindcv_model_builds_and_runs(registry, name):
    import mindspore as ms

    ms.set_seed(0)
    net = registry.model_entrypoint(name)(pretrained=False, num_classes=10)
    net.set_train(False)
    size = 224 if name.startswith("convit") else 64
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, size, size)), ms.float32)
    out = net(x).asnumpy()
    assert out.shape == (1, 10) and np.isfinite(out).all()
