import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

try:
    from ._goldens import ARRAYS, cases, get, ids
except ImportError:
    from _goldens import ARRAYS, cases, get, ids

CE = cases("ce")


@pytest.mark.parametrize("case", CE, ids=[f"{c['id']}-{c['kwargs']}" for c in CE])
def test_cross_entropy_matches_mindspore(case):
    kwargs = dict(case["kwargs"])
    if kwargs.get("weight"):
        kwargs["weight"] = ms.Tensor(get(case, "weight"))
    out = nn.CrossEntropyLoss(**kwargs)(
        ms.Tensor(get(case, "logits")), ms.Tensor(get(case, "labels"))
    )
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)


NLL = cases("nll")


@pytest.mark.parametrize("case", NLL, ids=ids(NLL))
def test_nll_matches_mindspore(case):
    kwargs = dict(case["kwargs"])
    if kwargs.get("weight"):
        kwargs["weight"] = ms.Tensor(get(case, "weight"))
    out = nn.NLLLoss(**kwargs)(ms.Tensor(get(case, "logits")), ms.Tensor(get(case, "labels")))
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)


LOSSES = cases("loss")


@pytest.mark.parametrize("case", LOSSES, ids=[f"{c['cls']}-{c['id']}" for c in LOSSES])
def test_loss_matches_mindspore(case):
    kwargs = dict(case["kwargs"])
    prefix = f"{case['id']}/kw."
    for key in ARRAYS.files:
        if key.startswith(prefix):
            kwargs[key[len(prefix) :]] = ms.Tensor(ARRAYS[key])
    inputs = [ms.Tensor(get(case, f"in{i}")) for i in range(case["n_inputs"])]
    out = getattr(nn, case["cls"])(**kwargs)(*inputs)
    np.testing.assert_allclose(out.asnumpy(), get(case, "out"), rtol=1e-5, atol=1e-6)


def test_cross_entropy_grad_matches_jax():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    y = np.array([1, 0, 4, 2], np.int32)
    got = ms.grad(lambda v: ops.cross_entropy(v, ms.Tensor(y), label_smoothing=0.1))(ms.Tensor(x))

    def ref(v):
        logp = jax.nn.log_softmax(v)
        target = jax.nn.one_hot(y, 5) * 0.9 + 0.02
        return -jnp.mean(jnp.sum(logp * target, 1))

    np.testing.assert_allclose(got.asnumpy(), jax.grad(ref)(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_l1_match_numpy(reduction):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((2, 3), np.float32)
    red = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    np.testing.assert_allclose(
        ops.mse_loss(ms.Tensor(a), ms.Tensor(b), reduction).asnumpy(), red((a - b) ** 2)
    )
    np.testing.assert_allclose(
        nn.L1Loss(reduction)(ms.Tensor(a), ms.Tensor(b)).asnumpy(), red(np.abs(a - b))
    )


def test_loss_errors():
    logits = ms.Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(
        TypeError,
        match="For 'cross_entropy', class-index 'target' must be an "
        "integer Tensor, but got dtype float32",
    ):
        nn.CrossEntropyLoss()(logits, ms.Tensor([0.0, 1.0]))
    with pytest.raises(
        ValueError,
        match=r"For 'cross_entropy', 'target' of class indices must "
        r"have shape \(2,\).*but got \(3,\)",
    ):
        nn.CrossEntropyLoss()(logits, ms.Tensor([0, 1, 2], ms.int32))
    with pytest.raises(ValueError, match="For 'CrossEntropyLoss', 'reduction' must be one of"):
        nn.CrossEntropyLoss(reduction="avg")
    with pytest.raises(ValueError, match=r"For 'CrossEntropyLoss', 'label_smoothing' must be in"):
        nn.CrossEntropyLoss(label_smoothing=1.5)
    with pytest.raises(
        ValueError, match="For 'mse_loss', 'input' and 'target' must have the same shape"
    ):
        nn.MSELoss()(logits, ms.Tensor(np.zeros((3, 2), np.float32)))
    with pytest.raises(ValueError, match="For 'binary_cross_entropy', 'logits' and 'labels'"):
        nn.BCELoss()(logits, ms.Tensor(np.zeros((2,), np.float32)))
    with pytest.raises(TypeError, match="For 'SoftmaxCrossEntropyWithLogits', class-index"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, ms.Tensor([0.0, 1.0]))
