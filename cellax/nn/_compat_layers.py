"""Layers real MindSpore code uses under MindSpore 2.10's names: :class:`Pad`,
:class:`Linear`, :class:`OneHot`, :class:`SyncBatchNorm`,
:class:`Unfold` and :class:`RNNCellBase` (the base of user-written RNN cells)."""

from __future__ import annotations

import math

import jax.numpy as jnp
from jax import lax

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import Uniform, initializer
from .._parameter import Parameter
from .._tensor import wrap
from ..ops._impl.utils import arr
from ._cell import Cell
from ._dense import Dense
from ._normalization import BatchNorm2d

__all__ = ["Pad", "Linear", "OneHot", "SyncBatchNorm", "Unfold", "RNNCellBase"]

_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


class Pad(Cell):
    """Pad a tensor by ``paddings`` (``mindspore.nn.Pad``).

    Args:
        paddings (tuple): One ``(before, after)`` pair of non-negative ints per input
            dimension.
        mode (str): ``"CONSTANT"`` (zeros), ``"REFLECT"`` (mirror without the edge) or
            ``"SYMMETRIC"`` (mirror with the edge). Default: ``"CONSTANT"``.

    Inputs:
        - **x** (Tensor) - Rank ``len(paddings)``.

    Outputs:
        Tensor, dimension ``i`` grown by ``paddings[i][0] + paddings[i][1]``.

    Raises:
        TypeError: If ``paddings`` is not a tuple.
        ValueError: If ``paddings`` is not ``(n, 2)``, ``mode`` is unknown or the rank of
            ``x`` is not ``n``.

    Examples:
        >>> import cellax as ms
        >>> pad = ms.nn.Pad(((1, 1), (2, 2)), mode="SYMMETRIC")
        >>> print(pad(ms.Tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])))
        [[1. 0. 0. 1. 2. 2. 1.]
         [1. 0. 0. 1. 2. 2. 1.]
         [4. 3. 3. 4. 5. 5. 4.]
         [4. 3. 3. 4. 5. 5. 4.]]
    """

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in _PAD_MODES:
            raise ValueError(
                f"For 'Pad', the 'mode' must be str and must be in '{list(_PAD_MODES)}', "
                f"but got '{mode}'."
            )
        if not isinstance(paddings, tuple):
            raise TypeError(
                f"For 'Pad', the type of 'paddings' must be tuple, but got "
                f"{type(paddings).__name__}."
            )
        for pair in paddings:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(
                    f"For 'Pad', the dimension of 'paddings' must be (n, 2), but got {paddings}."
                )
        self.paddings = paddings
        self.mode = mode

    def construct(self, x):
        value = arr(x, "Pad", "x", tensor=True)
        if value.ndim != len(self.paddings):
            raise ValueError(
                f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', "
                f"but got {len(self.paddings)} vs {value.ndim}"
            )
        pads = [tuple(int(p) for p in pair) for pair in self.paddings]
        return wrap(jnp.pad(value, pads, mode=self.mode.lower()))


class Linear(Dense):
    """Fully connected layer with PyTorch-style argument names (``mindspore.nn.Linear``):
    ``y = x @ weight.T + bias``.

    Args:
        in_features (int): Input features.
        out_features (int): Output features.
        bias (bool): Add a bias. Default: ``True``.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``
            (as :class:`Dense`).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``None``.
        dtype (cellax.dtype): Default: ``None`` (float32).

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Linear(3, 2)
        >>> net
        Linear(input_features=3, output_features=2, has_bias=True)
        >>> net(ms.ops.ones((4, 3))).shape
        (4, 2)
    """

    def __init__(
        self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None
    ):
        super().__init__(
            in_features,
            out_features,
            weight_init=weight_init,
            bias_init=bias_init,
            has_bias=bias,
            dtype=_dtype.float32 if dtype is None else dtype,
        )

    def extend_repr(self) -> str:
        return (
            f"input_features={self.in_channels}, output_features={self.out_channels}, "
            f"has_bias={self.has_bias}"
        )


class OneHot(Cell):
    """One-hot encode integer indices (``mindspore.nn.OneHot``).

    Args:
        axis (int): Where the new dimension of size ``depth`` goes. Default: ``-1``.
        depth (int): The number of classes. Default: ``1``.
        on_value (float): The value at the index. Default: ``1.0``.
        off_value (float): The value elsewhere. Default: ``0.0``.
        dtype (mindspore.dtype): The output dtype. Default: ``mindspore.float32``.

    Inputs:
        - **indices** (Tensor) - int32 or int64; an index outside ``[0, depth)`` gives a row
          of ``off_value``.

    Outputs:
        Tensor of rank ``indices.ndim + 1`` and dtype ``dtype``.

    Raises:
        ValueError: If ``depth`` is negative.

    Examples:
        >>> import cellax as ms
        >>> print(ms.nn.OneHot(depth=3)(ms.Tensor([0, 2], ms.int32)))
        [[1. 0. 0.]
         [0. 0. 1.]]
    """

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=_dtype.float32):
        super().__init__()
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"For 'OneHot', 'depth' must be an int >= 0, but got {depth!r}.")
        self.axis, self.depth = axis, depth
        self.on_value, self.off_value, self.dtype = on_value, off_value, dtype

    def construct(self, indices):
        idx = arr(indices, "OneHot", "indices", tensor=True)
        if _dtype.is_bool(getattr(idx, "dtype", int)):
            raise TypeError(
                "For 'OneHot', 'indices' must be an int32 or int64 Tensor, but got Bool."
            )
        dtype = _dtype.dtype_to_nptype(_dtype.to_dtype(self.dtype))
        hot = idx[..., None] == jnp.arange(self.depth, dtype=idx.dtype)
        out = jnp.where(hot, self.on_value, self.off_value).astype(dtype)
        return wrap(jnp.moveaxis(out, -1, self.axis))


class SyncBatchNorm(BatchNorm2d):
    """Batch normalisation synchronised across devices (``mindspore.nn.SyncBatchNorm``).

    With one process (cellax's case) it is :class:`BatchNorm2d`; arguments as there plus
    ``process_groups`` (accepted; there is no other device to synchronise with).

    Examples:
        >>> import cellax as ms
        >>> ms.nn.SyncBatchNorm(3)(ms.ops.ones((2, 3, 2, 2))).shape
        (2, 3, 2, 2)
    """

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.9,
        affine=True,
        gamma_init="ones",
        beta_init="zeros",
        moving_mean_init="zeros",
        moving_var_init="ones",
        use_batch_statistics=None,
        process_groups=None,
        dtype=_dtype.float32,
    ):
        super().__init__(
            num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
            moving_var_init, use_batch_statistics, dtype=dtype,
        )  # fmt: skip
        self.process_groups = process_groups


def _unfold_arg(name: str, value) -> tuple:
    if (
        not isinstance(value, (tuple, list))
        or len(value) != 4
        or value[0] != 1
        or value[3] != 1
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value)
    ):
        raise ValueError(
            f"For 'Unfold', '{name}' must be a tuple or list [1, row, col, 1] of positive ints, "
            f"but got {value!r}."
        )
    return (value[1], value[2])


class Unfold(Cell):
    """Extract image patches into the channel dimension (``mindspore.nn.Unfold``, MindSpore
    2.10's signature with ``ksizes``, ``strides`` and ``rates`` as ``[1, row, col, 1]``).

    Args:
        ksizes (Union[tuple[int], list[int]]): The patch size ``[1, ksize_row, ksize_col, 1]``.
        strides (Union[tuple[int], list[int]]): The step between patches, ``[1, row, col, 1]``.
        rates (Union[tuple[int], list[int]]): The dilation inside a patch, ``[1, row, col, 1]``.
        padding (str): ``"valid"`` (patches inside the image) or ``"same"`` (zero padding,
            ``ceil(in / stride)`` patches per dimension). Default: ``"valid"``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, ksize\_row \cdot ksize\_col \cdot C, out\_row, out\_col)`;
        channel ``(i * ksize_col + j) * C + c`` holds input channel ``c`` at patch offset
        ``(i, j)`` (TensorFlow's ``extract_image_patches`` order).

    Raises:
        ValueError: If an argument is not ``[1, row, col, 1]`` or ``padding`` is unknown.

    Differences from MindSpore:
        MindSpore 2.10 has no CPU kernel for this layer; cellax runs it everywhere.

    Examples:
        >>> import cellax as ms
        >>> unfold = ms.nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1])
        >>> unfold(ms.ops.ones((2, 3, 6, 6))).shape
        (2, 12, 3, 3)
    """

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksizes = _unfold_arg("ksizes", ksizes)
        self.strides = _unfold_arg("strides", strides)
        self.rates = _unfold_arg("rates", rates)
        if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
            raise ValueError(
                f"For 'Unfold', 'padding' must be 'same' or 'valid', but got {padding!r}."
            )
        self.padding = padding.upper()

    def construct(self, x):
        a = arr(x, "Unfold", "x", tensor=True)
        if getattr(a, "ndim", 0) != 4:
            raise ValueError(
                f"For 'Unfold', 'x' must be a 4-d Tensor (N, C, H, W), but got shape "
                f"{tuple(getattr(a, 'shape', ()))}."
            )
        n, c, h, w = a.shape
        pads = []
        for size, k, s, r in zip((h, w), self.ksizes, self.strides, self.rates):
            span = (k - 1) * r + 1
            if self.padding == "SAME":
                out = -(-size // s)
                total = max((out - 1) * s + span - size, 0)
                pads.append((total // 2, total - total // 2))
            else:
                pads.append((0, 0))
        patches = lax.conv_general_dilated_patches(
            a, self.ksizes, self.strides, pads, rhs_dilation=self.rates
        )  # (N, C * kr * kc, oh, ow), channel-major
        oh, ow = patches.shape[2:]
        kr, kc = self.ksizes
        patches = patches.reshape(n, c, kr * kc, oh, ow).transpose(0, 2, 1, 3, 4)
        return wrap(patches.reshape(n, kr * kc * c, oh, ow))


class RNNCellBase(Cell):
    """The base of RNN cells (``mindspore.nn.layer.rnn_cells.RNNCellBase``): it creates the
    weights a cell with ``num_chunks`` gates needs, and subclasses write ``construct``.

    Args:
        input_size (int): Input features.
        hidden_size (int): Hidden features.
        has_bias (bool): Create ``bias_ih`` and ``bias_hh``.
        num_chunks (int): The number of gates (1 for an Elman cell, 3 for GRU, 4 for LSTM).
        dtype (mindspore.dtype): The weights' dtype. Default: ``mindspore.float32``.

    Attributes:
        weight_ih (Parameter): Shape ``(num_chunks * hidden_size, input_size)``, drawn (as
            every weight here) from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``.
        weight_hh (Parameter): Shape ``(num_chunks * hidden_size, hidden_size)``.
        bias_ih (Parameter): Shape ``(num_chunks * hidden_size,)``; ``None`` without
            ``has_bias``.
        bias_hh (Parameter): Shape ``(num_chunks * hidden_size,)``; ``None`` without
            ``has_bias``.

    Raises:
        ValueError: If ``input_size`` or ``hidden_size`` is not a positive int.

    Examples:
        >>> import cellax as ms
        >>> from cellax.nn.layer.rnn_cells import RNNCellBase
        >>> cell = RNNCellBase(4, 8, True, num_chunks=3)
        >>> cell.weight_ih.shape, cell.weight_hh.shape, cell.bias_ih.shape
        ((24, 4), (24, 8), (24,))
    """

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=_dtype.float32):
        super().__init__()
        api = type(self).__name__
        self.input_size = check_positive_int(api, "input_size", input_size)
        self.hidden_size = check_positive_int(api, "hidden_size", hidden_size)
        self.has_bias = check_bool(api, "has_bias", has_bias)
        gates = num_chunks * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        self.weight_ih = Parameter(initializer(init, (gates, input_size), dtype), name="weight_ih")
        self.weight_hh = Parameter(initializer(init, (gates, hidden_size), dtype), name="weight_hh")
        if has_bias:
            self.bias_ih = Parameter(initializer(init, (gates,), dtype), name="bias_ih")
            self.bias_hh = Parameter(initializer(init, (gates,), dtype), name="bias_hh")
        else:
            self.bias_ih = self.bias_hh = None
