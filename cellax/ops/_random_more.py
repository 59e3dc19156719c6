"""Random ops of MindSpore 2.10's ``mindspore.ops`` list: ``random_gamma``,
``random_poisson``, ``multinomial_with_replacement``, ``choice_with_mask`` and the candidate
samplers ``uniform_candidate_sampler`` / ``log_uniform_candidate_sampler``.

Differences from MindSpore: the numbers drawn for a seed differ from MindSpore's (the
distributions, shapes and dtypes agree).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._random import next_key
from .._tensor import Tensor
from ._utils import arr, check_eager, check_int_arg, np_dtype, wrap

__all__ = [
    "random_gamma",
    "random_poisson",
    "multinomial_with_replacement",
    "choice_with_mask",
    "uniform_candidate_sampler",
    "log_uniform_candidate_sampler",
]


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
