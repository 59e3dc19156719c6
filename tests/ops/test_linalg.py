"""Linear algebra ops vs NumPy, goldens for MindSpore-specific ones, gradients and errors."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import cellax as ms
from cellax import ops

from ._common import assert_golden, rng

T = ms.Tensor


def _m(*shape, seed=0):
    return rng(seed).normal(size=shape).astype(np.float32)


@pytest.mark.parametrize(
    "ours, ref, shapes",
    [
        (ops.matmul, np.matmul, [(2, 3, 4), (4, 5)]),
        (ops.matmul, np.matmul, [(3,), (3, 2)]),
        (ops.bmm, np.matmul, [(2, 3, 4), (2, 4, 5)]),
        (ops.mm, np.matmul, [(3, 4), (4, 2)]),
        (ops.mv, np.matmul, [(3, 4), (4,)]),
        (ops.dot, np.dot, [(2, 3, 4), (5, 4, 2)]),
        (ops.inner, np.inner, [(2, 3), (4, 3)]),
        (ops.outer, np.outer, [(3,), (4,)]),
        (ops.kron, np.kron, [(2, 2), (2, 3)]),
        (
            lambda a, b: ops.tensor_dot(a, b, ((1,), (0,))),
            lambda a, b: np.tensordot(a, b, 1),
            [(2, 3), (3, 4)],
        ),
        (
            lambda a, b: ops.einsum("bij,bjk->bik", a, b),
            lambda a, b: np.einsum("bij,bjk->bik", a, b),
            [(2, 3, 4), (2, 4, 2)],
        ),
        (
            lambda a, b: ops.addmm(a[:, :2], a, b, beta=0.5, alpha=2),
            lambda a, b: 0.5 * a[:, :2] + 2 * a @ b,
            [(3, 4), (4, 2)],
        ),
        (
            lambda a, b: ops.baddbmm(ops.ones((2, 3, 2)), a, b, 2, 3),
            lambda a, b: 2 + 3 * a @ b,
            [(2, 3, 4), (2, 4, 2)],
        ),
        (
            lambda a, b: ops.batch_dot(a, b),
            lambda a, b: np.einsum("bij,bjk->bik", a, b),
            [(2, 3, 4), (2, 4, 5)],
        ),
        (
            lambda a, b: ops.cdist(a, b),
            lambda a, b: np.linalg.norm(a[:, None] - b[None], axis=-1),
            [(3, 2), (4, 2)],
        ),
    ],
)
def test_products_match_numpy(ours, ref, shapes):
    arrays = [_m(*s, seed=i) for i, s in enumerate(shapes)]
    got = ours(*[T(a) for a in arrays])
    expected = ref(*arrays)
    assert got.shape == expected.shape and got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_decompositions_and_inverse():
    a = _m(3, 3) + 3 * np.eye(3, dtype=np.float32)
    np.testing.assert_allclose(ops.det(T(a)).asnumpy(), np.linalg.det(a), rtol=1e-4)
    np.testing.assert_allclose(ops.inverse(T(a)).asnumpy(), np.linalg.inv(a), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        ops.matrix_power(T(a), 3).asnumpy(), np.linalg.matrix_power(a, 3), rtol=1e-4
    )
    spd = a @ a.T
    lower = ops.cholesky(T(spd)).asnumpy()
    np.testing.assert_allclose(lower @ lower.T, spd, rtol=1e-4, atol=1e-4)
    s, u, v = ops.svd(T(a))
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, a, atol=1e-4)
    q, r = ops.qr(T(a))
    np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), a, atol=1e-4)
    sign, logabs = ops.slogdet(T(a))
    np.testing.assert_allclose(
        sign.asnumpy() * np.exp(logabs.asnumpy()), np.linalg.det(a), rtol=1e-4
    )


@pytest.mark.parametrize(
    "ord_, dim",
    [
        (None, None),
        (None, 1),
        (1, 0),
        (2, (0, 1)),
        ("fro", (0, 1)),
        (float("inf"), 1),
        ("nuc", (0, 1)),
    ],
)
def test_norm_matches_numpy(ord_, dim):
    x = _m(3, 4)
    got = ops.norm(T(x), ord_, dim)
    expected = np.linalg.norm(x.reshape(-1) if dim is None else x, ord_, dim)
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(
        ops.vector_norm(T(x), 3, 1).asnumpy(), np.sum(np.abs(x) ** 3, 1) ** (1 / 3), rtol=1e-5
    )


def test_goldens():
    X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))
    assert_golden("batch_dot_2d", ops.batch_dot(X, X))
    assert_golden("norm_fro", ops.norm(X))
    assert_golden("norm_dim0", ops.norm(X, dim=0))
    assert_golden("norm_ord1_vec", ops.norm(T([3.0, -4.0]), 1))


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: ops.matmul(a, a.T),
        lambda a: ops.det(a),
        lambda a: ops.inverse(a),
        lambda a: ops.norm(a),
        lambda a: ops.norm(a, dim=1),
        lambda a: ops.einsum("ij,jk->ik", a, a),
        lambda a: ops.batch_dot(a, a),
        lambda a: ops.addmm(a, a, a),
    ],
)
def test_gradients(fn):
    a = jnp.asarray(_m(3, 3, seed=5) + 2 * np.eye(3), jnp.float64)
    check_grads(
        jax.jit(lambda v: fn(T(v)).jax), (a,), order=1, modes=("rev",), atol=1e-3, rtol=1e-3
    )


def test_errors():
    with pytest.raises(ValueError, match="For 'dot', the inputs must have dimension >= 2"):
        ops.dot(T([1.0, 2.0]), T([1.0, 2.0]))
    with pytest.raises(ValueError, match="For 'bmm', the contracted dimensions must match"):
        ops.bmm(ops.ones((2, 3, 4)), ops.ones((2, 3, 4)))
    with pytest.raises(ValueError, match="For 'det', 'input' must be a"):
        ops.det(ops.ones((2, 3)))
    with pytest.raises(ValueError, match="For 'einsum', the equation 'ij->k'"):
        ops.einsum("ij->k", ops.ones((2, 2)))
    with pytest.raises(TypeError, match="For 'matrix_power', 'n' must be an int"):
        ops.matrix_power(ops.eye(2), 1.5)
    with pytest.raises(ValueError, match="For 'mm', 'input' must be 2-D"):
        ops.mm(ops.ones(3), ops.ones((3, 3)))
