"""Issue 23: ops of MindSpore 2.10's list whose MindSpore CPU build cannot run them (so no
golden: checked against NumPy), and the new families under jit and grad."""

import numpy as np
import pytest

import cellax as ms
from cellax import ops

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_ops_mindspore_cpu_cannot_run():
    cast = ops.type_as(ms.Tensor([1.5, -2.5]), ms.Tensor([1, 2]))
    assert cast.dtype == ms.int64 and cast.asnumpy().tolist() == [1, -2]
    assert ops.scalar_to_array(2).dtype == ms.int64
    assert ops.scalar_to_array(2.5).dtype == ms.float32
    with pytest.raises(TypeError, match="For 'scalar_to_array'"):
        ops.scalar_to_array(True)
    total = ops.accumulate_n([ms.Tensor(X), ms.Tensor(X), ms.Tensor(X)])
    np.testing.assert_array_equal(total.asnumpy(), 3 * X)
    with pytest.raises(ValueError, match="one shape"):
        ops.accumulate_n([ms.Tensor(X), ms.Tensor([1.0])])
    out = ops.einsum_ext("ij,kj->ik", ms.Tensor(X), ms.Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), X @ X.T)


def test_new_ops_under_jit_match_eager():
    ids = ms.Tensor(np.array([1, 0], np.int32))
    band = ms.Tensor(np.array([-1, 0], np.int32))

    def run(x):
        return (
            ops.unsorted_segment_sum(x, ids, 2),
            ops.matrix_diag_part(x, band, ms.Tensor(0.0)),
            ops.real(ops.fft(x)),
            ops.space_to_batch_nd(x.reshape(1, 1, 2, 3), (1, 3), ((0, 0), (0, 0))),
            ops.clip_by_norm(x, 1.0),
        )

    x = ms.Tensor(X)
    for got, want in zip(ms.jit(run)(x), run(x)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6, atol=1e-6)


def test_new_ops_are_differentiable():
    x = ms.Tensor(X)
    ids = ms.Tensor(np.array([1, 1], np.int32))
    grad = ms.grad(lambda t: ops.unsorted_segment_sum(t * t, ids, 2).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), 2 * X)
    grad = ms.grad(lambda t: ops.matrix_diag(t, k=1).sum())(ms.Tensor([1.0, 2.0]))
    assert grad.asnumpy().tolist() == [1.0, 1.0]
    grad = ms.grad(lambda t: ops.irfft(ops.rfft(t), n=3).sum())(ms.Tensor(X[0]))
    np.testing.assert_allclose(grad.asnumpy(), np.ones(3), rtol=1e-5)


def test_transforms_commit_state_once_like_a_forward_call():
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    ref, net = ms.nn.BatchNorm1d(2), ms.nn.BatchNorm1d(2)
    ref.set_train()
    net.set_train()
    want = ref(x)
    out, tangent = ops.jvp(net, x, ms.Tensor(np.ones((4, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), want.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(
        net.moving_mean.asnumpy(), ref.moving_mean.asnumpy(), rtol=1e-6
    )  # updated once, with concrete values
    assert tangent.shape == (4, 2)
    out, vjp_fn = ops.vjp(net, x)
    (grad,) = vjp_fn(ms.Tensor(np.ones((4, 2), np.float32)))
    assert grad.shape == (4, 2) and np.abs(grad.asnumpy()).max() < 1e-4  # BN: sum of grads 0


def test_jacobians_agree_and_reject_bad_inputs():
    def f(a):
        return ops.sin(a) * a

    x = ms.Tensor([0.5, 1.5])
    fwd, rev = ops.jacfwd(f)(x), ops.jacrev(f)(x)
    np.testing.assert_allclose(fwd.asnumpy(), rev.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(
        np.diag(fwd.asnumpy()),
        np.sin([0.5, 1.5]) + np.array([0.5, 1.5]) * np.cos([0.5, 1.5]),
        rtol=1e-6,
    )
    with pytest.raises(TypeError, match="For 'jvp', 'inputs' must be a Tensor"):
        ops.jvp(f, [1.0], x)
    with pytest.raises(ValueError, match="For 'jvp', 'v' must match"):
        ops.jvp(f, x, ms.Tensor([1.0]))
    with pytest.raises(ValueError, match="For 'derivative', 'order'"):
        ops.derivative(f, x, 0)


def test_ormqr_multiplies_by_the_geqrf_q():
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    packed, tau = ops.geqrf(ms.Tensor(a))
    q_full = ops.ormqr(packed, tau, ms.Tensor(np.eye(3, dtype=np.float32))).asnumpy()
    np.testing.assert_allclose(q_full.T @ q_full, np.eye(3), atol=1e-5)
    r = np.triu(packed.asnumpy())[:2]
    np.testing.assert_allclose(q_full[:, :2] @ r, a, atol=1e-4)  # A = Q R
    other = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = ops.ormqr(packed, tau, ms.Tensor(other), left=False, transpose=True).asnumpy()
    np.testing.assert_allclose(got, other @ q_full.T, atol=1e-4)


def test_bessel_functions_run_under_jit_and_grad():
    x = ms.Tensor(np.array([0.5, 2.0, 7.0], np.float32))
    for name, derivative in (("bessel_j0", "bessel_j1"), ("bessel_k0", "bessel_k1")):
        fn = getattr(ops, name)
        np.testing.assert_allclose(ms.jit(fn)(x).asnumpy(), fn(x).asnumpy(), rtol=1e-6)
        grad = ms.grad(lambda t, f=fn: f(t).sum())(x)
        np.testing.assert_allclose(
            grad.asnumpy(), -getattr(ops, derivative)(x).asnumpy(), rtol=1e-5
        )
    eps = 1e-3
    for fn in (ops.bessel_j1, ops.bessel_y1, ops.bessel_k1e):
        grad = ms.grad(lambda t, f=fn: f(t).sum())(x).asnumpy()
        numeric = (fn(x + eps).asnumpy() - fn(x - eps).asnumpy()) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=1e-3)


def test_trailing_underscore_ops_overwrite_their_tensor():
    x = ms.Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
    assert ops.clamp_(x, -1.0, 1.0) is x
    assert x.asnumpy().tolist() == [-1.0, 0.5, 1.0]
    assert ops.zero_(x) is x and not x.asnumpy().any()
    y = ms.Tensor(np.array([0.0, 1.0], np.float32))
    ops.inplace_sigmoid(y)
    np.testing.assert_allclose(y.asnumpy(), 1 / (1 + np.exp(-np.array([0.0, 1.0]))), rtol=1e-6)
    z = ms.Tensor(np.zeros((2, 3), np.float32))
    ops.put_(z, ms.Tensor(np.array([0, 4, 4])), ms.Tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert z.asnumpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 5.0, 0.0]]
    p = ms.Parameter(ms.Tensor(np.zeros(1000, np.float32)), name="p")
    ms.set_seed(3)
    assert ops.normal_(p, 5.0, 0.5) is p
    assert abs(p.asnumpy().mean() - 5.0) < 0.1 and abs(p.asnumpy().std() - 0.5) < 0.1
    ops.exponential_(p, 2.0)
    assert p.asnumpy().min() >= 0 and abs(p.asnumpy().mean() - 0.5) < 0.1
    gen_a, gen_b = ms.Generator(), ms.Generator()
    gen_a.manual_seed(7)
    gen_b.manual_seed(7)
    a = ops.uniform_(ms.Tensor(np.zeros(4, np.float32)), generator=gen_a).asnumpy()
    b = ops.uniform_(ms.Tensor(np.zeros(4, np.float32)), generator=gen_b).asnumpy()
    np.testing.assert_array_equal(a, b)


def test_margin_losses_against_numpy():
    x = np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.5, 0.1, 0.3]], np.float32)
    y = np.array([[3, 0, -1, 1], [1, 2, -1, 0]], np.int32)
    want = []
    for row, tgt in zip(x, y):
        targets = list(tgt[: list(tgt).index(-1)])
        total = sum(
            max(0.0, 1 - (row[j] - row[i])) for j in targets for i in range(4) if i not in targets
        )
        want.append(total / 4)
    got = ops.multilabel_margin_loss(ms.Tensor(x), ms.Tensor(y), reduction="none").asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    a, p, n = (
        np.random.default_rng(i).standard_normal((3, 4)).astype(np.float32) for i in range(3)
    )

    def dist(u, v, order):
        return (np.abs(u - v + 1e-6) ** order).sum(-1) ** (1 / order)

    want = np.maximum(dist(a, p, 1) - np.minimum(dist(a, n, 1), dist(p, n, 1)) + 0.5, 0)
    got = ops.triplet_margin_loss(
        ms.Tensor(a), ms.Tensor(p), ms.Tensor(n), margin=0.5, p=1, swap=True, reduction="none"
    )
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)


def test_fused_layers_against_numpy():
    rng = np.random.default_rng(0)
    x1, x2 = (rng.standard_normal((2, 3, 8)).astype(np.float32) for _ in range(2))
    gamma, beta = (
        rng.standard_normal(8).astype(np.float32),
        rng.standard_normal(8).astype(np.float32),
    )
    total = x1 + x2
    rstd = 1 / np.sqrt((total**2).mean(-1, keepdims=True) + 1e-6)
    y, got_rstd, got_sum = ops.add_rms_norm(ms.Tensor(x1), ms.Tensor(x2), ms.Tensor(gamma))
    np.testing.assert_allclose(y.asnumpy(), total * rstd * gamma, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_rstd.asnumpy(), rstd, rtol=1e-5)
    np.testing.assert_allclose(got_sum.asnumpy(), total, rtol=1e-6)
    mean, var = total.mean(-1, keepdims=True), total.var(-1, keepdims=True)
    want = (total - mean) / np.sqrt(var + 1e-5) * gamma + beta
    y = ops.add_layer_norm(ms.Tensor(x1), ms.Tensor(x2), ms.Tensor(gamma), ms.Tensor(beta))[0]
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-4, atol=1e-5)
    cos, sin = np.cos(x2), np.sin(x2)
    half = np.concatenate([-x1[..., 4:], x1[..., :4]], -1)
    got = ops.rotary_position_embedding(ms.Tensor(x1), ms.Tensor(cos), ms.Tensor(sin), 0)
    np.testing.assert_allclose(got.asnumpy(), x1 * cos + half * sin, rtol=1e-5, atol=1e-6)
    pairs = np.stack([-x1[..., 1::2], x1[..., 0::2]], -1).reshape(x1.shape)
    got = ops.rotary_position_embedding(ms.Tensor(x1), ms.Tensor(cos), ms.Tensor(sin), 1)
    np.testing.assert_allclose(got.asnumpy(), x1 * cos + pairs * sin, rtol=1e-5, atol=1e-6)


def test_random_draws_follow_their_distributions():
    shape = ms.Tensor(np.array([4000], np.int32))
    gamma = ops.random_gamma(shape, ms.Tensor(np.array([2.0, 5.0], np.float32)), seed=3).asnumpy()
    np.testing.assert_allclose(gamma.mean(0), [2.0, 5.0], rtol=0.08)
    counts = ops.random_poisson(shape, ms.Tensor(np.array([3.0], np.float32)), seed=4).asnumpy()
    assert abs(counts.mean() - 3.0) < 0.2 and (counts == np.round(counts)).all()
    draws = ops.multinomial_with_replacement(
        ms.Tensor(np.array([0.2, 0.8], np.float32)), 5, 0, 2000, True
    ).asnumpy()
    assert abs(draws.mean() - 0.8) < 0.05
    rows = ops.multinomial_with_replacement(
        ms.Tensor(np.array([[1.0, 1.0, 1.0]], np.float32)), 5, 0, 3, False
    ).asnumpy()
    assert sorted(rows[0].tolist()) == [0, 1, 2]  # without replacement: each class once


def test_identity_passes_any_value():
    # MindSpore 2.10's ops.identity / ops.functional.identity is Prim[identity]: a tuple of
    # gradients passes unchanged (mindyolo's single-device grad reducer), eagerly and under jit
    x = ms.Tensor(np.ones(3, np.float32))
    assert ms.ops.functional.identity is ms.ops.identity
    out = ms.ops.functional.identity((x, x))
    assert isinstance(out, tuple) and out[0] is x and out[1] is x
    assert ms.ops.identity(3) == 3 and ms.ops.identity(None) is None
    out = ms.jit(lambda a: ms.ops.functional.identity((a, a * 2)))(x)
    assert isinstance(out, tuple) and out[1].asnumpy().tolist() == [2.0, 2.0, 2.0]
