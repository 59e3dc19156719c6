"""nn.probability.distribution: the expected values are MindSpore 2.10's (CPU) for the same
calls; floats compared with a tolerance (MindSpore clamps some probabilities by ~1e-6)."""

import numpy as np
import pytest

import cellax as ms
from cellax.nn.probability.distribution import Bernoulli, Categorical, Normal, Uniform


def close(tensor, expected):
    np.testing.assert_allclose(tensor.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_normal():
    n = Normal(ms.Tensor([0.0, 1.0]), ms.Tensor([1.0, 2.0]))
    v = ms.Tensor([0.5, -1.0])
    close(n.prob(v), [0.3520646, 0.12098528])
    close(n.log_prob(v), [-1.0439385, -2.1120858])
    close(n.cdf(v), [0.69146246, 0.15865526])
    close(n.mean(), [0.0, 1.0])
    close(n.sd(), [1.0, 2.0])
    close(n.var(), [1.0, 4.0])
    close(n.entropy(), [1.4189385, 2.1120858])
    close(n.log_prob(v, ms.Tensor(1.0), ms.Tensor(0.5)), [-0.72579134, -8.225791])
    close(n.kl_loss("Normal", ms.Tensor(0.0), ms.Tensor(1.0)), [0.0, 1.3068528])
    assert n.sample((3,)).shape == (3, 2)
    close(n("prob", v), [0.3520646, 0.12098528])  # the Cell call dispatches by name
    assert repr(n) == "Normal<batch_shape = (2,)>" or "batch_shape = (2,)" in repr(n)


def test_parameters_given_per_call():
    n = Normal()
    with pytest.raises(TypeError, match="It can not be None"):
        n.mean()
    close(n.mean(ms.Tensor(2.0), ms.Tensor(1.0)), 2.0)


def test_bernoulli_categorical_uniform():
    b = Bernoulli(0.3, dtype=ms.int32)
    close(b.prob(ms.Tensor([0, 1], ms.int32)), [0.7, 0.3])
    close(b.mean(), 0.3)
    close(b.var(), 0.21)
    close(b.entropy(), 0.61086434)
    assert b.sample((2,)).dtype == ms.int32
    c = Categorical(ms.Tensor([0.2, 0.3, 0.5]))
    close(c.prob(ms.Tensor([0, 2], ms.int32)), [0.2, 0.5])
    close(c.log_prob(ms.Tensor([1], ms.int32)), [-1.2039728])
    close(c.entropy(), 1.0296531)
    close(c.mean(), [1.3])
    sample = c.sample((4,))
    assert sample.shape == (4,) and sample.dtype == ms.int32
    assert set(sample.asnumpy().tolist()) <= {0, 1, 2}
    u = Uniform(0.0, 2.0)
    close(u.prob(ms.Tensor([0.5, 3.0])), [0.5, 0.0])
    close(u.cdf(ms.Tensor([0.5, 3.0])), [0.25, 1.0])
    close(u.mean(), 1.0)
    close(u.var(), 0.33333334)
    close(u.entropy(), 0.6931472)


def test_sampling_follows_the_global_seed():
    ms.set_seed(3)
    a = Normal(0.0, 1.0).sample((1000,)).asnumpy()
    ms.set_seed(3)
    b = Normal(0.0, 1.0).sample((1000,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert abs(a.mean()) < 0.15 and abs(a.std() - 1) < 0.1
