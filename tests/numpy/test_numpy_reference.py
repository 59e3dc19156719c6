"""cellax.numpy against NumPy on random inputs (shapes and axes MindSpore goldens do not cover)."""

import numpy as np
import pytest

import cellax as ms
import cellax.numpy as mnp

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4, 5)).astype(np.float32)
B = RNG.standard_normal((5, 4, 2)).astype(np.float32)
T = ms.Tensor

CASES = [
    ("tensordot_pairs", lambda m, a, b: m.tensordot(a, b, ((1, 2), (1, 0)))),
    ("roll_multi", lambda m, a, b: m.roll(a, (1, -2), (0, 2))),
    ("tile", lambda m, a, b: m.tile(a, (2, 1, 1))),
    ("split_indices", lambda m, a, b: m.split(a, [1, 3], axis=1)),
    ("moveaxis_many", lambda m, a, b: m.moveaxis(a, (0, 1), (2, 0))),
    ("pad_symmetric", lambda m, a, b: m.pad(a, ((0, 1), (2, 0), (1, 1)), mode="symmetric")),
    ("pad_mean", lambda m, a, b: m.pad(a, 1, mode="mean")),
    ("cumsum_axis", lambda m, a, b: m.cumsum(a, axis=2)),
    ("std_axes", lambda m, a, b: m.std(a, axis=(0, 2), ddof=1)),
    ("amax_keepdims", lambda m, a, b: m.amax(a, axis=1, keepdims=True)),
    ("matmul_batched", lambda m, a, b: m.matmul(a, m.reshape(b[:, :1, :], (5, 2)))),
    ("take_along_axis", lambda m, a, b: m.take_along_axis(a, m.argsort_like(a), 2)),
    ("rot90_axes", lambda m, a, b: m.rot90(a, 3, (1, 2))),
    ("diagonal_offset", lambda m, a, b: m.diagonal(a, 1, 1, 2)),
    ("cov_rowvar", lambda m, a, b: m.cov(a[0], rowvar=False)),
    ("histogram", lambda m, a, b: m.histogram(a, bins=7)),
    ("convolve_valid", lambda m, a, b: m.convolve(a[0, 0], b[0, 0], "valid")),
    ("linspace_array", lambda m, a, b: m.linspace(a[0, 0, :2], b[0, 0], 4, axis=1)),
]


def _np_argsort(a):
    return np.argsort(a, axis=2)


class _NumPy:
    """NumPy with the two helpers the cases need."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def argsort_like(a):
        return _np_argsort(a)


class _Cellax:
    def __getattr__(self, name):
        return getattr(mnp, name)

    @staticmethod
    def argsort_like(a):
        return T(_np_argsort(a.asnumpy()).astype(np.int32))


def _as_list(result):
    if isinstance(result, (tuple, list)):
        return [np.asarray(r.asnumpy() if isinstance(r, ms.Tensor) else r) for r in result]
    return [result.asnumpy() if isinstance(result, ms.Tensor) else np.asarray(result)]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy(name, fn):
    got = _as_list(fn(_Cellax(), T(A), T(B)))
    want = _as_list(fn(_NumPy(), A, B))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape, name
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5, err_msg=name)
