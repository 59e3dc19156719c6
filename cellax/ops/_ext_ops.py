"""The ``*_ext`` variants and fused layers of MindSpore 2.10's ``mindspore.ops`` list
(``rms_norm``, ``add_rms_norm``, ``add_layer_norm``, ``rotary_position_embedding``,
``bidense``, ``eps``, ``adaptive_max_pool3d``, ``conv3d_transpose``, ``move_to``,
``tensordump``).

Differences from MindSpore: the fused layers and several ``*_ext`` ops have no CPU kernel in
MindSpore 2.10 (RuntimeError there); cellax computes them everywhere from their documented
formulas.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from . import _math
from ._conv import conv_transpose3d
from ._linalg import baddbmm
from ._loss import mse_loss
from ._pool import _adaptive, _adaptive_bounds, _max_masked, adaptive_avg_pool2d
from ._random import bernoulli
from ._reduce import diff
from ._utils import arr, wrap

__all__ = [
    "eps",
    "rms_norm",
    "add_rms_norm",
    "add_layer_norm",
    "rotary_position_embedding",
    "bidense",
    "adaptive_max_pool3d",
    "adaptive_avg_pool2d_ext",
    "baddbmm_ext",
    "bernoulli_ext",
    "diff_ext",
    "float_power_ext",
    "isnan_ext",
    "mse_loss_ext",
    "conv3d_transpose",
    "move_to",
    "tensordump",
]


def eps(x):
    """A Tensor like ``x`` filled with its float dtype's machine epsilon.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.ops.eps(ms.Tensor(np.array([1.0, 2.0], np.float16))))
        [0.000977 0.000977]
    """
    data = arr(x, "eps", "x")
    if not jnp.issubdtype(data.dtype, jnp.floating):
        raise TypeError(f"For 'eps', 'x' must be a float Tensor, but got {data.dtype}.")
    return wrap(jnp.full(data.shape, jnp.finfo(data.dtype).eps, data.dtype))


def _rms(x, gamma, epsilon):
    rstd = jax.lax.rsqrt(jnp.mean(jnp.square(x.astype(np.float32)), -1, keepdims=True) + epsilon)
    return (x * rstd * gamma).astype(x.dtype), rstd


def rms_norm(x, gamma, epsilon=1e-06):
    """Root-mean-square normalization over the last axis: ``(x * rstd * gamma, rstd)`` with
    ``rstd = 1 / sqrt(mean(x ** 2) + epsilon)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> y, rstd = ms.ops.rms_norm(ms.Tensor(np.array([[3.0, 4.0]], np.float32)), ms.ops.ones(2))
        >>> print(y.asnumpy().round(4))
        [[0.8485 1.1314]]
    """
    y, rstd = _rms(arr(x, "rms_norm", "x"), arr(gamma, "rms_norm", "gamma"), epsilon)
    return wrap(y), wrap(rstd)


def add_rms_norm(x1, x2, gamma, epsilon=1e-06):
    """:func:`rms_norm` of ``x1 + x2``: returns ``(y, rstd, x1 + x2)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
        >>> print(ms.ops.add_rms_norm(x, x, ms.ops.ones(2))[2])
        [[2. 4.]]
    """
    total = arr(x1, "add_rms_norm", "x1") + arr(x2, "add_rms_norm", "x2")
    y, rstd = _rms(total, arr(gamma, "add_rms_norm", "gamma"), epsilon)
    return wrap(y), wrap(rstd), wrap(total)


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-05, additional_output=False):
    """Layer normalization over the last axis of ``x = x1 + x2``: returns
    ``(y, mean, rstd, x)`` (``mean``/``rstd`` with a kept last axis).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[1.0, 3.0]], np.float32))
        >>> y = ms.ops.add_layer_norm(x, x, ms.ops.ones(2), ms.ops.zeros(2))[0]
        >>> print(y.asnumpy().round(3))
        [[-1.  1.]]
    """
    api = "add_layer_norm"
    x = arr(x1, api, "x1") + arr(x2, api, "x2")
    mean = jnp.mean(x, -1, keepdims=True)
    rstd = jax.lax.rsqrt(jnp.var(x, -1, keepdims=True) + epsilon)
    y = (x - mean) * rstd * arr(gamma, api, "gamma") + arr(beta, api, "beta")
    return wrap(y.astype(x.dtype)), wrap(mean), wrap(rstd), wrap(x)


def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotary position embedding ``x * cos + rotate(x) * sin`` over the last axis: ``mode``
    0 rotates halves (``(-x2, x1)``), 1 interleaved pairs (``(-x_odd, x_even)``).

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
    if mode == 0:
        first, second = jnp.split(data, 2, axis=-1)
        rotated = jnp.concatenate([-second, first], -1)
    else:
        pairs = data.reshape(data.shape[:-1] + (-1, 2))
        rotated = jnp.stack([-pairs[..., 1], pairs[..., 0]], -1).reshape(data.shape)
    return wrap((data * c + rotated * s).astype(data.dtype))


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


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Adaptive max pooling of NCDHW (or CDHW); with ``return_indices`` also the Int32 flat
    indices (over D*H*W) of the maxima.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
        >>> out, idx = ms.ops.adaptive_max_pool3d(x, 1, True)
        >>> print(out.asnumpy().ravel(), idx.asnumpy().ravel())
        [7.] [7]
    """
    api = "adaptive_max_pool3d"
    out = _adaptive(api, 3, input, output_size, _max_masked)
    if not return_indices:
        return wrap(out)
    x = arr(input)
    sizes, outs = x.shape[-3:], out.shape[-3:]
    masks = []
    for size, o in zip(sizes, outs):
        starts, ends = _adaptive_bounds(size, o)
        idx = np.arange(size)
        masks.append(
            (idx[None] >= np.array(starts)[:, None]) & (idx[None] < np.array(ends)[:, None])
        )
    window = (
        masks[0][:, None, None, :, None, None]
        & masks[1][None, :, None, None, :, None]
        & masks[2][None, None, :, None, None, :]
    ).reshape(outs + (-1,))
    flat = x.reshape(x.shape[:-3] + (1, 1, 1, -1))
    indices = jnp.argmax(jnp.where(jnp.asarray(window), flat, -jnp.inf), axis=-1)
    return wrap(out), wrap(indices.astype(np.int32))


def adaptive_avg_pool2d_ext(input, output_size):
    """:func:`adaptive_avg_pool2d` (MindSpore 2.10 runs the ``_ext`` form on Ascend only).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.adaptive_avg_pool2d_ext(ms.ops.ones((1, 2, 5, 5)), (2, 3)).shape
        (1, 2, 2, 3)
    """
    return adaptive_avg_pool2d(input, output_size)


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


def bernoulli_ext(input, *, generator=None):
    """0/1 samples that are 1 with the probabilities ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bernoulli_ext(ms.Tensor([0.0, 1.0])))
        [0. 1.]
    """
    seed = None
    if generator is not None:
        s, offset = generator._step(1)
        seed = (s * 1_000_003 + offset) % (2**31 - 1) + 1
    return bernoulli(input, p=input, seed=seed)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """:func:`diff` (the n-th forward difference along ``dim``).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.diff_ext(ms.Tensor([1.0, 4.0, 9.0, 16.0]), 2))
        [2. 2.]
    """
    return diff(input, n, dim, prepend, append)


def float_power_ext(input, exponent):
    """:func:`float_power` (Float64 results).

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.float_power_ext(ms.Tensor([2, 3]), 2))
        [4. 9.]
    """
    return _math.float_power(input, exponent)


def isnan_ext(tensor):
    """:func:`isnan`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.isnan_ext(ms.Tensor([1.0, float('nan')])))
        [False  True]
    """
    return _math.isnan(tensor)


def mse_loss_ext(input, target, reduction="mean"):
    """:func:`mse_loss`.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.mse_loss_ext(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 4.0])))
        2.5
    """
    return mse_loss(input, target, reduction)


def conv3d_transpose(
    inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0
):
    """The 3-D transposed convolution in MindSpore's older argument order; see
    :func:`conv_transpose3d` (``pad_mode`` must be ``'pad'`` for a non-zero ``padding``).

    Examples:
        >>> import cellax as ms
        >>> ms.ops.conv3d_transpose(ms.ops.ones((1, 2, 3, 3, 3)), ms.ops.ones((2, 4, 2, 2, 2))).shape
        (1, 4, 4, 4, 4)
    """
    if pad_mode not in ("valid", "pad", "same"):
        raise ValueError(f"For 'conv3d_transpose', unknown 'pad_mode' {pad_mode!r}.")
    if pad_mode != "pad" and padding not in (0, (0,) * 3, (0,) * 6):
        raise ValueError("For 'conv3d_transpose', 'padding' must be 0 unless pad_mode is 'pad'.")
    return conv_transpose3d(inputs, weight, None, stride, padding, output_padding, group, dilation)


def move_to(input, to="CPU", blocking=True):
    """``input`` on the device ``to`` (``'CPU'``, ``'GPU'`` or ``'Ascend'``; the backend JAX
    runs on, e.g. its GPU for ``'GPU'``).

    Raises:
        ValueError: If ``to`` is not one of those names.
        RuntimeError: If JAX has no device of that kind.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.move_to(ms.Tensor([1.0, 2.0]), 'CPU'))
        [1. 2.]
    """
    kinds = {"CPU": "cpu", "GPU": "gpu", "Ascend": "tpu"}
    if not isinstance(to, str) or to not in kinds:
        raise ValueError(f"For 'move_to', 'to' must be 'CPU', 'GPU' or 'Ascend', got {to!r}.")
    try:
        device = jax.devices(kinds[to])[0]
    except RuntimeError:
        raise RuntimeError(f"For 'move_to', JAX has no {to} device here.") from None
    value = jax.device_put(arr(input, "move_to"), device)
    if blocking and not isinstance(value, jax.core.Tracer):  # a compiled program waits anyway
        value.block_until_ready()
    return wrap(value)


_DUMPS = [0]  # MindSpore numbers the dump files of a process


def tensordump(file_name, tensor, mode="out"):
    """Save ``tensor`` as a NumPy file named, as MindSpore 2.10 names it,
    ``<file_name without .npy>_<dtype>_<n>.npy`` (``n`` counts the dumps of the process).

    Examples:
        >>> import glob, os, tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> ms.ops.tensordump(os.path.join(folder, "t.npy"), ms.Tensor([1.0, 2.0]))
        >>> print(np.load(glob.glob(os.path.join(folder, "t_float32_*.npy"))[0]))
        [1. 2.]
    """
    if not isinstance(file_name, str):
        raise TypeError(f"For 'tensordump', 'file_name' must be a str, got {file_name!r}.")
    if mode not in ("out", "in", "all"):
        raise ValueError(f"For 'tensordump', 'mode' must be 'out', 'in' or 'all', got {mode!r}.")
    value = np.asarray(arr(tensor, "tensordump", "tensor"))
    stem = file_name[:-4] if file_name.endswith(".npy") else file_name
    np.save(f"{stem}_{value.dtype.name}_{_DUMPS[0]}.npy", value)
    _DUMPS[0] += 1
