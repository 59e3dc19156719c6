"""Linear-algebra products: ``matmul``-like contractions (``bmm``, ``mm``, ``batch_dot``,
``tensor_dot``, ``einsum``), the scaled-sum forms (``addmm``, ``baddbmm``...), ``kron``,
``cross``, ``vdot``, ``dense``/``bidense`` and ``bias_add``."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp

from .dtype_rules import check_accepts, check_same_kind
from .primitive import primitive
from .utils import arr, check_axis, check_broadcast, wrap

__all__ = [
    "bmm",
    "batch_dot",
    "dot",
    "inner",
    "outer",
    "ger",
    "tensor_dot",
    "einsum",
    "mm",
    "mv",
    "addmm",
    "addbmm",
    "baddbmm",
    "addmv",
    "addr",
    "cross",
    "kron",
    "vecdot",
    "Einsum",
    "Kron",
    "vdot",
    "bias_add",
    "BiasAdd",
    "dense",
    "bidense",
    "baddbmm_ext",
    "adjoint",
    "einsum_ext",
]


def _rank_check(api, name, x, ranks):
    if x.ndim not in ranks:
        expected = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"For '{api}', '{name}' must be {expected}, but got shape {x.shape}.")


def _contract_check(api, a, b, ka, kb):
    if ka != kb:
        raise ValueError(
            f"For '{api}', the contracted dimensions must match, but got shapes "
            f"{a.shape} and {b.shape}."
        )


def bmm(input_x, mat2):
    """Batched matrix product of ``(..., n, k)`` and ``(..., k, m)``.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.bmm(ms.ops.ones((2, 3, 4)), ms.ops.ones((2, 4, 5))).shape
        (2, 3, 5)
    """
    a, b = (
        arr(input_x, "bmm", "input_x", tensor=True),
        arr(mat2, "bmm", "mat2", tensor=True),
    )
    if a.ndim < 3 or b.ndim < 3:
        raise ValueError(
            f"For 'bmm', the inputs must be at least 3-D, but got shapes {a.shape} and {b.shape}."
        )
    _contract_check("bmm", a, b, a.shape[-1], b.shape[-2])
    return wrap(jnp.matmul(a, b))


def mm(input, mat2):
    """Matrix product of two 2-D Tensors.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.mm(ms.ops.ones((2, 3)), ms.ops.ones((3, 4))).shape
        (2, 4)
    """
    a, b = arr(input, "mm", tensor=True), arr(mat2, "mm", "mat2", tensor=True)
    _rank_check("mm", "input", a, (2,))
    _rank_check("mm", "mat2", b, (2,))
    _contract_check("mm", a, b, a.shape[1], b.shape[0])
    return wrap(a @ b)


def mv(mat, vec):
    """Matrix-vector product."""
    a, b = arr(mat, "mv", "mat", tensor=True), arr(vec, "mv", "vec", tensor=True)
    _rank_check("mv", "mat", a, (2,))
    _rank_check("mv", "vec", b, (1,))
    _contract_check("mv", a, b, a.shape[1], b.shape[0])
    return wrap(a @ b)


def batch_dot(x1, x2, axes=None):
    """Per-batch dot product contracting ``axes`` (MindSpore's ``batch_dot``).

    Default axes: ``(1, 1)`` for two 2-D inputs (output ``(B, 1)``), else the last axis of
    ``x1`` with the second-to-last of ``x2``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0., 1., 2.], [3., 4., 5.]])
        >>> print(ms.ops.batch_dot(x, x))
        [[ 5.]
         [50.]]
    """
    a, b = (
        arr(x1, "batch_dot", "x1", keep_scalars=False),
        arr(x2, "batch_dot", "x2", keep_scalars=False),
    )
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(
            f"For 'batch_dot', the inputs must be at least 2-D, but got shapes "
            f"{a.shape} and {b.shape}."
        )
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"For 'batch_dot', the batch sizes must match, but got {a.shape} and {b.shape}."
        )
    if axes is None:
        axes = (1, 1) if a.ndim == 2 and b.ndim == 2 else (a.ndim - 1, b.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    ax1, ax2 = axes[0] % a.ndim, axes[1] % b.ndim
    _contract_check("batch_dot", a, b, a.shape[ax1], b.shape[ax2])
    result = jax.vmap(lambda u, v: jnp.tensordot(u, v, ((ax1 - 1,), (ax2 - 1,))))(a, b)
    if result.ndim == 1:
        result = result[:, None]
    return wrap(result)


def dot(input, other):
    """NumPy-style ``dot`` of Tensors with at least 2 dimensions.

    Raises:
        TypeError: If an input is not a float Tensor (as MindSpore 2.10's ``dot``).
        ValueError: If an input is 1-D or the contracted dimensions differ.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.dot(ms.ops.ones((2, 2, 3)), ms.ops.ones((4, 3, 5))).shape
        (2, 2, 4, 5)
    """
    a, b = arr(input, "dot", tensor=True), arr(other, "dot", "other", tensor=True)
    check_accepts("dot", a, b)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(
            f"For 'dot', the inputs must have dimension >= 2, but got shapes "
            f"{a.shape} and {b.shape}."
        )
    _contract_check("dot", a, b, a.shape[-1], b.shape[-2])
    return wrap(jnp.dot(a, b))


def inner(input, other):
    """Sum-product over the last dimensions.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.inner(ms.Tensor([1., 2.]), ms.Tensor([3., 4.])))
        11.0
    """
    a, b = arr(input, "inner", tensor=True), arr(other, "inner", "other", tensor=True)
    if a.ndim and b.ndim:
        _contract_check("inner", a, b, a.shape[-1], b.shape[-1])
    return wrap(jnp.inner(a, b))


def outer(input, vec2):
    """Outer product of two 1-D Tensors.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.outer(ms.Tensor([1, 2]), ms.Tensor([1, 2, 3])))
        [[1 2 3]
         [2 4 6]]
    """
    a, b = arr(input, "outer", tensor=True), arr(vec2, "outer", "vec2", tensor=True)
    _rank_check("outer", "input", a, (1,))
    _rank_check("outer", "vec2", b, (1,))
    return wrap(jnp.outer(a, b))


def ger(input, vec2):
    """Alias of :func:`outer`."""
    return outer(input, vec2)


def tensor_dot(x1, x2, axes):
    """Contract ``axes`` (an int, or two sequences of axes) of ``x1`` and ``x2``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0., 1., 2.], [3., 4., 5.]])
        >>> print(ms.ops.tensor_dot(x, x, 2))
        55.0
    """
    a, b = (
        arr(x1, "tensor_dot", "x1", tensor=True),
        arr(x2, "tensor_dot", "x2", tensor=True),
    )
    if not isinstance(axes, (int, tuple, list)) or isinstance(axes, bool):
        raise TypeError(
            f"For 'tensor_dot', 'axes' must be an int or a tuple or list of axes, but got {axes!r}."
        )
    if isinstance(axes, int) and not 0 <= axes <= builtins.min(a.ndim, b.ndim):
        raise ValueError(
            f"For 'tensor_dot', an int 'axes' must be in [0, {builtins.min(a.ndim, b.ndim)}], "
            f"but got {axes}."
        )
    if not isinstance(axes, int):
        axes = tuple(tuple([ax] if isinstance(ax, int) else ax) for ax in axes)
    try:
        return wrap(jnp.tensordot(a, b, axes))
    except (TypeError, ValueError):
        raise ValueError(
            f"For 'tensor_dot', can not contract shapes {a.shape} and {b.shape} over axes "
            f"{axes}: the contracted dimensions must exist and have the same sizes."
        ) from None


def einsum(equation, *operands):
    """Einstein summation over ``operands`` described by ``equation``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.einsum("ij->j", ms.Tensor([[1., 2.], [3., 4.]])))
        [4. 6.]
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(
            f"For 'einsum', 'equation' must be a str, but got {type(equation).__name__}."
        )
    values = [arr(v, "einsum", "operands", keep_scalars=False) for v in operands]
    check_accepts("einsum", *values)
    try:
        return wrap(jnp.einsum(equation, *values))
    except ValueError as error:
        raise ValueError(
            f"For 'einsum', the equation {equation!r} does not fit the operand "
            f"shapes {[v.shape for v in values]}: {error}"
        ) from None


def _scaled_sum(api, input, product, beta, alpha, names="mat1 @ mat2"):
    value = arr(input, api, keep_scalars=False)
    check_broadcast(api, **{"input": value, names: product})
    return wrap(beta * value + alpha * product)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addmm(ms.ops.ones((1, 1)), ms.ops.ones((1, 2)), ms.ops.ones((2, 1))))
        [[3.]]
    """
    return _scaled_sum("addmm", input, mm(mat1, mat2)._value, beta, alpha)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    return _scaled_sum("baddbmm", input, bmm(batch1, batch2)._value, beta, alpha, "bmm")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    product = jnp.sum(bmm(batch1, batch2)._value, 0)
    return _scaled_sum("addbmm", input, product, beta, alpha, "sum of bmm")


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return _scaled_sum("addmv", input, mv(mat, vec)._value, beta, alpha, "mat @ vec")


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``."""
    return _scaled_sum("addr", x, outer(vec1, vec2)._value, beta, alpha, "outer(vec1, vec2)")


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dimension of size 3 when None)."""
    a, b = arr(input, "cross", tensor=True), arr(other, "cross", "other", tensor=True)
    if a.shape != b.shape or a.ndim == 0:
        raise ValueError(
            f"For 'cross', 'input' and 'other' must have the same shape (at least 1-D), but got "
            f"{tuple(a.shape)} and {tuple(b.shape)}."
        )
    if dim is not None:
        dim = check_axis("cross", dim, a.ndim, "dim")
        if a.shape[dim] != 3:
            raise ValueError(
                f"For 'cross', dimension {dim} of the inputs must have size 3, but got shape "
                f"{tuple(a.shape)}."
            )
    if dim is None:
        dim = next((i for i, d in enumerate(a.shape) if d == 3), None)
        if dim is None:
            raise ValueError(
                f"For 'cross', 'input' needs a dimension of size 3, but got shape {a.shape}."
            )
    return wrap(jnp.cross(a, b, axis=dim))


def kron(input, other):
    """Kronecker product."""
    return wrap(jnp.kron(arr(input, "kron", tensor=True), arr(other, "kron", "other", tensor=True)))


def vecdot(x, y, *, axis=-1):
    """``sum(conj(x) * y)`` along ``axis``."""
    return wrap(
        jnp.sum(
            jnp.conj(arr(x, "vecdot", "x", keep_scalars=False))
            * arr(y, "vecdot", "y", keep_scalars=False),
            axis=axis,
        )
    )


Einsum = primitive(
    "Einsum",
    einsum,
    dict(equation=""),
    lambda self, operands: einsum(self.attrs["equation"], *operands),
)


Kron = primitive("Kron", kron)


def vdot(input, other):
    """Dot product of two 1-D Tensors, conjugating ``input`` first when complex.

    Raises:
        ValueError: If the inputs are not 1-D Tensors of the same length.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.vdot(ms.Tensor([1., 2.]), ms.Tensor([3., 4.])))
        11.0
    """
    a, b = arr(input, "vdot", keep_scalars=False), arr(other, "vdot", "other", keep_scalars=False)
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"For 'vdot', 'input' and 'other' must be 1-D Tensors of the same length, but got "
            f"shapes {tuple(a.shape)} and {tuple(b.shape)}."
        )
    return wrap(jnp.vdot(a, b))


def bias_add(input_x, bias):
    """Add the 1-D ``bias`` along the channel dimension (dim 1).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bias_add(ms.ops.zeros((1, 2)), ms.Tensor([1., 2.])))
        [[1. 2.]]
    """
    x, b = (
        arr(input_x, "bias_add", "input_x", keep_scalars=False),
        arr(bias, "bias_add", "bias", keep_scalars=False),
    )
    if x.ndim < 2 or b.ndim != 1 or b.shape[0] != x.shape[1]:
        raise ValueError(
            f"For 'bias_add', 'bias' must be 1-D with input_x.shape[1] elements, "
            f"but got shapes {x.shape} and {b.shape}."
        )
    return wrap(x + b.reshape((-1,) + (1,) * (x.ndim - 2)))


BiasAdd = primitive(
    "BiasAdd", bias_add, dict(data_format="NCHW"), lambda self, x, bias: bias_add(x, bias)
)


def dense(input, weight, bias=None):
    r"""``input @ weight.T + bias``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0]]), ms.Tensor([0.5])))
        [[3.5]]
    """
    x, w = arr(input, tensor=True), arr(weight, tensor=True)
    # MindSpore's Dense: one dtype (two float widths computed in the wider, as nn.Dense)
    check_same_kind("dense", input=x, weight=w)
    if w.ndim not in (1, 2) or x.ndim < 1:
        raise ValueError(
            f"For 'dense', 'weight' must be 1-D or 2-D and 'input' at least 1-D, but got shapes "
            f"{tuple(x.shape)} and {tuple(w.shape)}."
        )
    if x.shape[-1] != w.shape[-1]:
        raise ValueError(
            f"For 'dense', the last dimension of 'input' must equal weight.shape[-1]="
            f"{w.shape[-1]}, but got input shape {tuple(x.shape)}."
        )
    out = jnp.matmul(x, w.T) if w.ndim == 2 else jnp.matmul(x, w)
    if bias is not None:
        out = out + arr(bias)
    return wrap(out)


def bidense(input1, input2, weight, bias=None):
    """The bilinear map ``y_k = input1 @ weight[k] @ input2 + bias[k]``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> w = ms.Tensor(np.ones((1, 2, 2), np.float32))
        >>> print(ms.ops.bidense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0, 4.0]]), w))
        [[21.]]
    """
    api = "bidense"
    a, b, w = arr(input1, api, "input1"), arr(input2, api, "input2"), arr(weight, api, "weight")
    out = jnp.einsum("...i,kij,...j->...k", a, w, b)
    if bias is not None:
        out = out + arr(bias, api, "bias")
    return wrap(out)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """:func:`baddbmm`: ``beta * input + alpha * (batch1 @ batch2)``.

    Examples:
        >>> import cellax as ms
        >>> out = ms.ops.baddbmm_ext(ms.ops.ones((1, 2, 2)), ms.ops.ones((1, 2, 3)),
        ...                          ms.ops.ones((1, 3, 2)), beta=0.5, alpha=2)
        >>> print(out)
        [[[6.5 6.5]
          [6.5 6.5]]]
    """
    return baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def adjoint(x):
    """The conjugate transpose of the last two dimensions.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.adjoint(ms.Tensor(np.array([[1 + 2j, 3j]], np.complex64))))
        [[1.-2.j]
         [0.-3.j]]
    """
    data = arr(x, "adjoint", "x")
    if data.ndim < 2:
        raise ValueError(f"For 'adjoint', 'x' must have rank >= 2, but got {data.ndim}.")
    return wrap(jnp.conj(jnp.swapaxes(data, -1, -2)))


def einsum_ext(equation, *operands):
    """:func:`einsum` (MindSpore 2.10 runs ``einsum_ext`` on Ascend only; cellax everywhere).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.einsum_ext('ij->j', ms.ops.ones((2, 3))))
        [2. 2. 2.]
    """
    if not isinstance(equation, str):
        raise TypeError(f"For 'einsum_ext', 'equation' must be a str, but got {equation!r}.")
    values = [arr(v, "einsum_ext", "operands") for v in operands]
    try:
        return wrap(jnp.einsum(equation, *values))
    except ValueError as error:
        raise ValueError(f"For 'einsum_ext', {error}") from None
