"""Determinants, inverses, solves and decompositions: ``det``, ``inverse``, ``cholesky``,
``qr``, ``svd``, ``lu_unpack``/``lu_solve``, ``lstsq``, ``eig``, Householder QR (``geqrf``,
``orgqr``, ``ormqr``), ``triangular_solve``, ``pinv``, ``matrix_exp``, ``cond``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .dtype_rules import check_accepts
from .primitive import primitive
from .utils import arr, to_float, wrap

__all__ = [
    "det",
    "matrix_determinant",
    "inverse",
    "matrix_power",
    "slogdet",
    "logdet",
    "pinv",
    "cholesky",
    "qr",
    "svd",
    "matrix_exp",
    "MatrixInverse",
    "MatrixDeterminant",
    "Cholesky",
    "Svd",
    "log_matrix_determinant",
    "matrix_solve",
    "lstsq",
    "lu_solve",
    "lu_unpack",
    "cholesky_inverse",
    "cholesky_solve",
    "eig",
    "eigvals",
    "geqrf",
    "orgqr",
    "ormqr",
    "cond",
    "triangular_solve",
]


def _square(api, input):
    x = arr(input, api, tensor=True)  # MindSpore's matrix ops take Tensors only
    check_accepts(api, x)  # its dtype first, as MindSpore checks it before the shape
    x = to_float(x)
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
    x = arr(input, "matrix_power", tensor=True)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For 'matrix_power', 'input' must be square, but got shape {x.shape}.")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'matrix_power', 'n' must be an int, but got {n!r}.")
    return wrap(jnp.linalg.matrix_power(x, n))


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
    value = to_float(arr(x, "pinv", "x", keep_scalars=False))
    return wrap(jnp.linalg.pinv(value, rtol=rtol, hermitian=hermitian))


def cholesky(input_x, upper=False):
    """Cholesky factor of symmetric positive-definite matrices (lower unless ``upper``)."""
    factor = jnp.linalg.cholesky(_square("cholesky", input_x))
    return wrap(jnp.swapaxes(factor, -1, -2).conj() if upper else factor)


def qr(input, mode="reduced"):
    """QR decomposition: ``(Q, R)``."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"For 'qr', 'mode' must be 'reduced' or 'complete', but got {mode!r}.")
    q, r = jnp.linalg.qr(to_float(arr(input, "qr", keep_scalars=False)), mode=mode)
    return wrap(q), wrap(r)


def svd(input, full_matrices=False, compute_uv=True):
    """Singular value decomposition: ``(S, U, V)``, or ``S`` when not ``compute_uv``."""
    x = to_float(arr(input, "svd", keep_scalars=False))
    if not compute_uv:
        return wrap(jnp.linalg.svd(x, compute_uv=False))
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return wrap(s), wrap(u), wrap(jnp.swapaxes(vh, -1, -2).conj())


def matrix_exp(input):
    """Matrix exponential."""
    return wrap(jax.scipy.linalg.expm(_square("matrix_exp", input)))


MatrixInverse = primitive(
    "MatrixInverse",
    inverse,
    dict(adjoint=False),
    lambda self, x: inverse(
        jnp.swapaxes(arr(x, keep_scalars=False), -1, -2).conj() if self.attrs["adjoint"] else x
    ),
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


def _matrices(api, x, name="input", square=True):
    data = arr(x, api, name)
    if data.ndim < 2 or (square and data.shape[-1] != data.shape[-2]):
        raise ValueError(
            f"For '{api}', '{name}' must be a batch of {'square ' if square else ''}matrices, "
            f"but got shape {tuple(data.shape)}."
        )
    if not (jnp.issubdtype(data.dtype, jnp.floating) or jnp.iscomplexobj(data)):
        raise TypeError(f"For '{api}', '{name}' must be a float Tensor, but got {data.dtype}.")
    return data


def _mt(x):
    return jnp.swapaxes(x, -1, -2)


def log_matrix_determinant(input):
    """The sign and the log of the absolute determinant of square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> sign, logdet = ms.ops.log_matrix_determinant(ms.Tensor(np.diag([2.0, -3.0])))
        >>> print(sign, logdet.asnumpy().round(4))
        -1.0 1.7918
    """
    sign, logdet = jnp.linalg.slogdet(_matrices("log_matrix_determinant", input))
    return wrap(sign), wrap(logdet)


def matrix_solve(matrix, rhs, adjoint=False):
    """Solve ``matrix @ x = rhs`` (``adjoint``: with the conjugate transpose of ``matrix``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a = ms.Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))
        >>> print(ms.ops.matrix_solve(a, ms.Tensor(np.array([[2.0], [2.0]], np.float32))))
        [[1. ]
         [0.5]]
    """
    a = _matrices("matrix_solve", matrix, "matrix")
    b = _matrices("matrix_solve", rhs, "rhs", square=False)
    if adjoint:
        a = jnp.conj(_mt(a))
    return wrap(jnp.linalg.solve(a, b))


def lstsq(input, A):
    """The least-squares solution ``X`` of ``input @ X = A`` (minimizing ``||input @ X - A||``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], np.float32))
        >>> print(ms.ops.lstsq(x, ms.Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))))
        [[1.]
         [2.]]
    """
    x = _matrices("lstsq", input, "input", square=False)
    a = _matrices("lstsq", A, "A", square=False)
    return wrap(jnp.linalg.lstsq(x, a)[0].astype(x.dtype))


def _pivots(api, LU_pivots, n):
    pivots = arr(LU_pivots, api, "LU_pivots")
    if not jnp.issubdtype(pivots.dtype, jnp.integer):
        raise TypeError(f"For '{api}', 'LU_pivots' must be an integer Tensor.")
    return pivots.astype(np.int32) - 1  # LAPACK's 1-based row swaps


def _permutation(pivots, n):
    """The row order ``perm`` that the successive swaps ``i <-> pivots[i]`` give."""

    def one(piv):
        def body(i, perm):
            j = piv[i]
            a, b = perm[i], perm[j]
            return perm.at[i].set(b).at[j].set(a)

        return jax.lax.fori_loop(0, piv.shape[-1], body, jnp.arange(n))

    flat = pivots.reshape((-1, pivots.shape[-1]))
    return jax.vmap(one)(flat).reshape(pivots.shape[:-1] + (n,))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """Split a packed LU factorization into ``(P, L, U)`` with ``A = P @ L @ U``.

    Args:
        LU_data (Tensor): The packed factors, shape :math:`(..., M, N)`.
        LU_pivots (Tensor): LAPACK's 1-based pivots, shape :math:`(..., min(M, N))`.
        unpack_data (bool): Return L and U. Default: ``True``.
        unpack_pivots (bool): Return P. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> lu = ms.Tensor(np.array([[3.0, 4.0], [0.5, 1.0]], np.float32))
        >>> p, l, u = ms.ops.lu_unpack(lu, ms.Tensor(np.array([2, 2], np.int32)))
        >>> print(p)
        [[0. 1.]
         [1. 0.]]
    """
    api = "lu_unpack"
    lu = _matrices(api, LU_data, "LU_data", square=False)
    m, n = lu.shape[-2:]
    k = min(m, n)
    lower = jnp.tril(lu[..., :, :k], -1) + jnp.eye(m, k, dtype=lu.dtype)
    upper = jnp.triu(lu[..., :k, :])
    perm = _permutation(_pivots(api, LU_pivots, m), m)
    p = jnp.swapaxes(jax.nn.one_hot(perm, m, dtype=lu.dtype), -1, -2)
    return (
        wrap(p) if unpack_pivots else None,
        wrap(lower) if unpack_data else None,
        wrap(upper) if unpack_data else None,
    )


def lu_solve(b, LU_data, LU_pivots):
    """Solve ``A @ x = b`` from ``A``'s packed LU factorization and 1-based pivots.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> lu = ms.Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))
        >>> piv = ms.Tensor(np.array([1, 2], np.int32))
        >>> print(ms.ops.lu_solve(ms.Tensor(np.array([[2.0], [2.0]], np.float32)), lu, piv))
        [[1. ]
         [0.5]]
    """
    api = "lu_solve"
    lu = _matrices(api, LU_data, "LU_data")
    rhs = _matrices(api, b, "b", square=False)
    piv = _pivots(api, LU_pivots, lu.shape[-1])  # 0-based swaps, as SciPy's lu_factor gives
    batch = lu.shape[:-2]
    flat = [v.reshape((-1,) + v.shape[len(batch) :]) for v in (lu, piv, rhs)]
    out = jax.vmap(lambda f, p, r: jax.scipy.linalg.lu_solve((f, p), r))(*flat)
    return wrap(out.reshape(batch + out.shape[1:]))


def cholesky_inverse(input_x, upper=False):
    """The inverse of ``A`` from its Cholesky factor: ``inv(L @ L^T)`` (``upper``:
    ``inv(U^T @ U)``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.cholesky_inverse(ms.Tensor(np.array([[2.0, 0.0], [0.0, 1.0]], np.float32))))
        [[0.25 0.  ]
         [0.   1.  ]]
    """
    factor = _matrices("cholesky_inverse", input_x, "input_x")
    a = _mt(factor) @ factor if upper else factor @ _mt(factor)
    return wrap(jnp.linalg.inv(a))


def cholesky_solve(input, input2, upper=False):
    """Solve ``A @ x = input`` given ``A``'s Cholesky factor ``input2`` (lower, or ``upper``).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> factor = ms.Tensor(np.array([[2.0, 0.0], [0.0, 1.0]], np.float32))
        >>> print(ms.ops.cholesky_solve(ms.Tensor(np.array([[4.0], [1.0]], np.float32)), factor))
        [[1.]
         [1.]]
    """
    rhs = _matrices("cholesky_solve", input, "input", square=False)
    factor = _matrices("cholesky_solve", input2, "input2")
    return wrap(jax.scipy.linalg.cho_solve((factor, not upper), rhs))


def _complex_dtype(x):
    return np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64


def eig(A):
    """The eigenvalues and right eigenvectors of square matrices (complex; CPU only in JAX).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> values, vectors = ms.ops.eig(ms.Tensor(np.diag([2.0, 3.0]).astype(np.float32)))
        >>> print(values)
        [2.+0.j 3.+0.j]
    """
    a = _matrices("eig", A, "A")
    values, vectors = jnp.linalg.eig(a)
    dtype = _complex_dtype(a)
    return wrap(values.astype(dtype)), wrap(vectors.astype(dtype))


def eigvals(A):
    """The eigenvalues of square matrices, complex.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.eigvals(ms.Tensor(np.array([[0.0, -1.0], [1.0, 0.0]], np.float32))))
        [0.+1.j 0.-1.j]
    """
    a = _matrices("eigvals", A, "A")
    return wrap(jnp.linalg.eigvals(a).astype(_complex_dtype(a)))


def geqrf(input):
    """The QR factorization in LAPACK's packed Householder form: ``(a, tau)``, R on and above
    the diagonal of ``a``, the reflectors' vectors below it.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a, tau = ms.ops.geqrf(ms.Tensor(np.array([[3.0, 1.0], [4.0, 2.0]], np.float32)))
        >>> print(a.asnumpy()[0].round(4))
        [-5.  -2.2]
    """
    a = _matrices("geqrf", input, square=False)
    batch = a.shape[:-2]
    flat = a.reshape((-1,) + a.shape[-2:])
    packed, tau = jax.vmap(_householder_qr)(flat)
    return wrap(packed.reshape(a.shape)), wrap(tau.reshape(batch + tau.shape[1:]))


def _householder_qr(a):
    """LAPACK's geqrf for one matrix: reflectors ``H_j = I - tau_j v_j v_j^H``, ``v_j[0] = 1``
    (``tau_j = 0`` where the column below the diagonal is already zero)."""
    m, n = a.shape
    taus = []
    for j in range(min(m, n)):
        x = a[j:, j]
        alpha, rest = x[0], jnp.linalg.norm(x[1:])
        norm = jnp.sqrt(jnp.abs(alpha) ** 2 + rest**2)
        beta = jnp.where(jnp.real(alpha) >= 0, -norm, norm).astype(a.dtype)
        flat = rest == 0
        tau = jnp.where(flat, 0, (beta - alpha) / jnp.where(flat, 1, beta))
        v = jnp.where(flat, 0, x / jnp.where(flat, 1, alpha - beta)).at[0].set(1)
        block = a[j:, j:]
        block = block - tau * jnp.outer(v, jnp.conj(v) @ block)
        a = a.at[j:, j:].set(block)
        a = a.at[j, j].set(jnp.where(flat, alpha, beta))
        a = a.at[j + 1 :, j].set(jnp.where(flat, x[1:], v[1:]))
        taus.append(tau)
    return a, jnp.stack(taus) if taus else jnp.zeros((0,), a.dtype)


def orgqr(input, input2):
    """The first ``N`` columns of Q from :func:`geqrf`'s ``(input, input2 = tau)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> q = ms.ops.orgqr(*ms.ops.geqrf(ms.Tensor(np.array([[3.0], [4.0]], np.float32))))
        >>> print(q.asnumpy().round(4))
        [[-0.6]
         [-0.8]]
    """
    a = _matrices("orgqr", input, square=False)
    return wrap(jax.lax.linalg.householder_product(a, arr(input2, "orgqr", "input2")))


def ormqr(input, tau, other, left=True, transpose=False):
    """``other`` multiplied by the Q of :func:`geqrf`'s ``(input, tau)``: ``Q @ other``
    (``left=False``: ``other @ Q``; ``transpose``: with ``Q^T``).

    Differences from MindSpore: MindSpore 2.10 CPU has no kernel for it (RuntimeError).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a, tau = ms.ops.geqrf(ms.Tensor(np.array([[3.0], [4.0]], np.float32)))
        >>> print(ms.ops.ormqr(a, tau, ms.Tensor(np.eye(2, dtype=np.float32))).asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
    """
    api = "ormqr"
    a = _matrices(api, input, square=False)
    taus, c = arr(tau, api, "tau"), _matrices(api, other, "other", square=False)
    if hasattr(jax.lax.linalg, "ormqr"):
        return wrap(jax.lax.linalg.ormqr(a, taus, c, left=left, transpose=transpose))
    return wrap(_ormqr_by_q(a, taus, c, left, transpose))


def _ormqr_by_q(a, taus, c, left, transpose):
    """ormqr for JAX versions without ``lax.linalg.ormqr``: build the full Q, then multiply."""
    m = a.shape[-2]
    if a.shape[-1] < m:  # the reflectors past tau's length are not used: pad with zeros
        a = jnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, m - a.shape[-1])])
    q = jax.lax.linalg.householder_product(a[..., :, :m], taus)
    if transpose:
        q = jnp.conj(_mt(q))
    return q @ c if left else c @ q


def cond(A, p=None):
    """The condition number of matrices in the norm ``p`` (None/2: spectral; 'fro', 'nuc',
    inf, -inf, 1, -1, -2).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.cond(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), 'fro'))
        15.0
    """
    a = _matrices("cond", A, "A", square=p is not None and p not in (2, -2))
    return wrap(jnp.linalg.cond(a, p).astype(a.dtype))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Solve ``A X = b`` (or ``A^T X = b``) for a batch of triangular ``A``.

    Returns:
        Tuple ``(solution, A)`` like MindSpore's mint.triangular_solve.

    Examples:
        >>> import cellax as ms
        >>> x, _ = ms.ops.triangular_solve(ms.Tensor([[2.], [3.]]), ms.Tensor([[2., 0.], [0., 3.]]))
        >>> print(x)
        [[1.]
         [1.]]
    """
    rhs, mat = (
        to_float(arr(b, "triangular_solve", "b", keep_scalars=False)),
        arr(A, "triangular_solve", "A", keep_scalars=False),
    )
    mat = mat.astype(rhs.dtype)
    if mat.ndim < 2 or rhs.ndim < 2 or mat.shape[-1] != mat.shape[-2]:
        raise ValueError(
            "For 'triangular_solve', 'A' must be (..., M, M) and 'b' (..., M, K), but got "
            f"shapes {tuple(mat.shape)} and {tuple(rhs.shape)}."
        )
    if rhs.shape[-2] != mat.shape[-1]:
        raise ValueError(
            f"For 'triangular_solve', 'b' must have {mat.shape[-1]} rows (A is "
            f"{tuple(mat.shape[-2:])}), but got shape {tuple(rhs.shape)}."
        )
    try:
        batch = np.broadcast_shapes(rhs.shape[:-2], mat.shape[:-2])
    except ValueError:
        raise ValueError(
            "For 'triangular_solve', the batch dimensions of 'b' and 'A' must broadcast, but "
            f"got shapes {tuple(rhs.shape)} and {tuple(mat.shape)}."
        ) from None
    rhs = jnp.broadcast_to(rhs, batch + rhs.shape[-2:])
    mat = jnp.broadcast_to(mat, batch + mat.shape[-2:])
    out = jax.lax.linalg.triangular_solve(
        mat,
        rhs,
        left_side=True,
        lower=not upper,
        transpose_a=transpose,
        unit_diagonal=unitriangular,
    )
    return wrap(out), wrap(mat)
