"""More linear algebra and complex construction: vdot, polar, triangular_solve."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ._utils import array, to_float, wrap

__all__ = ["polar", "vdot", "triangular_solve"]


def vdot(input, other):
    """Dot product of two 1-D Tensors, conjugating ``input`` first when complex.

    Raises:
        ValueError: If the inputs are not 1-D Tensors of the same length.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.vdot(ms.Tensor([1., 2.]), ms.Tensor([3., 4.])))
        11.0
    """
    a, b = array(input, "vdot"), array(other, "vdot", "other")
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"For 'vdot', 'input' and 'other' must be 1-D Tensors of the same length, but got "
            f"shapes {tuple(a.shape)} and {tuple(b.shape)}."
        )
    return wrap(jnp.vdot(a, b))


def polar(abs, angle):
    """The complex Tensor ``abs * (cos(angle) + i sin(angle))``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.polar(ms.Tensor([2.]), ms.Tensor([0.])))
        [2.+0.j]
    """
    r, theta = array(abs, "polar", "abs"), array(angle, "polar", "angle")
    return wrap(jax.lax.complex(r * jnp.cos(theta), r * jnp.sin(theta)))


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
    rhs, mat = to_float(array(b, "triangular_solve", "b")), array(A, "triangular_solve", "A")
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
