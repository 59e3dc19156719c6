"""Shared helpers for the ops tests: golden loading and comparison."""

import numpy as np

import cellax as ms

from .._goldens import load_json

GOLDENS = load_json("ops.json")


def as_list(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def assert_golden(name, result, rtol=1e-5, atol=1e-6):
    expected = GOLDENS[name]
    results = as_list(result)
    assert len(results) == len(expected), name
    for got, want in zip(results, expected):
        assert isinstance(got, ms.Tensor), (name, type(got))
        assert str(got.dtype) == want["dtype"], (name, got.dtype, want["dtype"])
        assert list(got.shape) == want["shape"], (name, got.shape, want["shape"])
        np.testing.assert_allclose(
            got.asnumpy(), np.array(want["value"]), rtol=rtol, atol=atol, err_msg=name
        )


def rng(seed=0):
    return np.random.default_rng(seed)
