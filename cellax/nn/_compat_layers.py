"""Layers real MindSpore code uses under MindSpore 2.10's names: :class:`Pad`,
:class:`Linear` and :class:`GraphCell`."""

from __future__ import annotations

import jax.numpy as jnp

from .. import _dtype
from .._tensor import wrap
from ..ops._utils import arr
from ._cell import Cell
from ._dense import Dense

__all__ = ["Pad", "Linear", "GraphCell"]

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
