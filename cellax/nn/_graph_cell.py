""":class:`GraphCell`: run a graph that ``cellax.load`` read from a ``.mindir`` file.

A cellax ``.mindir`` holds a serialized ``jax.export.Exported`` (StableHLO) of the network's
forward function ``forward(params, *inputs)`` and the parameter values beside it (see
``cellax/_serialization/_mindir.py``). :class:`FuncGraph` is that pair after loading;
:class:`GraphCell` owns the values as Parameters (so ``params_init`` and checkpoints can replace
them) and calls the StableHLO function, eagerly or inside ``jit``.
"""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np

from .._parameter import Parameter
from .._tensor import Tensor, unwrap, wrap
from ._cell import Cell

__all__ = ["GraphCell"]


class FuncGraph:
    """A loaded cellax MINDIR graph: the exported function and its parameter values.

    ``graph(*inputs)`` runs it with the stored values.
    """

    def __init__(self, exported, params: dict, file_name: str = "") -> None:
        self.exported = exported
        self.params = params  # {name: np.ndarray}, in the exported function's order
        self.file_name = file_name

    @property
    def input_shapes(self) -> list:
        """The input shapes, ``None`` where the dimension is dynamic."""
        return [_shape(aval.shape) for aval in self.exported.in_avals[len(self.params) :]]

    def run(self, params: dict, *inputs):
        """Run with ``params`` (``{name: array}``) and ``inputs``; return Tensors."""
        arrays = [_input_array(x, i) for i, x in enumerate(inputs)]
        self._check_inputs(arrays)
        out = self.exported.call(params, *arrays)
        return jax.tree_util.tree_map(wrap, out)

    def __call__(self, *inputs):
        return self.run(self.params, *inputs)

    def _check_inputs(self, arrays) -> None:
        avals = self.exported.in_avals[len(self.params) :]
        if len(arrays) != len(avals):
            raise TypeError(
                f"For 'GraphCell', the graph from '{self.file_name}' takes {len(avals)} "
                f"input(s), but got {len(arrays)}."
            )
        for i, (array, aval) in enumerate(zip(arrays, avals)):
            want = _shape(aval.shape)
            fits = len(want) == array.ndim and all(
                w is None or w == d for w, d in zip(want, array.shape)
            )
            if not fits or jnp.dtype(array.dtype) != aval.dtype:
                raise ValueError(
                    f"For 'GraphCell', input {i} must have shape {want} (None: any size) and "
                    f"dtype {aval.dtype}, as exported, but got shape {tuple(array.shape)} and "
                    f"dtype {array.dtype}. Export again with these inputs, or with None in "
                    f"the shape (Tensor(shape=[None, ...], dtype=...)) for a dynamic size."
                )

    def __repr__(self) -> str:
        return f"FuncGraph(file_name={self.file_name!r}, input_shapes={self.input_shapes})"


def _shape(shape) -> tuple:
    return tuple(d if isinstance(d, int) else None for d in shape)


def _input_array(x, index: int):
    if isinstance(x, (bool, int, float)):
        return np.asarray(x)
    array = unwrap(x)
    if not hasattr(array, "shape") or not hasattr(array, "dtype"):
        raise TypeError(
            f"For 'GraphCell', input {index} must be a Tensor or an array, but got "
            f"{type(x).__name__}."
        )
    return array


class GraphCell(Cell):
    """Run a graph loaded by :func:`cellax.load` (``mindspore.nn.GraphCell``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/nn/mindspore.nn.GraphCell.html

    Args:
        graph (FuncGraph): A graph returned by :func:`cellax.load`.
        params_init (dict): ``{name: Tensor}``: new values for the graph's Parameters of
            those names (names the graph lacks are skipped with a warning). Default: ``None``.
        obf_random_seed (int): Must be ``None`` (model obfuscation is not supported, as in
            MindSpore 2.10). Default: ``None``.

    Inputs:
        - **inputs** (Tensor) - As many as the exported network took, with the exported
          shapes and dtypes (any size where the export said ``None``).

    Outputs:
        The exported network's outputs, as Tensors (same nesting).

    Raises:
        TypeError: If ``graph`` is not a graph from :func:`cellax.load`, or ``params_init`` is
            not a dict of str to Tensor.
        NotImplementedError: If ``obf_random_seed`` is given.
        ValueError: If an input's shape or dtype differs from the exported one.

    Differences from MindSpore: the graph is the StableHLO program cellax's
    :func:`cellax.export` wrote (see the "Deploy" guide), not MindSpore's MindIR; it runs on
    XLA with the parameter values stored in the file, as GraphCell's Parameters.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Conv2d(1, 1, kernel_size=3, weight_init="ones")
        >>> x = ms.Tensor(np.ones([1, 1, 3, 3]).astype(np.float32))
        >>> path = os.path.join(tempfile.mkdtemp(), "net")
        >>> ms.export(net, x, file_name=path, file_format="MINDIR")
        >>> graph = ms.load(path + ".mindir")
        >>> print(nn.GraphCell(graph)(x))
        [[[[4. 6. 4.]
           [6. 9. 6.]
           [4. 6. 4.]]]]
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=True)
        if obf_random_seed is not None:
            raise NotImplementedError(
                "For 'GraphCell', dynamic structure obfuscation is not supported: pass "
                "obf_random_seed=None."
            )
        if not isinstance(graph, FuncGraph):
            raise TypeError(
                "For 'GraphCell', the argument 'graph' must be a graph loaded by "
                f"cellax.load from a .mindir file, but got {type(graph).__name__}."
            )
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict) or not all(
            isinstance(k, str) and isinstance(v, Tensor) for k, v in params_init.items()
        ):
            raise TypeError(
                "For 'GraphCell', 'params_init' must be a dict of str to Tensor or Parameter, "
                f"but got {params_init!r:.80}."
            )
        unknown = sorted(set(params_init) - set(graph.params))
        if unknown:
            warnings.warn(
                f"For 'GraphCell', 'params_init' names {unknown}, which the graph does not "
                "have; they are skipped.",
                stacklevel=2,
            )
        self.graph = graph
        for name, value in graph.params.items():
            if name in params_init:
                value = np.asarray(params_init[name].asnumpy(), dtype=value.dtype)
            param = Parameter(Tensor(value), name=name)
            self.insert_param_to_cell(name, param, check_name_contain_dot=False)

    def construct(self, *inputs):
        params = {name: unwrap(getattr(self, name)) for name in self.graph.params}
        return self.graph.run(params, *inputs)
