"""Primitives and layers zoo code builds directly (Conv2D, Conv2DTranspose, LpNorm,
L2Normalize, ResizeNearestNeighbor, KLDivLoss, LayerNorm, nn.OneHot, nn.SyncBatchNorm) against MindSpore
2.10 goldens (tests/goldens/record_compat_prims.py)."""

import json
import os

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

_PATH = os.path.join(os.path.dirname(__file__), os.pardir, "goldens", "compat_prims.json")
with open(_PATH) as _f:
    GOLDEN = json.load(_f)
INPUTS = {k: np.asarray(v, dtype=d) for k, (v, d) in GOLDEN["inputs"].items()}


def _build(name, kwargs):
    if name.startswith("nn."):
        return getattr(nn, name[3:])(**kwargs)
    return getattr(ops, name)(**kwargs)


@pytest.mark.parametrize("index", range(len(GOLDEN["cases"])), ids=[c[0] for c in GOLDEN["cases"]])
def test_against_mindspore(index):
    name, kwargs, recipe, expected, dtype = GOLDEN["cases"][index]
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    args = [ms.Tensor(INPUTS[r]) if isinstance(r, str) else tuple(r) for r in recipe]
    got = _build(name, kwargs)(*args)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for array, want in zip(got, expected):
        assert str(array.asnumpy().dtype) == dtype
        # float32 convolutions and reductions: XLA may sum in another order than MindSpore.
        np.testing.assert_allclose(array.asnumpy(), np.asarray(want, dtype), rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_is_the_gradient_of_conv2d():
    x = ms.Tensor(INPUTS["x4"][:, :2, :4, :4])
    w = ms.Tensor(INPUTS["wt"])  # (3, 2, 3, 3): Conv2D from 2 to 3 channels
    conv = ops.Conv2D(3, 3, pad_mode="same", stride=2)
    back = ops.Conv2DBackpropInput(2, 3, pad_mode="same", stride=2)
    dout = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 2, 2)).astype(np.float32))
    grad = ms.grad(lambda t: (conv(t, w) * dout).sum())(x)
    np.testing.assert_allclose(
        back(dout, w, x.shape).asnumpy(), grad.asnumpy(), rtol=1e-5, atol=1e-5
    )


def test_errors_and_sync_batch_norm():
    with pytest.raises(ValueError, match="'pad' must be zero"):
        ops.Conv2D(2, 3, pad_mode="same", pad=1)
    with pytest.raises(ValueError, match="'input_size'"):
        ops.Conv2DTranspose(2, 3)(ms.Tensor(INPUTS["x4"]), ms.Tensor(INPUTS["wt"]), (2, 2, 3, 3))
    with pytest.raises(ValueError, match="'p' must be an int >= 0"):
        ops.LpNorm(axis=0, p=-1)
    bn = nn.SyncBatchNorm(3, process_groups=None)
    assert isinstance(bn, nn.BatchNorm2d)
    x = ms.Tensor(INPUTS["x4"])
    np.testing.assert_allclose(bn(x).asnumpy(), nn.BatchNorm2d(3)(x).asnumpy())


def test_layer_norm_cell_keeps_its_primitive():
    # mindcv's ConvNeXt and EdgeNeXt subclass nn.LayerNorm and call self.layer_norm.
    cell = nn.LayerNorm((4,), begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)
    x = ms.Tensor(INPUTS["ln_x"])
    y, mean, var = cell.layer_norm(x, cell.gamma, cell.beta)
    np.testing.assert_allclose(y.asnumpy(), cell(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert mean.shape == var.shape == (2, 3, 1)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_unfold_against_numpy(padding):
    # nn.Unfold has no CPU kernel in MindSpore 2.10: checked against a NumPy loop in
    # TensorFlow's extract_image_patches order (patch row, patch column, channel).
    x = INPUTS["x4"]
    k, s, r = (2, 3), (2, 1), (1, 2)
    got = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], padding)(ms.Tensor(x)).asnumpy()
    n, c, h, w = x.shape
    pads = []
    for size, kk, ss, rr in zip((h, w), k, s, r):
        span = (kk - 1) * rr + 1
        out = -(-size // ss) if padding == "same" else (size - span) // ss + 1
        total = max((out - 1) * ss + span - size, 0) if padding == "same" else 0
        pads.append((total // 2, total - total // 2, out))
    padded = np.pad(x, ((0, 0), (0, 0), pads[0][:2], pads[1][:2]))
    want = np.zeros((n, k[0] * k[1] * c, pads[0][2], pads[1][2]), np.float32)
    for i in range(k[0]):
        for j in range(k[1]):
            for oi in range(pads[0][2]):
                for oj in range(pads[1][2]):
                    patch = padded[:, :, oi * s[0] + i * r[0], oj * s[1] + j * r[1]]
                    want[:, (i * k[1] + j) * c : (i * k[1] + j + 1) * c, oi, oj] = patch
    np.testing.assert_array_equal(got, want)
