"""The ops added for mint (ops/_impl/resample.py, ops/_impl/unpooling.py) beyond the mint goldens:
other ranks, round trips with max pooling, identity grids, gradients and errors."""

import numpy as np
import pytest

import cellax as ms
from cellax import ops


def _np_unpool(x, idx, out_spatial):
    planes = x.reshape(-1, x.shape[-1] if x.ndim == 3 else int(np.prod(x.shape[2:])))
    out = np.zeros((planes.shape[0], int(np.prod(out_spatial))), x.dtype)
    for r, (vals, ids) in enumerate(zip(planes, idx.reshape(planes.shape))):
        out[r, ids] = vals
    return out.reshape(x.shape[:2] + tuple(out_spatial))


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_max_unpool_inverts_max_pool_positions(dims):
    rng = np.random.default_rng(dims)
    shape = (2, 3) + (4,) * dims
    x = rng.permutation(np.prod(shape)).reshape(shape).astype(np.float32)
    pool = getattr(ops, f"max_pool{dims}d")
    pooled, idx = pool(ms.Tensor(x), 2, return_indices=True)
    out = getattr(ops, f"max_unpool{dims}d")(pooled, idx, 2)
    want = _np_unpool(pooled.asnumpy(), idx.asnumpy(), (4,) * dims)
    np.testing.assert_array_equal(out.asnumpy(), want)
    kept = out.asnumpy() != 0
    np.testing.assert_array_equal(out.asnumpy()[kept], x[kept])  # values back at their spots


def test_max_unpool_unbatched_output_size_and_errors():
    x = ms.Tensor(np.array([[[2.0, 5.0]]], np.float32))
    idx = ms.Tensor(np.array([[[1, 4]]], np.int64))
    out = ops.max_unpool1d(x[0], idx[0], 2, output_size=(5,))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 2, 0, 0, 5]])
    with pytest.raises(ValueError):
        ops.max_unpool1d(x, idx, 2, output_size=(9,))
    with pytest.raises(ValueError):
        ops.max_unpool2d(x[0], idx[0], 2)  # 2-D: neither (C, H, W) nor (N, C, H, W)


@pytest.mark.parametrize("dims", [2, 3])
def test_grid_sample_identity_grid_reproduces_input(dims):
    rng = np.random.default_rng(0)
    spatial = (3, 4, 5)[-dims:]
    x = rng.standard_normal((2, 3) + spatial).astype(np.float32)
    axes = [np.linspace(-1, 1, n) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")
    grid = np.stack(mesh[::-1], -1)[None].repeat(2, 0).astype(np.float32)  # (x, y[, z]) order
    for mode in ("bilinear", "nearest"):
        out = ops.grid_sample(ms.Tensor(x), ms.Tensor(grid), mode=mode, align_corners=True)
        np.testing.assert_allclose(out.asnumpy(), x, rtol=1e-5, atol=1e-5)


def test_grid_sample_gradients_match_finite_differences():
    rng = np.random.default_rng(1)
    x = ms.Tensor(rng.standard_normal((1, 2, 3, 3)).astype(np.float32))
    grid = rng.uniform(-0.9, 0.9, (1, 2, 2, 2)).astype(np.float32)

    def loss(g):
        return ops.sum(ops.grid_sample(x, g, padding_mode="border") ** 2)

    grad = ms.grad(loss)(ms.Tensor(grid)).asnumpy()
    eps = 1e-3
    for pos in [(0, 0, 0, 0), (0, 1, 1, 1), (0, 0, 1, 0)]:
        up, down = grid.copy(), grid.copy()
        up[pos] += eps
        down[pos] -= eps
        numeric = float(loss(ms.Tensor(up)).asnumpy()) - float(loss(ms.Tensor(down)).asnumpy())
        numeric /= 2 * eps
        assert grad[pos] == pytest.approx(numeric, rel=2e-2, abs=2e-3)


def test_grid_sample_errors():
    x = ms.Tensor(np.zeros((1, 1, 2, 2), np.float32))
    with pytest.raises(ValueError, match="mode"):
        ops.grid_sample(x, ms.Tensor(np.zeros((1, 1, 1, 2), np.float32)), mode="bicubic")
    with pytest.raises(ValueError, match="grid"):
        ops.grid_sample(x, ms.Tensor(np.zeros((1, 1, 1, 3), np.float32)))
    with pytest.raises(ValueError, match="padding_mode"):
        ops.grid_sample(x, ms.Tensor(np.zeros((1, 1, 1, 2), np.float32)), padding_mode="wrap")
