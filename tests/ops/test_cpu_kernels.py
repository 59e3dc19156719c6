"""The kernels cellax picks on CPU where XLA's are slow, checked against XLA's own.

A convolution whose output channels each read one input channel (depthwise, or 1 input channel
as its own program) runs as a sum of taps (cellax/ops/_impl/cpu_kernels.py): values, gradients and
forward derivatives equal XLA's convolution's, and exporters still see the convolution
primitive. A max pool whose windows tile the input differentiates through a one-hot of each
window's first maximum (the same module): bit for bit XLA's select-and-scatter."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import cellax as ms
from cellax import nn, ops
from cellax.ops._impl import cpu_kernels, pooling

# (input shape, weight shape, stride, pads, dilation, groups)
CASES = [
    ((2, 1, 9, 9), (4, 1, 3, 3), (1, 1), ((0, 0), (0, 0)), (1, 1), 1),
    ((2, 1, 9, 8), (4, 1, 3, 2), (2, 1), ((1, 2), (0, 1)), (2, 1), 1),
    ((2, 3, 8, 8), (3, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 3),  # depthwise
    ((2, 3, 8, 8), (6, 1, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), 3),  # channel multiplier 2
    ((2, 1, 10), (5, 1, 4), (3,), ((2, 1),), (1,), 1),
    ((1, 2, 5, 6, 7), (2, 1, 2, 3, 2), (1, 2, 1), ((0, 1), (1, 0), (0, 0)), (1, 1, 2), 2),
]


def _reference(x, w, stride, pads, dilation, groups):
    spatial = "DHW"[3 - (x.ndim - 2) :]
    numbers = ("NC" + spatial, "OI" + spatial, "NC" + spatial)
    return lax.conv_general_dilated(
        x, w, stride, pads, dimension_numbers=numbers, rhs_dilation=dilation,
        feature_group_count=groups,
    )  # fmt: skip


def _data(shape, seed):
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape), jnp.float32)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}")
def test_tap_sums_equal_the_convolution_and_its_derivatives(case):
    shape, wshape, stride, pads, dilation, groups = case
    x, w = _data(shape, 0), _data(wshape, 1)
    assert cpu_kernels.by_taps(x, w, groups)  # JAX runs on CPU in the suite
    expected = _reference(x, w, stride, pads, dilation, groups)
    out = cpu_kernels.convolve(x, w, stride, pads, dilation, groups)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    cotangent = _data(expected.shape, 2)
    grads = jax.vjp(lambda x, w: cpu_kernels.convolve(x, w, stride, pads, dilation, groups), x, w)
    wanted = jax.vjp(lambda x, w: _reference(x, w, stride, pads, dilation, groups), x, w)
    for got, want in zip(grads[1](cotangent), wanted[1](cotangent)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    tangents = (_data(shape, 3), _data(wshape, 4))
    _, jvp = jax.jvp(lambda x, w: cpu_kernels.convolve(x, w, stride, pads, dilation, groups),
                     (x, w), tangents)  # fmt: skip
    _, want = jax.jvp(lambda x, w: _reference(x, w, stride, pads, dilation, groups),
                      (x, w), tangents)  # fmt: skip
    np.testing.assert_allclose(jvp, want, rtol=1e-4, atol=1e-4)


def test_other_convolutions_keep_the_primitive():
    x, w = _data((2, 3, 8, 8), 0), _data((4, 3, 3, 3), 1)
    assert not cpu_kernels.by_taps(x, w, 1)  # several input channels per output channel
    assert not cpu_kernels.by_taps(x.astype(jnp.float16), w[:, :1].astype(jnp.float16), 1)
    big = _data((4, 1, 9, 9), 2)  # 81 taps: more than the tap sum is worth
    assert not cpu_kernels.by_taps(x[:, :1], big, 1)
    # a 1-channel input inside a larger compiled program keeps XLA's convolution (W7);
    # depthwise convolutions take the tap sum there too
    assert not cpu_kernels.by_taps(x[:, :1], w[:, :1], 1, alone=False)
    assert cpu_kernels.by_taps(x, _data((6, 1, 3, 3), 3), 3, alone=False)
    with cpu_kernels.portable_convolutions():
        assert not cpu_kernels.by_taps(x[:, :1], w[:, :1], 1)
    assert cpu_kernels.by_taps(x[:, :1], w[:, :1], 1)  # restored on exit


def test_ops_and_layers_take_the_tap_sum_with_the_same_results():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 4, 7, 7)).astype(np.float32)
    w = rng.standard_normal((8, 1, 3, 3)).astype(np.float32)
    out = ops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode="pad", padding=1, groups=4)
    expected = _reference(jnp.asarray(x), jnp.asarray(w), (1, 1), ((1, 1), (1, 1)), (1, 1), 4)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-5)
    net = nn.Conv2d(1, 6, 5, pad_mode="valid", has_bias=True)
    image = ms.Tensor(rng.standard_normal((3, 1, 12, 12)).astype(np.float32))
    grads = ms.value_and_grad(lambda t: net(t).sum(), None, net.trainable_params())(image)[1]
    weight, bias = (p.value().jax for p in net.trainable_params())
    expected = jax.grad(
        lambda w, b: (_reference(image.jax, w, (1, 1), ((0, 0), (0, 0)), (1, 1), 1)
                      + b.reshape(1, -1, 1, 1)).sum(), argnums=(0, 1)
    )(weight, bias)  # fmt: skip
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-4)


def test_exported_programs_hold_the_convolution_primitive():
    net = nn.Conv2d(1, 2, 3, pad_mode="valid")
    from cellax._serialization._onnx import _trace

    closed, _ = _trace(net, [jax.ShapeDtypeStruct((1, 1, 6, 6), jnp.float32)])
    names = {eqn.primitive.name for eqn in closed.jaxpr.eqns}
    inner = set()
    for eqn in closed.jaxpr.eqns:
        for value in eqn.params.values():
            if hasattr(value, "jaxpr"):
                inner |= {e.primitive.name for e in value.jaxpr.eqns}
    assert "conv_general_dilated" in names | inner


@pytest.mark.parametrize(
    "shape, kernel",
    [
        ((2, 3, 8, 8), (2, 2)),
        ((2, 3, 9, 7), (2, 3)),
        ((2, 3, 10), (3,)),
        ((1, 2, 4, 6, 6), (2, 2, 3)),
    ],
)
def test_tiled_max_pool_equals_the_window_max_and_its_derivatives(shape, kernel):
    # after a ReLU: windows of zeros tie, and the gradient goes to each window's first one
    x = jnp.maximum(_data(shape, 0), 0)
    ones, pads = (1,) * len(kernel), ((0, 0),) * len(kernel)
    assert cpu_kernels.tiles(kernel, kernel, ones, pads)
    low = np.array(-np.inf, np.float32)

    def reference(x):
        return pooling._window(x, low, lax.max, kernel, kernel, ones, pads)

    def tiled(x):
        return pooling._reduce_windows(x, "max", kernel, kernel, ones, pads)

    expected = reference(x)
    np.testing.assert_array_equal(tiled(x), expected)
    np.testing.assert_array_equal(jax.jit(tiled)(x), expected)
    cotangent = _data(expected.shape, 1)
    got, want = jax.vjp(tiled, x)[1](cotangent)[0], jax.vjp(reference, x)[1](cotangent)[0]
    np.testing.assert_array_equal(got, want)
    tangent = _data(shape, 2)
    np.testing.assert_array_equal(
        jax.jvp(tiled, (x,), (tangent,))[1], jax.jvp(reference, (x,), (tangent,))[1]
    )


def test_overlapping_or_padded_pools_keep_the_window_max():
    assert not cpu_kernels.tiles((3, 3), (2, 2), (1, 1), ((0, 0), (0, 0)))
    assert not cpu_kernels.tiles((2, 2), (2, 2), (1, 1), ((1, 0), (0, 0)))
    assert not cpu_kernels.tiles((2, 2), (2, 2), (2, 1), ((0, 0), (0, 0)))
    x = ms.Tensor(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4))
    out = ops.max_pool2d(x, 2, 2)  # through the layer the nn Cells call
    assert out.asnumpy().tolist() == [[[[5.0, 7.0], [13.0, 15.0]], [[21.0, 23.0], [29.0, 31.0]]]]


def test_tiled_max_pool_of_zero_size_inputs():
    empty = ms.Tensor(np.ones((2, 0, 4, 4), np.float32))
    assert ops.max_pool2d(empty, 2, 2).shape == (2, 0, 2, 2)
    grad = ms.grad(lambda x: ops.max_pool2d(x, 2, 2).sum())(
        ms.Tensor(np.ones((0, 1, 4, 4), np.float32))
    )
    assert grad.shape == (0, 1, 4, 4)
