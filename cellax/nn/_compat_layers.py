"""Layers real MindSpore code uses under MindSpore 2.10's names: :class:`Pad`,
:class:`Linear`, :class:`GraphCell`, :class:`OneHot` and :class:`SyncBatchNorm`."""

from __future__ import annotations

import jax.numpy as jnp

from .. import _dtype
from .._tensor import wrap
from ..ops._utils import arr
from ._cell import Cell
from ._dense import Dense
from ._normalization import BatchNorm2d

__all__ = ["Pad", "Linear", "GraphCell", "OneHot", "SyncBatchNorm"]

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
        value = arr(x, "Pad", "x")
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


class GraphCell(Cell):
    """Run a graph exported by ``mindspore.export`` (``mindspore.nn.GraphCell``).

    Args:
        graph (FuncGraph): A graph loaded by ``mindspore.load``.
        params_init (dict): Default: ``None``.
        obf_random_seed (int): Default: ``None``.

    Raises:
        NotImplementedError: Always: MindIR graphs are MindSpore's compiled IR, which cellax
            (on JAX/XLA) cannot load or run.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        raise NotImplementedError(
            "For 'GraphCell', running an exported MindIR graph needs MindSpore's graph "
            "runtime, which cellax does not provide. Rebuild the network in Python and load "
            "its checkpoint instead."
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
        idx = arr(indices)
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
