"""MindSpore strategies and Layouts as JAX shardings (docs/distributed.md, "the strategy rule").

A strategy gives the number of slices of each tensor dimension. An operator's device matrix
is the slice counts of its index letters in order of first appearance (MatMul ``(m,k)·(k,n)``
with ``((a,b),(b,c))`` -> ``[a, b, c]``); when its product is below the device count the
repeat factor goes on the right and ranks fill the matrix row-major. In JAX that is a Mesh
of that shape (``Auto`` axes) and one PartitionSpec per operand, applied with
``with_sharding_constraint`` to the op's inputs and output while tracing; XLA inserts the
collectives (a split contracted dimension becomes an all-reduce). Unannotated ops follow by
sharding propagation. cellax checks every strategy itself: XLA would silently pick another
layout for an invalid one.
"""

from __future__ import annotations

import math
import warnings

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from .. import _parallel_state
from .._tensor import Tensor, unwrap, wrap

__all__: list = []

_MATMULS = ("MatMul", "BatchMatMul")


class Layout:
    """A device matrix with named axes; ``layout("dp", "mp")`` maps tensor dims onto them.

    Args:
        device_matrix (tuple[int]): The shape of the device matrix.
        alias_name (tuple[str]): One name per device-matrix axis.
        rank_list (list[int]): The devices, in matrix order. Default: ``None`` (all, in order).

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If the names repeat, ``"None"`` names an axis, or lengths differ.

    Examples:
        >>> from cellax.parallel import Layout
        >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
        >>> layout("dp", "mp").to_dict()["tensor_map"]
        (2, 0)
        >>> layout(("dp", "sp"), "None").to_dict()["tensor_map"]
        ((2, 1), -1)
    """

    def __init__(self, device_matrix, alias_name, rank_list=None) -> None:
        if not isinstance(device_matrix, tuple) or not all(
            isinstance(d, int) and d > 0 for d in device_matrix
        ):
            raise TypeError(
                f"For 'Layout', 'device_matrix' must be a tuple of positive ints, but got "
                f"{device_matrix!r}."
            )
        if not isinstance(alias_name, tuple) or not all(isinstance(a, str) for a in alias_name):
            raise TypeError(
                f"For 'Layout', 'alias_name' must be a tuple of str, but got {alias_name!r}."
            )
        if len(alias_name) != len(device_matrix):
            raise ValueError(
                f"For 'Layout', 'alias_name' {alias_name} must have one name per "
                f"device-matrix axis {device_matrix}."
            )
        if len(set(alias_name)) != len(alias_name) or "None" in alias_name:
            raise ValueError(
                f"For 'Layout', 'alias_name' must be distinct and not 'None', but got {alias_name}."
            )
        size = math.prod(device_matrix)
        if rank_list is None:
            rank_list = list(range(size))
        if len(rank_list) != size or sorted(rank_list) != sorted(set(rank_list)):
            raise ValueError(
                f"For 'Layout', 'rank_list' must hold {size} distinct ranks, but got {rank_list}."
            )
        if "interleaved_parallel" in alias_name:
            warnings.warn(
                "For 'Layout', 'interleaved_parallel' (micro-interleaving of a dimension) has "
                "no JAX counterpart: that axis is treated as an ordinary device axis.",
                UserWarning,
                stacklevel=2,
            )
        self._device_matrix = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(rank_list)
        self._tensor_map = None
        self._dims = None

    def __call__(self, *tensor_map):
        layout = object.__new__(Layout)
        layout.__dict__.update(self.__dict__)
        dims, mapped = [], []
        for entry in tensor_map:
            names = entry if isinstance(entry, tuple) else (entry,)
            axes = []
            for name in names:
                if name == "None":
                    continue
                if name not in self._alias_name:
                    raise ValueError(f"The axis {name} is not found in {self._alias_name}")
                if name in mapped:
                    raise ValueError(
                        f"The axis {name} has been set more than one in {self._alias_name}"
                    )
                mapped.append(name)
                axes.append(name)
            dims.append(tuple(axes))
        layout._dims = dims
        right = len(self._alias_name) - 1
        index = {name: right - i for i, name in enumerate(self._alias_name)}
        layout._tensor_map = tuple(
            tuple(index[a] for a in entry if a != "None")
            if isinstance(entry, tuple)
            else -1
            if entry == "None"
            else index[entry]
            for entry in tensor_map
        )
        return layout

    def to_dict(self) -> dict:
        """``device_matrix``, ``tensor_map``, ``interleaved_parallel``, ``alias_name``,
        ``rank_list`` (MindSpore's dict).

        Raises:
            ValueError: If the layout was not called with a tensor map.
        """
        if self._tensor_map is None:
            raise ValueError("For 'Layout.to_dict', call the layout with a tensor map first.")
        return {
            "device_matrix": self._device_matrix,
            "tensor_map": self._tensor_map,
            "interleaved_parallel": "interleaved_parallel" in self._alias_name,
            "alias_name": self._alias_name,
            "rank_list": list(self._rank_list),
        }

    def _repr_dict(self) -> dict:
        info = self.to_dict()
        del info["rank_list"]
        return info

    def sharding(self, api: str, shape) -> NamedSharding:
        """The NamedSharding of a tensor of ``shape`` under this layout (checked)."""
        if self._dims is None:
            raise ValueError(f"For '{api}', a Layout must be called with a tensor map.")
        if len(self._dims) != len(shape):
            raise ValueError(
                f"For '{api}', the layout maps {len(self._dims)} dimension(s), but the tensor "
                f"has shape {tuple(shape)}."
            )
        sizes = dict(zip(self._alias_name, self._device_matrix))
        for dim, (axes, n) in enumerate(zip(self._dims, shape)):
            split = math.prod(sizes[a] for a in axes)
            if n % split:
                raise ValueError(
                    f"For '{api}', dimension {dim} (size {n}) can not be split into {split} "
                    f"slices by the layout axes {axes}."
                )
        count = jax.device_count()
        if len(self._rank_list) != count:
            raise ValueError(
                f"For '{api}', the layout's device matrix {self._device_matrix} has "
                f"{len(self._rank_list)} devices, but the job has {count}."
            )
        devices = np.array(jax.devices(), dtype=object)[self._rank_list]
        mesh = jax.sharding.Mesh(
            devices.reshape(self._device_matrix),
            self._alias_name,
            axis_types=(jax.sharding.AxisType.Auto,) * len(self._alias_name),
        )
        spec = [None if not axes else axes[0] if len(axes) == 1 else axes for axes in self._dims]
        return NamedSharding(mesh, PartitionSpec(*spec))


def _mesh(api: str, strategy_text: str, matrix: list, names: list):
    count = jax.device_count()
    total = math.prod(matrix)
    if count % total:
        raise ValueError(
            f"For '{api}', the strategy {strategy_text} needs a device matrix {matrix} of "
            f"{total} devices, which does not divide the {count} devices of the job."
        )
    if count > total:
        matrix, names = list(matrix) + [count // total], list(names) + ["rep"]
    return _parallel_state.world_mesh(tuple(matrix), tuple(names))


def _check_dims(api: str, index: int, strategy, shape) -> None:
    if not isinstance(strategy, tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in strategy
    ):
        raise ValueError(
            f"For '{api}', the strategy of input {index} must be a tuple of positive ints, but "
            f"got {strategy!r}."
        )
    if len(strategy) != len(shape):
        raise ValueError(
            f"For '{api}', the strategy of input {index} {strategy} has {len(strategy)} "
            f"dimension(s), but the input has shape {tuple(shape)}."
        )
    for dim, (split, n) in enumerate(zip(strategy, shape)):
        if n % split:
            raise ValueError(
                f"For '{api}', dimension {dim} of input {index} (size {n}) can not be split "
                f"into {split} slices (strategy {strategy})."
            )


def _spec(letters, splits) -> PartitionSpec:
    return PartitionSpec(*[l if splits[l] > 1 else None for l in letters])  # noqa: E741


def _matmul(api: str, attrs: dict, strategies, shapes):
    """Shardings of (a, b) and of the output of a (Batch)MatMul strategy."""
    (sa, sb), (ra, rb) = strategies, (len(shapes[0]), len(shapes[1]))
    batch = [f"b{i}" for i in range(max(ra, rb) - 2)]
    la = batch[len(batch) - (ra - 2) :] + (["k", "m"] if attrs.get("transpose_a") else ["m", "k"])
    lb = batch[len(batch) - (rb - 2) :] + (["n", "k"] if attrs.get("transpose_b") else ["k", "n"])
    splits: dict = {}
    for index, (letters, strategy) in enumerate(((la, sa), (lb, sb))):
        for dim, (letter, split) in enumerate(zip(letters, strategy)):
            if splits.setdefault(letter, split) != split:
                what = "contracted dimension" if letter == "k" else f"dimension '{letter}'"
                raise ValueError(
                    f"For '{api}', the {what} is split {splits[letter]} ways by one input but "
                    f"{split} ways by input {index} (dimension {dim}); the strategies "
                    f"{tuple(strategies)} must split shared dimensions alike."
                )
    order = list(dict.fromkeys(la + lb))
    mesh = _mesh(api, str(tuple(strategies)), [splits[l] for l in order], order)  # noqa: E741
    out = batch + ["m", "n"]
    return [NamedSharding(mesh, _spec(la, splits)), NamedSharding(mesh, _spec(lb, splits))], (
        NamedSharding(mesh, _spec(out, splits))
    )


def operand_sharding(api: str, strategy, shape, index: int = 0) -> NamedSharding:
    """The sharding of one operand with its own device matrix (its strategy)."""
    if isinstance(strategy, Layout):
        return strategy.sharding(api, shape)
    _check_dims(api, index, strategy, shape)
    if not strategy:
        return NamedSharding(_parallel_state.world_mesh(), PartitionSpec())
    letters = [f"d{dim}" for dim in range(len(strategy))]
    mesh = _mesh(api, str(strategy), list(strategy), letters)
    return NamedSharding(mesh, _spec(letters, dict(zip(letters, strategy))))


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "shape") and hasattr(x, "dtype")


def constrain(value, sharding):
    """``with_sharding_constraint`` on a Tensor (returns a Tensor)."""
    return wrap(jax.lax.with_sharding_constraint(unwrap(value), sharding))


def input_shardings(api: str, attrs: dict, in_strategy, inputs):
    """(positions of the tensor inputs, their shardings, the output sharding or None)."""
    positions = [i for i, x in enumerate(inputs) if _is_tensor(x)]
    shapes = [tuple(np.shape(unwrap(inputs[i]))) for i in positions]
    if len(in_strategy) != len(positions):
        raise ValueError(
            f"For '{api}', 'in_strategy' has {len(in_strategy)} entries, but the operator got "
            f"{len(positions)} tensor input(s)."
        )
    is_layout = any(isinstance(s, Layout) for s in in_strategy)
    if api in _MATMULS and len(positions) == 2 and not is_layout:
        for index, (strategy, shape) in enumerate(zip(in_strategy, shapes)):
            _check_dims(api, index, strategy, shape)
        shardings, out = _matmul(api, attrs, in_strategy, shapes)
        return positions, shardings, out
    shardings = [
        operand_sharding(api, s, shape, i) for i, (s, shape) in enumerate(zip(in_strategy, shapes))
    ]
    for index, (strategy, shape) in enumerate(zip(in_strategy, shapes)):
        if index and not is_layout and len(shape) == len(shapes[0]):
            for dim, (a, b) in enumerate(zip(in_strategy[0], strategy)):
                if a != b and shapes[0][dim] > 1 and shape[dim] > 1:
                    raise ValueError(
                        f"For '{api}', dimension {dim} is split {a} ways in input 0 but {b} "
                        f"ways in input {index}: element-wise inputs must be split alike."
                    )
    return positions, shardings, None


def apply_strategy(prim, call, inputs):
    """Run ``call(*inputs)`` with ``prim``'s in/out strategies as sharding constraints."""
    api = prim.name
    attrs = prim.attrs
    in_strategy = attrs.get("in_strategy", attrs.get("in_layout"))
    out_strategy = attrs.get("out_strategy", attrs.get("out_layout"))
    inputs = list(inputs)
    out_sharding = None
    first = None
    if in_strategy is not None:
        positions, shardings, out_sharding = input_shardings(api, attrs, in_strategy, inputs)
        for pos, sharding in zip(positions, shardings):
            inputs[pos] = constrain(inputs[pos], sharding)
        if positions:
            first = (np.shape(unwrap(inputs[positions[0]])), shardings[0])
    out = call(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    if out_strategy is not None:
        if len(out_strategy) != len(outs):
            raise ValueError(
                f"For '{api}', 'out_strategy' has {len(out_strategy)} entries, but the operator "
                f"has {len(outs)} output(s)."
            )
        outs = tuple(
            constrain(o, operand_sharding(api, s, np.shape(unwrap(o)), i))
            for i, (o, s) in enumerate(zip(outs, out_strategy))
        )
    elif out_sharding is not None and len(outs) == 1:
        outs = (constrain(outs[0], out_sharding),)
    elif first is not None and len(outs) == 1 and np.shape(unwrap(outs[0])) == first[0]:
        outs = (constrain(outs[0], first[1]),)  # element-wise: the output follows input 0
    return outs if isinstance(out, tuple) else outs[0]


def sharded_class(cls):
    """A subclass of the Primitive class ``cls`` whose calls apply its strategies."""
    cached = cls.__dict__.get("_cellax_sharded")
    if cached is not None:
        return cached
    base_call = cls.__call__

    def __call__(self, *inputs):
        if not _parallel_state.global_view():
            return base_call(self, *inputs)
        return apply_strategy(self, lambda *xs: base_call(self, *xs), inputs)

    sub = type(cls.__name__, (cls,), {"__call__": __call__, "__module__": cls.__module__})
    sub.__qualname__ = cls.__qualname__
    sub._cellax_sharded = sub
    cls._cellax_sharded = sub
    return sub
