"""A pre-norm transformer block written only with ``cellax.mint`` trains under ``cellax.jit``
and matches, step for step, the same block written with ``cellax.ops``/``cellax.nn``.

Both blocks get the same initial weights (copied Parameter by Parameter); the mint one trains
with ``mint.optim.SGD(momentum=0.9)``, the ops/nn one with ``nn.Momentum(0.9)`` (the same
update when dampening is 0). Losses and final weights must agree after XLA fusion (tolerance
stated below), and the loss must fall.
"""

import math

import numpy as np
import pytest

import cellax as ms
from cellax import mint, nn, ops

D, HEADS, FF, SEQ, BATCH, CLASSES = 16, 2, 32, 6, 4, 3
STEPS = 6
RTOL, ATOL = 2e-4, 2e-5  # float32 after different XLA fusions of the same math


class MintBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ln1 = mint.nn.LayerNorm(D)
        self.qkv = mint.nn.Linear(D, 3 * D)
        self.proj = mint.nn.Linear(D, D)
        self.ln2 = mint.nn.LayerNorm(D)
        self.ff1 = mint.nn.Linear(D, FF)
        self.act = mint.nn.GELU(approximate="tanh")
        self.ff2 = mint.nn.Linear(FF, D)
        self.drop = mint.nn.Dropout(0.0)
        self.head = mint.nn.Linear(D, CLASSES)

    def attention(self, x):
        b, s, _ = x.shape
        q, k, v = mint.chunk(self.qkv(x), 3, dim=-1)
        heads = lambda t: mint.permute(mint.reshape(t, (b, s, HEADS, D // HEADS)), (0, 2, 1, 3))  # noqa: E731
        q, k, v = heads(q), heads(k), heads(v)
        scores = mint.matmul(q, mint.transpose(k, -2, -1)) / math.sqrt(D // HEADS)
        causal = mint.triu(mint.ones((s, s), dtype=ms.bool_), diagonal=1)
        scores = mint.where(causal, -1e9, scores)
        out = mint.matmul(mint.nn.functional.softmax(scores, dim=-1), v)
        return self.proj(mint.reshape(mint.permute(out, (0, 2, 1, 3)), (b, s, D)))

    def construct(self, x):
        x = x + self.drop(self.attention(self.ln1(x)))
        x = x + self.ff2(self.act(self.ff1(self.ln2(x))))
        return self.head(mint.mean(x, dim=1))


class OpsBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm((D,), epsilon=1e-5)
        self.qkv = nn.Dense(D, 3 * D)
        self.proj = nn.Dense(D, D)
        self.ln2 = nn.LayerNorm((D,), epsilon=1e-5)
        self.ff1 = nn.Dense(D, FF)
        self.ff2 = nn.Dense(FF, D)
        self.head = nn.Dense(D, CLASSES)

    def attention(self, x):
        b, s, _ = x.shape
        q, k, v = ops.split(self.qkv(x), D, axis=-1)
        heads = lambda t: ops.transpose(ops.reshape(t, (b, s, HEADS, D // HEADS)), (0, 2, 1, 3))  # noqa: E731
        q, k, v = heads(q), heads(k), heads(v)
        scores = ops.matmul(q, ops.swapaxes(k, -2, -1)) / math.sqrt(D // HEADS)
        causal = ops.triu(ops.ones((s, s), ms.bool_), 1)
        scores = ops.masked_fill(scores, causal, -1e9)
        out = ops.matmul(ops.softmax(scores, -1), v)
        return self.proj(ops.reshape(ops.transpose(out, (0, 2, 1, 3)), (b, s, D)))

    def construct(self, x):
        x = x + self.attention(self.ln1(x))
        x = x + self.ff2(ops.gelu(self.ff1(self.ln2(x)), approximate="tanh"))
        return self.head(ops.mean(x, 1))


def _train(net, optimizer, loss_fn, x, y):
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, optimizer.parameters)

    @ms.jit
    def step(a, b):
        loss, grads = grad_fn(a, b)
        optimizer(grads)
        return loss

    return [float(step(x, y).asnumpy()) for _ in range(STEPS)]


@pytest.fixture(scope="module")
def trained():
    ms.set_seed(1)
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((BATCH, SEQ, D)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, CLASSES, BATCH).astype(np.int32))
    m_net, o_net = MintBlock(), OpsBlock()
    m_params, o_params = m_net.trainable_params(), o_net.trainable_params()
    assert [tuple(p.shape) for p in m_params] == [tuple(p.shape) for p in o_params]
    for mp, op in zip(m_params, o_params):
        op.set_data(ms.Tensor(mp.asnumpy()))
    m_opt = mint.optim.SGD(m_params, lr=0.05, momentum=0.9)
    o_opt = nn.Momentum(o_params, learning_rate=0.05, momentum=0.9)
    m_losses = _train(m_net, m_opt, mint.nn.CrossEntropyLoss(), x, y)
    o_losses = _train(o_net, o_opt, nn.CrossEntropyLoss(), x, y)
    return m_losses, o_losses, m_params, o_params


def test_mint_block_matches_ops_block(trained):
    m_losses, o_losses, m_params, o_params = trained
    np.testing.assert_allclose(m_losses, o_losses, rtol=RTOL, atol=ATOL)
    for mp, op in zip(m_params, o_params):
        np.testing.assert_allclose(mp.asnumpy(), op.asnumpy(), rtol=RTOL, atol=ATOL)


def test_mint_block_learns(trained):
    m_losses = trained[0]
    assert m_losses[-1] < m_losses[0] - 0.05, m_losses
    assert all(np.isfinite(m_losses))
