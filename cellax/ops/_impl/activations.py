"""Activation functions and the softmax family (relu, gelu, silu, softmax, glu, ...)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._random import next_key
from .dtype_rules import check_accepts
from .eager import fused
from .primitive import primitive
from .utils import arr, check_axis, check_min_rank, check_real, name_op, np_dtype, to_float, wrap

__all__ = [
    "relu",
    "relu6",
    "leaky_relu",
    "elu",
    "selu",
    "celu",
    "gelu",
    "fast_gelu",
    "silu",
    "mish",
    "softplus",
    "softsign",
    "hardswish",
    "hardsigmoid",
    "hardtanh",
    "hardshrink",
    "softshrink",
    "soft_shrink",
    "tanhshrink",
    "threshold",
    "sigmoid",
    "logsigmoid",
    "softmax",
    "log_softmax",
    "softmin",
    "glu",
    "swiglu",
    "prelu",
    "rrelu",
    "gumbel_softmax",
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Softmax",
    "LogSoftmax",
    "GeLU",
    "FastGeLU",
    "Elu",
    "SeLU",
    "CeLU",
    "HSwish",
    "HSigmoid",
    "Softplus",
    "Softsign",
    "Mish",
    "PReLU",
    "HShrink",
    "SoftShrink",
    "LogSigmoid",
]


def _float_input(api, input, name="input"):
    """The Tensor input of an activation (MindSpore 2.10 refuses a Python number), in float;
    an api in dtype_rules' table refuses the dtypes MindSpore's primitive does."""
    x = arr(input, api, name, tensor=True)
    check_accepts(api, x)
    return to_float(x)


def _activation(name, fn, params=("input",), doc=""):
    """A one-input activation computed in float (integer input -> float32)."""

    pure = fused(fn)  # one compiled call eagerly, one kernel on the gradient tape

    def op(input):
        return wrap(pure(_float_input(name, input, params[0])))

    op = name_op(
        op,
        name,
        doc
        + (
            f"\n\n    Examples:\n        >>> import cellax as ms\n"
            f"        >>> ms.ops.{name}(ms.Tensor([-1., 0., 2.])).shape\n        (3,)\n"
        ),
    )
    if params != ("input",):
        op.__code__ = op.__code__.replace(co_varnames=params + op.__code__.co_varnames[1:])
    return op


def relu(input, inplace=False):
    """``max(input, 0)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.relu(ms.Tensor([-1., 2.])))
        [0. 2.]
    """
    return wrap(_relu(arr(input, "relu", tensor=True)))


_relu = fused(jax.nn.relu)  # jax.nn.relu is a custom_jvp: slow to dispatch op by op


def relu6(x):
    """``min(max(x, 0), 6)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.relu6(ms.Tensor([-1., 7.])))
        [0. 6.]
    """
    value = arr(x, "relu6", "x", tensor=True)
    check_accepts("relu6", value)
    return wrap(jnp.clip(value, 0, 6))


def leaky_relu(input, alpha=0.2):
    """``input`` where positive, else ``alpha * input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.leaky_relu(ms.Tensor([-1., 1.])))
        [-0.2  1. ]
    """
    x = _float_input("leaky_relu", input)
    alpha = arr(alpha, "leaky_relu", "alpha", real=True)
    return wrap(jnp.where(x > 0, x, alpha * x).astype(x.dtype))


def elu(input_x, alpha=1.0):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``.

    Args:
        input_x (Tensor): The float input.
        alpha (float): The scale of the negative part; MindSpore 2.10's ``Elu`` only accepts
            ``1.0``. Default: ``1.0``.

    Raises:
        TypeError: If ``alpha`` is not a float.
        ValueError: If ``alpha`` is not 1.0 (as in MindSpore 2.10).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.elu(ms.Tensor([-1., 2.])))
        [-0.63212055  2.        ]
    """
    if not isinstance(alpha, float):
        raise TypeError(f"For 'elu', 'alpha' must be a float, but got {type(alpha).__name__}.")
    if alpha != 1.0:
        raise ValueError(f"For 'elu', 'alpha' must be 1.0, but got {alpha}.")
    x = _float_input("elu", input_x, "input_x")
    return wrap(jax.nn.elu(x, alpha))


def celu(x, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Raises:
        ValueError: If ``alpha`` is 0.
    """
    if check_real("celu", "alpha", alpha) == 0:
        raise ValueError("For 'celu', 'alpha' must not be 0, but got 0.")
    return wrap(jax.nn.celu(_float_input("celu", x, "x"), alpha))


def gelu(input, approximate="none"):
    """Gaussian error linear unit; ``approximate`` is ``'none'`` (erf) or ``'tanh'``.

    Raises:
        ValueError: If ``approximate`` is neither.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.gelu(ms.Tensor([1., -1.])))
        [ 0.8413447  -0.15865527]
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(
            f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got {approximate!r}."
        )
    x = _float_input("gelu", input)
    return wrap(gelu_value(x, approximate == "tanh"))


gelu_value = fused(jax.nn.gelu, static_argnums=(1,))  # (x, approximate: bool)


def fast_gelu(x):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""
    v = _float_input("fast_gelu", x, "x")
    return wrap(v / (1 + jnp.exp(-1.702 * jnp.abs(v))) * jnp.exp(0.851 * (v - jnp.abs(v))))


selu = _activation("selu", jax.nn.selu, ("input_x",), "Scaled ELU.")


silu = _activation("silu", jax.nn.silu, ("input",), "``x * sigmoid(x)``.")


mish = _activation(
    "mish", lambda x: x * jnp.tanh(jax.nn.softplus(x)), ("x",), "``x * tanh(softplus(x))``."
)


softsign = _activation("softsign", jax.nn.soft_sign, ("x",), "``x / (1 + |x|)``.")


hardswish = _activation("hardswish", jax.nn.hard_swish, ("input",), "``x * relu6(x + 3) / 6``.")


hardsigmoid = _activation("hardsigmoid", jax.nn.hard_sigmoid, ("input",), "``relu6(x + 3) / 6``.")


sigmoid = _activation("sigmoid", jax.nn.sigmoid, ("input",), "``1 / (1 + exp(-x))``.")


logsigmoid = _activation("logsigmoid", jax.nn.log_sigmoid, ("x",), "``log(sigmoid(x))``.")


tanhshrink = _activation("tanhshrink", lambda x: x - jnp.tanh(x), ("input",), "``x - tanh(x)``.")


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``; linear where ``beta * x > threshold``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.softplus(ms.Tensor([1., 30.])))
        [ 1.3132617 30.       ]
    """
    x = _float_input("softplus", input)
    beta = check_real("softplus", "beta", beta)
    threshold = check_real("softplus", "threshold", threshold)
    scaled = beta * x
    soft = jax.nn.softplus(jnp.minimum(scaled, threshold)) / beta
    return wrap(jnp.where(scaled > threshold, x, soft).astype(x.dtype))


def hardtanh(input, min_val=-1.0, max_val=1.0):
    """Clamp into ``[min_val, max_val]``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.hardtanh(ms.Tensor([-2., 0.5])))
        [-1.   0.5]
    """
    x = arr(input, "hardtanh", tensor=True)
    min_val = check_real("hardtanh", "min_val", min_val)
    max_val = check_real("hardtanh", "max_val", max_val)
    return wrap(jnp.clip(x, min_val, max_val).astype(x.dtype))


def hardshrink(input, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0."""
    x = arr(input, "hardshrink", tensor=True)
    check_accepts("hardshrink", x)
    lambd = check_real("hardshrink", "lambd", lambd)
    return wrap(jnp.where(jnp.abs(x) > lambd, x, 0).astype(x.dtype))


def softshrink(input, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    x = arr(input, "softshrink", tensor=True)
    check_accepts("softshrink", x)
    lambd = check_real("softshrink", "lambd", lambd)
    return wrap(
        jnp.where(x > lambd, x - lambd, jnp.where(x < -lambd, x + lambd, 0)).astype(x.dtype)
    )


def soft_shrink(input, lambd=0.5):
    """Alias of :func:`softshrink`."""
    return softshrink(input, lambd)


def threshold(input, thr, value):
    """``input`` where ``input > thr``, else ``value``."""
    x = arr(input, "threshold", tensor=True)
    for name, number in (("thr", thr), ("value", value)):
        if isinstance(number, bool) or not isinstance(number, (int, float, np.number)):
            raise TypeError(
                f"For 'threshold', '{name}' must be an int or a float, but got {number!r}."
            )
    return wrap(jnp.where(x > thr, x, jnp.asarray(value, x.dtype)))


def _softmax_input(api, input, axis, dtype):
    x = check_min_rank(api, _float_input(api, input))
    if dtype is not None:
        x = x.astype(np_dtype(dtype))
    if isinstance(axis, (list, tuple)):
        return x, tuple(check_axis(api, a, x.ndim) for a in axis)
    return x, check_axis(api, axis, x.ndim)


def softmax(input, axis=-1, *, dtype=None):
    """Softmax along ``axis``.

    Raises:
        ValueError: If ``axis`` is out of range.

    Differences from MindSpore: the gradient is the softmax derivative in every mode (its
    components sum to zero along ``axis``), as MindSpore 2.10 computes it in GRAPH_MODE and for
    a softmax on its own. Inside some larger PyNative networks MindSpore 2.10 (CPU) computes a
    different Softmax gradient: a step of mindcv's ``mobilevit_xx_small`` changes 141 of its
    221 parameter gradients (norms differ up to 3.5 times), while the same step under ``jit``, or
    with the Softmax written as ``exp``/``sum``, matches cellax. (There the departure goes away
    when only the last stage's Softmax, taken over an axis of length 1, is written as
    ``exp``/``sum``: it changes the gradients of the other Softmax calls.) cellax follows
    GRAPH_MODE.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.softmax(ms.Tensor([0., 0.])))
        [0.5 0.5]
    """
    x, axis = _softmax_input("softmax", input, axis, dtype)
    return wrap(_softmax(x, axis))


@fused(static_argnums=(1,))
def _softmax(x, axis):
    # MindSpore gives 0 (not NaN) where every element along ``axis`` is -inf.
    dead = jnp.all(x == -jnp.inf, axis=axis, keepdims=True)
    out = jax.nn.softmax(jnp.where(dead, jnp.zeros_like(x), x), axis=axis)
    return jnp.where(dead, jnp.zeros_like(out), out)


def log_softmax(logits, axis=-1):
    """Log of softmax along ``axis``, computed stably.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.log_softmax(ms.Tensor([0., 0.])))
        [-0.6931472 -0.6931472]
    """
    x, axis = _softmax_input("log_softmax", logits, axis, None)
    return wrap(jax.nn.log_softmax(x, axis=axis))


def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x)`` along ``axis``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.softmin(ms.Tensor([0., 0.])))
        [0.5 0.5]
    """
    value, axis = _softmax_input("softmin", x, axis, dtype)
    return wrap(jax.nn.softmax(-value, axis=axis))


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` for the two halves of ``axis``.

    Raises:
        ValueError: If the size of ``axis`` is odd.
    """
    value = check_min_rank("glu", _float_input("glu", x, "x"), name="x")
    axis = check_axis("glu", axis, value.ndim)
    if value.shape[axis] % 2:
        raise ValueError(
            f"For 'glu', the size of dimension {axis} must be even, but got shape {value.shape}."
        )
    return wrap(jax.nn.glu(value, axis))


def swiglu(input, dim=-1):
    """``silu(a) * b`` for the two halves of ``dim``."""
    value = _float_input("swiglu", input)
    axis = check_axis("swiglu", dim, value.ndim, "dim")
    if value.shape[axis] % 2:
        raise ValueError(
            f"For 'swiglu', the size of dimension 'dim' ({dim}) must be even, but got "
            f"{value.shape[axis]}."
        )
    a, b = jnp.split(value, 2, axis=axis)
    return wrap(jax.nn.silu(a) * b)


def prelu(input, weight):
    """``x`` where positive, else ``weight * x`` (``weight`` per channel, dim 1).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.prelu(ms.Tensor([-1., 2.]), ms.Tensor([0.25])))
        [-0.25  2.  ]
    """
    x = _float_input("prelu", input)
    w = arr(weight, "prelu", "weight", tensor=True)
    channels = x.shape[1] if x.ndim >= 2 else 1
    if w.ndim > 1 or w.size not in (1, channels):
        raise ValueError(
            f"For 'prelu', 'weight' must be 1-D with 1 or {channels} (the channels) elements, "
            f"but got shape {tuple(w.shape)}."
        )
    if x.ndim >= 2 and w.size > 1:
        w = w.reshape((-1,) + (1,) * (x.ndim - 2))
    return wrap(jnp.where(x > 0, x, w * x).astype(x.dtype))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Leaky ReLU with a slope drawn uniformly from ``[lower, upper]`` per element."""
    x = _float_input("rrelu", input)
    slope = jax.random.uniform(next_key(), x.shape, x.dtype, lower, upper)
    return wrap(jnp.where(x >= 0, x, slope * x))


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """Sample from the Gumbel-softmax distribution (straight-through one-hot if ``hard``)."""
    x = _float_input("gumbel_softmax", logits, "logits")
    dim = check_axis("gumbel_softmax", dim, x.ndim, "dim")
    gumbel = jax.random.gumbel(next_key(), x.shape, x.dtype)
    soft = jax.nn.softmax((x + gumbel) / tau, axis=dim)
    if not hard:
        return wrap(soft)
    index = jnp.argmax(soft, axis=dim)
    one = jax.nn.one_hot(index, x.shape[dim], axis=dim, dtype=x.dtype)
    return wrap(one - jax.lax.stop_gradient(soft) + soft)


ReLU = primitive("ReLU", relu)


ReLU6 = primitive("ReLU6", relu6)


Sigmoid = primitive("Sigmoid", sigmoid)


LogSigmoid = primitive("LogSigmoid", logsigmoid)


Softmax = primitive("Softmax", softmax, dict(axis=-1))


LogSoftmax = primitive("LogSoftmax", log_softmax, dict(axis=-1))


GeLU = primitive("GeLU", gelu)


FastGeLU = primitive("FastGeLU", fast_gelu)


Elu = primitive("Elu", elu, dict(alpha=1.0))


SeLU = primitive("SeLU", selu)


CeLU = primitive("CeLU", celu, dict(alpha=1.0))


HSwish = primitive("HSwish", hardswish)


HSigmoid = primitive("HSigmoid", hardsigmoid)


Softplus = primitive("Softplus", softplus)


Softsign = primitive("Softsign", softsign)


Mish = primitive("Mish", mish)


PReLU = primitive("PReLU", prelu)


HShrink = primitive("HShrink", hardshrink, dict(lambd=0.5))


SoftShrink = primitive("SoftShrink", softshrink, dict(lambd=0.5))


def _per_group(table, group, groups):
    """A per-channel table ``(C,)`` or per-group ``(G, C)`` as one row per input row."""
    if table is None:
        return None
    table = table.astype(jnp.float32)
    if table.ndim == 2 and table.shape[0] == groups and groups > 1:
        return table[group]
    return table.reshape(-1, table.shape[-1])[0] if table.ndim == 2 else table


def dequant_swiglu_quant(
    x,
    weight_scale,
    activation_scale,
    bias=None,
    quant_scale=None,
    quant_offset=None,
    group_index=None,
    activate_left=False,
    quant_mode="static",
):
    """Ascend's DequantSwigluQuant: dequantise ``x`` ``(..., 2H)``, apply SwiGLU, quantise to
    int8. An int32 ``x`` is dequantised as ``(x + int bias) * weight_scale *
    activation_scale (+ float bias)``; a float ``x`` is used as it is. SwiGLU is
    ``silu(a) * b`` with ``a`` the left half when ``activate_left`` (else the right half) and
    ``b`` the other. ``quant_mode='static'``: ``y = rint(out / quant_scale + quant_offset)``
    and ``scale`` zeros; ``'dynamic'``: ``out * quant_scale`` quantised per row with
    ``scale = max|row| / 127``. ``group_index`` (counts of consecutive rows) picks the row
    of 2-D ``(groups, C)`` scale tables; rows past the groups give zeros.

    Returns:
        tuple: ``(y, scale)``: int8 ``(..., H)`` and float32 ``(...)``.

    Raises:
        ValueError: If the last dimension of ``x`` is odd or ``quant_mode`` is unknown.

    Differences from MindSpore: runs on every device (MindSpore: Ascend only); rows past the
    groups are zero (Ascend leaves them unset).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.ops.auto_generate import dequant_swiglu_quant
        >>> x = ms.Tensor(np.array([[2.0, 0.0, 1.0, 4.0]], np.float32))
        >>> y, scale = dequant_swiglu_quant(x, None, None, activate_left=True,
        ...                                 quant_mode="dynamic")
        >>> print(y, scale.asnumpy().round(5))
        [[127   0]] [0.01387]
    """
    api = "DequantSwigluQuant"
    data = arr(x, api, "x", tensor=True)
    if data.ndim < 2 or data.shape[-1] % 2:
        raise ValueError(
            f"For '{api}', 'x' must be at least 2-D with an even last dimension, but got shape "
            f"{data.shape}."
        )
    if quant_mode not in ("static", "dynamic"):
        raise ValueError(
            f"For '{api}', 'quant_mode' must be 'static' or 'dynamic', but got {quant_mode!r}."
        )
    lead = data.shape[:-1]
    rows = data.reshape(-1, data.shape[-1])
    if group_index is None:
        groups, group, valid = 1, jnp.zeros(rows.shape[0], jnp.int32), None
    else:
        counts = arr(group_index, api, "group_index", tensor=True).reshape(-1).astype(jnp.int32)
        groups = counts.shape[0]
        group = jnp.searchsorted(jnp.cumsum(counts), jnp.arange(rows.shape[0]), side="right")
        valid = (group < groups)[:, None]
        group = jnp.minimum(group, groups - 1)

    def table(value, name):
        return None if value is None else _per_group(arr(value, api, name), group, groups)

    int_bias = bias is not None and jnp.issubdtype(arr(bias).dtype, jnp.integer)
    if jnp.issubdtype(rows.dtype, jnp.integer):
        if int_bias:
            rows = rows + arr(bias).reshape(-1, rows.shape[-1])[0]
        work = rows.astype(jnp.float32)
        weights = table(weight_scale, "weight_scale")
        work = work if weights is None else work * weights
        if activation_scale is not None:
            work = work * arr(activation_scale, api, "activation_scale").reshape(-1, 1)
        if bias is not None and not int_bias:
            work = work + arr(bias).astype(jnp.float32).reshape(-1, rows.shape[-1])[0]
    else:
        work = rows.astype(jnp.float32)
    left, right = jnp.split(work, 2, axis=-1)
    gate, linear = (left, right) if activate_left else (right, left)
    out = jax.nn.silu(gate) * linear
    q_scale, q_offset = table(quant_scale, "quant_scale"), table(quant_offset, "quant_offset")
    if quant_mode == "static":
        out = out / (1.0 if q_scale is None else q_scale) + (0.0 if q_offset is None else q_offset)
        scale = jnp.zeros(rows.shape[0], jnp.float32)
    else:
        out = out if q_scale is None else out * q_scale
        peak = jnp.max(jnp.abs(out), -1)
        scale = jnp.where(peak > 0, peak / 127.0, 1.0)
        out = out / scale[:, None]
    y = jnp.clip(jnp.rint(out), -128, 127).astype(jnp.int8)
    if valid is not None:
        y, scale = jnp.where(valid, y, 0), jnp.where(valid[:, 0], scale, 0.0)
    return wrap(y.reshape(lead + (y.shape[-1],))), wrap(scale.reshape(lead))


DequantSwigluQuant = primitive(
    "DequantSwigluQuant",
    dequant_swiglu_quant,
    doc="Primitive form of :func:`dequant_swiglu_quant`.",
    module="cellax.ops.auto_generate",
)
