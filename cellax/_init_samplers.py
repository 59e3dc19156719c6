"""Initializer classes and :func:`sample`: fill a new array of a given shape and dtype.

Random initializers draw from cellax's global key (``cellax.set_seed``). This module knows no
Tensor; :mod:`cellax._initializer` wraps its arrays (``initializer()``).
"""

from __future__ import annotations

import math
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from . import _core, _dtype
from ._limits import check_alloc, constructing_cell
from ._random import next_key

__all__ = [
    "Initializer",
    "Normal",
    "Uniform",
    "One",
    "Zero",
    "Constant",
    "XavierUniform",
    "XavierNormal",
    "HeUniform",
    "HeNormal",
    "TruncatedNormal",
    "Identity",
    "Orthogonal",
    "Dirac",
    "VarianceScaling",
    "Sparse",
    "sample",
]


def _fans(shape: tuple) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(
            f"For 'initializer', fan_in/fan_out need a shape with at least 2 dimensions, "
            f"but got {shape}."
        )
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity: str, param=None) -> float:
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"For 'initializer', unsupported nonlinearity {nonlinearity!r}.")


class _Sampler:
    """Random draws from one fresh global key.

    Eagerly the key seeds a NumPy generator: sampling on the host needs no XLA program, so
    building a network does not compile one program per Parameter shape (jax.random would).
    Inside a trace it uses jax.random on the key.
    """

    def __init__(self) -> None:
        key = next_key()
        self.key = key if _core.is_tracer(key) else None
        self.rng = (
            None
            if self.key is not None
            else np.random.default_rng(np.asarray(key, np.uint32).tolist())
        )

    def _split(self):
        self.key, sub = jax.random.split(self.key)
        return sub

    def normal(self, shape):
        if self.rng is None:
            return jax.random.normal(self._split(), shape, jnp.float32)
        return self.rng.standard_normal(shape, dtype=np.float32)

    def uniform(self, shape, low, high):
        if self.rng is None:
            return jax.random.uniform(self._split(), shape, jnp.float32, low, high)
        return self.rng.uniform(low, high, shape).astype(np.float32)

    def truncated_normal(self, shape, lower, upper):
        if self.rng is None:
            return jax.random.truncated_normal(self._split(), lower, upper, shape, jnp.float32)
        sample = self.rng.standard_normal(shape)
        for _ in range(100):
            outside = (sample < lower) | (sample > upper)
            if not outside.any():
                break
            sample[outside] = self.rng.standard_normal(int(outside.sum()))
        return np.clip(sample, lower, upper).astype(np.float32)

    def permutations(self, rows: int, columns: int):
        """``columns`` independent permutations of ``range(rows)``, one per column."""
        if self.rng is None:
            keys = jax.random.split(self._split(), columns)
            return jax.vmap(lambda k: jax.random.permutation(k, rows), out_axes=1)(keys)
        return np.stack([self.rng.permutation(rows) for _ in range(columns)], axis=1)


class Initializer:
    """Base class. A subclass implements either MindSpore's protocol ``_initialize(self, arr)``
    (fill the NumPy array ``arr``, zeros on entry, in place) or cellax's
    ``_generate(self, shape, np_dtype) -> jax.Array``."""

    def __init__(self, **kwargs) -> None:
        self._kwargs = kwargs

    def _generate(self, shape: tuple, np_dtype):
        if type(self)._initialize is Initializer._initialize:
            raise NotImplementedError(
                f"For '{type(self).__name__}', an Initializer subclass must implement "
                f"'_initialize(self, arr)' (fill the NumPy array in place), but got neither it "
                f"nor '_generate'."
            )
        host_dtype = np.float32 if np.dtype(np_dtype) == jnp.bfloat16 else np_dtype
        arr = np.zeros(shape, host_dtype)
        self._initialize(arr)
        return jnp.asarray(arr, np_dtype)

    def _initialize(self, arr):
        """Fill ``arr`` in place (what MindSpore's subclasses override)."""
        arr[...] = np.asarray(self._generate(tuple(arr.shape), arr.dtype))

    def __call__(self, arr):
        """Fill the NumPy array ``arr`` in place (MindSpore's Initializer protocol)."""
        self._initialize(arr)
        return arr

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    """Fill with 0."""

    def _generate(self, shape, np_dtype):
        return jnp.zeros(shape, np_dtype)


class One(Initializer):
    """Fill with 1."""

    def _generate(self, shape, np_dtype):
        return jnp.ones(shape, np_dtype)


class Constant(Initializer):
    """Fill with ``value``."""

    def __init__(self, value) -> None:
        super().__init__(value=value)
        self.value = value

    def _generate(self, shape, np_dtype):
        return jnp.full(shape, self.value, np_dtype)


class Normal(Initializer):
    """Normal distribution N(mean, sigma^2). Default: ``sigma=0.01, mean=0.0``."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _generate(self, shape, np_dtype):
        sample = _Sampler().normal(shape)
        return jnp.asarray(sample * self.sigma + self.mean, np_dtype)


class Uniform(Initializer):
    """Uniform distribution U(-scale, scale). Default: ``scale=0.07``."""

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _generate(self, shape, np_dtype):
        return jnp.asarray(_Sampler().uniform(shape, -self.scale, self.scale), np_dtype)


class TruncatedNormal(Initializer):
    """Normal N(mean, sigma^2) truncated to [a, b]. Default: ``sigma=0.01, mean=0, a=-2, b=2``."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _generate(self, shape, np_dtype):
        lower = (self.a - self.mean) / self.sigma
        upper = (self.b - self.mean) / self.sigma
        sample = _Sampler().truncated_normal(shape, lower, upper)
        return jnp.asarray(sample * self.sigma + self.mean, np_dtype)


class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return jnp.asarray(_Sampler().uniform(shape, -bound, bound), np_dtype)


class XavierNormal(Initializer):
    """Glorot normal: N(0, s^2) with s = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _fans(shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return jnp.asarray(_Sampler().normal(shape) * std, np_dtype)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"):
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(
                f"For '{type(self).__name__}', 'mode' must be 'fan_in' or 'fan_out', "
                f"but got {mode!r}."
            )
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape) -> float:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_He):
    """Kaiming uniform: U(-b, b) with b = gain * sqrt(3 / fan)."""

    def _generate(self, shape, np_dtype):
        bound = math.sqrt(3.0) * self._std(shape)
        return jnp.asarray(_Sampler().uniform(shape, -bound, bound), np_dtype)


class HeNormal(_He):
    """Kaiming normal: N(0, s^2) with s = gain / sqrt(fan)."""

    def _generate(self, shape, np_dtype):
        std = self._std(shape)
        return jnp.asarray(_Sampler().normal(shape) * std, np_dtype)


class Identity(Initializer):
    """The identity matrix (2-D shapes only)."""

    def _generate(self, shape, np_dtype):
        if len(shape) != 2:
            raise ValueError(f"For 'Identity', the shape must be 2-D, but got {shape}.")
        return jnp.eye(*shape, dtype=np_dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix scaled by ``gain``."""

    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        if len(shape) < 2:
            raise ValueError(f"For 'Orthogonal', the shape must be at least 2-D, got {shape}.")
        rows, columns = shape[0], int(np.prod(shape[1:]))
        sample = _Sampler().normal((max(rows, columns), min(rows, columns)))
        q, r = jnp.linalg.qr(sample) if _core.is_tracer(sample) else np.linalg.qr(sample)
        q = q * jnp.sign(jnp.diagonal(r))
        if rows < columns:
            q = q.T
        return jnp.asarray(self.gain * q.reshape(shape), np_dtype)


class Dirac(Initializer):
    """Dirac delta for convolution weights (3-D to 5-D shapes)."""

    def __init__(self, groups: int = 1) -> None:
        super().__init__(groups=groups)
        self.groups = groups

    def _generate(self, shape, np_dtype):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"For 'Dirac', the shape must be 3-D to 5-D, but got {shape}.")
        out = np.zeros(shape, np.float32)
        per_group = shape[0] // self.groups
        centre = tuple(s // 2 for s in shape[2:])
        for g in range(self.groups):
            for d in range(min(per_group, shape[1])):
                out[(g * per_group + d, d) + centre] = 1
        return jnp.asarray(out, np_dtype)


class VarianceScaling(Initializer):
    """Samples scaled to the fan: ``scale / fan`` variance, normal or uniform."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out}.get(self.mode, (fan_in + fan_out) / 2)
        variance = self.scale / max(1.0, fan)
        sampler = _Sampler()
        if self.distribution == "truncated_normal":
            # std of a unit normal truncated to [-2, 2]
            sample = sampler.truncated_normal(shape, -2.0, 2.0) * (
                math.sqrt(variance) / 0.87962566103423978
            )
        elif self.distribution == "untruncated_normal":
            sample = sampler.normal(shape) * math.sqrt(variance)
        else:
            limit = math.sqrt(3.0 * variance)
            sample = sampler.uniform(shape, -limit, limit)
        return jnp.asarray(sample, np_dtype)


class Sparse(Initializer):
    """2-D weight with a fraction ``sparsity`` of each column zero, the rest N(0, sigma^2)."""

    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def _generate(self, shape, np_dtype):
        if len(shape) != 2:
            raise ValueError(f"For 'Sparse', the shape must be 2-D, but got {shape}.")
        rows = shape[0]
        zeros = int(math.ceil(self.sparsity * rows))
        sampler = _Sampler()
        values = sampler.normal(shape) * self.sigma
        order = sampler.permutations(rows, shape[1])
        mask = order >= zeros
        return jnp.where(mask, values, 0).astype(np_dtype)


# MindSpore's names: each class name in lower case, plus a few snake_case aliases.
_BY_NAME = {
    "zeros": Zero,
    "zero": Zero,
    "ones": One,
    "one": One,
    "normal": Normal,
    "uniform": Uniform,
    "truncatednormal": TruncatedNormal,
    "xavier_uniform": XavierUniform,
    "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal,
    "xaviernormal": XavierNormal,
    "he_uniform": HeUniform,
    "heuniform": HeUniform,
    "he_normal": HeNormal,
    "henormal": HeNormal,
    "identity": Identity,
    "orthogonal": Orthogonal,
    "dirac": Dirac,
    "variancescaling": VarianceScaling,
    "sparse": Sparse,
}


def _check_shape(shape) -> tuple:
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(
        isinstance(d, numbers.Integral) and not isinstance(d, bool) and d > 0 for d in shape
    ):
        raise ValueError(
            f"For 'initializer', 'shape' must be a positive int or a tuple/list of positive "
            f"ints, but got {shape!r}."
        )
    return tuple(int(d) for d in shape)


def check_init_shape(init_shape, shape) -> None:
    """A Tensor (or array) given as ``init`` must have exactly ``shape`` (when given)."""
    if shape is not None:
        expected = _check_shape(shape)
        if tuple(init_shape) != expected:
            raise ValueError(
                f"For 'initializer', the shape {list(init_shape)} of the Tensor given as "
                f"'init' must equal 'shape' {list(expected)}."
            )


def sample(init, shape, dtype=_dtype.float32) -> jax.Array:
    """The array ``initializer(init, shape, dtype)`` holds for an Initializer, its name or a
    number (a Tensor given as ``init`` is the caller's case)."""
    type_ = _dtype.to_dtype(dtype)
    if not isinstance(init, (Initializer, numbers.Number, str)):
        raise TypeError(
            f"For 'initializer', 'init' must be a Tensor, str, Initializer or number, but got "
            f"{type(init).__name__}."
        )
    if shape is None:
        raise ValueError("For 'initializer', 'shape' is required unless 'init' is a Tensor.")
    shape = _check_shape(shape)
    itemsize = np.dtype(_dtype.dtype_to_nptype(type_)).itemsize
    cell = constructing_cell()  # a Cell's parameter: the error names the Cell the user built
    check_alloc(cell or "initializer", "shape" if cell is None else "a parameter", shape, itemsize)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise ValueError(
                f"For 'initializer', 'init' must name an initializer ({sorted(_BY_NAME)}), "
                f"but got {init!r}."
            )
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    return init._generate(shape, type_.np_dtype)
