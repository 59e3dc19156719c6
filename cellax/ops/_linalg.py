"""Linear algebra: products (bmm, batch_dot, einsum, addmm ...), norms and decompositions."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ._primitive import primitive
from ._utils import array, check_axes, np_dtype, to_float, wrap

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
    "det",
    "matrix_determinant",
    "inverse",
    "matrix_power",
    "norm",
    "vector_norm",
    "matrix_norm",
    "cross",
    "kron",
    "vecdot",
    "slogdet",
    "logdet",
    "pinv",
    "cholesky",
    "qr",
    "svd",
    "matrix_exp",
    "cdist",
    "dist",
    "Einsum",
    "MatrixInverse",
    "MatrixDeterminant",
    "Cholesky",
    "Svd",
    "Kron",
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
    a, b = array(input_x, "bmm", "input_x"), array(mat2, "bmm", "mat2")
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
    a, b = array(input, "mm"), array(mat2, "mm", "mat2")
    _rank_check("mm", "input", a, (2,))
    _rank_check("mm", "mat2", b, (2,))
    _contract_check("mm", a, b, a.shape[1], b.shape[0])
    return wrap(a @ b)


def mv(mat, vec):
    """Matrix-vector product."""
    a, b = array(mat, "mv", "mat"), array(vec, "mv", "vec")
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
    a, b = array(x1, "batch_dot", "x1"), array(x2, "batch_dot", "x2")
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
        ValueError: If an input is 1-D or the contracted dimensions differ.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.dot(ms.ops.ones((2, 2, 3)), ms.ops.ones((4, 3, 5))).shape
        (2, 2, 4, 5)
    """
    a, b = array(input, "dot"), array(other, "dot", "other")
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
    a, b = array(input, "inner"), array(other, "inner", "other")
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
    a, b = array(input, "outer"), array(vec2, "outer", "vec2")
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
    a, b = array(x1, "tensor_dot", "x1"), array(x2, "tensor_dot", "x2")
    if not isinstance(axes, (int, tuple, list)) or isinstance(axes, bool):
        raise TypeError(
            f"For 'tensor_dot', 'axes' must be an int or a tuple or list of axes, but got {axes!r}."
        )
    if not isinstance(axes, int):
        axes = tuple(tuple([ax] if isinstance(ax, int) else ax) for ax in axes)
    try:
        return wrap(jnp.tensordot(a, b, axes))
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"For 'tensor_dot', can not contract shapes {a.shape} and {b.shape} "
            f"over axes {axes}: {error}"
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
    values = [array(v, "einsum", "operands") for v in operands]
    try:
        return wrap(jnp.einsum(equation, *values))
    except ValueError as error:
        raise ValueError(
            f"For 'einsum', the equation {equation!r} does not fit the operand "
            f"shapes {[v.shape for v in values]}: {error}"
        ) from None


def _scaled_sum(input, product, beta, alpha):
    return wrap(beta * array(input) + alpha * product)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.addmm(ms.ops.ones((1, 1)), ms.ops.ones((1, 2)), ms.ops.ones((2, 1))))
        [[3.]]
    """
    return _scaled_sum(input, mm(mat1, mat2)._value, beta, alpha)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    return _scaled_sum(input, bmm(batch1, batch2)._value, beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    return _scaled_sum(input, jnp.sum(bmm(batch1, batch2)._value, 0), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return _scaled_sum(input, mv(mat, vec)._value, beta, alpha)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``."""
    return _scaled_sum(x, outer(vec1, vec2)._value, beta, alpha)


def _square(api, input):
    x = to_float(array(input, api))
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"For '{api}', 'input' must be a (batch of) square matrices, but got shape {x.shape}."
        )
    return x


def det(input):
    """Determinant of (a batch of) square matrices.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.det(ms.Tensor([[1., 2.], [3., 4.]])).asnumpy().round(4))
        -2.0
    """
    return wrap(jnp.linalg.det(_square("det", input)))


def matrix_determinant(input):
    """Alias of :func:`det`."""
    return det(input)


def inverse(input):
    """Inverse of (a batch of) square matrices.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.inverse(ms.Tensor([[2., 0.], [0., 4.]])))
        [[0.5  0.  ]
         [0.   0.25]]
    """
    return wrap(jnp.linalg.inv(_square("inverse", input)))


def matrix_power(input, n):
    """``input`` multiplied by itself ``n`` times (negative ``n`` inverts first).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.matrix_power(ms.Tensor([[1., 1.], [0., 1.]]), 3))
        [[1. 3.]
         [0. 1.]]
    """
    x = array(input, "matrix_power")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For 'matrix_power', 'input' must be square, but got shape {x.shape}.")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'matrix_power', 'n' must be an int, but got {n!r}.")
    return wrap(jnp.linalg.matrix_power(x, n))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm (``torch.linalg.norm``-style ``ord`` and ``dim``).

    With ``dim=None`` and ``ord=None`` it is the 2-norm of the flattened input; a 2-D ``dim``
    or a 2-D input with ``ord`` given computes a matrix norm.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([[0., 1., 2.], [3., 4., 5.]])
        >>> print(ms.ops.norm(x), ms.ops.norm(x, dim=0))
        7.4161983 [3.        4.1231055 5.3851647]
    """
    x = to_float(array(A, "norm", "A"))
    if dtype is not None:
        x = x.astype(np_dtype(dtype))
    axes = check_axes("norm", dim, x.ndim, "dim")
    if axes is None:
        if ord is None:
            return wrap(jnp.sqrt(jnp.sum(jnp.square(jnp.abs(x)), keepdims=keepdim)))
        axes = tuple(range(x.ndim))
    if len(axes) > 2:
        raise ValueError(f"For 'norm', 'dim' must name one or two dimensions, but got {dim}.")
    if len(axes) == 2 and isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise ValueError(f"For 'norm', 'ord' must be 'fro', 'nuc' or a number, but got {ord!r}.")
    return wrap(jnp.linalg.norm(x, ord, axes, keepdims=keepdim))


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The ``ord``-norm of ``x`` viewed as vectors along ``axis`` (flattened when None).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.vector_norm(ms.Tensor([3., 4.]), 1))
        7.0
    """
    value = to_float(array(x, "vector_norm", "x"))
    if dtype is not None:
        value = value.astype(np_dtype(dtype))
    axes = check_axes("vector_norm", axis, value.ndim)
    if axes is None:
        flat = value.reshape(-1)
        result = jnp.linalg.vector_norm(flat, ord=ord)
        if keepdims:
            result = result.reshape((1,) * value.ndim)
        return wrap(result)
    return wrap(jnp.linalg.vector_norm(value, ord=ord, axis=axes, keepdims=keepdims))


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """Matrix norm over the two dimensions ``axis``."""
    x = to_float(array(A, "matrix_norm", "A"))
    if dtype is not None:
        x = x.astype(np_dtype(dtype))
    return wrap(jnp.linalg.norm(x, ord, tuple(axis), keepdims=keepdims))


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dimension of size 3 when None)."""
    a, b = array(input, "cross"), array(other, "cross", "other")
    if dim is None:
        dim = next((i for i, d in enumerate(a.shape) if d == 3), None)
        if dim is None:
            raise ValueError(
                f"For 'cross', 'input' needs a dimension of size 3, but got shape {a.shape}."
            )
    return wrap(jnp.cross(a, b, axis=dim))


def kron(input, other):
    """Kronecker product."""
    return wrap(jnp.kron(array(input, "kron"), array(other, "kron", "other")))


def vecdot(x, y, *, axis=-1):
    """``sum(conj(x) * y)`` along ``axis``."""
    return wrap(jnp.sum(jnp.conj(array(x, "vecdot", "x")) * array(y, "vecdot", "y"), axis=axis))


def slogdet(input):
    """``(sign, log|det|)`` of (a batch of) square matrices."""
    sign, value = jnp.linalg.slogdet(_square("slogdet", input))
    return wrap(sign), wrap(value)


def logdet(input):
    """``log(det(input))`` (NaN for negative determinants)."""
    sign, value = jnp.linalg.slogdet(_square("logdet", input))
    return wrap(jnp.where(sign < 0, jnp.nan, value + jnp.log(sign)))


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """Moore-Penrose pseudo-inverse."""
    value = to_float(array(x, "pinv", "x"))
    return wrap(jnp.linalg.pinv(value, rtol=rtol, hermitian=hermitian))


def cholesky(input_x, upper=False):
    """Cholesky factor of symmetric positive-definite matrices (lower unless ``upper``)."""
    factor = jnp.linalg.cholesky(_square("cholesky", input_x))
    return wrap(jnp.swapaxes(factor, -1, -2).conj() if upper else factor)


def qr(input, mode="reduced"):
    """QR decomposition: ``(Q, R)``."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"For 'qr', 'mode' must be 'reduced' or 'complete', but got {mode!r}.")
    q, r = jnp.linalg.qr(to_float(array(input, "qr")), mode=mode)
    return wrap(q), wrap(r)


def svd(input, full_matrices=False, compute_uv=True):
    """Singular value decomposition: ``(S, U, V)``, or ``S`` when not ``compute_uv``."""
    x = to_float(array(input, "svd"))
    if not compute_uv:
        return wrap(jnp.linalg.svd(x, compute_uv=False))
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return wrap(s), wrap(u), wrap(jnp.swapaxes(vh, -1, -2).conj())


def matrix_exp(input):
    """Matrix exponential."""
    return wrap(jax.scipy.linalg.expm(_square("matrix_exp", input)))


def cdist(x1, x2, p=2.0):
    """Pairwise ``p``-norm distances between the rows of ``x1`` and ``x2``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.cdist(ms.Tensor([[0., 0.]]), ms.Tensor([[3., 4.]])))
        [[5.]]
    """
    a, b = to_float(array(x1, "cdist", "x1")), to_float(array(x2, "cdist", "x2"))
    diff = a[..., :, None, :] - b[..., None, :, :]
    return wrap(jnp.linalg.vector_norm(diff, ord=p, axis=-1))


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other``."""
    diff = to_float(array(input, "dist")) - array(other, "dist", "other")
    return wrap(jnp.linalg.vector_norm(diff.reshape(-1), ord=p))


# -- primitive classes -------------------------------------------------------------------------

Einsum = primitive(
    "Einsum",
    einsum,
    dict(equation=""),
    lambda self, operands: einsum(self.attrs["equation"], *operands),
)
MatrixInverse = primitive(
    "MatrixInverse",
    inverse,
    dict(adjoint=False),
    lambda self, x: inverse(jnp.swapaxes(array(x), -1, -2).conj() if self.attrs["adjoint"] else x),
)
MatrixDeterminant = primitive("MatrixDeterminant", det)
Cholesky = primitive(
    "Cholesky", cholesky, dict(upper=False), lambda self, x: cholesky(x, self.attrs["upper"])
)
Svd = primitive(
    "Svd",
    svd,
    dict(full_matrices=False, compute_uv=True),
    lambda self, x: svd(x, self.attrs["full_matrices"], self.attrs["compute_uv"]),
)
Kron = primitive("Kron", kron)
