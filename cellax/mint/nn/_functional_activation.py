"""mint.nn.functional activations (and their in-place ``_`` forms): adapters over cellax.ops."""

from __future__ import annotations

from ... import ops
from ...ops._impl.dtype_rules import check_accepts
from ...ops._impl.utils import arr, check_axis, check_real

_SAME = [
    "hardshrink", "hardsigmoid", "hardswish", "prelu", "relu", "sigmoid", "softplus",
    "softshrink", "tanh",
]  # fmt: skip
globals().update({name: getattr(ops, name) for name in _SAME})

__all__ = _SAME + [
    "elu", "elu_", "gelu", "glu", "hardtanh", "hardtanh_", "leaky_relu", "log_softmax",
    "logsigmoid", "mish", "relu6", "relu_", "selu", "sigmoid_", "silu", "softmax",
    "threshold", "threshold_",
]  # fmt: skip


def _inplace(input, out):
    input.assign_value(out)
    return input


def _elu(input, alpha):
    # ops.elu takes alpha == 1.0 only (MindSpore 2.10's ops rule); mint takes any alpha:
    # elu(x) is x for x > 0 and exp(x) - 1 elsewhere, which alpha scales.
    out = ops.elu(input)
    return out if alpha == 1 else ops.where(input > 0, out, out * float(alpha))


def elu(input, alpha=1.0, inplace=False):
    """Exponential linear unit: ``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``, for any
    ``alpha`` (unlike :func:`cellax.ops.elu`, which takes ``1.0`` only).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.elu(mint.Tensor([1., 0.])))
        [1. 0.]
        >>> print(mint.nn.functional.elu(mint.Tensor([-1., 2.]), 0.5))
        [-0.31606027  2.        ]
    """
    out = _elu(input, check_real("elu", "alpha", alpha))
    return _inplace(input, out) if inplace else out


def elu_(input, alpha=1.0):
    """In-place :func:`elu`: ``input`` takes the result and is returned.

    Examples:
        >>> from cellax import mint
        >>> x = mint.Tensor([1., 0.])
        >>> _ = mint.nn.functional.elu_(x)
        >>> print(x)
        [1. 0.]
    """
    return _inplace(input, _elu(input, alpha))


def gelu(input, *, approximate="none"):
    """Gaussian error linear unit; ``approximate`` is ``'none'`` (erf) or ``'tanh'``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.gelu(mint.Tensor([0.])))
        [0.]
    """
    return ops.gelu(input, approximate)


def glu(input, dim=-1):
    """Gated linear unit: the first half of ``dim`` times the sigmoid of the second half.

    Raises:
        TypeError: If ``input`` is not a Tensor or ``dim`` not an int.
        IndexError: If ``dim`` is out of range (as MindSpore's ``GLU``).
        RuntimeError: If ``input`` is 0-D or the size of ``dim`` is odd (as MindSpore's
            ``GLU``).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.glu(mint.Tensor([2., 0.])))
        [1.]
    """
    x = arr(input, "glu", tensor=True)
    if x.ndim == 0:
        raise RuntimeError(
            "For 'glu', 'input' must have at least 1 dimension (the halving dimension must be "
            "even), but got a 0-d Tensor."
        )
    axis = check_axis("glu", dim, x.ndim, "dim", error=IndexError)
    if x.shape[axis] % 2:
        raise RuntimeError(
            f"For 'glu', the size of dimension 'dim' ({dim}) must be even, but got shape "
            f"{tuple(x.shape)}."
        )
    return ops.glu(input, axis)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """Clip into ``[min_val, max_val]``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.hardtanh(mint.Tensor([-2., 0.5, 2.])))
        [-1.   0.5  1. ]
    """
    out = ops.hardtanh(input, min_val, max_val)
    return _inplace(input, out) if inplace else out


def hardtanh_(input, min_val=-1, max_val=1):
    """In-place :func:`hardtanh`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.hardtanh_(mint.Tensor([2.])))
        [1.]
    """
    return _inplace(input, ops.hardtanh(input, min_val, max_val))


def leaky_relu(input, negative_slope=0.01):
    """``x`` if ``x >= 0`` else ``negative_slope * x``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.leaky_relu(mint.Tensor([-1., 1.])))
        [-0.01  1.  ]
    """
    # MindSpore's LeakyReLUExt takes float Tensors only (ops.leaky_relu takes any)
    check_accepts("leaky_relu", arr(input, "leaky_relu", tensor=True), rule="leaky_relu_ext")
    return ops.leaky_relu(input, negative_slope)


def log_softmax(input, dim=None, *, dtype=None):
    """Log of the softmax along ``dim`` (the last dimension when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.log_softmax(mint.Tensor([0., 0.])))
        [-0.6931472 -0.6931472]
    """
    if dtype is not None:
        input = ops.cast(input, dtype)
    return ops.log_softmax(input, -1 if dim is None else dim)


def logsigmoid(input):
    """``log(sigmoid(input))``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.logsigmoid(mint.Tensor([0.])))
        [-0.6931472]
    """
    return ops.logsigmoid(input)


def mish(input):
    """``input * tanh(softplus(input))``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.mish(mint.Tensor([0.])))
        [0.]
    """
    return ops.mish(input)


def relu6(input, inplace=False):
    """``min(max(input, 0), 6)``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.relu6(mint.Tensor([-1., 7.])))
        [0. 6.]
    """
    out = ops.relu6(input)
    return _inplace(input, out) if inplace else out


def relu_(input):
    """In-place ReLU.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.relu_(mint.Tensor([-1., 2.])))
        [0. 2.]
    """
    return _inplace(input, ops.relu(input))


def selu(input):
    """Scaled exponential linear unit.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.selu(mint.Tensor([0.])))
        [0.]
    """
    return ops.selu(input)


def sigmoid_(input):
    """In-place sigmoid.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.sigmoid_(mint.Tensor([0.])))
        [0.5]
    """
    return _inplace(input, ops.sigmoid(input))


def silu(input, inplace=False):
    """``input * sigmoid(input)``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.silu(mint.Tensor([0.])))
        [0.]
    """
    out = ops.silu(input)
    return _inplace(input, out) if inplace else out


def softmax(input, dim=None, dtype=None):
    """Softmax along ``dim`` (the last dimension when None).

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.softmax(mint.Tensor([0., 0.])))
        [0.5 0.5]
        >>> print(mint.nn.functional.softmax(mint.Tensor(3.0), 0))
        1.0

    Raises:
        TypeError: If ``input`` is not a Tensor or ``dim`` not an int.
        ValueError: If ``dim`` is out of range (IndexError for a 0-D input, which takes 0 or
            -1), as in MindSpore.
    """
    x = arr(input, "softmax", tensor=True)
    error = IndexError if x.ndim == 0 else ValueError
    dim = check_axis("softmax", -1 if dim is None else dim, x.ndim, "dim", error=error)
    if x.ndim == 0:  # MindSpore's softmax of a 0-D Tensor: its one element's, 1
        return ops.softmax(ops.reshape(input, (1,)), 0, dtype=dtype).reshape(())
    return ops.softmax(input, dim, dtype=dtype)


def threshold(input, threshold, value, inplace=False):
    """``input`` where ``input > threshold``, else ``value``.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.threshold(mint.Tensor([1., 3.]), 2., 0.))
        [0. 3.]
    """
    out = ops.threshold(input, threshold, value)
    return _inplace(input, out) if inplace else out


def threshold_(input, threshold, value):
    """In-place :func:`threshold`.

    Examples:
        >>> from cellax import mint
        >>> print(mint.nn.functional.threshold_(mint.Tensor([1., 3.]), 2., 0.))
        [0. 3.]
    """
    return _inplace(input, ops.threshold(input, threshold, value))
