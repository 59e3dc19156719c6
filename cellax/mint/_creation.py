"""mint creation and random ops: adapters over :mod:`cellax.ops`."""

from __future__ import annotations

from .. import _dtype, ops
from ._common import cast, generator_seed, size_args

__all__ = [
    "arange",
    "eye",
    "full",
    "full_like",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
    "empty",
    "empty_like",
    "linspace",
    "clone",
    "rand",
    "rand_like",
    "randn",
    "randn_like",
    "randint",
    "randint_like",
    "randperm",
    "normal",
    "bernoulli",
    "multinomial",
]

arange = ops.arange
eye = ops.eye
full_like = ops.full_like
ones_like = ops.ones_like
zeros_like = ops.zeros_like


def _fill_dtype(fill_value):
    """mint.full's dtype when none is given: the fill value's own kind."""
    if hasattr(fill_value, "dtype"):
        return fill_value.dtype
    if isinstance(fill_value, bool):
        return _dtype.bool_
    if isinstance(fill_value, int):
        return _dtype.int64
    if isinstance(fill_value, complex):
        return _dtype.complex64
    return _dtype.float32


def full(size, fill_value, *, dtype=None):
    """A Tensor of ``size`` filled with ``fill_value``.

    Unlike :func:`cellax.ops.full` (Int64 unless ``dtype`` is given), the dtype follows
    ``fill_value`` when ``dtype`` is None: Bool for a bool, Int64 for an int, Float32 for a
    float, a Tensor's own dtype.

    Args:
        size (Union[tuple[int], list[int]]): The shape.
        fill_value (Union[number, Tensor]): The value.
        dtype (cellax.dtype): The result dtype. Default: ``None``.

    Returns:
        Tensor of shape ``size``.

    Raises:
        TypeError: If ``size`` is not a tuple or list.

    Examples:
        >>> from cellax import mint
        >>> print(mint.full((2,), 1.5))
        [1.5 1.5]
        >>> print(mint.full((2,), 3).dtype)
        Int64
    """
    return ops.full(size, fill_value, dtype=_fill_dtype(fill_value) if dtype is None else dtype)


def ones(size, *, dtype=None):
    """A Tensor of ones of shape ``size`` (Float32 by default).

    Examples:
        >>> from cellax import mint
        >>> print(mint.ones((2, 2)))
        [[1. 1.]
         [1. 1.]]
    """
    return ops.ones(size, dtype if dtype is not None else _dtype.float32)


def zeros(size, *, dtype=None):
    """A Tensor of zeros of shape ``size`` (Float32 by default).

    Examples:
        >>> from cellax import mint
        >>> print(mint.zeros(3, dtype=mint.Tensor([1]).dtype))
        [0 0 0]
    """
    return ops.zeros(size, dtype if dtype is not None else _dtype.float32)


def empty(*size, dtype=None, device=None, pin_memory=False):
    """An uninitialised Tensor of shape ``size`` (cellax fills it with zeros).

    Examples:
        >>> from cellax import mint
        >>> mint.empty(2, 3).shape
        (2, 3)
    """
    return ops.empty(*size_args("empty", size), dtype=dtype, device=device)


def empty_like(input, *, dtype=None, device=None, pin_memory=False):
    """An uninitialised Tensor shaped like ``input`` (cellax fills it with zeros).

    Examples:
        >>> from cellax import mint
        >>> mint.empty_like(mint.ones((2, 3))).shape
        (2, 3)
    """
    return ops.empty_like(input, dtype=dtype, device=device)


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end`` (Float32 by default).

    Examples:
        >>> from cellax import mint
        >>> print(mint.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    return cast(ops.linspace(start, end, steps), dtype)


def clone(input):
    """A copy of ``input`` (same values, dtype and shape).

    Examples:
        >>> from cellax import mint
        >>> print(mint.clone(mint.ones(2)))
        [1. 1.]
    """
    return ops.cast(input, input.dtype)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples in ``[0, 1)`` of shape ``size``.

    ``generator`` (a :class:`cellax.Generator`) gives reproducible draws independent of the
    global seed; None draws from the key of ``cellax.set_seed``. The same holds for every mint
    random function.

    Differences from MindSpore: the numbers drawn for a given seed differ from MindSpore's.

    Examples:
        >>> from cellax import mint
        >>> mint.rand(2, 3).shape
        (2, 3)
    """
    seed = generator_seed("rand", generator)
    return ops.rand(*size_args("rand", size), dtype=dtype, seed=seed)


def rand_like(input, *, generator=None, dtype=None, device=None):
    """Uniform samples in ``[0, 1)`` shaped like ``input``.

    Examples:
        >>> from cellax import mint
        >>> mint.rand_like(mint.ones((2, 3))).shape
        (2, 3)
    """
    return ops.rand_like(input, generator_seed("rand_like", generator), dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples of shape ``size``.

    Examples:
        >>> from cellax import mint
        >>> mint.randn(4).shape
        (4,)
    """
    seed = generator_seed("randn", generator)
    return ops.randn(*size_args("randn", size), dtype=dtype, seed=seed)


def randn_like(input, *, generator=None, dtype=None, device=None):
    """Standard normal samples shaped like ``input``.

    Examples:
        >>> from cellax import mint
        >>> mint.randn_like(mint.ones(3)).shape
        (3,)
    """
    return ops.randn_like(input, generator_seed("randn_like", generator), dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None, **kwargs):
    """Integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``.

    Examples:
        >>> from cellax import mint
        >>> out = mint.randint(0, 5, (3,))
        >>> out.shape, str(out.dtype)
        ((3,), 'Int64')
    """
    seed = generator_seed("randint", generator)
    low = kwargs.pop("low", None)
    high = kwargs.pop("high", None)
    size = kwargs.pop("size", None)
    if kwargs:
        raise TypeError(f"For 'randint', got unexpected keyword arguments {sorted(kwargs)}.")
    args = list(args)
    if size is None and args:
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None:
        low = args.pop() if args else 0
    if args or high is None or size is None:
        raise TypeError("For 'randint', expected randint(low=0, high, size), but got bad args.")
    return ops.randint(low, high, size, seed, dtype=dtype or _dtype.int64)


def randint_like(input, *args, generator=None, dtype=None, device=None, **kwargs):
    """Integers in ``[low, high)`` shaped like ``input`` (and of its dtype unless ``dtype`` is
    given): ``(input, high)`` or ``(input, low, high)``.

    Examples:
        >>> from cellax import mint
        >>> mint.randint_like(mint.ones(3), 10).shape
        (3,)
    """
    seed = generator_seed("randint_like", generator)
    high = kwargs.pop("high", args[-1] if args else None)
    low = kwargs.pop("low", args[0] if len(args) == 2 else 0)
    if high is None:
        raise TypeError("For 'randint_like', 'high' is required, but got None.")
    draws = ops.randint_like(input, low, high, seed, dtype=_dtype.int64)
    return ops.cast(draws, dtype or input.dtype)


def randperm(n, *, generator=None, dtype=_dtype.int64, device=None):
    """A random permutation of ``range(n)``.

    Examples:
        >>> from cellax import mint
        >>> sorted(mint.randperm(4).asnumpy().tolist())
        [0, 1, 2, 3]
    """
    return ops.randperm(n, seed=generator_seed("randperm", generator), dtype=dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples: ``normal(mean_tensor, std_tensor)`` broadcasts the two;
    ``normal(mean, std, size)`` draws ``size`` samples.

    Examples:
        >>> from cellax import mint
        >>> mint.normal(0.0, 1.0, (2, 3)).shape
        (2, 3)
    """
    seed = generator_seed("normal", generator)
    return ops.normal(() if size is None else size, mean, std, seed)


def bernoulli(input, *, generator=None):
    """0/1 samples that are 1 with the probabilities held in ``input`` (same dtype).

    Examples:
        >>> from cellax import mint
        >>> print(mint.bernoulli(mint.ones(3)))
        [1. 1. 1.]
    """
    return ops.bernoulli(input, p=input, seed=generator_seed("bernoulli", generator))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Draw ``num_samples`` category indices (Int64) per row of the weights ``input``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.multinomial(mint.Tensor([0., 1.]), 2, replacement=True))
        [1 1]
    """
    seed = generator_seed("multinomial", generator)
    draws = ops.multinomial(input, num_samples, replacement, seed)
    return ops.cast(draws, _dtype.int64)
