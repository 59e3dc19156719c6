"""Module-surface behaviours against MindSpore 2.10 goldens (tests/goldens/record_surface.py):
auto-parallel context, nn.Pad, clip_by_global_norm, HyperMap, MultitypeFuncGraph,
tuple_to_array, initializer fan helpers, Conv2d.conv2d."""

import warnings

import numpy as np

import pytest

import cellax as ms
from cellax import context, nn, ops
from cellax.common import initializer as init

from ._goldens import load_json

GOLDEN = load_json("surface.json")

KEYS = list(GOLDEN["auto_parallel_defaults"])


@pytest.mark.parametrize("index", range(len(GOLDEN["auto_parallel"])))
def test_auto_parallel_context(index):
    case, kind, values = GOLDEN["auto_parallel"][index]
    context.reset_auto_parallel_context()
    try:
        try:
            with warnings.catch_warnings():
                # settings without a JAX counterpart warn (checked in test_distributed.py)
                warnings.simplefilter("ignore", UserWarning)
                context.set_auto_parallel_context(**case)
            got = "ok"
        except (TypeError, ValueError) as exc:
            got = type(exc).__name__
        assert got == kind
        assert {k: context.get_auto_parallel_context(k) for k in KEYS} == values
    finally:
        context.reset_auto_parallel_context()
    assert {k: context.get_auto_parallel_context(k) for k in KEYS} == GOLDEN[
        "auto_parallel_defaults"
    ]


@pytest.mark.parametrize("index", range(len(GOLDEN["pad"])))
def test_nn_pad(index):
    paddings, mode, shape, expected = GOLDEN["pad"][index]
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    paddings = tuple(tuple(p) for p in paddings)
    np.testing.assert_array_equal(nn.Pad(paddings, mode)(ms.Tensor(x)).asnumpy(), expected)


def test_nn_pad_errors():
    with pytest.raises(ValueError, match="'mode' must be str"):
        nn.Pad(((1, 1),), "edge")
    with pytest.raises(TypeError, match="must be tuple"):
        nn.Pad([[1, 1]])
    with pytest.raises(ValueError, match=r"must be \(n, 2\)"):
        nn.Pad(((1, 2, 3),))
    with pytest.raises(ValueError, match="rank of 'input_x'"):
        nn.Pad(((1, 1),))(ms.ops.ones((2, 2)))


def test_clip_by_global_norm():
    grads = (ms.Tensor(np.array([3.0, 4.0], np.float32)), ms.Tensor(np.array([[12.0]], np.float32)))
    for clip, expected in GOLDEN["clip_by_global_norm"].items():
        got = ops.clip_by_global_norm(grads, float(clip))
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-6)


def test_hypermap_and_multitype():
    r = ops.HyperMap()(
        ops.mul,
        (ms.Tensor(2.0), [ms.Tensor(3.0), ms.Tensor(4.0)]),
        (ms.Tensor(5.0), [ms.Tensor(6.0), ms.Tensor(7.0)]),
    )
    first, rest, kind = GOLDEN["hypermap"]
    assert float(r[0].asnumpy()) == first and [float(v.asnumpy()) for v in r[1]] == rest
    assert type(r[1]).__name__ == kind
    add = ops.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _nn(a, b):
        return a + b

    @add.register("Tensor", "Tensor")
    def _tt(a, b):
        return ops.add(a, b) * 10

    numbers, tensors, error = GOLDEN["multitype"]
    assert add(1, 2) == numbers
    assert add(ms.Tensor(1.0), ms.Tensor(2.0)).asnumpy().tolist() == tensors
    assert error == "ValueError"
    with pytest.raises(ValueError):
        add("a", 1)
    for (dtype, values), t in zip(GOLDEN["tuple_to_array"], [(1, 2, 3), (1.0, 2.5)]):
        out = ops.tuple_to_array(t)
        assert str(out.dtype) == dtype and out.asnumpy().tolist() == values


def test_fan_helpers():
    for shape, fans, fan_in, fan_out in GOLDEN["fans"]:
        assert list(init._calculate_fan_in_and_fan_out(tuple(shape))) == fans
        assert init._calculate_correct_fan(tuple(shape), "fan_in") == fan_in
        assert init._calculate_correct_fan(tuple(shape), "fan_out") == fan_out
    kind, message = GOLDEN["fans_error"]
    with pytest.raises(ValueError) as info:
        init._calculate_fan_in_and_fan_out((5,))
    assert kind == "ValueError" and str(info.value) == message


def test_conv2d_attribute_honours_cell_settings():
    g = GOLDEN["conv2d_attr"]
    conv = nn.Conv2d(4, 6, 3, stride=2, pad_mode="pad", padding=1, group=2, has_bias=False)
    y = conv.conv2d(
        ms.Tensor(np.array(g["x"], np.float32)), ms.Tensor(np.array(g["w"], np.float32))
    )
    np.testing.assert_allclose(y.asnumpy(), g["y"], rtol=1e-4, atol=1e-4)
    dense = nn.Dense(3, 2)
    x = ms.ops.ones((4, 3))
    np.testing.assert_allclose(
        dense.bias_add(dense.matmul(x, dense.weight), dense.bias).asnumpy(),
        dense(x).asnumpy(),
        rtol=1e-6,
    )


def test_generator():
    gold = GOLDEN["generator"]
    g = ms.Generator()
    g.manual_seed(5)
    assert list(g._step(ms.Tensor(3))) == gold["step"]
    assert g.get_state().asnumpy().tolist() == gold["state"]
    g2 = ms.Generator()
    g2.set_state(g.get_state())
    assert g2.initial_seed() == gold["restored_seed"] and g2._step(0) == g._step(0)
    assert gold["bad_seed"][0] == "TypeError"
    with pytest.raises(TypeError, match="Seed must be an integer"):
        g.manual_seed(1.5)
    k1, k2 = g.next_key(), g.next_key()
    assert not np.array_equal(np.asarray(k1), np.asarray(k2))
