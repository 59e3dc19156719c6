"""The distribution classes (see the package docstring)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax.scipy.special import ndtr

from .... import _dtype
from ...._random import next_key
from ....ops._impl.utils import arr, wrap
from ..._cell import Cell

__all__ = ["Distribution", "Normal", "Uniform", "Bernoulli", "Categorical"]


class Distribution(Cell):
    """Base class of the distributions (``mindspore.nn.probability.distribution.Distribution``).

    A subclass names its parameters in ``_param_names`` and implements ``_log_prob``,
    ``_cdf``, ``_mean``, ``_var``, ``_entropy``, ``_mode``, ``_kl`` and ``_sample`` on JAX
    arrays. Every public method takes the value (where it needs one) and then, optionally, the
    parameters, which override those given at construction; a parameter given nowhere raises
    ``TypeError``. Calling the cell runs the method named by its first argument
    (``dist("prob", value)``).

    Args:
        seed (int): Seed of :meth:`sample` (``None``: cellax's global seed sequence).
        dtype (mindspore.dtype): The dtype of samples.
        name (str): The distribution's name.
        param (dict): The constructor arguments.

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.probability.distribution import Normal
        >>> print(Normal(0.0, 1.0).prob(ms.Tensor([0.0])))
        [0.3989423]
    """

    _param_names: tuple = ()
    _float_params = True

    def __init__(self, seed, dtype, name, param):
        super().__init__()
        self.seed = seed
        self._dtype = dtype
        self._name = name
        self.parameters = dict(param)
        self._given = {}

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    def _set_params(self, **values):
        for key, value in values.items():
            self._given[key] = None if value is None else jnp.asarray(arr(value), jnp.float32)

    def _resolve(self, args):
        out = []
        for i, key in enumerate(self._param_names):
            value = args[i] if i < len(args) and args[i] is not None else None
            value = self._given[key] if value is None else jnp.asarray(arr(value), jnp.float32)
            if value is None:
                raise TypeError(
                    f"the type {key} must be subclass of Tensor. It can not be None since it is "
                    "not specified during initialization."
                )
            out.append(value)
        return out

    def _value(self, value):
        return jnp.asarray(arr(value), jnp.float32)

    @property
    def batch_shape(self):
        given = [v for v in self._given.values() if v is not None]
        return jnp.broadcast_shapes(*[v.shape for v in given]) if given else ()

    def get_dist_type(self):
        return type(self).__name__

    def get_dist_args(self, *params):
        return tuple(wrap(p) for p in self._resolve(params))

    def prob(self, value, *params):
        return wrap(jnp.exp(self._log_prob(self._value(value), *self._resolve(params))))

    def log_prob(self, value, *params):
        return wrap(self._log_prob(self._value(value), *self._resolve(params)))

    def cdf(self, value, *params):
        return wrap(self._cdf(self._value(value), *self._resolve(params)))

    def log_cdf(self, value, *params):
        return wrap(jnp.log(self._cdf(self._value(value), *self._resolve(params))))

    def survival_function(self, value, *params):
        return wrap(1.0 - self._cdf(self._value(value), *self._resolve(params)))

    def log_survival(self, value, *params):
        return wrap(jnp.log1p(-self._cdf(self._value(value), *self._resolve(params))))

    def mean(self, *params):
        return wrap(self._mean(*self._resolve(params)))

    def var(self, *params):
        return wrap(self._var(*self._resolve(params)))

    def sd(self, *params):
        return wrap(jnp.sqrt(self._var(*self._resolve(params))))

    def mode(self, *params):
        return wrap(self._mode(*self._resolve(params)))

    def entropy(self, *params):
        return wrap(self._entropy(*self._resolve(params)))

    def kl_loss(self, dist, *params):
        """KL(other || self)'s MindSpore order: ``KL(self || dist(params_b))``, where the
        leading ``params`` are the other distribution's and the rest override this one's."""
        if dist != type(self).__name__:
            raise ValueError(f"For '{self.name}', 'dist' must be '{type(self).__name__}'.")
        n = len(self._param_names)
        other = [jnp.asarray(arr(p), jnp.float32) for p in params[:n]]
        return wrap(self._kl(self._resolve(params[n:]), other))

    def cross_entropy(self, dist, *params):
        n = len(self._param_names)
        own = self._resolve(params[n:])
        return wrap(self._entropy(*own) + arr(self.kl_loss(dist, *params)))

    def sample(self, shape=(), *params):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        values = self._resolve(params)
        full = shape + jnp.broadcast_shapes(*[v.shape for v in values])
        out = self._sample(next_key(), full, *values)
        return wrap(out.astype(_dtype.dtype_to_nptype(_dtype.to_dtype(self.dtype))))

    def construct(self, name, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)

    def extend_repr(self):
        return f"batch_shape = {self.batch_shape}" if self._given else "batch_shape = None"


class Normal(Distribution):
    """The normal distribution N(mean, sd**2) (``mindspore.nn.probability.distribution.Normal``).

    Args:
        mean (Union[float, Tensor]): Default: ``None`` (give it to each method).
        sd (Union[float, Tensor]): The standard deviation, > 0. Default: ``None``.
        seed (int): Default: ``None``.
        dtype (mindspore.dtype): Default: ``mindspore.float32``.
        name (str): Default: ``"Normal"``.

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.probability.distribution import Normal
        >>> n = Normal(ms.Tensor([0.0, 1.0]), ms.Tensor([1.0, 2.0]))
        >>> print(n.var(), n.sample((3,)).shape)
        [1. 4.] (3, 2)
    """

    _param_names = ("mean", "sd")

    def __init__(self, mean=None, sd=None, seed=None, dtype=_dtype.float32, name="Normal"):
        super().__init__(seed, dtype, name, {"mean": mean, "sd": sd})
        self._set_params(mean=mean, sd=sd)

    def _log_prob(self, x, mean, sd):
        return -0.5 * jnp.square((x - mean) / sd) - jnp.log(sd) - 0.5 * math.log(2 * math.pi)

    def _cdf(self, x, mean, sd):
        return ndtr((x - mean) / sd)

    def _mean(self, mean, sd):
        return jnp.broadcast_to(mean, jnp.broadcast_shapes(mean.shape, sd.shape))

    _mode = _mean

    def _var(self, mean, sd):
        return jnp.broadcast_to(jnp.square(sd), jnp.broadcast_shapes(mean.shape, sd.shape))

    def _entropy(self, mean, sd):
        return jnp.broadcast_to(
            0.5 * math.log(2 * math.pi * math.e) + jnp.log(sd), self._var(mean, sd).shape
        )

    def _kl(self, own, other):
        (m_a, s_a), (m_b, s_b) = own, other
        return (
            jnp.log(s_b / s_a)
            + (jnp.square(s_a) + jnp.square(m_a - m_b)) / (2 * jnp.square(s_b))
            - 0.5
        )

    def _sample(self, key, shape, mean, sd):
        return mean + sd * jax.random.normal(key, shape, jnp.float32)


class Uniform(Distribution):
    """The uniform distribution on [low, high) (``...distribution.Uniform``).

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.probability.distribution import Uniform
        >>> print(Uniform(0.0, 2.0).cdf(ms.Tensor([0.5, 3.0])))
        [0.25 1.  ]
    """

    _param_names = ("low", "high")

    def __init__(self, low=None, high=None, seed=None, dtype=_dtype.float32, name="Uniform"):
        super().__init__(seed, dtype, name, {"low": low, "high": high})
        self._set_params(low=low, high=high)

    def _log_prob(self, x, low, high):
        inside = (x >= low) & (x <= high)
        return jnp.where(inside, -jnp.log(high - low), -jnp.inf)

    def _cdf(self, x, low, high):
        return jnp.clip((x - low) / (high - low), 0.0, 1.0)

    def _mean(self, low, high):
        return (low + high) / 2

    def _var(self, low, high):
        return jnp.square(high - low) / 12

    def _entropy(self, low, high):
        return jnp.log(high - low)

    def _mode(self, low, high):
        raise NotImplementedError("For 'Uniform', the mode is not defined.")

    def _kl(self, own, other):
        (a, b), (c, d) = own, other
        return jnp.where((c <= a) & (b <= d), jnp.log((d - c) / (b - a)), jnp.inf)

    def _sample(self, key, shape, low, high):
        return jax.random.uniform(key, shape, jnp.float32, low, high)


class Bernoulli(Distribution):
    """The Bernoulli distribution with success probability ``probs`` (``...Bernoulli``); samples
    are ``dtype`` (``mindspore.int32`` by default).

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.probability.distribution import Bernoulli
        >>> print(Bernoulli(0.3).prob(ms.Tensor([0, 1], ms.int32)))
        [0.7 0.3]
    """

    _param_names = ("probs",)

    def __init__(self, probs=None, seed=None, dtype=_dtype.int32, name="Bernoulli"):
        super().__init__(seed, dtype, name, {"probs": probs})
        self._set_params(probs=probs)

    @property
    def probs(self):
        return wrap(self._given["probs"])

    def _log_prob(self, x, p):
        return jnp.where(x == 1, jnp.log(p), jnp.log1p(-p))

    def _cdf(self, x, p):
        return jnp.where(x < 0, 0.0, jnp.where(x < 1, 1.0 - p, 1.0))

    def _mean(self, p):
        return p

    def _var(self, p):
        return p * (1 - p)

    def _entropy(self, p):
        return -(p * jnp.log(p) + (1 - p) * jnp.log1p(-p))

    def _mode(self, p):
        return (p > 0.5).astype(jnp.float32)

    def _kl(self, own, other):
        (a,), (b,) = own, other
        return a * jnp.log(a / b) + (1 - a) * jnp.log((1 - a) / (1 - b))

    def _sample(self, key, shape, p):
        return jax.random.bernoulli(key, p, shape)


class Categorical(Distribution):
    """The categorical distribution over ``0 .. len(probs) - 1`` (``...Categorical``).

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.probability.distribution import Categorical
        >>> c = Categorical(ms.Tensor([0.2, 0.3, 0.5]))
        >>> print(c.prob(ms.Tensor([0, 2], ms.int32)), c.sample((4,)).shape)
        [0.2 0.5] (4,)
    """

    _param_names = ("probs",)

    def __init__(self, probs=None, seed=None, dtype=_dtype.int32, name="Categorical"):
        super().__init__(seed, dtype, name, {"probs": probs})
        self._set_params(probs=probs)

    @property
    def probs(self):
        return wrap(self._given["probs"])

    @property
    def batch_shape(self):
        p = self._given.get("probs")
        return () if p is None else p.shape[:-1]

    def _log_prob(self, x, p):
        logp = jnp.log(p / jnp.sum(p, -1, keepdims=True))
        idx = x.astype(jnp.int32)
        return jnp.take_along_axis(
            jnp.broadcast_to(logp, idx.shape + p.shape[-1:]), idx[..., None], -1
        )[..., 0]

    def _cdf(self, x, p):
        cum = jnp.cumsum(p / jnp.sum(p, -1, keepdims=True), -1)
        idx = jnp.clip(jnp.floor(x).astype(jnp.int32), -1, p.shape[-1] - 1)
        got = jnp.take_along_axis(
            jnp.broadcast_to(cum, idx.shape + p.shape[-1:]), jnp.maximum(idx, 0)[..., None], -1
        )[..., 0]
        return jnp.where(idx < 0, 0.0, got)

    def _mean(self, p):
        p = p / jnp.sum(p, -1, keepdims=True)
        return jnp.sum(p * jnp.arange(p.shape[-1], dtype=jnp.float32), -1, keepdims=True)

    def _var(self, p):
        p = p / jnp.sum(p, -1, keepdims=True)
        k = jnp.arange(p.shape[-1], dtype=jnp.float32)
        mean = jnp.sum(p * k, -1, keepdims=True)
        return jnp.sum(p * jnp.square(k - mean), -1, keepdims=True)

    def _entropy(self, p):
        p = p / jnp.sum(p, -1, keepdims=True)
        return -jnp.sum(jnp.where(p > 0, p * jnp.log(p), 0.0), -1)

    def _mode(self, p):
        return jnp.argmax(p, -1).astype(jnp.float32)

    def _kl(self, own, other):
        (a,), (b,) = own, other
        a = a / jnp.sum(a, -1, keepdims=True)
        b = b / jnp.sum(b, -1, keepdims=True)
        return jnp.sum(jnp.where(a > 0, a * jnp.log(a / b), 0.0), -1)

    def sample(self, shape=(), *params):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        (p,) = self._resolve(params)
        key = next_key()
        out = jax.random.categorical(key, jnp.log(p), shape=shape + p.shape[:-1])
        return wrap(out.astype(_dtype.dtype_to_nptype(_dtype.to_dtype(self.dtype))))

    def _sample(self, key, shape, p):  # pragma: no cover - sample() is overridden
        raise NotImplementedError
