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

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from ... import _parallel_state
from ..._tensor import Tensor, unwrap, wrap
from .layout import Layout
from .utils import arr

__all__ = [
    "move_to",
]

_MATMULS = ("MatMul", "BatchMatMul")


# ops whose same-rank inputs meet element by element: a dimension both inputs have (size > 1)
# must be split alike. Other multi-input ops (Gather's params and indices, Concat, ...) split
# their inputs independently.
_ELEMENTWISE = frozenset(
    "Add Sub Mul Div RealDiv DivNoNan FloorDiv FloorMod Mod TruncateDiv TruncateMod Maximum "
    "Minimum Pow SquaredDifference Atan2 Xdivy Xlogy Equal NotEqual Greater GreaterEqual Less "
    "LessEqual LogicalAnd LogicalOr LogicalXor BitwiseAnd BitwiseOr BitwiseXor Select "
    "AddN Addcdiv Addcmul".split()
)


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
    if api == "OneHot" and not is_layout:
        return positions, *_one_hot(attrs, in_strategy, inputs, shapes)
    shardings = [
        operand_sharding(api, s, shape, i) for i, (s, shape) in enumerate(zip(in_strategy, shapes))
    ]
    for index, (strategy, shape) in enumerate(zip(in_strategy, shapes)):
        if api not in _ELEMENTWISE or is_layout:
            break
        if index and len(shape) == len(shapes[0]):
            for dim, (a, b) in enumerate(zip(in_strategy[0], strategy)):
                if a != b and shapes[0][dim] > 1 and shape[dim] > 1:
                    raise ValueError(
                        f"For '{api}', dimension {dim} is split {a} ways in input 0 but {b} "
                        f"ways in input {index}: element-wise inputs must be split alike."
                    )
    return positions, shardings, None


def _one_hot(attrs: dict, in_strategy, inputs, shapes):
    """OneHot's strategy: the first entry splits the output (the indices' dims plus depth at
    ``axis``), the on/off values are scalars ``()``."""
    api, rank = "OneHot", len(shapes[0])
    strategy = in_strategy[0]
    if not isinstance(strategy, tuple) or len(strategy) != rank + 1:
        raise ValueError(
            f"For '{api}', the strategy of input 0 must split the output's {rank + 1} "
            f"dimension(s) (the indices' and depth), but got {strategy!r} for indices of shape "
            f"{shapes[0]}."
        )
    axis = attrs.get("axis", -1)
    depth_dim = axis if axis >= 0 else rank + 1 + axis
    depth = next((x for x in inputs if isinstance(x, int) and not isinstance(x, bool)), None)
    out_shape = list(shapes[0])
    out_shape.insert(depth_dim, depth if depth is not None else strategy[depth_dim])
    _check_dims(api, 0, strategy, out_shape)
    letters = [f"d{dim}" for dim in range(rank + 1)]
    mesh = _mesh(api, str(tuple(in_strategy)), list(strategy), letters)
    splits = dict(zip(letters, strategy))
    indices = NamedSharding(mesh, _spec(letters[:depth_dim] + letters[depth_dim + 1 :], splits))
    rest = [
        operand_sharding(api, s, shape, i + 1)
        for i, (s, shape) in enumerate(zip(in_strategy[1:], shapes[1:]))
    ]
    return [indices, *rest], NamedSharding(mesh, _spec(letters, splits))


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
