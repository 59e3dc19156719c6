"""Random ops, all drawing from cellax's global key (``cellax.set_seed``) or a per-call seed.

The global key is a state slot, so the same code draws the same numbers eagerly and under
``cellax.jit``. A non-zero ``seed`` argument gives a fixed key (the same numbers every call).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import _dtype
from ..._limits import check_alloc
from ..._random import next_key
from ..._tensor import Tensor
from .dtype_rules import check_accepts
from .primitive import primitive
from .utils import alloc_shape, arr, check_eager, check_int_arg, np_dtype, to_float, wrap

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
    "random_gamma",
    "random_poisson",
    "multinomial_with_replacement",
    "choice_with_mask",
    "uniform_candidate_sampler",
    "log_uniform_candidate_sampler",
    "bernoulli_ext",
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
    x = arr(input, "rand_like", tensor=True)
    dtype = np_dtype(dtype) or (x.dtype if x.dtype.kind == "f" else jnp.float32)
    return wrap(jax.random.uniform(next_key(seed), x.shape, dtype))


def randn_like(input, seed=None, *, dtype=None):
    """Standard normal samples shaped like ``input``."""
    x = arr(input, "randn_like", tensor=True)
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
    a, b = to_float(arr(alpha, keep_scalars=False)), to_float(arr(beta, keep_scalars=False))
    batch = jnp.broadcast_shapes(a.shape, b.shape)
    full = alloc_shape("gamma", shape) + batch
    return wrap(
        jax.random.gamma(next_key(seed), jnp.broadcast_to(a, full), full, a.dtype)
        / jnp.broadcast_to(b, full)
    )


def poisson(shape, mean, seed=None):
    """Poisson samples (Float32) with rate ``mean``; shape ``shape + mean.shape``."""
    rate = to_float(arr(mean, keep_scalars=False))
    full = alloc_shape("poisson", shape) + rate.shape
    return wrap(jax.random.poisson(next_key(seed), rate, full).astype(jnp.float32))


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in ``[low, high)`` of shape ``size`` (Int64 by default).

    Raises:
        ValueError: If ``size`` is not a tuple (or list) of ints, an int or a Tensor.
        RuntimeError: If ``high <= low``, or ``low`` or ``high`` is outside the Int32 range
            (as in MindSpore 2.10).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.randint(0, 3, (5,))
        >>> print(x.dtype, bool(((x >= 0) & (x < 3)).all()))
        Int64 True
    """
    for name, value in (("low", low), ("high", high)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"For 'randint', '{name}' must be an int, but got {value!r}.")
        if not -(2**31) <= value < 2**31:  # MindSpore's kernel takes Int32 bounds
            raise RuntimeError(
                f"For 'randint', '{name}' must be in the Int32 range [-2**31, 2**31), but got "
                f"{value}."
            )
    if isinstance(low, int) and isinstance(high, int) and high <= low:
        raise RuntimeError(
            f"For 'randint', 'high' must be greater than 'low', but got low={low} and high={high}."
        )
    if isinstance(size, bool) or not isinstance(size, (tuple, list, int, np.integer, Tensor)):
        raise ValueError(f"For 'randint', 'size' must be a tuple of ints, but got {size!r}.")
    target = np_dtype(dtype) or jnp.int64
    shape = alloc_shape("randint", size, "size")
    return wrap(jax.random.randint(next_key(seed), shape, low, high, target))


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Integers in ``[low, high)`` shaped like ``input``."""
    x = arr(input, "randint_like", tensor=True)
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
    check_alloc("randperm", "n", (n,), 8)
    return wrap(jax.random.permutation(next_key(seed), n).astype(np_dtype(dtype)))


def bernoulli(input, p=0.5, seed=None):
    """0/1 samples (in ``input``'s dtype) that are 1 with probability ``p``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bernoulli(ms.ops.zeros(3), 1.0))
        [1. 1. 1.]
    """
    x = arr(input, "bernoulli", tensor=True)
    prob = arr(p, "bernoulli", "p", real=True)
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
    weights = arr(input, "multinomial", tensor=True)
    check_accepts("multinomial", weights)
    weights = to_float(weights)
    if weights.ndim not in (1, 2):
        raise ValueError(
            f"For 'multinomial', 'input' must be 1-D or 2-D, but got shape {tuple(weights.shape)}."
        )
    check_int_arg("multinomial", "num_samples", num_samples, 1)
    if not replacement and num_samples > weights.shape[-1]:
        raise ValueError(
            f"For 'multinomial', 'num_samples' must be at most the number of "
            f"categories ({weights.shape[-1]}) without replacement, but got "
            f"{num_samples}."
        )
    # the draws compare every sample with every category
    check_alloc("multinomial", "num_samples", weights.shape + (num_samples,), 4)
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
    values = to_float(arr(logits, "random_categorical", "logits", keep_scalars=False))
    num_sample = check_int_arg("random_categorical", "num_sample", num_sample, 1)
    shape = values.shape[:-1] + (num_sample,)
    draws = jax.random.categorical(next_key(seed), values[..., None, :], axis=-1, shape=shape)
    return wrap(draws.astype(np_dtype(dtype)))


def shuffle(x, seed=None):
    """Shuffle along dim 0."""
    value = arr(x, "shuffle", "x", keep_scalars=False)
    return wrap(jax.random.permutation(next_key(seed), value, axis=0))


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
    count = arr(n, "Randperm", "n", keep_scalars=False).reshape(())
    keys = jax.random.uniform(next_key(), (length,))
    keys = jnp.where(jnp.arange(length) < count, keys, jnp.inf)
    perm = jnp.argsort(keys)
    result = jnp.where(jnp.arange(length) < count, perm, self.attrs["pad"])
    return wrap(result.astype(np_dtype(self.attrs["dtype"])))


Randperm = primitive(
    "Randperm", randperm, dict(max_length=1, pad=-1, dtype=_dtype.int32), _randperm_call
)


def _shape(api, shape):
    if not isinstance(shape, Tensor):
        raise TypeError(f"For '{api}', 'shape' must be a 1-D int Tensor, but got {shape!r}.")
    values = shape.asnumpy()
    if values.ndim != 1 or values.dtype.kind not in "iu" or (values < 0).any():
        raise ValueError(f"For '{api}', 'shape' must be a 1-D Tensor of non-negative ints.")
    return tuple(int(v) for v in values)


def _key(seed):
    return next_key(None if seed is None or seed < 0 else seed)


def random_gamma(shape, alpha, seed=None):
    """Gamma samples of concentration ``alpha`` (rate 1), of shape ``shape + alpha.shape``.

    Args:
        shape (Tensor): 1-D int Tensor.
        alpha (Tensor): Float concentrations.
        seed (int, optional): Per-op seed. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> shape = ms.Tensor(np.array([2, 3], np.int32))
        >>> ms.ops.random_gamma(shape, ms.Tensor(np.array([1.0, 2.0], np.float32))).shape
        (2, 3, 2)
    """
    api = "random_gamma"
    dims = _shape(api, shape)
    a = arr(alpha, api, "alpha")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{api}', 'alpha' must be a float Tensor, but got {a.dtype}.")
    return wrap(jax.random.gamma(_key(seed), a, dims + a.shape, a.dtype))


def random_poisson(shape, rate, seed=None, dtype=None):
    """Poisson samples of ``rate``, of shape ``shape + rate.shape`` (Float32 by default).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> shape = ms.Tensor(np.array([4], np.int32))
        >>> ms.ops.random_poisson(shape, ms.Tensor(np.array([1.0, 5.0], np.float32))).shape
        (4, 2)
    """
    api = "random_poisson"
    dims = _shape(api, shape)
    lam = arr(rate, api, "rate")
    target = np.float32 if dtype is None else np_dtype(dtype)
    draw = jax.random.poisson(_key(seed), lam, dims + lam.shape)
    return wrap(draw.astype(target))


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """``numsamples`` category indices (Int64) per row of the probabilities ``x``.

    Args:
        x (Tensor): 1-D or 2-D non-negative weights.
        seed (int): The seed (with ``offset``; both 0 draws from the global key).
        offset (int): Added to the seed.
        numsamples (int): Samples per row.
        replacement (bool): Draw with replacement. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.0, 1.0, 0.0]], np.float32))
        >>> print(ms.ops.multinomial_with_replacement(x, 1, 0, 4, True))
        [[1 1 1 1]]
    """
    api = "multinomial_with_replacement"
    weights = arr(x, api, "x")
    seed = check_int_arg(api, "seed", seed)
    offset = check_int_arg(api, "offset", offset)
    numsamples = check_int_arg(api, "numsamples", numsamples, 1)
    single = weights.ndim == 1
    weights = jnp.atleast_2d(weights)
    if not replacement and numsamples > weights.shape[-1]:
        raise ValueError(
            f"For '{api}', 'numsamples' ({numsamples}) can not exceed the number of categories "
            f"({weights.shape[-1]}) without replacement."
        )
    key = _key(int(seed) + int(offset) if (seed or offset) else None)
    logits = jnp.log(weights)
    if replacement:
        draw = jax.random.categorical(key, logits, axis=-1, shape=(numsamples, weights.shape[0]))
        draw = draw.T
    else:  # Gumbel top-k: samples without replacement
        gumbel = jax.random.gumbel(key, weights.shape)
        draw = jax.lax.top_k(logits + gumbel, numsamples)[1]
    draw = draw.astype(np.int64)
    return wrap(draw[0] if single else draw)


def choice_with_mask(input_x, count=256, seed=None):
    """``count`` random positions of the True entries of the bool ``input_x`` (as Int32
    index rows), padded with zeros, and a mask of which rows are real.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> index, mask = ms.ops.choice_with_mask(ms.Tensor(np.array([[True, False]])), 2)
        >>> print(index, mask)
        [[0 0]
         [0 0]] [ True False]
    """
    api = "choice_with_mask"
    data = arr(input_x, api, "input_x")
    if data.dtype != np.bool_:
        raise TypeError(f"For '{api}', 'input_x' must be a bool Tensor, but got {data.dtype}.")
    check_eager(api, data, hint="The number of True entries depends on the data.")
    positions = np.argwhere(np.asarray(data)).astype(np.int32)
    order = np.asarray(jax.random.permutation(_key(seed), positions.shape[0]))
    chosen = positions[order[:count]]
    index = np.zeros((count, data.ndim), np.int32)
    index[: chosen.shape[0]] = chosen
    mask = np.arange(count) < chosen.shape[0]
    return wrap(jnp.asarray(index)), wrap(jnp.asarray(mask))


def _candidates(api, true_classes, num_true, num_sampled, unique, range_max, seed, prob):
    classes = arr(true_classes, api, "true_classes")
    num_true = check_int_arg(api, "num_true", num_true, 1)
    num_sampled = check_int_arg(api, "num_sampled", num_sampled, 1)
    range_max = check_int_arg(api, "range_max", range_max, 1)
    if not isinstance(unique, bool):
        raise TypeError(f"For '{api}', 'unique' must be a bool, but got {unique!r}.")
    if classes.ndim != 2 or classes.shape[1] != num_true:
        raise ValueError(f"For '{api}', 'true_classes' must have shape (batch, {num_true}).")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{api}', 'num_sampled' can not exceed 'range_max' when unique.")
    p = prob(jnp.arange(range_max, dtype=np.float32))
    key = _key(seed if seed else None)
    if unique:
        sampled = jax.lax.top_k(jnp.log(p) + jax.random.gumbel(key, p.shape), num_sampled)[1]
    else:
        sampled = jax.random.categorical(key, jnp.log(p), shape=(num_sampled,))
    # the expected counts are num_sampled * P(c), unique or not (MindSpore 2.10's values)
    return (
        wrap(sampled.astype(classes.dtype)),
        wrap((p[classes] * num_sampled).astype(np.float32)),
        wrap((p[sampled] * num_sampled).astype(np.float32)),
    )


def uniform_candidate_sampler(
    true_classes, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False
):
    """Sample ``num_sampled`` classes uniformly from ``[0, range_max)``: returns
    ``(sampled, true_expected_count, sampled_expected_count)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> out = ms.ops.uniform_candidate_sampler(ms.Tensor(np.array([[1], [3]])), 1, 3, True, 5)
        >>> print(out[0].shape, out[1])
        (3,) [[0.6]
         [0.6]]
    """
    return _candidates(
        "uniform_candidate_sampler", true_classes, num_true, num_sampled, unique, range_max,
        seed, lambda c: jnp.full(c.shape, 1.0 / range_max),
    )  # fmt: skip


def log_uniform_candidate_sampler(
    true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0
):
    """Sample classes from the log-uniform (Zipfian) distribution
    ``P(c) = log((c + 2) / (c + 1)) / log(range_max + 1)``: returns
    ``(sampled, true_expected_count, sampled_expected_count)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> out = ms.ops.log_uniform_candidate_sampler(ms.Tensor(np.array([[1], [3]])), 1, 3)
        >>> print(out[1].asnumpy().round(4))
        [[0.6789]
         [0.3736]]
    """
    return _candidates(
        "log_uniform_candidate_sampler", true_classes, num_true, num_sampled, unique, range_max,
        seed, lambda c: jnp.log((c + 2) / (c + 1)) / np.log(range_max + 1),
    )  # fmt: skip


def bernoulli_ext(input, *, generator=None):
    """0/1 samples that are 1 with the probabilities ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bernoulli_ext(ms.Tensor([0.0, 1.0])))
        [0. 1.]
    """
    seed = None
    if generator is not None:
        s, offset = generator._step(1)
        seed = (s * 1_000_003 + offset) % (2**31 - 1) + 1
    return bernoulli(input, p=input, seed=seed)
