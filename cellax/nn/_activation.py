"""Activation layers and :func:`get_activation`.

Each Cell applies one elementwise (or axis-wise) function to the unwrapped array; the math is
JAX's own (``jax.nn``) where JAX has the function.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import ops
from .._errors import check_positive_int
from .._initializer import initializer
from .._limits import check_alloc
from .._parameter import Parameter
from .._tensor import Tensor
from ..ops._impl.dtype_rules import check_accepts
from ..ops._impl.utils import arr, check_axis, check_min_rank, check_real, to_float, wrap
from ._cell import Cell

__all__ = [
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "PReLU",
    "GELU",
    "FastGelu",
    "SiLU",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "LogSoftmax",
    "Softmin",
    "ELU",
    "SeLU",
    "CELU",
    "HSwish",
    "HSigmoid",
    "Hardtanh",
    "Softsign",
    "Mish",
    "LogSigmoid",
    "Tanhshrink",
    "HShrink",
    "SoftShrink",
    "GLU",
    "get_activation",
]


class _Elementwise(Cell):
    """An activation without state: ``construct`` applies ``_fn`` to the float input."""

    def _fn(self, x):
        raise NotImplementedError

    def construct(self, x):
        value = arr(x, tensor=True)
        check_accepts(type(self).__name__, value)  # float-only Cells (dtype_rules.ACCEPTS)
        return wrap(self._fn(to_float(value)))


class ReLU(_Elementwise):
    """Rectified linear unit: ``max(x, 0)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ReLU()(ms.Tensor([-1.0, 2.0])))
        [0. 2.]
    """

    def construct(self, x):
        arr(x, "ReLU", "x", tensor=True)  # a Tensor: MindSpore refuses a Python number
        return ops.relu(x)


class ReLU6(_Elementwise):
    """``min(max(x, 0), 6)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ReLU6()(ms.Tensor([-1.0, 7.0])))
        [0. 6.]
    """

    def _fn(self, x):
        return jax.nn.relu6(x)


class LeakyReLU(_Elementwise):
    """``x`` for ``x >= 0`` else ``alpha * x``. Default: ``alpha=0.2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.LeakyReLU(0.1)(ms.Tensor([-1.0, 2.0])))
        [-0.1  2. ]
    """

    def __init__(self, alpha=0.2) -> None:
        super().__init__()
        self.alpha = check_real("LeakyReLU", "alpha", alpha)

    def _fn(self, x):
        return jnp.where(x >= 0, x, x * self.alpha)


class PReLU(Cell):
    r"""Parametric ReLU: ``x`` for ``x >= 0`` else ``a * x`` with a learned ``a`` per channel
    (dim 1), or one shared value.

    Args:
        channel (int): The number of learned slopes (1 or the channel count). Default: ``1``.
        w (Union[float, list, Tensor]): Initial slope(s). Default: ``0.25``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.PReLU()
        >>> print(net(ms.Tensor([[-2.0, 2.0]])))
        [[-0.5  2. ]]
        >>> net.a
        Parameter (name=a, shape=(1,), dtype=Float32, requires_grad=True)
    """

    def __init__(self, channel=1, w=0.25) -> None:
        super().__init__()
        self.channel = check_positive_int("PReLU", "channel", channel)
        check_alloc("PReLU", "channel", (channel,), 4)
        if isinstance(w, (int, float)):
            w = [float(w)] * channel
        w = w if isinstance(w, Tensor) else Tensor(w)
        self.a = Parameter(initializer(w, (channel,)), name="a")

    def construct(self, x):
        value = arr(x, tensor=True)
        check_accepts("PReLU", value)
        a = self.a._value
        if value.ndim >= 2:
            if self.channel not in (1, value.shape[1]):
                raise ValueError(
                    f"For 'PReLU', 'channel' {self.channel} must be 1 or the channel dimension "
                    f"of 'x', but got x.shape={tuple(value.shape)}."
                )
            a = a.reshape((1, -1) + (1,) * (value.ndim - 2))
        return wrap(jnp.where(value >= 0, value, value * a))


class GELU(_Elementwise):
    r"""Gaussian error linear unit; the tanh approximation when ``approximate`` is True.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.GELU(approximate=False)(ms.Tensor([0.0, 1.0])).asnumpy().round(4))
        [0.     0.8413]
    """

    def __init__(self, approximate=True) -> None:
        super().__init__()
        self.approximate = approximate

    def _fn(self, x):
        return jax.nn.gelu(x, approximate=bool(self.approximate))


class FastGelu(_Elementwise):
    r"""Fast GELU: :math:`x / (1 + e^{-1.702 |x|}) e^{0.851 (x - |x|)}`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.FastGelu()(ms.Tensor([0.0, 1.0])).asnumpy().round(4))
        [0.     0.8458]
    """

    def _fn(self, x):
        ax = jnp.abs(x)
        return x / (1 + jnp.exp(-1.702 * ax)) * jnp.exp(0.851 * (x - ax))


class SiLU(_Elementwise):
    """``x * sigmoid(x)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.SiLU()(ms.Tensor([0.0])))
        [0.]
    """

    def _fn(self, x):
        return jax.nn.silu(x)


class Sigmoid(_Elementwise):
    """Logistic sigmoid ``1 / (1 + exp(-x))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Sigmoid()(ms.Tensor([0.0])))
        [0.5]
    """

    def construct(self, x):
        arr(x, "Sigmoid", "x", tensor=True)  # a Tensor: MindSpore refuses a Python number
        return ops.sigmoid(x)


class Tanh(_Elementwise):
    """Hyperbolic tangent.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Tanh()(ms.Tensor([0.0])))
        [0.]
    """

    def _fn(self, x):
        return jnp.tanh(x)


class _AxisActivation(Cell):
    def __init__(self, axis=-1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x):
        value = check_min_rank(
            type(self).__name__, to_float(arr(x, type(self).__name__, "x", tensor=True)), name="x"
        )
        check_axis(type(self).__name__, self.axis, value.ndim)
        return wrap(self._fn(value, self.axis))


class Softmax(_AxisActivation):
    """Softmax along ``axis``. Default: ``axis=-1``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Softmax()(ms.Tensor([0.0, 0.0])))
        [0.5 0.5]
    """

    def construct(self, x):
        check_accepts("Softmax", arr(x, "Softmax", "x", tensor=True))
        return ops.softmax(x, self.axis)


class LogSoftmax(_AxisActivation):
    """Log of the softmax along ``axis``. Default: ``axis=-1``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.LogSoftmax()(ms.Tensor([0.0, 0.0])).asnumpy().round(4))
        [-0.6931 -0.6931]
    """

    @staticmethod
    def _fn(x, axis):
        return jax.nn.log_softmax(x, axis=axis)


class Softmin(_AxisActivation):
    """Softmax of ``-x`` along ``axis``. Default: ``axis=-1``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Softmin()(ms.Tensor([0.0, 0.0])))
        [0.5 0.5]
    """

    @staticmethod
    def _fn(x, axis):
        return jax.nn.softmax(-x, axis=axis)


class ELU(_Elementwise):
    """``x`` for ``x > 0`` else ``alpha * (exp(x) - 1)``. Default: ``alpha=1.0``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.ELU()(ms.Tensor([0.0, 1.0])))
        [0. 1.]
    """

    def __init__(self, alpha=1.0) -> None:
        super().__init__()
        self.alpha = check_real("ELU", "alpha", alpha)

    def _fn(self, x):
        return jax.nn.elu(x, self.alpha)


class SeLU(_Elementwise):
    """Scaled ELU with the self-normalising constants.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.SeLU()(ms.Tensor([0.0])))
        [0.]
    """

    def _fn(self, x):
        return jax.nn.selu(x)


class CELU(_Elementwise):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``. Default: ``alpha=1.0``.

    Raises:
        ValueError: If ``alpha`` is 0.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.CELU()(ms.Tensor([0.0, 1.0])))
        [0. 1.]
    """

    def __init__(self, alpha=1.0) -> None:
        super().__init__()
        if alpha == 0:
            raise ValueError("For 'CELU', 'alpha' must not be 0, but got 0.")
        self.alpha = alpha

    def _fn(self, x):
        return jax.nn.celu(x, self.alpha)


class HSwish(_Elementwise):
    """Hard swish: ``x * relu6(x + 3) / 6``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.HSwish()(ms.Tensor([-3.0, 3.0])))
        [-0.  3.]
    """

    def _fn(self, x):
        return x * jax.nn.relu6(x + 3) / 6


class HSigmoid(_Elementwise):
    """Hard sigmoid: ``relu6(x + 3) / 6``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.HSigmoid()(ms.Tensor([0.0])))
        [0.5]
    """

    def _fn(self, x):
        return jax.nn.relu6(x + 3) / 6


class Hardtanh(_Elementwise):
    """Clip to ``[min_val, max_val]``. Defaults: ``-1.0``, ``1.0``.

    Raises:
        ValueError: If ``min_val`` > ``max_val``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Hardtanh()(ms.Tensor([-2.0, 0.5, 2.0])))
        [-1.   0.5  1. ]
    """

    def __init__(self, min_val=-1.0, max_val=1.0) -> None:
        super().__init__()
        min_val = check_real("Hardtanh", "min_val", min_val)
        max_val = check_real("Hardtanh", "max_val", max_val)
        if min_val > max_val:
            raise ValueError(
                f"For 'Hardtanh', 'min_val' must not exceed 'max_val', but got min_val="
                f"{min_val}, max_val={max_val}."
            )
        self.min_val, self.max_val = min_val, max_val

    def _fn(self, x):
        return jnp.clip(x, self.min_val, self.max_val)


class Softsign(_Elementwise):
    """``x / (1 + |x|)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Softsign()(ms.Tensor([1.0])))
        [0.5]
    """

    def _fn(self, x):
        return x / (1 + jnp.abs(x))


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Mish()(ms.Tensor([0.0])))
        [0.]
    """

    def _fn(self, x):
        return x * jnp.tanh(jax.nn.softplus(x))


class LogSigmoid(_Elementwise):
    """``log(sigmoid(x))``, computed stably.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.LogSigmoid()(ms.Tensor([0.0])).asnumpy().round(4))
        [-0.6931]
    """

    def _fn(self, x):
        return jax.nn.log_sigmoid(x)


class Tanhshrink(_Elementwise):
    """``x - tanh(x)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.Tanhshrink()(ms.Tensor([0.0])))
        [0.]
    """

    def _fn(self, x):
        return x - jnp.tanh(x)


class HShrink(_Elementwise):
    """Hard shrink: ``x`` where ``|x| > lambd`` else 0. Default: ``lambd=0.5``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.HShrink()(ms.Tensor([0.3, -1.0])))
        [ 0. -1.]
    """

    def __init__(self, lambd=0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def _fn(self, x):
        return jnp.where(jnp.abs(x) > self.lambd, x, 0)


class SoftShrink(_Elementwise):
    """Soft shrink: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Raises:
        ValueError: If ``lambd`` is negative.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.SoftShrink()(ms.Tensor([0.3, -1.0])))
        [ 0.  -0.5]
    """

    def __init__(self, lambd=0.5) -> None:
        super().__init__()
        if lambd < 0:
            raise ValueError(f"For 'SoftShrink', 'lambd' must be >= 0, but got {lambd}.")
        self.lambd = lambd

    def _fn(self, x):
        shrunk = jnp.where(x < -self.lambd, x + self.lambd, 0)
        return jnp.where(x > self.lambd, x - self.lambd, shrunk)


class GLU(_AxisActivation):
    """Gated linear unit: split ``x`` in halves ``a, b`` along ``axis``; ``a * sigmoid(b)``.

    Raises:
        ValueError: If the size of ``axis`` is odd.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.GLU()(ms.Tensor([[2.0, 0.0]])))
        [[1.]]
    """

    def construct(self, x):
        value = check_min_rank("GLU", to_float(arr(x, "GLU", "x", tensor=True)), name="x")
        axis = check_axis("GLU", self.axis, value.ndim)
        if value.shape[axis] % 2:
            raise ValueError(
                f"For 'GLU', the size of 'x' along axis {self.axis} must be even, but got "
                f"x.shape={tuple(value.shape)}."
            )
        a, b = jnp.split(value, 2, axis=axis)
        return wrap(a * jax.nn.sigmoid(b))


_ACTIVATIONS = {
    "relu": ReLU,
    "relu6": ReLU6,
    "leakyrelu": LeakyReLU,
    "prelu": PReLU,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "silu": SiLU,
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "softmin": Softmin,
    "elu": ELU,
    "selu": SeLU,
    "celu": CELU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "hardtanh": Hardtanh,
    "softsign": Softsign,
    "mish": Mish,
    "logsigmoid": LogSigmoid,
    "tanhshrink": Tanhshrink,
    "hshrink": HShrink,
    "softshrink": SoftShrink,
}


def get_activation(name, prim_name=None):
    """An activation Cell by name (``'relu'``, ``'gelu'``, ``'leakyrelu'``, ...); ``None`` for
    ``None``.

    Args:
        name (str): The activation name (case-insensitive).
        prim_name (str): Unused; kept for MindSpore compatibility. Default: ``None``.

    Raises:
        KeyError: If ``name`` is unknown.
        TypeError: If ``name`` is not a str.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.get_activation('relu')
        ReLU()
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"For 'get_activation', 'name' must be a str, but got {name!r}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(
            f"For 'get_activation', the activation {name!r} is unknown; it must be one of "
            f"{sorted(_ACTIVATIONS)}."
        )
    return cls()
