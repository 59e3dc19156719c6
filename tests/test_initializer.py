"""Initializers: names/errors from MindSpore 2.10 goldens, distributions by statistics."""

import math

import numpy as np
import pytest

import cellax as ms
from cellax.common import initializer as init

from ._goldens import load_module

fc = load_module("foundation_cases")

CASES = fc.load()
BASE = fc.make_namespace(ms, "cellax")
INIT = fc.selected(CASES, list(fc.INIT))
SHAPE = (200, 300)  # fan_in 300, fan_out 200


@pytest.mark.parametrize("key,case", INIT, ids=[k for k, _ in INIT])
def test_initializer_matches_mindspore(key, case):
    fc.check(case, ms, BASE)


def _sample(obj, shape=SHAPE):
    return init.initializer(obj, shape, ms.float32).asnumpy().astype(np.float64)


@pytest.mark.parametrize(
    "obj,mean,std,bound",
    [
        (init.Normal(0.5, 1.0), 1.0, 0.5, None),
        (init.Uniform(0.2), 0.0, 0.2 / math.sqrt(3), 0.2),
        (init.TruncatedNormal(0.1, 0.0, -0.1, 0.1), 0.0, None, 0.1),
        (init.XavierUniform(), 0.0, math.sqrt(2.0 / 500), math.sqrt(6.0 / 500)),
        (init.XavierNormal(), 0.0, math.sqrt(2.0 / 500), None),
        (init.HeUniform(), 0.0, math.sqrt(2.0 / 300), math.sqrt(6.0 / 300)),
        (init.HeNormal(mode="fan_out", nonlinearity="relu"), 0.0, math.sqrt(2.0 / 200), None),
        ("normal", 0.0, 0.01, None),
        ("uniform", 0.0, 0.07 / math.sqrt(3), 0.07),
        ("truncatedNormal", 0.0, 0.01, 2.0),  # a, b are absolute bounds
    ],
)
def test_distribution_statistics(obj, mean, std, bound):
    a = _sample(obj)
    scale = std if std is not None else bound
    assert abs(a.mean() - mean) < 0.05 * scale + 1e-9
    if std is not None:
        assert abs(a.std() - std) < 0.05 * std
    if bound is not None:
        assert np.abs(a - mean).max() <= bound * (1 + 1e-6)


def test_deterministic_ones():
    np.testing.assert_array_equal(_sample("ones", (2, 3)), np.ones((2, 3)))
    np.testing.assert_array_equal(_sample(init.Constant(2.5), (3,)), np.full(3, 2.5))
    np.testing.assert_array_equal(_sample(init.Identity(), (2, 3)), np.eye(2, 3))
    a = _sample(init.Orthogonal(gain=2.0), (4, 4))
    np.testing.assert_allclose(a @ a.T, 4 * np.eye(4), atol=1e-4)


def test_seed_reproducibility():
    ms.set_seed(5)
    a = _sample("normal", (3, 4))
    ms.set_seed(5)
    np.testing.assert_array_equal(a, _sample("normal", (3, 4)))
    assert not np.array_equal(a, _sample("normal", (3, 4)))


def test_sparse_zero_fraction():
    a = _sample(init.Sparse(0.25, 1.0), (8, 5))
    assert all((a[:, j] == 0).sum() == 2 for j in range(5))


@pytest.mark.parametrize(
    "args,error,match",
    [
        (("foo", [2]), ValueError, "'init' must name an initializer"),
        (("ones", [0, 2]), ValueError, "'shape' must be a positive int"),
        (("ones", [-1, 2]), ValueError, "'shape' must be a positive int"),
        (("ones", [1.5, 2]), ValueError, "'shape' must be a positive int"),
        ((object(), [2]), TypeError, "'init' must be a Tensor, str, Initializer or number"),
        ((np.ones(2), [2]), TypeError, "'init' must be a Tensor, str, Initializer or number"),
        ((ms.Tensor(np.ones((2, 2)), ms.float32), [3, 3]), ValueError, r"shape \[2, 2\]"),
        (("xavier_uniform", [5]), ValueError, "at least 2 dimensions"),
        (("ones",), ValueError, "'shape' is required"),
    ],
)
def test_errors(args, error, match):
    with pytest.raises(error, match=match):
        init.initializer(*args)


def test_tensor_init_is_returned_as_is():
    t = ms.Tensor([1, 2])
    assert init.initializer(t, [2], ms.float32) is t
