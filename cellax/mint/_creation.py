"""mint creation and random ops: adapters over :mod:`cellax.ops`."""

from __future__ import annotations

from .. import _dtype, ops
from ._common import cast, check_generator, size_args

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
full = ops.full
full_like = ops.full_like
ones_like = ops.ones_like
zeros_like = ops.zeros_like


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

    Differences from MindSpore: ``generator`` must be None (cellax.set_seed seeds the draws).

    Examples:
        >>> from cellax import mint
        >>> mint.rand(2, 3).shape
        (2, 3)
    """
    check_generator("rand", generator)
    return ops.rand(*size_args("rand", size), dtype=dtype)


def rand_like(input, *, generator=None, dtype=None, device=None):
    """Uniform samples in ``[0, 1)`` shaped like ``input``.

    Examples:
        >>> from cellax import mint
        >>> mint.rand_like(mint.ones((2, 3))).shape
        (2, 3)
    """
    check_generator("rand_like", generator)
    return ops.rand_like(input, dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples of shape ``size``.

    Examples:
        >>> from cellax import mint
        >>> mint.randn(4).shape
        (4,)
    """
    check_generator("randn", generator)
    return ops.randn(*size_args("randn", size), dtype=dtype)


def randn_like(input, *, generator=None, dtype=None, device=None):
    """Standard normal samples shaped like ``input``.

    Examples:
        >>> from cellax import mint
        >>> mint.randn_like(mint.ones(3)).shape
        (3,)
    """
    check_generator("randn_like", generator)
    return ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None, **kwargs):
    """Integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``.

    Examples:
        >>> from cellax import mint
        >>> out = mint.randint(0, 5, (3,))
        >>> out.shape, str(out.dtype)
        ((3,), 'Int64')
    """
    check_generator("randint", generator)
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
    return ops.randint(low, high, size, dtype=dtype or _dtype.int64)


def randint_like(input, *args, generator=None, dtype=None, device=None, **kwargs):
    """Integers in ``[low, high)`` shaped like ``input``: ``(input, high)`` or
    ``(input, low, high)``.

    Examples:
        >>> from cellax import mint
        >>> mint.randint_like(mint.ones(3), 10).shape
        (3,)
    """
    check_generator("randint_like", generator)
    high = kwargs.pop("high", args[-1] if args else None)
    low = kwargs.pop("low", args[0] if len(args) == 2 else 0)
    if high is None:
        raise TypeError("For 'randint_like', 'high' is required, but got None.")
    return ops.randint_like(input, low, high, dtype=dtype or _dtype.int64)


def randperm(n, *, generator=None, dtype=_dtype.int64, device=None):
    """A random permutation of ``range(n)``.

    Examples:
        >>> from cellax import mint
        >>> sorted(mint.randperm(4).asnumpy().tolist())
        [0, 1, 2, 3]
    """
    check_generator("randperm", generator)
    return ops.randperm(n, seed=None, dtype=dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples: ``normal(mean_tensor, std_tensor)`` broadcasts the two;
    ``normal(mean, std, size)`` draws ``size`` samples.

    Examples:
        >>> from cellax import mint
        >>> mint.normal(0.0, 1.0, (2, 3)).shape
        (2, 3)
    """
    check_generator("normal", generator)
    return ops.normal(() if size is None else size, mean, std)


def bernoulli(input, *, generator=None):
    """0/1 samples that are 1 with the probabilities held in ``input`` (same dtype).

    Examples:
        >>> from cellax import mint
        >>> print(mint.bernoulli(mint.ones(3)))
        [1. 1. 1.]
    """
    check_generator("bernoulli", generator)
    return ops.bernoulli(input, p=input)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Draw ``num_samples`` category indices (Int64) per row of the weights ``input``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.multinomial(mint.Tensor([0., 1.]), 2, replacement=True))
        [1 1]
    """
    check_generator("multinomial", generator)
    return ops.cast(ops.multinomial(input, num_samples, replacement), _dtype.int64)
