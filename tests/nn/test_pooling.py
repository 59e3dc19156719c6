import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap

try:
    from ._goldens import cases, get, ids
except ImportError:
    from _goldens import cases, get, ids

POOL = cases("pool")


@pytest.mark.parametrize("case", POOL, ids=[f"{c['id']}-{c['cls']}" for c in POOL])
def test_pool_matches_mindspore(case):
    net = getattr(nn, case["cls"])(**case["kwargs"])
    out = net(ms.Tensor(get(case, "x")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)
    assert repr(net) == case["repr"]


def test_max_pool_indices_match_mindspore():
    (case,) = cases("pool_indices")
    out, idx = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)(
        ms.Tensor(get(case, "x"))
    )
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"))
    np.testing.assert_array_equal(idx.asnumpy(), get(case, "indices"))
    out2, idx2 = ops.max_pool2d(ms.Tensor(get(case, "x")), 3, 2, 1, return_indices=True)
    np.testing.assert_array_equal(idx2.asnumpy(), get(case, "indices"))


def test_unbatched_and_stride_default():
    x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4))
    out = ms.nn.MaxPool2d(2, 2)(x)  # the Cell takes CHW; ops.max_pool2d, as MindSpore's, 4-D only
    assert out.shape == (1, 2, 2)
    np.testing.assert_array_equal(out.asnumpy().ravel(), [5, 7, 13, 15])
    out = ops.max_pool2d(x[None], 2)  # stride defaults to kernel_size
    np.testing.assert_array_equal(out.asnumpy().ravel(), [5, 7, 13, 15])
    with pytest.raises(ValueError, match="max_pool2d"):
        ops.max_pool2d(x, 2)


@pytest.mark.parametrize("shape,out", [((1, 2, 7, 5), (3, 2)), ((2, 1, 4, 4), (4, 1))])
def test_adaptive_avg_matches_numpy(shape, out):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    got = ops.adaptive_avg_pool2d(ms.Tensor(x), out).asnumpy()
    h, w = shape[2:]
    ref = np.zeros(shape[:2] + out, np.float32)
    for i in range(out[0]):
        for j in range(out[1]):
            h0, h1 = i * h // out[0], -(-(i + 1) * h // out[0])
            w0, w1 = j * w // out[1], -(-(j + 1) * w // out[1])
            ref[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean((2, 3))
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    got_max, idx = ops.adaptive_max_pool2d(ms.Tensor(x), out, return_indices=True)
    flat = x.reshape(shape[:2] + (-1,))
    np.testing.assert_allclose(
        np.take_along_axis(flat, idx.asnumpy().reshape(shape[:2] + (-1,)), 2).reshape(
            got_max.shape
        ),
        got_max.asnumpy(),
    )


def test_pool_grad_matches_jax():
    x = jnp.asarray(np.random.default_rng(1).standard_normal((1, 2, 5, 5)), jnp.float32)
    pool = nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)

    def loss(inp):
        return wrap(
            jnp.sum(jnp.square(pool(inp)._value)) + jnp.sum(ops.max_pool2d(inp, 2, 2)._value)
        )

    got = ms.grad(loss)(ms.Tensor(x))

    def ref(v):
        s = jax.lax.reduce_window(
            v, 0.0, jax.lax.add, (1, 1, 3, 3), (1, 1, 2, 2), [(0, 0), (0, 0), (1, 1), (1, 1)]
        )
        c = jax.lax.reduce_window(
            jnp.ones_like(v),
            0.0,
            jax.lax.add,
            (1, 1, 3, 3),
            (1, 1, 2, 2),
            [(0, 0), (0, 0), (1, 1), (1, 1)],
        )
        m = jax.lax.reduce_window(v, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        return jnp.sum(jnp.square(s / c)) + jnp.sum(m)

    np.testing.assert_allclose(got.asnumpy(), jax.grad(ref)(x), rtol=1e-5, atol=1e-6)


def test_pool_errors():
    with pytest.raises(ValueError, match="For 'MaxPool2d', 'pad_mode' must be one of"):
        nn.MaxPool2d(2, pad_mode="full")
    with pytest.raises(ValueError, match="For 'AvgPool2d', 'padding' must be 0 when 'pad_mode'"):
        nn.AvgPool2d(3, padding=1)
    with pytest.raises(ValueError, match=r"For 'MaxPool2d', 'x' must be 3-D or 4-D"):
        nn.MaxPool2d(2)(ops.ones((4, 4)))
    with pytest.raises(ValueError, match="'padding' must be at most half of 'kernel_size'"):
        ops.max_pool2d(ops.ones((1, 1, 4, 4)), 2, padding=2)
    with pytest.raises(TypeError, match="For 'AvgPool1d', 'kernel_size' must be an int"):
        nn.AvgPool1d(kernel_size=2.5)


PADS = cases("padding")


@pytest.mark.parametrize("case", PADS, ids=[f"{c['cls']}-{c['id']}" for c in PADS])
def test_padding_layers_match_mindspore(case):
    net = getattr(nn, case["cls"])(*[tuple(a) if isinstance(a, list) else a for a in case["args"]])
    np.testing.assert_allclose(net(ms.Tensor(get(case, "x"))).asnumpy(), get(case, "out"))


UPS = cases("upsample")


@pytest.mark.parametrize("case", UPS, ids=ids(UPS))
def test_interpolate_matches_mindspore(case):
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    out = ops.interpolate(ms.Tensor(get(case, "x")), **kwargs)
    # MindSpore's bicubic kernel reads its weights from a 1024-entry table: ~1e-3 error.
    atol = 2e-3 if kwargs.get("mode") == "bicubic" else 1e-5
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=atol)


@pytest.mark.parametrize(
    "mode,rank", [("nearest", 3), ("nearest", 4), ("linear", 3), ("bilinear", 4), ("bicubic", 4)]
)
def test_interpolate_scale_factor_without_recompute_is_a_superset(mode, rank):
    # MindSpore 2.10 CPU raises ValueError here (docs' differences page); cellax computes the
    # result that recompute_scale_factor=True gives (which MindSpore accepts) for whole scales
    x = ms.Tensor(
        np.arange(2 * 4 ** (rank - 2), dtype=np.float32).reshape((1, 2) + (4,) * (rank - 2))
    )
    out = ops.interpolate(x, scale_factor=2.0, mode=mode)
    ref = ops.interpolate(x, scale_factor=2.0, mode=mode, recompute_scale_factor=True)
    assert out.shape == (1, 2) + (8,) * (rank - 2)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-6, atol=1e-6)


def test_pixel_shuffle_unfold_fold_match_mindspore():
    (case,) = cases("pixel_shuffle")
    out = nn.PixelShuffle(2)(ms.Tensor(get(case, "x")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"))
    back = nn.PixelUnshuffle(2)(out)
    np.testing.assert_allclose(back.asnumpy(), get(case, "x"))
    (case,) = cases("unfold")
    kw = {k: case[k] for k in ("kernel_size", "dilation", "padding", "stride")}
    np.testing.assert_allclose(
        ops.unfold(ms.Tensor(get(case, "x")), **kw).asnumpy(), get(case, "out"), rtol=1e-6
    )
    (case,) = cases("fold")
    out = ops.fold(ms.Tensor(get(case, "x")), tuple(case["output_size"]), **kw)
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)


def test_resampling_errors():
    with pytest.raises(ValueError, match="For 'interpolate', exactly one of 'size' and"):
        ops.interpolate(ops.ones((1, 1, 2, 2)))
    with pytest.raises(ValueError, match="For 'interpolate', mode 'bilinear' needs a 4-D input"):
        ops.interpolate(ops.ones((1, 1, 2)), size=3, mode="bilinear")
    with pytest.raises(ValueError, match="For 'pad', reflect padding must be smaller"):
        ops.pad(ops.ones((1, 2)), (2, 2), mode="reflect")
    with pytest.raises(
        TypeError,
        match=r"For 'ZeroPad2d', 'padding' must be an int or a tuple "
        r"of 4 ints",
    ):
        nn.ZeroPad2d((1, 2))
    with pytest.raises(ValueError, match="For 'pixel_shuffle', 'input' must be at least 3-D"):
        ops.pixel_shuffle(ops.ones((1, 3, 2, 2)), 2)
