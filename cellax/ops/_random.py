"""Random ops, all drawing from cellax's global key (``cellax.set_seed``) or a per-call seed.

The global key is a state slot, so the same code draws the same numbers eagerly and under
``cellax.jit``. A non-zero ``seed`` argument gives a fixed key (the same numbers every call).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import _dtype
from .._random import next_key
from ._primitive import primitive
from ._utils import alloc_shape, arr, array, check_int_arg, np_dtype, to_float, wrap

__all__ = [
    "rand",
    "randn",
    "rand_like",
    "randn_like",
    "uniform",
    "normal",
    "randint",
    "randint_like",
    "randperm",
    "bernoulli",
    "multinomial",
    "standard_normal",
    "standard_laplace",
    "gamma",
    "poisson",
    "laplace",
    "shuffle",
    "random_categorical",
    "UniformReal",
    "StandardNormal",
    "UniformInt",
    "Multinomial",
    "RandomCategorical",
    "Bernoulli",
    "StandardLaplace",
    "RandomGamma",
    "Randperm",
]


def _size(api, size):
    if len(size) == 1 and not isinstance(size[0], int):
        size = size[0]
    return alloc_shape(api, size, "size")


def _float_dtype(api, dtype):
    result = np_dtype(dtype) or jnp.float32
    if jnp.dtype(result).kind != "f":
        raise TypeError(f"For '{api}', 'dtype' must be a floating-point type, but got {dtype}.")
    return result


def rand(*size, dtype=None, seed=None):
    """Uniform samples in [0, 1) of shape ``size``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.rand(2, 3).shape
        (2, 3)
    """
    shape = _size("rand", size)
    return wrap(jax.random.uniform(next_key(seed), shape, _float_dtype("rand", dtype)))


def randn(*size, dtype=None, seed=None):
    """Standard normal samples of shape ``size``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.randn((2,)).dtype)
        Float32
    """
    shape = _size("randn", size)
    return wrap(jax.random.normal(next_key(seed), shape, _float_dtype("randn", dtype)))


def rand_like(input, seed=None, *, dtype=None):
    """Uniform samples in [0, 1) shaped like ``input``."""
    x = array(input, "rand_like")
    dtype = np_dtype(dtype) or (x.dtype if x.dtype.kind == "f" else jnp.float32)
    return wrap(jax.random.uniform(next_key(seed), x.shape, dtype))


def randn_like(input, seed=None, *, dtype=None):
    """Standard normal samples shaped like ``input``."""
    x = array(input, "randn_like")
    dtype = np_dtype(dtype) or (x.dtype if x.dtype.kind == "f" else jnp.float32)
    return wrap(jax.random.normal(next_key(seed), x.shape, dtype))


def uniform(shape, minval, maxval, seed=None, dtype=_dtype.float32):
    """Uniform samples in ``[minval, maxval)``; integer dtypes draw integers.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.uniform((4,), ms.Tensor(1.), ms.Tensor(2.))
        >>> bool(((x >= 1) & (x < 2)).all())
        True
    """
    shape = alloc_shape("uniform", shape)
    low, high = arr(minval, "uniform", "minval"), arr(maxval, "uniform", "maxval")
    target = np_dtype(dtype)
    if jnp.dtype(target).kind in "iu":
        return wrap(jax.random.randint(next_key(seed), shape, low, high, target))
    return wrap(jax.random.uniform(next_key(seed), shape, target, low, high))


def normal(shape, mean, stddev, seed=None):
    """Normal samples with ``mean`` and ``stddev`` (broadcast into ``shape``)."""
    shape = alloc_shape("normal", shape)
    mu, sigma = arr(mean, "normal", "mean"), arr(stddev, "normal", "stddev")
    dtype = jnp.result_type(mu, sigma, jnp.float32) if hasattr(mu, "dtype") else jnp.float32
    if jnp.dtype(dtype).kind != "f":
        dtype = jnp.float32
    full_shape = jnp.broadcast_shapes(shape, jnp.shape(mu), jnp.shape(sigma))
    return wrap(mu + sigma * jax.random.normal(next_key(seed), full_shape, dtype))


def standard_normal(shape, seed=None):
    """Standard normal Float32 samples."""
    return wrap(
        jax.random.normal(next_key(seed), alloc_shape("standard_normal", shape), jnp.float32)
    )


def standard_laplace(shape, seed=None):
    """Standard Laplace Float32 samples."""
    return wrap(
        jax.random.laplace(next_key(seed), alloc_shape("standard_laplace", shape), jnp.float32)
    )


def laplace(shape, mean, lambda_param, seed=None):
    """Laplace samples with location ``mean`` and scale ``lambda_param``."""
    sample = jax.random.laplace(next_key(seed), alloc_shape("laplace", shape), jnp.float32)
    return wrap(arr(mean) + arr(lambda_param) * sample)


def gamma(shape, alpha, beta, seed=None):
    """Gamma samples with shape ``alpha`` and rate ``beta``; output shape
    ``shape + broadcast(alpha, beta).shape``."""
    a, b = to_float(array(alpha)), to_float(array(beta))
    batch = jnp.broadcast_shapes(a.shape, b.shape)
    full = alloc_shape("gamma", shape) + batch
    return wrap(
        jax.random.gamma(next_key(seed), jnp.broadcast_to(a, full), full, a.dtype)
        / jnp.broadcast_to(b, full)
    )


def poisson(shape, mean, seed=None):
    """Poisson samples (Float32) with rate ``mean``; shape ``shape + mean.shape``."""
    rate = to_float(array(mean))
    full = alloc_shape("poisson", shape) + rate.shape
    return wrap(jax.random.poisson(next_key(seed), rate, full).astype(jnp.float32))


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in ``[low, high)`` of shape ``size`` (Int64 by default).

    Raises:
        ValueError: If ``high <= low``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.randint(0, 3, (5,))
        >>> print(x.dtype, bool(((x >= 0) & (x < 3)).all()))
        Int64 True
    """
    for name, value in (("low", low), ("high", high)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"For 'randint', '{name}' must be an int, but got {value!r}.")
    if isinstance(low, int) and isinstance(high, int) and high <= low:
        raise ValueError(
            f"For 'randint', 'high' must be greater than 'low', but got low={low} and high={high}."
        )
    target = np_dtype(dtype) or jnp.int64
    shape = alloc_shape("randint", size, "size")
    return wrap(jax.random.randint(next_key(seed), shape, low, high, target))


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Integers in ``[low, high)`` shaped like ``input``."""
    x = array(input, "randint_like")
    low = check_int_arg("randint_like", "low", low)
    high = check_int_arg("randint_like", "high", high)
    target = np_dtype(dtype) or (x.dtype if x.dtype.kind in "iu" else jnp.int64)
    return wrap(jax.random.randint(next_key(seed), x.shape, low, high, target))


def randperm(n, seed=0, offset=0, dtype=_dtype.int64):
    """A random permutation of ``range(n)``.

    Examples:
        >>> import cellax as ms
        >>> sorted(ms.ops.randperm(4).tolist())
        [0, 1, 2, 3]
    """
    check_int_arg("randperm", "n", n, 0)
    return wrap(jax.random.permutation(next_key(seed), n).astype(np_dtype(dtype)))


def bernoulli(input, p=0.5, seed=None):
    """0/1 samples (in ``input``'s dtype) that are 1 with probability ``p``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bernoulli(ms.ops.zeros(3), 1.0))
        [1. 1. 1.]
    """
    x = array(input, "bernoulli")
    prob = arr(p, "bernoulli", "p")
    if isinstance(prob, (int, float)) and not 0 <= prob <= 1:
        raise ValueError(f"For 'bernoulli', 'p' must be in [0, 1], but got {prob}.")
    seed = None if seed is None or seed < 0 else seed
    draw = jax.random.bernoulli(next_key(seed), prob, x.shape)
    return wrap(draw.astype(x.dtype))


def multinomial(input, num_samples, replacement=True, seed=None):
    """Draw ``num_samples`` category indices (Int32) per row of the weights ``input``.

    Raises:
        ValueError: If ``num_samples`` exceeds the categories without replacement.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.multinomial(ms.Tensor([0., 1.]), 2))
        [1 1]
    """
    weights = to_float(array(input, "multinomial"))
    check_int_arg("multinomial", "num_samples", num_samples, 1)
    if not replacement and num_samples > weights.shape[-1]:
        raise ValueError(
            f"For 'multinomial', 'num_samples' must be at most the number of "
            f"categories ({weights.shape[-1]}) without replacement, but got "
            f"{num_samples}."
        )
    logits = jnp.log(weights)
    key = next_key(seed)
    if replacement:
        shape = weights.shape[:-1] + (num_samples,)
        draws = jax.random.categorical(key, logits[..., None, :], axis=-1, shape=shape)
    else:
        gumbel = jax.random.gumbel(key, logits.shape, logits.dtype)
        draws = jax.lax.top_k(logits + gumbel, num_samples)[1]
    return wrap(draws.astype(jnp.int32))


def random_categorical(logits, num_sample, seed=0, dtype=_dtype.int64):
    """Draw ``num_sample`` categories per row of the 2-D ``logits``."""
    values = to_float(array(logits, "random_categorical", "logits"))
    num_sample = check_int_arg("random_categorical", "num_sample", num_sample, 1)
    shape = values.shape[:-1] + (num_sample,)
    draws = jax.random.categorical(next_key(seed), values[..., None, :], axis=-1, shape=shape)
    return wrap(draws.astype(np_dtype(dtype)))


def shuffle(x, seed=None):
    """Shuffle along dim 0."""
    value = array(x, "shuffle", "x")
    return wrap(jax.random.permutation(next_key(seed), value, axis=0))


# -- primitive classes (seed, seed2: a fixed key when either is non-zero) --------------------


def _seed(attrs):
    return attrs.get("seed", 0) or attrs.get("seed2", 0) or None


UniformReal = primitive(
    "UniformReal",
    rand,
    dict(seed=0, seed2=0),
    lambda self, shape: rand(shape, seed=_seed(self.attrs)),
)
StandardNormal = primitive(
    "StandardNormal",
    randn,
    dict(seed=0, seed2=0),
    lambda self, shape: randn(shape, seed=_seed(self.attrs)),
)
StandardLaplace = primitive(
    "StandardLaplace",
    standard_laplace,
    dict(seed=0, seed2=0),
    lambda self, shape: standard_laplace(shape, _seed(self.attrs)),
)
UniformInt = primitive(
    "UniformInt",
    uniform,
    dict(seed=0, seed2=0),
    lambda self, shape, minval, maxval: wrap(
        jax.random.randint(
            next_key(_seed(self.attrs)),
            alloc_shape("UniformInt", shape),
            arr(minval),
            arr(maxval),
            jnp.int32,
        )
    ),
)
Multinomial = primitive(
    "Multinomial",
    multinomial,
    dict(seed=0, seed2=0, dtype=_dtype.int32),
    lambda self, x, num_samples: wrap(
        multinomial(x, num_samples, True, _seed(self.attrs))._value.astype(
            np_dtype(self.attrs["dtype"])
        )
    ),
)
RandomCategorical = primitive(
    "RandomCategorical",
    random_categorical,
    dict(dtype=_dtype.int64),
    lambda self, logits, num_sample, seed=0: random_categorical(
        logits, num_sample, seed, self.attrs["dtype"]
    ),
)
Bernoulli = primitive(
    "Bernoulli",
    bernoulli,
    dict(seed=-1, offset=0),
    lambda self, x, p=0.5: bernoulli(x, p, self.attrs["seed"]),
)
RandomGamma = primitive(
    "RandomGamma",
    gamma,
    dict(seed=0, seed2=0),
    lambda self, shape, alpha, beta: gamma(shape, alpha, beta, _seed(self.attrs)),
)


def _randperm_call(self, n):
    length = self.attrs["max_length"]
    count = array(n, "Randperm", "n").reshape(())
    keys = jax.random.uniform(next_key(), (length,))
    keys = jnp.where(jnp.arange(length) < count, keys, jnp.inf)
    perm = jnp.argsort(keys)
    result = jnp.where(jnp.arange(length) < count, perm, self.attrs["pad"])
    return wrap(result.astype(np_dtype(self.attrs["dtype"])))


Randperm = primitive(
    "Randperm", randperm, dict(max_length=1, pad=-1, dtype=_dtype.int32), _randperm_call
)
