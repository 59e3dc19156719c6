"""Activations, softmax family and dropout vs references and MindSpore goldens."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.special as sp
from jax.test_util import check_grads

import cellax as ms
from cellax import ops

from ._common import assert_golden, rng

T = ms.Tensor
A = T(np.array([-1.5, -0.3, 0.0, 0.7, 2.0], np.float32))

GOLDEN = {
    "gelu": lambda: ops.gelu(A),
    "gelu_tanh": lambda: ops.gelu(A, approximate="tanh"),
    "softplus": lambda: ops.softplus(T([1.0, 30.0, -2.0])),
    "leaky_relu": lambda: ops.leaky_relu(A),
    "hardswish": lambda: ops.hardswish(A),
    "hardsigmoid": lambda: ops.hardsigmoid(A),
    "selu": lambda: ops.selu(A),
    "celu": lambda: ops.celu(A),
    "mish": lambda: ops.mish(A),
    "softsign": lambda: ops.softsign(A),
    "logsigmoid": lambda: ops.logsigmoid(A),
    "silu": lambda: ops.silu(A),
    "relu6": lambda: ops.relu6(T([-1.0, 3.0, 7.0])),
    "hardtanh": lambda: ops.hardtanh(A),
    "softmin": lambda: ops.softmin(T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32)), 1),
    "glu": lambda: ops.glu(T([[1.0, 2.0, -1.0, 0.5]])),
    "prelu": lambda: ops.prelu(A, T([0.25], ms.float32)),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_activation_goldens(name):
    assert_golden(name, GOLDEN[name]())


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_family(axis):
    x = rng(0).normal(size=(3, 4)).astype(np.float32)
    np.testing.assert_allclose(ops.softmax(T(x), axis).asnumpy(), sp.softmax(x, axis), rtol=1e-5)
    np.testing.assert_allclose(
        ops.log_softmax(T(x), axis).asnumpy(), sp.log_softmax(x, axis), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(ops.softmin(T(x), axis).asnumpy(), sp.softmax(-x, axis), rtol=1e-5)
    with pytest.raises(TypeError, match="'softmax'"):  # MindSpore takes float Tensors only
        ops.softmax(T([1, 2]))
    assert ops.softmax(T(x), dtype=ms.float64).dtype == ms.float64


@pytest.mark.parametrize(
    "fn",
    [
        ops.relu,
        ops.relu6,
        ops.leaky_relu,
        ops.elu,
        ops.selu,
        ops.celu,
        ops.gelu,
        ops.silu,
        ops.mish,
        ops.softplus,
        ops.softsign,
        ops.hardswish,
        ops.hardsigmoid,
        ops.hardtanh,
        ops.sigmoid,
        ops.logsigmoid,
        ops.tanhshrink,
        ops.softmax,
        ops.log_softmax,
        ops.glu,
        lambda x: ops.gelu(x, "tanh"),
        lambda x: ops.prelu(x, T([0.1, 0.2, 0.3, 0.4])),
    ],
)
def test_activation_gradients_and_dtypes(fn):
    x = rng(1).normal(size=(2, 4)) + 0.05
    assert fn(T(x.astype(np.float32))).dtype == ms.float32
    assert fn(T(x.astype(np.float16))).dtype == ms.float16
    check_grads(
        jax.jit(lambda v: fn(T(v)).jax),
        (jnp.asarray(x),),
        order=1,
        modes=("rev",),
        atol=1e-3,
        rtol=1e-3,
    )


def test_dropout_statistics_and_modes():
    ms.set_seed(3)
    x = ops.ones((200, 50))
    y = ops.dropout(x, p=0.3)
    values = np.unique(y.asnumpy())
    np.testing.assert_allclose(values, [0.0, 1 / 0.7], rtol=1e-6)
    assert abs((y.asnumpy() == 0).mean() - 0.3) < 0.02
    assert ops.dropout(x, p=0.3, training=False) is not x
    np.testing.assert_array_equal(ops.dropout(x, p=0.3, training=False).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.dropout(x, p=1.0).asnumpy(), 0)
    y2 = ops.dropout2d(T(np.ones((4, 8, 3, 3), np.float32)), 0.5).asnumpy()
    assert np.all((y2 == 0).all(axis=(2, 3)) | (y2 != 0).all(axis=(2, 3)))


def test_dropout_under_jit_draws_fresh_masks():
    step = ms.jit(lambda v: ops.dropout(v, p=0.5))
    x = ops.ones((64,))
    a, b = step(x).asnumpy(), step(x).asnumpy()
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_dropout_bad_p(p):
    with pytest.raises(
        RuntimeError,
        match=f"For 'dropout', the drop probability 'p' must be in "
        rf"\[0, 1\], but got {p}",
    ):
        ops.dropout(ops.ones(3), p=p)
    with pytest.raises(ValueError, match="For 'Dropout', 'keep_prob' must be in"):
        ops.Dropout(keep_prob=0.0)(ops.ones(3))


def test_activation_errors():
    with pytest.raises(ValueError, match="For 'gelu', 'approximate' must be 'none' or 'tanh'"):
        ops.gelu(A, approximate="foo")
    with pytest.raises(ValueError, match=r"For 'softmax', 'axis' must be in range \[-1, 1\)"):
        ops.softmax(A, 3)
    with pytest.raises(ValueError, match="For 'glu', the size of dimension 0 must be even"):
        ops.glu(A)
    with pytest.raises(ValueError, match="For 'bias_add', 'bias' must be 1-D"):
        ops.bias_add(ops.ones((2, 3)), ops.ones(2))


def test_jax_jit_on_activations():
    out = jax.jit(lambda v: ops.gelu(T(v)).jax + ops.softmax(T(v)).jax)(A.jax)
    np.testing.assert_allclose(out, ops.gelu(A).asnumpy() + ops.softmax(A).asnumpy(), rtol=1e-6)
