"""Softmax gradients against MindSpore 2.10 (tests/goldens/record_softmax_grad.py): the
functional, primitive and Cell forms, a saturated softmax, and the attention pattern of mindcv's
MobileViT (BatchMatMul -> scale -> nn.Softmax -> BatchMatMul), eager (taped and untaped) and
under jit. MindSpore's PyNative and GRAPH_MODE agree on each of these in isolation."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

from .._goldens import load_npz

GOLD = load_npz("softmax_grad.npz")
T = ms.Tensor

FUNCTIONS = {
    "ops_softmax_last": lambda x: ops.softmax(x, -1),
    "ops_softmax_axis1": lambda x: ops.softmax(x, 1),
    "Softmax_axis0": lambda x: ops.Softmax(0)(x),
    "nn_Softmax_last": lambda x: nn.Softmax(axis=-1)(x),
    "ops_softmax_saturated": lambda x: ops.softmax(x, -1),
}
MODES = ["tape", "no-tape", "jit"]


def _grad(fn, mode, *args, positions=0):
    grad_fn = ms.grad(fn, positions)
    if mode == "jit":
        return ms.jit(grad_fn)(*args)
    ms.set_context(pynative_grad_tape=mode == "tape")
    try:
        return grad_fn(*args)
    finally:
        ms.set_context(pynative_grad_tape=True)


@pytest.mark.parametrize("mode", ["tape", "jit"])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_softmax_gradient_matches_mindspore(name, mode):
    x, w = GOLD[f"{name}/x"], GOLD[f"{name}/w"]
    weights = T(w)

    def loss(x):
        return (FUNCTIONS[name](x) * weights).sum()

    grad = _grad(loss, mode, T(x)).asnumpy()
    ref = GOLD[f"{name}/graph"]
    np.testing.assert_allclose(grad, ref, rtol=1e-5, atol=1e-5 * max(np.abs(ref).max(), 1e-30))
    axis = {"ops_softmax_axis1": 1, "Softmax_axis0": 0}.get(name, -1)
    # a softmax gradient sums to zero along the softmax axis (the outputs sum to one)
    np.testing.assert_allclose(grad.sum(axis), 0, atol=1e-6 * max(np.abs(w).max(), 1))


@pytest.mark.parametrize("mode", MODES)
def test_attention_gradient_matches_mindspore(mode):
    q, k, v, w = (GOLD[f"attention/{key}"] for key in "qkvw")
    weights = T(w)

    def attention(q, k, v):
        attn = ops.BatchMatMul(transpose_b=True)(q, k) * (8**-0.5)
        attn = nn.Softmax(axis=-1)(attn)
        return (ops.BatchMatMul()(attn, v) * weights).sum()

    grads = _grad(attention, mode, T(q), T(k), T(v), positions=(0, 1, 2))
    for key, grad in zip("qkv", grads):
        ref = GOLD[f"attention/graph_d{key}"]
        np.testing.assert_allclose(grad.asnumpy(), ref, rtol=1e-4, atol=1e-5)
