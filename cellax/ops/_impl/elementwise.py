"""Elementwise ops beyond the ufunc tables: selection (``select``, ``where``), clamping,
interpolation, accumulation (``addcmul``, ``addn``, ``accumulate_n``), closeness
(``isclose``, ``approximate_equal``), complex views (``polar``, ``view_as_real``) and the
rotary position embedding."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor, _fix_int_float, _true_divide
from . import ufuncs
from .dtype_rules import check_accepts
from .primitive import primitive
from .ufuncs import _binary_arrays, greater, less, mul
from .utils import arr, check_broadcast, check_eager, check_real, name_op, wrap

__all__ = [
    "clamp",
    "clip",
    "clip_by_value",
    "lerp",
    "addcmul",
    "addcdiv",
    "addn",
    "isclose",
    "allclose",
    "nan_to_num",
    "is_nonzero",
    "select",
    "where",
    "polar",
    "approximate_equal",
    "rotary_position_embedding",
    "ApplyRotaryPosEmb",
    "float_power_ext",
    "isnan_ext",
    "view_as_real",
    "accumulate_n",
    "tensor_gt",
    "tensor_lt",
    "tensor_muls",
]


def clamp(input, min=None, max=None):
    """Clamp every element into ``[min, max]`` (either bound may be None).

    Args:
        input (Tensor): The input.
        min (Union[Tensor, number, None]): The lower bound. Default: ``None``.
        max (Union[Tensor, number, None]): The upper bound. Default: ``None``.

    Raises:
        TypeError: If ``input`` is not a Tensor.
        ValueError: If both ``min`` and ``max`` are None, or ``input`` is a Bool Tensor (as in
            MindSpore 2.10).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.clamp(ms.Tensor([-2., 0.5, 3.]), -1, 1))
        [-1.   0.5  1. ]
    """
    if min is None and max is None:
        raise ValueError(
            "For 'clamp', at least one of 'min' and 'max' must be given, but got None for both."
        )
    x = arr(input, "clamp", tensor=True)
    if x.dtype == jnp.bool_:
        raise ValueError("For 'clamp', the dtype of 'input' must not be Bool, but got Bool.")
    for bound in (min, max):
        if type(bound) is float:
            x = _fix_int_float(x, bound)
    low = None if min is None else arr(min, "clamp", "min", real=True)
    high = None if max is None else arr(max, "clamp", "max", real=True)
    if low is not None:
        x = jnp.maximum(x, low)
    if high is not None:
        x = jnp.minimum(x, high)
    return wrap(x)


clip = name_op(
    lambda input, min=None, max=None: clamp(input, min, max), "clip", "Alias of :func:`clamp`."
)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` into ``[clip_value_min, clip_value_max]``."""
    return clamp(x, clip_value_min, clip_value_max)


def lerp(input, end, weight):
    """``input + weight * (end - input)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.lerp(ms.Tensor([0., 2.]), ms.Tensor([1., 4.]), 0.5))
        [0.5 3. ]
    """
    a, b = _binary_arrays(input, end, "lerp", ("input", "end"), tensors=2)
    check_accepts("lerp", a, b)
    return wrap(a + arr(weight, "lerp", "weight", real=True) * (b - a))


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcmul(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([3.]), 0.5))
        [4.]
    """
    x = arr(input, "addcmul", tensor=True)
    t1 = arr(tensor1, "addcmul", "tensor1", tensor=True)
    t2 = arr(tensor2, "addcmul", "tensor2", tensor=True)
    check_accepts("addcmul", x, t1, t2)
    value = arr(value, "addcmul", "value", real=True)
    check_broadcast("addcmul", input=x, tensor1=t1, tensor2=t2, value=value)
    return wrap(x + value * jnp.multiply(t1, t2))


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addcdiv(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([4.]), 2))
        [2.]
    """
    x = arr(input, "addcdiv")
    value = arr(value, "addcdiv", "value", real=True)
    check_broadcast("addcdiv", input=x, tensor1=arr(tensor1), tensor2=arr(tensor2), value=value)
    return wrap(x + value * _true_divide(arr(tensor1), arr(tensor2)))


def addn(x):
    """Sum of a list/tuple of Tensors of the same shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addn([ms.Tensor([1., 2.]), ms.Tensor([3., 4.])]))
        [4. 6.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(
            f"For 'addn', 'x' must be a non-empty list or tuple of Tensors, but got {x!r}."
        )
    values = [arr(t, "addn", "x") for t in x]
    total = values[0]
    for value in values[1:]:
        total = total + value
    return wrap(total)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.isclose(ms.Tensor([1., 2.]), ms.Tensor([1., 2.1])))
        [ True False]
    """
    a, b = _binary_arrays(input, other, "isclose", tensors=2)
    return wrap(jnp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when :func:`isclose` holds everywhere (a 0-d Bool Tensor).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.allclose(ms.Tensor([1., 2.]), ms.Tensor([1., 2.])))
        True
    """
    return wrap(jnp.all(isclose(input, other, rtol, atol, equal_nan)._value))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """Replace NaN, +inf and -inf by finite numbers.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.nan_to_num(ms.Tensor([float('nan'), 1.]), 0.5))
        [0.5 1. ]
    """
    api = "nan_to_num"
    x = arr(input, api, tensor=True)
    nan = check_real(api, "nan", nan, optional=True)
    nan = 0.0 if nan is None else nan  # None: MindSpore's default
    posinf = check_real(api, "posinf", posinf, optional=True)
    neginf = check_real(api, "neginf", neginf, optional=True)
    return wrap(jnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf))


def is_nonzero(input):
    """True when the single element of ``input`` is nonzero (eager only).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.is_nonzero(ms.Tensor([3.]))
        True
    """
    x = arr(input, "is_nonzero", keep_scalars=False)
    check_eager("is_nonzero", x)
    if x.size != 1:
        raise ValueError(
            f"For 'is_nonzero', 'input' must have one element, but got shape {x.shape}."
        )
    return builtins.bool(x.reshape(()) != 0)


def select(cond, input, other):
    """Elementwise ``input if cond else other``; a trace-safe replacement for ``if``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.select(ms.Tensor([True, False]), ms.Tensor([1., 2.]), 0.))
        [1. 0.]
    """
    x, y = arr(input, "select", "input"), arr(other, "select", "other")
    if isinstance(y, float) and hasattr(x, "dtype"):
        y = jnp.asarray(y, x.dtype if x.dtype.kind == "f" else jnp.float32)
    elif isinstance(x, float) and hasattr(y, "dtype"):
        x = jnp.asarray(x, y.dtype if y.dtype.kind == "f" else jnp.float32)
    condition = arr(cond, "select", "cond")
    shapes = {getattr(v, "shape", None) for v in (condition, x, y)}
    if len(shapes) == 1 and None not in shapes:  # one shape: nothing to broadcast
        return wrap(jnp.where(condition, x, y))
    try:
        jnp.broadcast_shapes(np.shape(condition), np.shape(x), np.shape(y))
    except ValueError:
        raise ValueError(
            f"For 'select', the shapes of 'cond' {np.shape(condition)}, 'input' {np.shape(x)} "
            f"and 'other' {np.shape(y)} can not be broadcast together."
        ) from None
    return wrap(jnp.where(condition, x, y))


def where(condition, input, other):
    """Elementwise ``input if condition else other``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1., -2.])
        >>> print(ms.ops.where(x > 0, x, 0.))
        [1. 0.]
    """
    arr(condition, "where", "condition", tensor=True)  # MindSpore refuses a Python number
    return select(condition, input, other)


def polar(abs, angle):
    """The complex Tensor ``abs * (cos(angle) + i sin(angle))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.polar(ms.Tensor([2.]), ms.Tensor([0.])))
        [2.+0.j]
    """
    r, theta = (
        arr(abs, "polar", "abs", keep_scalars=False),
        arr(angle, "polar", "angle", keep_scalars=False),
    )
    return wrap(jax.lax.complex(r * jnp.cos(theta), r * jnp.sin(theta)))


def approximate_equal(x, y, tolerance=1e-05):
    """``|x - y| < tolerance`` elementwise (a Bool Tensor).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.approximate_equal(ms.Tensor([1., 2.]), ms.Tensor([1., 2.5]), 0.1))
        [ True False]
    """
    a, b = (
        arr(x, "approximate_equal", "x", keep_scalars=False),
        arr(y, "approximate_equal", "y", keep_scalars=False),
    )
    return wrap(jnp.abs(a - b) < tolerance)


def _rotated(data, interleaved: bool):
    """The partner of each element in a rotation: ``(-x2, x1)`` of the two halves, or of
    each (even, odd) pair when ``interleaved``."""
    if not interleaved:
        first, second = jnp.split(data, 2, axis=-1)
        return jnp.concatenate([-second, first], -1)
    pairs = data.reshape(data.shape[:-1] + (-1, 2))
    return jnp.stack([-pairs[..., 1], pairs[..., 0]], -1).reshape(data.shape)


def _rotary(data, c, s, interleaved: bool):
    """``data * c + rotated(data) * s``, in float32 for half inputs, in ``data``'s dtype."""
    work = jnp.promote_types(data.dtype, jnp.float32)
    x = data.astype(work)
    out = x * c.astype(work) + _rotated(x, interleaved) * s.astype(work)
    return out.astype(data.dtype)


def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotary position embedding ``x * cos + rotate(x) * sin`` over the last axis: ``mode``
    0 rotates halves (``(-x2, x1)``, GPT-NeoX style), 1 interleaved pairs
    (``(-x_odd, x_even)``, GPT-J style). ``cos`` and ``sin`` broadcast against ``x`` (any
    4-D layout: BNSD, BSND, SBND).

    Differences from MindSpore: any rank and any broadcastable ``cos``/``sin`` work, and the
    result is differentiable with respect to ``x``, ``cos`` and ``sin`` on every device.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0, 3.0, 4.0]], np.float32))
        >>> print(ms.ops.rotary_position_embedding(x, ms.ops.zeros((1, 4)), ms.ops.ones((1, 4))))
        [[-3. -4.  1.  2.]]
    """
    api = "rotary_position_embedding"
    data, c, s = arr(x, api, "x"), arr(cos, api, "cos"), arr(sin, api, "sin")
    if mode not in (0, 1):
        raise ValueError(f"For '{api}', 'mode' must be 0 or 1, but got {mode!r}.")
    if data.shape[-1] % 2:
        raise ValueError(
            f"For '{api}', the last dimension of 'x' must be even, but got shape {data.shape}."
        )
    return wrap(_rotary(data, c, s, mode == 1))


def _rotary_table(api, name, table, tokens: tuple, head_dim: int):
    """``cos``/``sin`` (rows, D) laid out to broadcast against (*tokens, heads, D): one row
    per token when there are as many rows as tokens, else one per sequence position (the
    last token axis), taken from the first rows."""
    if table.ndim != 2 or table.shape[1] != head_dim:
        raise ValueError(
            f"For '{api}', '{name}' must be 2-D (rows, head_dim={head_dim}), but got shape "
            f"{table.shape}."
        )
    count = int(np.prod(tokens))
    if table.shape[0] == count:
        return table.reshape(tokens + (1, head_dim))
    if table.shape[0] < tokens[-1]:
        raise ValueError(
            f"For '{api}', '{name}' must have a row per token ({count}) or at least one per "
            f"sequence position ({tokens[-1]}), but got {table.shape[0]} rows."
        )
    return table[: tokens[-1], None, :]


def apply_rotary_pos_emb_(query, key, cos, sin, position_ids, cos_format=0):
    """Rotary position embedding of ``query`` and ``key`` at once (Ascend's fused inference
    kernel behind ``ops.ApplyRotaryPosEmb``): returns ``(query_embed, key_embed)``.

    ``query``/``key`` are ``(tokens, heads * D)``, ``(batch, seq, heads * D)`` or
    ``(batch, seq, heads, D)``; ``cos``/``sin`` are ``(rows, D)``: one row per token (decode,
    gathered at each token's position) or a table whose first ``seq`` rows are the positions
    of the sequence (prefill). ``cos_format`` 0, 1 and 2 rotate halves (GPT-NeoX style), 3
    interleaved pairs (GPT-J style), as mindformers' ``RotaryPosEmbMode`` names them.

    Args:
        query (Tensor): The queries.
        key (Tensor): The keys (may have fewer heads than ``query``).
        cos (Tensor): The cosines, ``(rows, D)``.
        sin (Tensor): The sines, ``(rows, D)``.
        position_ids (Tensor): The valid length of each sequence (``batch_valid_length``);
            the Ascend kernel uses it to address its cache, cellax takes the positions from
            ``cos``/``sin`` and only checks that it is a Tensor.
        cos_format (int): The rotation layout. Default: ``0``.

    Returns:
        tuple[Tensor], ``query`` and ``key`` rotated, in their shapes and dtypes.

    Raises:
        ValueError: If ``cos_format`` is not 0-3 or the shapes do not fit.

    Differences from MindSpore: MindSpore 2.10 documents neither the layouts nor the formats
    of this kernel; cellax follows mindformers' use of it (above) and is differentiable.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> q = ms.Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]], np.float32))
        >>> cos, sin = ms.ops.zeros((8, 4)), ms.ops.ones((8, 4))
        >>> lengths = ms.Tensor([1], ms.int32)
        >>> q_out, k_out = ms.ops.ApplyRotaryPosEmb(0)(q, q, cos, sin, lengths)
        >>> print(q_out)
        [[[-3. -4.  1.  2.]]]
    """
    api = "ApplyRotaryPosEmb"
    arr(position_ids, api, "position_ids", tensor=True)
    if cos_format not in (0, 1, 2, 3):
        raise ValueError(f"For '{api}', 'cos_format' must be 0, 1, 2 or 3, but got {cos_format!r}.")
    c, s = arr(cos, api, "cos", tensor=True), arr(sin, api, "sin", tensor=True)
    head_dim = c.shape[-1]
    outputs = []
    for name, value in (("query", query), ("key", key)):
        data = arr(value, api, name, tensor=True)
        if data.ndim not in (2, 3, 4) or data.shape[-1] % head_dim or head_dim % 2:
            raise ValueError(
                f"For '{api}', '{name}' must be 2-D to 4-D with a last dimension that is a "
                f"multiple of the even head size {head_dim} (from 'cos'), but got shape "
                f"{data.shape}."
            )
        tokens = data.shape[:-2] if data.ndim == 4 else data.shape[:-1]
        heads = data.reshape(tokens + (-1, head_dim))
        rotated = _rotary(
            heads,
            _rotary_table(api, "cos", c, tokens, head_dim),
            _rotary_table(api, "sin", s, tokens, head_dim),
            cos_format == 3,
        )
        outputs.append(wrap(rotated.reshape(data.shape)))
    return tuple(outputs)


ApplyRotaryPosEmb = primitive(
    "ApplyRotaryPosEmb",
    apply_rotary_pos_emb_,
    {"cos_format": 0},
    doc=apply_rotary_pos_emb_.__doc__,
)


def float_power_ext(input, exponent):
    """:func:`float_power` (Float64 results).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.float_power_ext(ms.Tensor([2, 3]), 2))
        [4. 9.]
    """
    return ufuncs.float_power(input, exponent)


def isnan_ext(tensor):
    """:func:`isnan`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.isnan_ext(ms.Tensor([1.0, float('nan')])))
        [False  True]
    """
    return ufuncs.isnan(tensor)


def _floating(x):
    return x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(np.float32)


def view_as_real(input):
    """A complex Tensor as a real one with a last dimension (real, imaginary).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.view_as_real(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [[1. 2.]]
    """
    data = arr(input, "view_as_real")
    if not jnp.iscomplexobj(data):
        raise TypeError(
            f"For 'view_as_real', the dtype of input Tensor must be complex, got {data.dtype}."
        )
    return wrap(jnp.stack([jnp.real(data), jnp.imag(data)], -1))


def accumulate_n(x):
    """The element-wise sum of a list or tuple of Tensors of one shape.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.accumulate_n([ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])]))
        [4. 6.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError("For 'accumulate_n', 'x' must be a non-empty list or tuple of Tensors.")
    values = [arr(v, "accumulate_n", "x") for v in x]
    if len({tuple(v.shape) for v in values}) != 1:
        raise ValueError("For 'accumulate_n', all the Tensors of 'x' must have one shape.")
    total = values[0]
    for v in values[1:]:
        total = total + v
    return wrap(total)


def tensor_gt(input, other):
    """MindSpore's older name of :func:`greater`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_gt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [False  True]
    """
    return greater(input, other)


def tensor_lt(input, other):
    """MindSpore's older name of :func:`less`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_lt(ms.Tensor([1, 3]), ms.Tensor([2, 2])))
        [ True False]
    """
    return less(input, other)


def tensor_muls(input, other):
    """``input`` times the scalar ``other`` (MindSpore's ``Muls``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tensor_muls(ms.Tensor([1.0, 3.0]), 2.0))
        [2. 6.]
    """
    if not isinstance(other, (int, float, Tensor)) or isinstance(other, bool):
        raise TypeError(f"For 'tensor_muls', 'other' must be a number, but got {other!r}.")
    return mul(input, other)
