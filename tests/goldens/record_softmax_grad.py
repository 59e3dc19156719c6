"""Record MindSpore 2.10's Softmax gradients (ops.softmax, ops.Softmax, nn.Softmax, and the
attention pattern mindcv's MobileViT uses: BatchMatMul(transpose_b) -> scale -> Softmax ->
BatchMatMul), in PyNative and GRAPH_MODE.

    /root/ms-ref/bin/python tests/goldens/record_softmax_grad.py

Writes softmax_grad.npz: ``<case>/x`` (and ``<case>/v`` for attention), ``<case>/w`` (the
cotangent, applied as sum(out * w)), ``<case>/pynative`` and ``<case>/graph`` (the gradient).
"""

import pathlib

import mindspore as ms
import numpy as np
from mindspore import nn, ops

HERE = pathlib.Path(__file__).resolve().parent
RNG = np.random.default_rng(0)
T = ms.Tensor


def rand(*shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def make_loss(fn, weights):
    def loss(x):
        return (fn(x) * weights).sum()

    return loss


def softmax_last(x):
    return ops.softmax(x, -1)


def softmax_axis1(x):
    return ops.softmax(x, 1)


def primitive_axis0(x):
    return ops.Softmax(0)(x)


def cell_last(x):
    return nn.Softmax(axis=-1)(x)


# name -> (function, shape, input scale); a large scale saturates the softmax
CASES = {
    "ops_softmax_last": (softmax_last, (16, 4, 4, 4), 1.0),
    "ops_softmax_axis1": (softmax_axis1, (3, 5, 2), 1.0),
    "Softmax_axis0": (primitive_axis0, (6, 3), 3.0),
    "nn_Softmax_last": (cell_last, (2, 3, 7), 5.0),
    "ops_softmax_saturated": (softmax_last, (4, 6), 20.0),
}

out = {}
for name, (fn, shape, scale) in CASES.items():
    x, w = rand(*shape, scale=scale), rand(*shape)
    loss = make_loss(fn, T(w))
    out[f"{name}/x"], out[f"{name}/w"] = x, w
    out[f"{name}/pynative"] = ms.grad(loss)(T(x)).asnumpy()
    out[f"{name}/graph"] = ms.jit(ms.grad(loss))(T(x)).asnumpy()

# the MobileViT attention core: q, k, v (B*P, heads, N, head_dim), scaled by head_dim ** -0.5
q, k, v, w = rand(4, 4, 4, 8), rand(4, 4, 4, 8), rand(4, 4, 4, 8), rand(4, 4, 4, 8)
weights = T(w)


def attention(q, k, v):
    attn = ops.BatchMatMul(transpose_b=True)(q, k) * (8**-0.5)
    attn = nn.Softmax(axis=-1)(attn)
    return (ops.BatchMatMul()(attn, v) * weights).sum()


for key, value in (("q", q), ("k", k), ("v", v), ("w", w)):
    out[f"attention/{key}"] = value
for mode, grad_fn in (
    ("pynative", ms.grad(attention, (0, 1, 2))),
    ("graph", ms.jit(ms.grad(attention, (0, 1, 2)))),
):
    grads = grad_fn(T(q), T(k), T(v))
    for key, grad in zip("qkv", grads):
        out[f"attention/{mode}_d{key}"] = grad.asnumpy()
np.savez(HERE / "softmax_grad.npz", **out)
print(f"wrote {len(out)} arrays to softmax_grad.npz")
