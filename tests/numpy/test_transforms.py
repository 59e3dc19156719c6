"""cellax.numpy under cellax.jit, cellax.grad and GRAPH_MODE cells (Tensors in, Tensors out)."""

import sys

import numpy as np
import pytest

import cellax as ms
import cellax.numpy as mnp
from cellax import nn


def _mindcv_style(x, w):
    """Uses every mnp function mindcv calls."""
    parts = mnp.split(x, 2, axis=1)
    y = mnp.concatenate([mnp.roll(parts[1], 1, axis=0), parts[0]], axis=1)
    y = mnp.tensordot(y, w, 1) + mnp.expand_dims(mnp.linspace(0, 1, 3), 0)
    y = mnp.where(y > 0, mnp.sqrt(mnp.abs(y) + 1), mnp.full(y.shape, 0.5))
    z = mnp.stack([y, mnp.tile(mnp.ones((1, 3)), (4, 1))])
    return mnp.mean(z, axis=0) + mnp.zeros(3) + mnp.arange(3)


def test_jit_matches_eager():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((4, 4)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    eager = _mindcv_style(x, w)
    jitted = ms.jit(_mindcv_style)(x, w)
    assert isinstance(jitted, ms.Tensor) and jitted.dtype == eager.dtype == ms.float32
    np.testing.assert_allclose(jitted.asnumpy(), eager.asnumpy(), rtol=1e-5, atol=1e-6)


def test_grad_through_mnp():
    rng = np.random.default_rng(1)
    x = ms.Tensor(rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((3, 2)).astype(np.float32))

    def loss(x, w):
        return mnp.mean(mnp.sqrt(x)) + mnp.sum(mnp.tensordot(x, w, 1))

    gx, gw = ms.grad(loss, grad_position=(0, 1))(x, w)
    xs, ws = x.asnumpy(), w.asnumpy()
    want_x = 0.5 / np.sqrt(xs) / xs.size + ws.sum(axis=1)[None, :]
    want_w = np.broadcast_to(xs.sum(axis=0)[:, None], ws.shape)
    np.testing.assert_allclose(gx.asnumpy(), want_x, rtol=1e-5)
    np.testing.assert_allclose(gw.asnumpy(), want_w, rtol=1e-5)
    jitted = ms.jit(ms.grad(loss))(x, w)
    np.testing.assert_allclose(jitted.asnumpy(), want_x, rtol=1e-5)


class DropPath(nn.Cell):
    """mindcv's stochastic-depth layer, which builds its mask with mnp.ones."""

    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob

    def construct(self, x):
        shape = (x.shape[0],) + (1,) * (x.ndim - 1)
        mask = mnp.ones(shape) * self.keep_prob
        return x / self.keep_prob * mask


def test_cell_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(np.ones((2, 3, 4, 4), np.float32))
    y = DropPath(0.5)(x)
    assert y.shape == (2, 3, 4, 4)
    np.testing.assert_allclose(y.asnumpy(), x.asnumpy())


def test_eager_only_functions_raise_under_jit():
    x = ms.Tensor(np.array([3, 1, 1], np.int32))
    for fn in (mnp.unique, mnp.argwhere, lambda v: mnp.where(v)):
        with pytest.raises(RuntimeError, match="eagerly"):
            ms.jit(fn)(x)
    # With a fixed length, bincount is traceable.
    out = ms.jit(lambda v: mnp.bincount(v, length=5))(x)
    np.testing.assert_allclose(out.asnumpy(), [0, 2, 0, 1, 0])


def test_import_is_standalone():
    """`import cellax` does not import cellax.numpy (the top-level wiring is lazy)."""
    import subprocess

    code = "import sys, cellax; print('cellax.numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
