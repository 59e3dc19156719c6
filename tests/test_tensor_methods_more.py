"""The Tensor methods added from MindSpore 2.10's list, against goldens recorded by
tests/goldens/record_tensor_methods_more.py (cases in tests/goldens/tensor_methods_cases.py)."""

import jax
import numpy as np
import pytest

import cellax as ms
from cellax import Tensor

from ._goldens import load_json, load_module

tc = load_module("tensor_methods_cases")
GOLDEN = load_json("tensor_methods_more.json")
NAMES = GOLDEN.pop("__names__")
ERROR_TYPES = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "IndexError": IndexError,
    "NotImplementedError": NotImplementedError,
    "RuntimeError": RuntimeError,
}


# MindSpore 2.10 CPU's tanh is 1e-4 off near saturation (tanh(5) = 1.00001).
TOLERANCE = {"tanh_": 2e-4}


def _assert_close(got, want, where):
    if isinstance(want, dict) and "value" in want:
        assert isinstance(got, dict), where
        assert got["dtype"] == want["dtype"], where
        assert got["shape"] == want["shape"], where
        np.testing.assert_allclose(
            np.asarray(got["value"], np.float64),
            np.asarray(want["value"], np.float64),
            rtol=2e-5,
            atol=TOLERANCE.get(where, 1e-6),
            err_msg=where,
        )
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for g, w in zip(got, want):
            _assert_close(g, w, where)
    else:
        assert got == want, where


def test_every_mindspore_tensor_name_exists():
    missing = [name for name in NAMES if not hasattr(Tensor, name)]
    assert not missing, f"MindSpore 2.10's Tensor has these, cellax's lacks them: {missing}"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_against_mindspore(name):
    golden = GOLDEN[name]
    if "error" in golden:
        kind = golden["error"].split(":")[0]
        with pytest.raises(ERROR_TYPES[kind]):
            tc.encode(ms, np, tc.run(ms, np, name))
        return
    _assert_close(tc.encode(ms, np, tc.run(ms, np, name)), golden["result"], name)


def test_in_place_methods_write_into_the_tensor():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = x.masked_scatter_(x > 3, Tensor([9.0, 8.0]))
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [[0, 1, 2], [3, 9, 8]])
    x.scatter_(1, Tensor([[0], [1]]), 5.0)
    np.testing.assert_array_equal(x.asnumpy(), [[5, 1, 2], [3, 5, 8]])
    x.index_add_(0, Tensor([1]), Tensor([[1.0, 1.0, 1.0]]), alpha=2)
    np.testing.assert_array_equal(x.asnumpy(), [[5, 1, 2], [5, 7, 10]])


def test_in_place_method_on_a_parameter_under_jit():
    w = ms.Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")

    @ms.jit
    def step(mask, source):
        w.masked_scatter_(mask, source)
        return w + 0

    out = step(Tensor([[True, False], [False, True]]), Tensor([1.0, 2.0]))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 0], [0, 2]])
    np.testing.assert_array_equal(w.asnumpy(), [[1, 0], [0, 2]])


def test_masked_scatter_traces_and_differentiates():
    mask = Tensor([True, False, True])

    def f(x, source):
        return (x.masked_scatter(mask, source) * Tensor([1.0, 2.0, 3.0])).sum()

    grads = ms.grad(f, grad_position=(0, 1))(Tensor([1.0, 1.0, 1.0]), Tensor([4.0, 5.0, 6.0]))
    np.testing.assert_array_equal(grads[0].asnumpy(), [0, 2, 0])
    np.testing.assert_array_equal(grads[1].asnumpy(), [1, 3, 0])
    jitted = jax.jit(lambda x, s: x.masked_scatter(mask, s))
    np.testing.assert_array_equal(
        jitted(Tensor([0.0, 0.0, 0.0]), Tensor([4.0, 5.0])).asnumpy(), [4, 0, 5]
    )


def test_view_dtype_round_trips():
    x = Tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    for dtype in (ms.int32, ms.float16, ms.bfloat16, ms.int8, ms.uint8, ms.float64):
        back = x.view(dtype).view(ms.float32)
        np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match="For 'Tensor.view', the last dimension"):
        Tensor(np.ones(3, np.float32)).view(ms.float64)


def test_new_filled_take_sizes_as_arguments():
    x = Tensor([1.0], ms.float16)
    assert x.new_ones(2, 3).shape == (2, 3) and x.new_ones(2, 3).dtype == ms.float16
    assert x.new_zeros(4, dtype=ms.int32).dtype == ms.int32
    assert x.new_empty((1, 2)).shape == (1, 2)
    with pytest.raises(TypeError, match="For 'Tensor.new_zeros'"):
        x.new_zeros(1.5)
    with pytest.raises(ValueError, match="must not be negative"):
        x.new_ones(-1)


def test_requires_grad_on_parameter_and_tensor():
    w = ms.Parameter(Tensor([1.0]), name="w")
    assert w.requires_grad_(False) is w and w.requires_grad is False
    w.requires_grad_()
    assert w.requires_grad is True
    x = Tensor([1.0])
    assert x.requires_grad_() is x


def test_runtime_only_features_raise_naming_the_feature():
    x = Tensor([1.0])
    with pytest.raises(NotImplementedError, match="For 'Tensor.offload', offloading"):
        x.offload("/tmp/x")
    with pytest.raises(NotImplementedError, match="shared Tensor storage"):
        x.untyped_storage()
    with pytest.raises(NotImplementedError, match="For 'Tensor.set_'"):
        x.set_(x, 1, (1,), (1,))


def test_bookkeeping():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert isinstance(x.data_ptr(), int)
    assert x.data is x
    x.data = Tensor([1.0])
    assert x.shape == (1,)
    y = Tensor.convert_bytes_to_tensor(Tensor([1.0, 2.0]).get_bytes(), (2,), ms.float32)
    np.testing.assert_array_equal(y.asnumpy(), [1, 2])
    h = x.register_hook(lambda g: g)
    assert len(x.hooks()) == 1
    Tensor.remove_hook(h)
    assert x.hooks() == []
    assert Tensor([1.0, 2.0]).uniform(2.0, 3.0).shape == (2,)
    with pytest.raises(TypeError, match="'from_' must not be larger"):
        Tensor([1.0]).uniform(3.0, 2.0)
