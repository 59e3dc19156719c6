"""Signal windows: bartlett, blackman, hamming, hann and kaiser (MindSpore 2.10 ``ops``)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._tensor import Tensor
from .utils import np_dtype, static_value, wrap

__all__ = [
    "bartlett_window",
    "blackman_window",
    "hamming_window",
    "hann_window",
    "kaiser_window",
]


def _length(api: str, window_length) -> int:
    if isinstance(window_length, Tensor):
        value = static_value(api, "window_length", window_length)
    else:
        value = window_length
    value = np.asarray(value) if np.isscalar(value) or isinstance(value, np.ndarray) else None
    if value is None or value.ndim != 0 or value.dtype.kind not in "iu":
        raise TypeError(
            f"For '{api}', 'window_length' must be an int or a 0-D integer Tensor, but got "
            f"{window_length!r}."
        )
    if int(value) < 0:
        raise ValueError(f"For '{api}', 'window_length' must be non-negative, but got {value}.")
    return int(value)


def _window(api, window_length, periodic, dtype, make, default=np.float32, tensor_only=False):
    """``make(n, m)``: the window of ``n`` points over a period of ``m`` (``n + periodic``).

    MindSpore 2.10's Bartlett and Blackman primitives take the length as a Tensor only; the
    Hann and Kaiser windows default to Float64, the others to Float32. The Hamming, Hann and
    Kaiser windows take a Python int only (not a Tensor, a NumPy int or a bool), as there."""
    if tensor_only and not hasattr(window_length, "asnumpy"):
        raise TypeError(
            f"For '{api}', the type of 'window_length' must be Tensor, but got "
            f"{type(window_length).__name__}."
        )
    if not tensor_only and (type(window_length) is not int):
        raise TypeError(
            f"For '{api}', 'window_length' must be a non-negative int, but got "
            f"{type(window_length).__name__}."
        )
    n = _length(api, window_length)
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{api}', 'periodic' must be a bool, but got {periodic!r}.")
    target = np_dtype(dtype) if dtype is not None else default
    if n <= 1 and not tensor_only:
        target = np.float64  # MindSpore 2.10 returns Float64 there whatever ``dtype`` says
    if n == 0:
        return wrap(jnp.zeros((0,), target))
    if n == 1:
        return wrap(jnp.ones((1,), target))
    m = n + 1 if periodic else n
    return wrap(jnp.asarray(make(np.arange(n, dtype=np.float64), m), target))


def bartlett_window(window_length, periodic=True, *, dtype=None):
    r"""The Bartlett (triangular) window :math:`1 - |2n / (M - 1) - 1|`.

    Args:
        window_length (Tensor): The number of points, a 0-D integer Tensor.
        periodic (bool): A periodic window (one point longer, last point dropped), for
            spectral analysis. Default: ``True``.
        dtype (cellax.dtype): Float dtype of the result. Default: ``None`` (Float32).

    Returns:
        Tensor of shape ``(window_length,)``.

    Raises:
        TypeError: If ``window_length`` is not an int or ``periodic`` not a bool.
        ValueError: If ``window_length`` is negative.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bartlett_window(ms.Tensor(5), periodic=False))
        [0.  0.5 1.  0.5 0. ]
    """
    return _window(
        "bartlett_window",
        window_length,
        periodic,
        dtype,
        lambda n, m: 1 - np.abs(2 * n / (m - 1) - 1),
        tensor_only=True,
    )


def blackman_window(window_length, periodic=True, *, dtype=None):
    r"""The Blackman window :math:`0.42 - 0.5 \cos(2\pi n/(M-1)) + 0.08 \cos(4\pi n/(M-1))`.

    Arguments, returns and errors as :func:`bartlett_window`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.blackman_window(ms.Tensor(4)).shape
        (4,)
    """

    def make(n, m):
        x = 2 * np.pi * n / (m - 1)
        return 0.42 - 0.5 * np.cos(x) + 0.08 * np.cos(2 * x)

    return _window("blackman_window", window_length, periodic, dtype, make, tensor_only=True)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    r"""The generalised Hamming window :math:`\alpha - \beta \cos(2\pi n / (M - 1))`.

    Args:
        window_length (int): The number of points (a Python int, as in MindSpore 2.10).
        periodic (bool): A periodic window. Default: ``True``.
        alpha (float): Default: ``0.54``.
        beta (float): Default: ``0.46``.
        dtype (cellax.dtype): Float dtype of the result. Default: ``None`` (Float32).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.hamming_window(3, periodic=False))
        [0.08 1.   0.08]
    """
    return _window(
        "hamming_window",
        window_length,
        periodic,
        dtype,
        lambda n, m: alpha - beta * np.cos(2 * np.pi * n / (m - 1)),
    )


def hann_window(window_length, periodic=True, *, dtype=None):
    r"""The Hann window :math:`0.5 - 0.5 \cos(2\pi n / (M - 1))`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.hann_window(4))
        [0.  0.5 1.  0.5]
    """
    return _window(
        "hann_window",
        window_length,
        periodic,
        dtype,
        lambda n, m: 0.5 - 0.5 * np.cos(2 * np.pi * n / (m - 1)),
        np.float64,
    )


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    r"""The Kaiser window :math:`I_0(\beta \sqrt{1 - (2n/(M-1) - 1)^2}) / I_0(\beta)`.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.kaiser_window(5, beta=0.0).asnumpy().tolist()
        [1.0, 1.0, 1.0, 1.0, 1.0]
    """

    def make(n, m):
        ratio = 2 * n / (m - 1) - 1
        return np.i0(beta * np.sqrt(np.clip(1 - ratio**2, 0, None))) / np.i0(beta)

    return _window("kaiser_window", window_length, periodic, dtype, make, np.float64)
