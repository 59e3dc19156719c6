import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get, ids, params, set_params
except ImportError:
    from _goldens import cases, get, ids, params, set_params

CONV = cases("conv")


@pytest.mark.parametrize("case", CONV, ids=ids(CONV))
def test_conv_matches_mindspore(case):
    net = getattr(nn, case["cls"])(**case["kwargs"])
    set_params(net, params(case))
    out = net(ms.Tensor(get(case, "x")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-4, atol=1e-5)
    assert repr(net).split(", weight_init")[0] == case["repr"]


def test_conv2d_repr_and_defaults():
    net = nn.Conv2d(12, 24, 4, has_bias=False, weight_init="normal")
    assert repr(net) == (
        "Conv2d(input_channels=12, output_channels=24, kernel_size=(4, 4), stride=(1, 1), "
        "pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, "
        "weight_init=normal, bias_init=None, format=NCHW)"
    )
    default = nn.Conv2d(3, 8, 3)
    assert default.bias is None and default.weight.shape == (8, 3, 3, 3)
    bound = np.sqrt(6 / ((1 + 5) * 27))  # HeUniform(sqrt(5)) on fan_in = 27
    w = default.weight.asnumpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    biased = nn.Conv2d(3, 8, 3, has_bias=True)
    assert np.abs(biased.bias.asnumpy()).max() <= 1 / np.sqrt(27)
    assert [p.name for p in biased.get_parameters()] == ["weight", "bias"]


def test_conv1d_weight_layout():
    net = nn.Conv1d(2, 3, 4)
    assert net.weight.shape == (3, 2, 1, 4)
    assert nn.Conv1dTranspose(2, 3, 4).weight.shape == (2, 3, 1, 4)


@pytest.mark.parametrize("pad_mode", ["same", "valid", "pad"])
def test_conv2d_functional_matches_lax(pad_mode):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 6, 5)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2)).astype(np.float32)
    out = ops.conv2d(
        ms.Tensor(x), ms.Tensor(w), None, 2, pad_mode, 1 if pad_mode == "pad" else 0, 1, 2
    )
    pads = {"same": "SAME", "valid": "VALID", "pad": [(1, 1), (1, 1)]}[pad_mode]
    ref = jax.lax.conv_general_dilated(
        x, w, (2, 2), pads, feature_group_count=2, dimension_numbers=("NCHW", "OIHW", "NCHW")
    )
    np.testing.assert_allclose(out.asnumpy(), np.asarray(ref), rtol=1e-5, atol=1e-5)


def test_conv_transpose_is_adjoint_of_conv():
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.standard_normal((1, 3, 7, 6)), jnp.float32)
    w = jnp.asarray(rng.standard_normal((4, 3, 3, 3)), jnp.float32)
    y = jnp.asarray(rng.standard_normal((1, 4, 4, 3)), jnp.float32)

    def conv(inp):
        return ops.conv2d(ms.Tensor(inp), ms.Tensor(w), None, 2, "pad", 1)._value

    _, vjp = jax.vjp(conv, x)
    expected = vjp(y)[0]
    out = ops.conv_transpose2d(
        ms.Tensor(y), ms.Tensor(w), stride=2, padding=1, output_padding=(0, 1)
    )
    np.testing.assert_allclose(out.asnumpy(), np.asarray(expected), rtol=1e-4, atol=1e-5)


def test_conv_grad_matches_jax():
    net = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True)
    x = ms.Tensor(np.random.default_rng(3).standard_normal((2, 2, 4, 4)).astype(np.float32))

    def loss(inp):
        return wrap(jnp.sum(jnp.square(net(inp)._value)))

    grads = ms.grad(loss, grad_position=None, weights=net.trainable_params())(x)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()

    def ref(w, b):
        out = jax.lax.conv_general_dilated(
            x._value, w, (1, 1), [(1, 1), (1, 1)], dimension_numbers=("NCHW", "OIHW", "NCHW")
        )
        return jnp.sum((out + b[None, :, None, None]) ** 2)

    gw, gb = jax.grad(ref, (0, 1))(w, b)
    np.testing.assert_allclose(grads[0].asnumpy(), gw, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(grads[1].asnumpy(), gb, rtol=1e-4, atol=1e-4)


def test_conv_errors():
    net = nn.Conv2d(3, 4, 3)
    with pytest.raises(
        ValueError,
        match=r"For 'Conv2d', 'x' must have shape \(N, 3, \.\.\.\).*"
        r"in_channels=3.*x.shape=\(1, 5, 4, 4\)",
    ):
        net(ops.ones((1, 5, 4, 4)))
    with pytest.raises(ValueError, match="For 'Conv2d', 'pad_mode' must be one of"):
        nn.Conv2d(3, 4, 3, pad_mode="full")
    with pytest.raises(ValueError, match="For 'Conv1d', 'padding' must be 0 when 'pad_mode'"):
        nn.Conv1d(3, 4, 3, padding=1)
    with pytest.raises(ValueError, match="divisible by 'group'"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(ValueError, match="For 'conv2d', the channel dimension of 'input'"):
        ops.conv2d(ops.ones((1, 2, 4, 4)), ops.ones((1, 3, 3, 3)))
    with pytest.raises(TypeError, match="For 'Conv2d', 'kernel_size' must be an int or a tuple"):
        nn.Conv2d(3, 4, (3, 3, 3))
